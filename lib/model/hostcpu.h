/*
 * Host CPU samples of minddata_cpu_utilization_<d>.json (ascend.md §2.11):
 * the one place that reads them back from the model and derives figures
 * from them. Every consumer goes through here, so a quantity has the same
 * value everywhere: the CPU rows and the Host CPU table of `summary --view
 * device` (summary.md §3.1), the op CPU of `proftool dataset` (ascend.md
 * §3.11) and the MD_CPU_BUSY, MD_OP_CPU and MD_BOTTLENECK_OP rules of
 * hints.md, which read dataset's figures.
 *
 * The importer stores each series as a PT_TRACK_COUNTER track of the device
 * ("md_cpu:device.<metric>", "md_cpu:process.<metric>",
 * "md_cpu:op.<id>.<metric>", model.h); sample times are the file's
 * time_stamp[] in the host steady clock (ms × 10^6), else index × interval.
 *
 * Means are per series over that series' own samples in a set (a series
 * whose value was not numeric lost that sample at import), and the sample
 * count of a set is the largest count of any system or process series in it.
 */
#ifndef PT_HOSTCPU_H
#define PT_HOSTCPU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_model;

/* Clock domain of MindData timestamps (ascend.md §2.11). */
#define PT_CLOCK_HOST_STEADY "host-steady-ms"

enum pt_hostcpu_metric {
	PT_HC_USER,      /* device_info.user_utilization, % */
	PT_HC_SYS,       /* device_info.sys_utilization, % */
	PT_HC_IO,        /* device_info.io_utilization (I/O wait), % */
	PT_HC_IDLE,      /* device_info.idle_utilization, % */
	PT_HC_RUNABLE,   /* device_info.runable_processes, a count */
	PT_HC_CTX,       /* device_info.context_switch_count, a count per sample */
	PT_HC_PROC_USER, /* process_info.user_utilization, % */
	PT_HC_PROC_SYS,  /* process_info.sys_utilization, % */
	PT_HC__N,
};

struct pt_hostcpu_series {
	size_t n;
	int64_t *time; /* host steady ns */
	double *value;
};

/* CPU series of one pipeline op (op_info entry); op id -1 is never kept. */
struct pt_hostcpu_op {
	int64_t op_id;
	struct pt_hostcpu_series user, sys;
};

struct pt_hostcpu {
	uint32_t device;                        /* device index */
	struct pt_hostcpu_series s[PT_HC__N];   /* system and process series */
	struct pt_hostcpu_op *ops;              /* in track order */
	size_t nops;
	bool any;                               /* some md_cpu track exists */
	bool host;                              /* some system or process track exists */
};

/* Read the series of device index dev. Returns h->any. Free with pt_hostcpu_free. */
bool pt_hostcpu_load(const struct pt_model *m, uint32_t dev, struct pt_hostcpu *h);
void pt_hostcpu_free(struct pt_hostcpu *h);

/* Sums over a set of samples, per metric. */
struct pt_hostcpu_acc {
	int64_t n[PT_HC__N];
	double sum[PT_HC__N];
};

void pt_hostcpu_acc_add(struct pt_hostcpu_acc *a, int metric, double v);
void pt_hostcpu_acc_merge(struct pt_hostcpu_acc *a, const struct pt_hostcpu_acc *b);
/* Every sample of every system and process series. */
void pt_hostcpu_total(const struct pt_hostcpu *h, struct pt_hostcpu_acc *a);
/* Largest sample count among the system and process series. */
int64_t pt_hostcpu_samples(const struct pt_hostcpu_acc *a);
/* Mean of one metric; false when the set has no sample of it. */
bool pt_hostcpu_mean(const struct pt_hostcpu_acc *a, int metric, double *out);
/* Σ of the context-switch counts rounded to an integer; false without samples. */
bool pt_hostcpu_ctx_switches(const struct pt_hostcpu_acc *a, int64_t *out);
/* CPU(Process) of summary.md §3.1: mean process user + mean process system
 * (a missing series counts 0); false when neither has a sample. */
bool pt_hostcpu_process_pct(const struct pt_hostcpu_acc *a, double *out);
/* CPU(System): 100 − mean idle − mean I/O wait (I/O wait is idle time; a
 * missing I/O series counts 0); false without idle samples. */
bool pt_hostcpu_system_pct(const struct pt_hostcpu_acc *a, double *out);
/* Host busy of MD_CPU_BUSY (hints.md): 100 − mean idle; false without idle samples. */
bool pt_hostcpu_busy_pct(const struct pt_hostcpu_acc *a, double *out);

/*
 * CPU% of a pipeline op (ascend.md §3.11): the mean over samples of user +
 * sys, samples paired by position; when one series is shorter the extra
 * samples of the other are left out, when one is missing the other alone
 * counts. False when the op has no CPU entry or no sample.
 */
bool pt_hostcpu_op_cpu(const struct pt_hostcpu *h, int64_t op_id, double *pct, int64_t *samples, double *sum);

/* The CPU series of op op_id, NULL when the CPU file has no entry for it. */
const struct pt_hostcpu_op *pt_hostcpu_find_op(const struct pt_hostcpu *h, int64_t op_id);
/*
 * The samples of an op as pt_hostcpu_op_cpu() pairs them: their number, and
 * sample j's time (the user series' time, the system series' when the user
 * series is missing) and values (*has_user / *has_sys false when that series
 * is missing; the value then counts 0 in user + sys).
 */
size_t pt_hostcpu_op_samples(const struct pt_hostcpu_op *o);
void pt_hostcpu_op_sample(const struct pt_hostcpu_op *o, size_t j, int64_t *t, bool *has_user, double *user,
			  bool *has_sys, double *sys);

/*
 * Placing samples in steps (summary.md §3.1):
 *  1. PT_HC_RULE_OFFSET: the device records an offset (directly or through
 *     other clock domains) between PT_CLOCK_HOST_STEADY and the device's own
 *     clock, the clock of its step windows: a sample belongs to the step
 *     whose window contains its time converted to that clock;
 *  2. PT_HC_RULE_QUEUE: else, when the device has host connector records
 *     (type 1) with timestamps (the device-queue file; the iterator file when
 *     the device-queue file has none): the step numbered like the batch of the
 *     latest record with timestamp ≤ the sample's (ties of equal timestamps:
 *     the later record in file order); a sample earlier than every record
 *     belongs to no step (MindInsight puts it in the first record's step);
 *  3. PT_HC_RULE_NONE: else samples are in no step; also whenever some
 *     sample of the device had no time_stamp (the device's stat
 *     "minddata.cpu.unstamped"): its time is index × interval, not a time of
 *     the host steady clock.
 */
enum pt_hostcpu_rule { PT_HC_RULE_NONE = 0, PT_HC_RULE_OFFSET = 1, PT_HC_RULE_QUEUE = 2 };

struct pt_hostcpu_step {
	int64_t num;  /* step number */
	int64_t s, e; /* window [s, e) in the device clock; windows disjoint, in start order */
};

struct pt_hostcpu_num {
	int64_t num;
	size_t idx;
};

struct pt_hostcpu_place {
	enum pt_hostcpu_rule rule;
	int64_t offset;                      /* rule 1: device clock = sample time + offset */
	const struct pt_hostcpu_step *steps;
	size_t nsteps;
	int64_t *rt, *rb;                    /* rule 2: record times (ascending) and batches */
	size_t nr;
	struct pt_hostcpu_num *by_num;       /* rule 2: steps sorted by number (first of equal numbers) */
};

/*
 * The step windows of Ascend device index dev, as the device view of
 * `summary` builds them (summary.md §2.1): the step-trace steps of the device
 * with a start and an end (start <= end), ordered by start (then end), a
 * window that reaches into the next one cut at the next one's start. Returns
 * their number; *out is malloc'd (free it), NULL when there is none.
 */
size_t pt_hostcpu_ascend_steps(const struct pt_model *m, uint32_t dev, struct pt_hostcpu_step **out);

/* steps may be NULL when n is 0; the array must outlive p. */
void pt_hostcpu_place_init(struct pt_hostcpu_place *p, const struct pt_model *m, uint32_t dev,
			   const struct pt_hostcpu_step *steps, size_t n);
/* Index into steps of the step of a sample at time t, -1 = none. */
int64_t pt_hostcpu_place_step(const struct pt_hostcpu_place *p, int64_t t);
void pt_hostcpu_place_free(struct pt_hostcpu_place *p);

#endif
