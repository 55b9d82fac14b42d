/*
 * Inside the hints pass (hints.md §3): the rule table, the context the rules
 * share, and the figures the driver measures once for the rules to read.
 *
 *   rules.c          the rule table {id, doc, stages, function, knobs}, the knobs, --explain
 *   driver.c         pt_pass_hints(): the figures, then each stage's rules in table order
 *   util.c           helpers of the rules (names, named lists, records)
 *   rules-device.c   per device: time breakdown, launch pairs, ops, FLOPs
 *   rules-rank.c     per rank: steps, memory, Tensor Cores, DataParallel
 *   rules-cluster.c  across ranks: spread, pipeline stages, links
 *   rules-md.c       MindData (the figures of dataset-figures.c, dataset-figures.h)
 *   stream.c         the figures of an Ascend .ptm read as a stream
 *   gstream.c        the figures of a GPU .ptm of one process read as a stream
 *   gops.c           its PyTorch Operator ranges as the rules read them through the launch links
 *
 * Adding a rule: an id in pass-hints.h (its place is the output order), a
 * row in rules.c, a function in the rules file of its stage.
 */
#ifndef PT_PASS_HINTS_INT_H
#define PT_PASS_HINTS_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/hccl-links.h"
#include "pass/flops-common.h"
#include "pass/pass-hints.h"
#include "pass/pass-steps.h"
#include "support/bits.h"
#include "support/hashmap.h"
#include "support/interval.h"

struct pt_err;
struct pt_index;
struct pt_model;
struct pt_ds_dev;
struct pt_table;

/* ---- stages and the rule table ---------------------------------------------------- */

/*
 * When a rule runs. Per rank: RANK_PRE, then DEVICE for each covered device,
 * RANK_DEVICES, LAUNCH for each device, RANK; then CLUSTER once over every
 * rank, then MINDDATA. Within a stage the rules run in table order (the
 * order of enum pt_hint_rule), each only when enabled.
 */
enum hstage { HS_RANK_PRE, HS_DEVICE, HS_RANK_DEVICES, HS_LAUNCH, HS_RANK, HS_CLUSTER, HS_MINDDATA };
#define HS(s) (1u << (s))

struct ctx;
struct hsite;
typedef void hint_rule_fn(struct ctx *c, const struct hsite *s);

struct hint_rule {
	const char *id;
	/* the doc of --explain (hints.md §3) */
	const char *source, *input, *condition, *message, *evidence, *gates;
	const char *keys; /* knobs: space-separated keys of hints.md §5 */
	unsigned stages;  /* HS() bits */
	hint_rule_fn *fn;
};
extern const struct hint_rule pt_hint_rules[PT_HR__N];

/* ---- shared state ------------------------------------------------------------------- */

enum { ST_NONE = 0, ST_EVAL = 1, ST_NE = 2, ST_DIS = 3 };
enum { RT_NCOL = 9 };

/* Per rank: rule states and the figures rules of other stages read. */
struct rk {
	int64_t rank;
	uint8_t st[PT_HR__N];
	bool fired[PT_HR__N];
	bool has_gap;
	double mean_gap; /* STEP_GAP metric, for RANK_STEP_GAP */
	bool seen;       /* a rank of the step windows (not MindData only) */
	double flops;    /* Σ FLOPs of K over its devices (LOW_FLOPS_UTIL), for RANK_FLOPS and PP_STAGE_FLOPS */
	int64_t flops_busy;
	bool has_flops;
	size_t nsteps;   /* windows evaluated (kept steps, or the span) */
	bool has_hccl;   /* HCCL trace events on one of its devices (SLOW_LINK) */
};

/* A row of the rank table (RANK_SPREAD): per covered (rank, device). */
struct rt {
	int64_t rank;
	uint32_t dev;
	double col[RT_NCOL];
	bool has_rv;          /* receive ops on the device */
	int64_t rv_alone;     /* Σ |(Rv − C) ∩ S| (PP_RECEIVE) */
	int64_t cnox;         /* Σ comm_not_overlapped_excl_receive (PP_STAGE_COMM) */
	int64_t step;         /* Σ |S| */
};

/* An event and the range of its first link that has one (hx_link_range). */
struct hx_link {
	uint32_t ev, range;
};

struct ctx {
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_hint_knobs *k;
	const struct pt_hints_opts *o;
	struct pt_hints *h;
	const struct pt_steps_info *si;
	int64_t sel_device;         /* --device, -1 = all */
	struct rk *rk;
	size_t nrk;
	struct pt_flops_opfig *fig; /* per-execution FLOPs of the ops */
	struct pt_flops_range *gr;  /* GPU: PyTorch operator ranges with their FLOPs */
	size_t ngr;
	uint32_t *kr;               /* per event: the range (index + 1) a kernel's innermost range is, 0 none */
	struct hx_link *lr;         /* per linked event, by event: the range of its first link that has one */
	size_t nlr;                 /* (hx_link_range, lazily; lr_done marks it built) */
	bool lr_done;
	bool filtered;              /* --steps or --time-window: HCCL executions count when they start in W */
	struct pt_hccl_link *links; /* HCCL links of every device (ascend.md §3.10) */
	size_t nlinks, caplinks;
	char **dm;                  /* demangled names by string id (lazy; dm_done marks computed) */
	uint8_t *dm_done;
	char **an;                  /* API output names by string id (lazy; NULL: the name as recorded) */
	struct rt *rt;              /* the rank table */
	size_t nrt, capt;
	bool any_rv;                /* CLUSTER: receive ops on some device */
	struct pt_ds_dev *mdv;      /* MINDDATA: the figures of pt_dataset_figures() */
	size_t nmd;
	size_t md_nrk;              /* MINDDATA: ranks known before its records */
	struct hx_sdev *sdev;       /* streamed (stream.c): per device its figures; NULL: the events are in m */
	struct hx_srank *srank;     /* streamed GPU ranks (gstream.c): per rank of si */
	struct hx_mempeak *gmem;    /* streamed GPU models: per device its memory records' peak (hx_gmem_measure) */
	struct hx_amem *amem;       /* streamed Ascend models: per device the time of its memory peak node */
};

/* The first start of the executions of an Ascend device's memory peak node (pt_amem_node_start). */
struct hx_amem {
	int64_t t;
	bool found;
};

/* MEMORY_NEAR_CAPACITY's figures of a GPU device: records, and the device group's peak allocation. */
struct hx_mempeak {
	int64_t peak, time;
	bool any, recs;
};
/* Those of every device of m (out: m->devices.n, zeroed), before its memory records go. */
void hx_gmem_measure(const struct pt_model *m, struct hx_mempeak *out);

/* ---- figures --------------------------------------------------------------------------- */

/* STEP_GAP's measure of a rank (also the input of RANK_STEP_GAP). */
struct gapfig {
	enum { GAP_OK, GAP_FEW_STEPS, GAP_NONE } status;
	size_t kept;
	__int128 sum;
	int64_t gaps, maxg, maxstep;
};

struct lowutil {
	uint32_t dev, id;
	int64_t busy, window;
};

/* Host range names of a rank (USE_DDP, DDP_WITHOUT_NCCL), measured once. */
struct ddpfig {
	bool done;
	int64_t dp, ddp, active;
	bool nccl;
	uint32_t cc;
};

struct rankdata {
	const struct pt_rank_steps *r;
	const struct pt_anchor_map *am; /* GPU ranks */
	struct pt_anchor_map *am_own;   /* am when built here (the steps did not keep one) */
	struct pt_ivset W;
	struct pt_ival *win;        /* windows evaluated (kept steps, or the span) */
	int64_t *winnum;            /* their step numbers (-1 for the span) */
	size_t nwin;
	bool steps;                 /* windows are steps */
	bool win_apart;             /* each window ends before the next starts */
	struct pt_ivset D, H;       /* Dataloader ranges, other host ranges */
	int64_t loader_wall;        /* Σ wall time of member Dataloader ranges */
	bool has_loader;
	struct gapfig gap;
	struct lowutil *lu;         /* LOW_DEVICE_UTIL: devices below the threshold */
	size_t nlu;
	struct ddpfig ddp;
	int64_t last2[2];           /* member activities anchored in the last two windows (TRUNCATED_LAST_STEP) */
};

/* Named totals, kept in first-seen order then sorted for output. `at` finds
 * an entry in constant time (a model may have millions of distinct names):
 * nl_get keys it by the name's string id, nl_get_api by a hash of the API
 * output name. A list is used with one of the two only. */
struct named {
	uint32_t name;
	int64_t a, b; /* time / count */
};

struct nlist {
	struct named *v;
	size_t n, cap;
	struct pt_hashmap at; /* key -> index in v */
};

/* A member memory operation and its exposed time (MEM_OPS_CRITICAL): what the rule prints of it. */
struct memop {
	size_t ev;        /* its event index (the file's): the order of equal exposed times */
	int64_t exposed;
	const char *kind;
	uint32_t name;    /* its name, and its launching call's name (when has_call) */
	uint32_t call;
	bool has_call;
	bool set;         /* a memset (else a memcpy) */
	int64_t start, dur;
	uint64_t bytes;   /* its copy info's bytes, 0 none */
};

/* Where a memory operation comes in MEM_OPS_CRITICAL's list: the in-memory list's index (w), else
 * the first window it meets, its start and its event. */
struct hx_mkey {
	uint64_t w;
	int64_t start;
	uint64_t ev;
};

/* A kind of memory operation: its exposed time, its first operation's place. */
struct hx_mkind {
	const char *kind;
	int64_t t;
	struct hx_mkey first;
};

/* MEM_OPS_CRITICAL's figures of the operations with exposed time (mfold.c). */
struct hx_mfold {
	int64_t nexp;          /* operations with exposed time */
	struct hx_mkind *kinds;
	size_t nk, ck;
	struct memop top[3];   /* the most exposed time first, equal times by event */
	size_t ntop;
};

/* p, whose exposed time is final (none: not counted), at place key. */
void hx_mfold_add(struct hx_mfold *f, const struct memop *p, struct hx_mkey key);
/* The list v[0..n) in its order. */
void hx_mfold_list(struct hx_mfold *f, const struct memop *v, size_t n);
/* The kinds in the order of their first operation. */
void hx_mfold_order(struct hx_mfold *f);
void hx_mfold_free(struct hx_mfold *f);

struct fexec {
	uint32_t type;
	uint32_t ev; /* the execution (its time is the event's) */
	uint64_t f;  /* FLOPs it contributes (GPU: a range's, on its first kernel) */
};

/* Time breakdown of a device over the windows (hints.md §2). */
struct devacc {
	int64_t step, comp, comm, ovl, cno, free, prep;
	int64_t bub, cnox, rva; /* bubble, comm_not_overlapped_excl_receive, |(Rv − C) ∩ S| */
	int64_t memcpy_t, memset_t, runtime_t, dl_t, cpu_t, other_t;
	int64_t worst_dl_step;
	double worst_dl_pct;
	bool has_worst;
	size_t nsteps;
};

/* An op type of K with its busy time |∪ K of the type ∩ W| and FLOPs (LOW_FLOPS_UTIL). */
struct hx_tfig {
	uint32_t type;
	int64_t busy;
	long double f;
};

/* DEVICE_IDLE's figures: the idle gaps W − busy, their classes (host_wait, kernel_wait, other). */
struct hx_idle {
	int64_t il, longest, cls[3], cnt[3];
};

/* Launch pairs of a device (hints.md §2.3) for the LAUNCH rules. */
struct launchdata {
	uint32_t dev, did;
	char scope[48];
	bool low_util;              /* LOW_DEVICE_UTIL fired for the device (G3) */
	int64_t qd_cut, rt_cut;
	int64_t *qd, *ld, *cpu;     /* queue delays, launch delays, call durations: sorted (none when streamed) */
	size_t n, nld, ncpu;
	int64_t qd_q[3], ld_q[3], cpu_q[3]; /* their p50, p99 and largest */
	int64_t qd_out, shortn, short_cpu, short_gpu, calls, rt_out, pairs;
	struct nlist qk, sk, ra;    /* outlier kernels, short kernels, slow APIs */
};

/* Values held for their p50, p99 and largest (qvals.c): sorted runs of varint differences. */
struct hx_qrun {
	size_t at, n; /* its first byte, its values */
};
struct hx_qvals {
	int64_t *buf;         /* the values not yet in a run */
	size_t nb;
	uint8_t *z;           /* the runs */
	size_t nz, cz;
	struct hx_qrun *run;
	size_t nrun, crun;
	size_t n;             /* values */
};
void hx_qvals_add(struct hx_qvals *q, int64_t v);
/* out: hx_pctile(v, n, 50), hx_pctile(v, n, 99) and v[n - 1] of the values sorted (0 when none); q is emptied. */
void hx_qvals_take(struct hx_qvals *q, int64_t out[3]);
void hx_qvals_free(struct hx_qvals *q);

/*
 * A covered device measured from a stream (stream.c): what the DEVICE rules
 * read of the events, summed as the events pass, in place of the member
 * activities and the index's interval sets.
 */
struct hx_sdev {
	bool measured;              /* a device of a rank with windows */
	size_t nacts;               /* member activities */
	struct devacc a;            /* the breakdown over the windows */
	int64_t last2[2];           /* member activities in the last two windows */
	int64_t ku_busy;            /* |(kernels ∪ tasks) ∩ W| (LOW_DEVICE_UTIL) */
	int64_t mw;                 /* Σ |M ∩ W| (COMM_EXPOSED) */
	bool has_rv;                /* receive ops on the device (PP_RECEIVE) */
	struct hx_idle idle;        /* DEVICE_IDLE */
	struct nlist ops, types;    /* TOP_OPS: time and count per op name and per type */
	int64_t T;
	size_t nk;                  /* K of LOW_FLOPS_UTIL: executions, FLOPs, busy time, per type */
	long double F;
	int64_t B;
	struct hx_tfig *tv;
	size_t ntv;
	/* a GPU device (gstream.c): what the rules read of the host's calls and the launches too */
	bool gpu;
	bool active;                /* any device activity (DDP_WITHOUT_NCCL) */
	bool has_mem;               /* member memcpy or memset */
	struct memop *mops;         /* member memory operations whose exposed time may still grow */
	size_t nmops;
	struct hx_mfold mf;         /* the others (MEM_OPS_CRITICAL) */
	struct nlist apis;          /* exposed runtime time per API (LAUNCH_BOUND) */
	int64_t un, uncnt, tot;     /* UNATTRIBUTED_DEVICE: member time without a call, their count, all */
	struct launchdata l;        /* the launch pairs (qd, ld, cpu unsorted until launch_measure) */
};

/* A GPU rank measured from a stream (gstream.c): what the RANK rules read of its member activities. */
struct hx_srank {
	int64_t *first, *last;      /* STEP_GAP: per window the first member start, the last member end */
	int64_t kern;               /* TENSOR_CORES_UNUSED: Σ duration of member kernels */
	bool any_kern;
	int64_t tc, by_op, elig;    /* ... of those of Tensor Cores, launched in an Operator range, in an eligible one */
	bool ops;                   /* a member kernel launched in an Operator range */
	bool has_loader;            /* INPUT_BOUND: Dataloader ranges that start in W, their wall time */
	int64_t loader_wall;
	struct ddpfig ddp;          /* USE_DDP, DDP_WITHOUT_NCCL: its host's ranges by name (dp, ddp, nccl; gddp.c) */
};

/* A covered device of a rank, measured once for the DEVICE rules. */
struct devdata {
	uint32_t dev, did;
	char scope[48];
	uint32_t *acts;             /* member activities: event indexes, by (start, index) */
	uint32_t *call;             /* GPU ranks: the launching call of each (event index + 1, 0 none) */
	size_t nacts;
	bool has_mem;               /* memcpy or memset among them */
	const struct pt_ivset *M, *Mc, *Ms;
	const struct pt_ivset *CM;  /* C ∪ M (the index's) */
	struct devacc a;
	int64_t steps;
	struct nlist apis;          /* exposed runtime time per API (LAUNCH_BOUND) */
	struct memop *mops;         /* exposed time per memory op (MEM_OPS_CRITICAL) */
	size_t nmops;
	struct hx_mfold mf;         /* what the rule reads of them, folded (has_mf: mops are none) */
	bool has_mf;
	const struct hx_sdev *sd;   /* streamed: the device's figures (acts, call, M, CM, Mc, Ms are then unset) */
	bool flops_done;            /* hx_flops_measure() ran: */
	struct fexec *kx;           /* K of LOW_FLOPS_UTIL, its FLOPs F and busy time B */
	size_t nk;
	long double F;
	int64_t B;
};

/* Where a rule runs: the stage and its rank / device. */
struct hsite {
	enum hstage stage;
	struct rankdata *rd;        /* rank stages */
	struct devdata *dd;         /* HS_DEVICE */
	struct launchdata *ld;      /* HS_LAUNCH */
};

/* ---- the driver (driver.c), shared with the streamed pass (stream.c) ----------------------- */

/* The rank's windows, W and host ranges (rd_free() frees them). */
void hx_rd_init(struct ctx *c, const struct pt_rank_steps *r, struct rankdata *rd);
void hx_rd_free(struct rankdata *rd);
/* The ranks of si (freed here), the cluster and MindData stages, the order of the records. c->fig, c->gr, c->kr
 * and everything the rules allocated in c are freed. */
int hx_drive(struct ctx *c, struct pt_steps_info *si, struct pt_err **e);
void hx_sdev_free(struct hx_sdev *sd);
/* The end of a streamed pass whose reads ended with rc: the rules over si (hx_drive, si freed) unless rc,
 * then c's device figures (nd devices) freed. */
struct pt_diag;
int hx_stream_end(struct ctx *c, struct pt_steps_info *si, size_t nd, int rc, struct pt_diag *d, struct pt_err **e);
/* The first window (index) that holds time a, SIZE_MAX if none (a binary search when the windows are
 * apart); with windows apart, the first whose end is after a (nwin if none). */
size_t hx_win_of(const struct rankdata *rd, int64_t a);
size_t hx_win_after(const struct rankdata *rd, int64_t a);
/* A streamed device's breakdown over the windows of rd (bd; rv: C and the receive ops when has_rv) added
 * to x, as device_measure() sums it without host ranges (other_t: the free time). */
struct pt_bdstream;
void hx_bd_sum(const struct rankdata *rd, const struct pt_bdstream *bd, const struct pt_bdstream *rv, bool has_rv,
	       struct devacc *x);
/* The same from the measures summed over the windows (windows apart: the unions' runs measured over W). */
struct pt_bdsums;
void hx_bd_sums(const struct rankdata *rd, const struct pt_bdsums *m4, const struct pt_bdsums *r4, bool has_rv,
		struct devacc *x);

/* The open interval of a union fed in start order (empty intervals dropped, touching ones joined, as
 * pt_ivset_append joins them): hx_u_add adds [s, e), true when that closes the open interval, then *cs, *ce. */
struct hx_openu {
	int64_t us, ue;
	bool open;
};

static inline bool hx_u_add(struct hx_openu *u, int64_t s, int64_t e, int64_t *cs, int64_t *ce)
{
	if (e <= s)
		return false;
	if (u->open && s <= u->ue) {
		if (e > u->ue)
			u->ue = e;
		return false;
	}
	bool had = u->open;
	*cs = u->us, *ce = u->ue;
	u->us = s, u->ue = e, u->open = true;
	return had;
}

static inline bool hx_u_end(struct hx_openu *u, int64_t *cs, int64_t *ce)
{
	*cs = u->us, *ce = u->ue;
	bool had = u->open;
	u->open = false;
	return had;
}

/* A device interval waiting in a stream's heap until the watermark passes its start: by (s, g). */
struct hx_item {
	int64_t s, e;
	uint64_t g;   /* its event index (the file's): equal starts leave in event order */
	uint32_t type; /* Ascend: its op type's index; GPU: its launching call's join slot */
	uint8_t fl;
};

struct hx_heap {
	struct hx_item *v;
	size_t n, cap;
};
void hx_heap_push(struct hx_heap *h, const struct hx_item *it);
struct hx_item hx_heap_pop(struct hx_heap *h);

/* A GPU .ptm of one process without PyTorch operator ranges, streamed (gstream.c): as pt_pass_hints_stream(). */
struct pt_ptm_source;
struct pt_sel;
/* Ascend devices beside the GPU data (a model of both: stream.c read it once already): after the GPU
 * figures, fn fills c->sdev for the Ascend ranks of si and hands over the model's events that the
 * MindData rules read (its get_next records) into m. */
struct hx_beside {
	int (*fn)(void *arg, const struct pt_ptm_source *src, struct pt_model *m, struct ctx *c,
		  const struct pt_steps_info *si, struct pt_err **e);
	void *arg;
};
int hx_gstream(const struct pt_ptm_source *src, const struct pt_sel *sel, const struct pt_hint_knobs *k,
	       const struct pt_hints_opts *o, const struct hx_beside *ab, struct pt_hints *out, struct pt_model **whole,
	       struct pt_diag *d, struct pt_err **e);

/* The PyTorch Operator ranges of a GPU .ptm read as a stream (gops.c), for TOP_OPS' op types, the
 * executions of LOW_FLOPS_UTIL and TENSOR_CORES_UNUSED: per range (by event) its type and flags, per linked
 * kernel the ranges of its links that those read (index + 1, 0 none). */
enum { HX_OP_DOM0 = 1, HX_OP_KNOWN = 2, HX_OP_NZ = 4, HX_OP_DESC = 8, HX_OP_COUNT = 16, HX_OP_LEAF = 32 };
struct hx_opflops {
	uint32_t op;
	uint64_t flops;
};
struct hx_kops {
	uint32_t ev;
	uint32_t top; /* its first link with a range, when an Operator range (TOP_OPS) */
	uint32_t fl;  /* its last link to a default-domain Operator range (LOW_FLOPS_UTIL) */
	uint32_t tc;  /* its last link, when to an Operator range (TENSOR_CORES_UNUSED) */
};
struct hx_gops {
	size_t n;
	uint32_t *type;  /* the op type: the label, else the range's name */
	uint8_t *fl;     /* HX_OP_*: default domain; FLOPs known; non-zero; a descendant with non-zero FLOPs;
			  * counts for FLOPs (known, no such descendant); a Tensor Core op with none among its
			  * descendants on the host */
	uint32_t *host;  /* several hosts: a Tensor Core range's host (its thread's CPU device), else PT_NONE */
	struct hx_opflops *fv; /* the FLOPs of those that count, when not zero, by range */
	size_t nfv;
	/* the kernels where top == tc and fl is top in the default domain, by event: per kernel its event
	 * less the previous one's and its range less the previous one's (zigzag), varints, in blocks of
	 * HX_KBLK kernels that start from event 0 and range 0 (2 to 4 bytes a kernel, not 8) */
	uint8_t *kz;
	size_t nk;
	struct hx_kblk { uint64_t at; uint32_t ev; } *kb; /* per block: its first byte in kz, its first event */
	size_t nkb;
	struct hx_kops *x; /* the other linked kernels, by event */
	size_t nx;
};
/* hosts: the hosts (CPU devices, sorted) of the GPU ranks, whose threads' Tensor Core ranges count */
int hx_gops_read(const struct pt_ptm_source *src, struct pt_model *m, const struct pt_hint_knobs *k,
		 const uint32_t *hosts, size_t nhosts, struct hx_gops *o, struct pt_err **e);
void hx_gops_kernel(const struct hx_gops *o, uint64_t ev, struct hx_kops *out);
uint64_t hx_gops_flops(const struct hx_gops *o, uint32_t q);
void hx_gops_free(struct hx_gops *o);
/* The copy infos of a GPU .ptm as the streamed device read looks them up (gcopy.c): per row its event,
 * copy kind and the index of its byte count among the distinct ones (9 bytes a row, not 24). */
struct hx_gcopies {
	uint32_t *ev;   /* in event order (the file's) */
	uint8_t *kind;  /* the copy kind */
	uint32_t *at;   /* the row's index into bytes */
	size_t n;
	uint64_t *bytes; /* the distinct byte counts */
	size_t nbytes;
};
/* Takes m->copies (freed). */
void hx_gcopies_take(struct hx_gcopies *c, struct pt_model *m);
/* The first row of event ev, as pt_model_copy_info() finds it: false when none. */
bool hx_gcopies_get(const struct hx_gcopies *c, uint32_t ev, uint8_t *kind, uint64_t *bytes);
void hx_gcopies_free(struct hx_gcopies *c);
/* The kernels of a GPU .ptm that are communication by where they were launched (summary.md §2.5: the call
 * of their last launch link, else the first API call of their correlation id in the file, whichever process
 * made it, starts inside a communication host range of its thread), read as a stream (gcomm.c): with links
 * a bit per event of the file, without a bit per slot of each host's launch join. */
struct hx_gcomm {
	uint64_t *kbit;
	uint64_t n;    /* the events the bits cover */
	const struct pt_ljoin *const *js; /* without links: the hosts' joins (the caller's) */
	uint64_t **sbit; /* per join, per slot */
	size_t *ns;      /* per join: its slots */
	size_t nj;
};
/* What the steps' first read gives it (hx_gcomm_scan, pt_steps_gkeep's scan): the ranges named as
 * communication, the range infos that make a range communication. */
struct hx_gcand;
struct hx_gcscan {
	uint8_t *nmark; /* per string: 0 not seen, 1 not a communication name, 2 one */
	size_t nnm;
	struct hx_gcand *c;
	size_t nc, cc;
	uint64_t *x; /* events a range info makes communication that are no candidate */
	size_t nx, cx;
	const regex_t *re; /* --comm-pattern (set by the caller), NULL: the name list */
	bool demangle;
	bool any; /* a range info made a range communication */
};
void hx_gcomm_scan(struct hx_gcscan *sc, const struct pt_model *m, uint64_t base);
void hx_gcomm_scan_free(struct hx_gcscan *sc);
/* js[0..nj): the hosts' launch joins when the file has no launch links (else NULL, 0), kept by the caller
 * until hx_gcomm_free */
struct pt_ljoin;
int hx_gcomm_read(const struct pt_ptm_source *src, struct pt_model *m, struct hx_gcscan *sc,
		  const struct pt_ljoin *const *js, size_t nj, struct hx_gcomm *o, struct pt_err **e);
/* Kernel `ev` (the file's event index; slot: its id's slot in its host's join j, SIZE_MAX none) */
static inline bool hx_gcomm_kernel(const struct hx_gcomm *o, const struct pt_ljoin *j, uint64_t ev, size_t slot)
{
	if (o->sbit) {
		for (size_t k = 0; k < o->nj; k++)
			if (o->js[k] == j)
				return slot < o->ns[k] && pt_bits_get(o->sbit[k], o->ns[k] / 64 + 1, slot);
		return false;
	}
	return o->kbit && ev < o->n && pt_bits_get(o->kbit, o->n / 64 + 1, ev);
}
/* A kernel named as communication: --comm-pattern's match (o->comm_re), else the name list. */
bool hx_comm_kernel_name(const struct pt_hints_opts *o, const char *s);
void hx_gcomm_free(struct hx_gcomm *o);
/* The host ranges' names that USE_DDP and DDP_WITHOUT_NCCL count, per device, as a streamed read passes
 * them (gddp.c). */
struct hx_gddp {
	uint8_t *mark; /* per string: 0 not seen, else N_* bits */
	size_t nnm;
	struct ddpfig *dev; /* dp, ddp, nccl per device */
	size_t ndev;
};
void hx_gddp_scan(struct hx_gddp *x, const struct pt_model *m);
void hx_gddp_rank(const struct hx_gddp *x, uint32_t host, struct hx_srank *sr);
void hx_gddp_free(struct hx_gddp *x);
/* A host range's place on its thread, for the nesting of ranges (id: its event, or its index in a list);
 * hx_nest_cmp orders by track, start, the longest first, then id (util.c). */
struct hx_nest {
	uint32_t track, id;
	int64_t s, e;
};
int hx_nest_cmp(const void *pa, const void *pb);
/* TENSOR_CORES_UNUSED's lists (rules-rank.c): a Tensor Core kernel's name, an op that could use them. */
bool hx_tc_kernel_name(const struct pt_hint_knobs *k, const char *name);
bool hx_tc_op_name(const struct pt_hint_knobs *k, const char *name);

/* ---- helpers (util.c) -------------------------------------------------------------------- */

struct rk *hx_rank_of(struct ctx *c, int64_t rank);
void hx_mark_eval(struct ctx *c, enum pt_hint_rule rule, int64_t rank);
void hx_not_eval(struct ctx *c, enum pt_hint_rule rule, int64_t rank, const char *scope, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
bool hx_enabled(const struct ctx *c, enum pt_hint_rule rule);
char *hx_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A time in the message unit, two decimals: "0.65 ms"; b has 48 bytes. */
const char *hx_ftime(const struct ctx *c, char *b, int64_t ns);
struct pt_hint *hx_fire(struct ctx *c, enum pt_hint_rule rule, int64_t rank, const char *scope, enum pt_hint_sev sev,
			const char *metric, const char *unit, double value, double thr);
double hx_pct(int64_t a, int64_t b);
int64_t hx_mean_round(__int128 sum, int64_t n);
bool hx_is_dev_activity(uint8_t k);
size_t hx_api_base_len(const char *s);
bool hx_in_list(const char *list, const char *s, size_t n);
const char *hx_dname(struct ctx *c, uint32_t id);
const char *hx_aname(struct ctx *c, uint32_t id);
uint32_t hx_link_range(struct ctx *c, size_t i);
bool hx_recv_name(const char *s);
struct named *hx_nl_get(struct nlist *l, uint32_t name);
struct named *hx_nl_get_api(struct ctx *c, struct nlist *l, uint32_t name);
void hx_nl_free(struct nlist *l);
/* Ordered by count or time, descending, then by the name as printed. */
void hx_nl_sort(struct ctx *c, struct nlist *l);
void hx_nl_sort_api(struct ctx *c, struct nlist *l);
/* The first three entries of l as evidence items of list `list` (list_<i>_name, list_<i>_<field> = .a):
 * API names when api, else kernel names as printed. */
void hx_ev_top3(struct ctx *c, struct pt_hint *x, const char *list, const struct nlist *l, bool api,
		const char *field);
int hx_cmp_i64(const void *pa, const void *pb);
int64_t hx_pctile(const int64_t *v, size_t n, int p);
int64_t hx_anchor(const struct rankdata *rd, const struct pt_model *m, size_t i);
bool hx_member(const struct rankdata *rd, const struct pt_model *m, size_t i);
const struct pt_copy_info *hx_copy_of(const struct pt_model *m, size_t ev);
const struct pt_range_info *hx_range_of(const struct pt_model *m, size_t ev);
const char *hx_copy_kind_name(uint8_t k);
bool hx_has_hccl(const struct pt_model *m, uint32_t dev);
/* |union of their times ∩ W| of a run of executions. */
/* a ∪ b: a or b itself when the other is empty, else built in own. */
const struct pt_ivset *hx_union_ref(const struct pt_ivset *a, const struct pt_ivset *b, struct pt_ivset *own);
int64_t hx_busy_in(const struct rankdata *rd, const struct pt_model *m, const struct fexec *v, size_t n);
/* K, F and B of a device (struct devdata), measured on first use (driver.c). */
void hx_flops_measure(struct ctx *c, struct rankdata *rd, struct devdata *dd);
/* The streamed figures of GPU rank r (an element of c->si), NULL when the events are in m. */
const struct hx_srank *hx_srank_of(const struct ctx *c, const struct pt_rank_steps *r);
/* Host range names of the rank, measured on first use. */
const struct ddpfig *hx_ddp(struct ctx *c, struct rankdata *rd);

/* The rules (one function each; pt_hint_rules[] says when they run). */
hint_rule_fn pt_hr_input_bound, pt_hr_unexplained_time, pt_hr_step_gap, pt_hr_md_queue, pt_hr_md_pipeline,
	pt_hr_md_cpu_busy, pt_hr_md_op_cpu, pt_hr_md_op_queue, pt_hr_md_bottleneck_op, pt_hr_low_device_util,
	pt_hr_launch_bound, pt_hr_launch_delay, pt_hr_runtime_outlier, pt_hr_short_kernels, pt_hr_device_idle,
	pt_hr_comm_exposed, pt_hr_pp_receive, pt_hr_pp_stage_comm, pt_hr_pp_stage_flops, pt_hr_rank_spread,
	pt_hr_rank_step_gap, pt_hr_rank_flops, pt_hr_slow_link, pt_hr_top_ops, pt_hr_mem_ops_critical,
	pt_hr_low_flops_util, pt_hr_memory_near_capacity, pt_hr_tensor_cores_unused, pt_hr_use_ddp,
	pt_hr_ddp_without_nccl, pt_hr_unattributed_device, pt_hr_truncated_last_step;

/* MINDDATA (rules-md.c): mark the devices with MindData data and read its
 * rows (before the stage); the gates G1, G2 (hints.md §4) over the records
 * from index first on (after it). */
int hx_md_prepare(struct ctx *c, struct pt_err **e);
void hx_md_gates(struct ctx *c, size_t first);

/* Put v[0..n) in the order ix gives (v[ix[0]] first), in place: each cycle of the permutation is
 * followed with one element aside, so no second copy of v is made; ix ends as the identity. */
void hx_permute_mops(struct memop *v, uint32_t *ix, size_t n);

/* qsort_r for arrays that may be empty (NULL): the sort context is an argument, never a global. */
static inline void hx_sort_r(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(v, n, size, cmp, arg);
}

#endif
