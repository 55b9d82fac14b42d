/*
 * The MindData figures per device (dataset-figures.c; ascend.md §3.11): the
 * collapsed pipeline tree, queue usage, CPU per worker, the two bottleneck
 * filters and the queue verdict. `proftool dataset` prints them; the MD_*
 * hint rules (lib/pass/hints/rules-md.c) read them.
 */
#ifndef PT_PASS_DATASET_FIGURES_H
#define PT_PASS_DATASET_FIGURES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/hostcpu.h"
#include "pass/pass-dataset.h"
#include "support/vec.h"

struct pt_err;
struct pt_md_op;
struct pt_model;

/* A growing string. */
struct pt_ds_sb {
	char *s;
	size_t n, cap;
};
void pt_ds_sb_printf(struct pt_ds_sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Evidence pairs key=value, ';'-separated; values escaped (\ ; =). */
void pt_ds_ev_i(struct pt_ds_sb *b, const char *key, int64_t v);
void pt_ds_ev_s(struct pt_ds_sb *b, const char *key, const char *v);
/* A number: whole as an integer, else with four decimals. */
void pt_ds_ev_d(struct pt_ds_sb *b, const char *key, double v);

struct pt_ds_op {
	const struct pt_md_op *md;
	const char *type;
	size_t disp_len;
	bool kept;           /* not collapsed */
	size_t parent;       /* kept parent index + 1, 0 = root */
	PT_VEC(size_t) kids; /* kept children (indexes), listed order */
	/* queue */
	int64_t samples, size_sum, empty;
	struct pt_ds_sb sizes;
	bool has_usage;
	double avg, usage;
	/* input queue (first kept child) */
	bool has_in;
	double in_usage;
	/* cpu */
	bool has_cpu;
	int64_t cpu_samples;
	double cpu_sum, cpu_pct, cpw;
	bool has_cpw;
	/* rules */
	bool queue_flag;
	const char *queue_reason; /* child_gap, low_leaf, bottleneck, all_low, all_high */
	double max_child;
	bool has_max_child;
	int cpu_rule;             /* -1 not judged, 0 no, 1 yes, 2 primary */
	const char *cpu_reason;
};

struct pt_ds_host {
	bool present;
	int source;               /* enum pt_md_file */
	int64_t samples, empty, full, capacity;
};

struct pt_ds_getnext {
	bool present;
	int64_t samples, empty, wait_sum, wait_max, waits;
};

struct pt_ds_dev {
	uint32_t index;
	uint32_t id;
	struct pt_ds_op *ops;
	size_t nops;
	size_t root;
	bool has_pipeline;
	size_t *bfs;
	size_t nbfs;
	struct pt_ds_host host;
	struct pt_ds_getnext gn;
	/* verdict */
	const char *st[3];       /* data_processing, host_to_device, device_fetch */
	const char *verdict;
	const char *mi[4];
	/* host CPU */
	bool has_idle;              /* host idle samples exist */
	struct pt_hostcpu_acc cpu;  /* every host CPU sample (model/hostcpu.h) */
};

/* Effective thresholds of the selected rule sets. */
double pt_dataset_pl_low(const struct pt_dataset_knobs *k);
double pt_dataset_queue_pct(const struct pt_dataset_knobs *k);
/* Is the op's display name (its type minus "Op") name? */
bool pt_ds_disp_is(const struct pt_ds_op *o, const char *name);
/* Ops the CPU-aware rules leave out (Barrier, Concat, ...). */
bool pt_ds_is_exempt(const struct pt_ds_op *o);

/*
 * The figures of the devices with MindData or get_next data, in device-id
 * order; device: a device id to keep, -1 = all. Fails when a pipeline tree
 * is not a tree. Free with pt_dataset_figures_free (also after a failure).
 */
int pt_dataset_figures(const struct pt_model *m, int64_t device, const struct pt_dataset_knobs *k,
		       struct pt_ds_dev **out, size_t *nout, struct pt_err **e);
void pt_dataset_figures_free(struct pt_ds_dev *devs, size_t n);
void pt_ds_dev_free(struct pt_ds_dev *d);

#endif
