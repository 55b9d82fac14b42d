/*
 * proftool-gen: writes raw Ascend profiling dumps from a small text
 * description (tests/gen/README.md). This is an independent implementation of
 * the byte layouts of ascend.md §1-§2, written straight from the spec: it must
 * never use the importer's code (lib/import/), so that importer bugs show.
 *
 * gen.c parses the description into struct gen and lays out the job's
 * timeline (gen_step_layout); one back end per raw format (gen-*.c) turns that
 * timeline into bytes, written through a struct gen_sink that splits a kind's
 * logical byte stream into slices.
 */
#ifndef GEN_H
#define GEN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "support/hashmap.h"
#include "support/vec.h"

enum gen_kind {
	GK_HWTS,
	GK_STEP_TRACE,
	GK_TASK_DESC,   /* text: Framework.host.[vm.]task_desc_info; binary: Framework.task_desc_info */
	GK_GRAPH_DESC,  /* text only */
	GK_POINT,       /* text only */
	GK_TENSOR,      /* binary only: Framework.tensor_data_info */
	GK_STEP_INFO,   /* binary only: Framework.step_info */
	GK_HASH_DIC,    /* binary only: Framework.hash_dic */
	GK_HOST_START,
	GK_DEV_START,
	GK_INFO,
	GK_AICPU,
	GK_AICPUMI,
	GK_TDT,
	GK__N
};

enum gen_inj_op {
	GI_ZERO_RECORD,  /* insert all-zero record(s) before record `at` */
	GI_TAIL,         /* append `n` bytes of a partial record */
	GI_INVALID_TYPE, /* hwts: log type of record `at` := n */
	GI_DROP,         /* drop record(s) `at`..; step trace: drop tag of step */
	GI_DUP,          /* duplicate record `at`; step trace: repeat tag */
	GI_SWAP,         /* swap records at, at+1 */
	GI_SHIFT,        /* move syscnt of record `at` by `val` ns (may be < 0) */
	GI_FLAG,         /* hwts: set the flag bit of record `at` */
	GI_ZERO_TAG,     /* step trace: tag `tag` of step `at` gets sys_count 0 */
	GI_JOBID,        /* step trace: job-id tag of step `at` := val */
	GI_BAD_MAGIC,    /* binary: record `at` gets magic 0xA5A5 (at 0 = fatal) */
	GI_WRONG_TAG,    /* binary framework: dataTag of record `at` := n */
	GI_TENSOR_NUM,   /* tensor_data: tensorNum of record `at` := n */
	GI_LINE,         /* text: replace line/record `at` (1-based) by `text` */
	GI_INSERT,       /* text: insert `text` before line/record `at` (0 = append) */
	GI_SPLIT_LINE,   /* text: break line `at` after byte `n` with a newline */
	GI_CRLF,         /* text: CRLF line ends */
	GI_NO_FINAL_NL,  /* text: no final newline */
	GI_NODE_ONLY,    /* aicpu: op `at` (1-based) has no Thread record */
	GI_THREAD_ONLY,  /* aicpu: a Thread record without Node before op `at` */
	GI_FIELDS,       /* aicpu: Node (n>0: n fields) of op `at` */
	GI_THREAD_FIELDS,/* aicpu: Thread record of op `at` has n fields */
	GI_NEWLINE,      /* NUL-separated text: each record ends "\n\0" */
	GI_DROP_HASH,    /* hash_dic: leave out the line of op name `text` */
	GI_JUNK_AFTER_NUL, /* binary framework: bytes after the name's NUL */
};

struct gen_inj {
	enum gen_kind kind;
	enum gen_inj_op op;
	uint64_t at;
	uint64_t n;
	int64_t val;
	int tag;       /* step trace tag; -1 fp... see gen-steptrace.c */
	char *text;
	int line;      /* description line, for messages */
};

struct gen_tensor {
	char *format;  /* verbatim token (vm: name, ge/binary: integer) */
	char *dtype;
	char *shape;   /* "32,64" without quotes; "" scalar */
	bool output;
};

struct gen_op {
	char *name;
	char *type;
	uint32_t stream;
	PT_VEC(uint32_t) tasks;
	uint32_t block;
	uint64_t dur_ns;
	uint32_t task_type;  /* binary: 0 AI Core, 1 AI CPU ... */
	PT_VEC(struct gen_tensor) tensors;
	bool no_graph;       /* no graph_desc line / tensor record */
	bool no_task;        /* no task_desc line */
	bool no_exec;        /* described but never executed */
	bool hashed;         /* binary: opName/opType as hash ids */
	int every;           /* runs in steps where step % every == 0 (0/1: every step) */
};

struct gen_unnamed {      /* tasks absent from task_desc (HCCL-like) */
	uint32_t stream_first, stream_last;
	uint32_t task_first;
	uint32_t count;         /* tasks per stream and step */
	uint64_t dur_ns, gap_ns, offset_ns;
};

struct gen_reduce {       /* step-trace reduce pairs on one stream */
	uint32_t stream;
	int tag_first, tag_last;   /* tags first..last, (odd, odd+1) pairs */
	uint64_t offset_ns, dur_ns, spacing_ns;
	bool from_end;             /* offset counted back from bp (tail) */
};

struct gen_aicpu {        /* one AI CPU op, run once per step (or count times) */
	char *name;
	int layout;          /* 3 or 6 */
	uint64_t count;      /* 0: once per step */
	uint64_t offset_ns, dur_ns;
	uint32_t dispatch_us, total_us;
	bool cycles;         /* add the raw counter token to values */
	bool tart;           /* spell field 1 "Run tart:" */
	uint32_t stream, task;  /* binary variant */
};

struct gen_aicpumi {
	char *name;
	int layout;          /* 1 or 2 */
	uint64_t count;      /* 0: once per step */
	uint64_t offset_ns, dur_ns;
	uint32_t queue;
};

struct gen_file_opt {
	int slices;            /* 0/1: one slice */
	uint64_t slice_bytes;  /* stream-cut every N bytes instead */
	bool in_data;          /* write into data/ */
	bool empty;            /* 0-byte file */
	bool newname;          /* hwts.data / DATA_PREPROCESS.AICPU[MI] */
	bool no_slice;         /* no .slice_<n> suffix (lone file) */
	bool done;             /* write <file>.done markers */
	bool enabled;
};

struct gen {
	const char *desc_path;
	const char *outdir;

	uint32_t device;
	bool binary;           /* era */
	bool ge;               /* text era backend */
	uint64_t freq_khz;     /* for cycles <-> ns */
	char *freq_text;       /* as written into info.json */
	bool info;
	char *aic_text;
	uint32_t cores;
	uint64_t seed;
	uint64_t start_cycles;
	uint64_t jitter_ns;
	bool dynamic;          /* binary era dynamic shape: ids grow, u16 wraps */
	uint32_t dyn_start;    /* first task id of every stream */
	int taskdesc_fields;   /* 4 or 5 */
	char *jobid;           /* container-form job id, if any */

	/* steps */
	uint64_t steps;
	uint64_t jobtag;       /* step tag value (0 or > end tag) */
	uint64_t end_tag;      /* 255 or 65535 */
	uint32_t st_stream, st_task; /* stream/task of the fp/bp/end records */
	uint64_t jobtag_ns, fp_ns, op_gap_ns, tail_ns;
	int st_order;          /* 0 time, 1 tag, 2 shuffled (per step) */
	bool no_jobtag;

	/* hwts */
	int blocks;            /* type 2/3 records per task (0 none) */
	bool pmu;              /* type 4 record per task */
	uint16_t hwts_const;   /* bytes 2..3 */
	bool hwts_enabled;

	/* clocks */
	bool host_start, dev_start;
	uint64_t host_realtime, host_monoraw;
	int host_label;        /* [Device<label>] */
	uint64_t dev_cntvct;

	PT_VEC(struct gen_op) ops;
	struct pt_hashmap op_index; /* name hash -> first op of that hash (find_op) */
	PT_VEC(struct gen_unnamed) unnamed;
	PT_VEC(struct gen_reduce) reduces;
	PT_VEC(struct gen_aicpu) aicpu;
	PT_VEC(struct gen_aicpumi) aicpumi;
	PT_VEC(struct gen_inj) injs;
	struct { int tag; char *op; } points[64];
	int npoints;
	bool aicpu_binary;
	uint64_t tdt_count, tdt_size;

	uint64_t scale_hwts_bytes;  /* 0: off; else steps grow until reached */

	struct gen_file_opt files[GK__N];

	FILE *expect;            /* --print-expect */
	bool perturbed;          /* --perturbed: apply the `perturb` directives */
	PT_VEC(char *) renames;  /* perturb rename: old, new, old, new ... */
};

/* ---- timeline ---------------------------------------------------------- */

struct gen_exec {
	uint64_t start, end;  /* cycles */
	uint32_t stream;
	uint32_t task;        /* full id (dynamic: beyond 65535) */
	int op;               /* index into g->ops, -1 unnamed */
	uint32_t block;
};

struct gen_rpt {          /* one step-trace point */
	uint64_t tag;
	uint32_t stream, task;
	uint64_t cyc;
};

struct gen_aicpu_run {
	int idx;
	uint64_t start, end;  /* cycles */
};

struct gen_step {
	uint64_t k;            /* 0-based */
	uint64_t begin;        /* previous end (cycles) */
	uint64_t jobtag, fp, bp, end;
	PT_VEC(struct gen_exec) execs;     /* in start order */
	PT_VEC(struct gen_rpt) reduce;     /* reduce points in time order */
	PT_VEC(struct gen_aicpu_run) cpu;
	PT_VEC(struct gen_aicpu_run) mi;
};

/* The layout of step k; st must be zeroed before the first call and is reused. */
void gen_step_layout(struct gen *g, uint64_t k, struct gen_step *st);
void gen_step_free(struct gen_step *st);
/* Number of steps to generate (scale mode: computed from the HWTS size). */
uint64_t gen_nsteps(struct gen *g);
/* Dynamic shape: task ids per stream. Reset at the start of each back end. */
void gen_dyn_reset(struct gen *g);

/* Sorts n u64 keys ascending (LSD radix); tmp holds n entries. */
void gen_sort_u64(uint64_t *k, uint64_t *tmp, size_t n);

uint64_t gen_ns_to_cyc(const struct gen *g, uint64_t ns);
uint64_t gen_cyc_to_ns(const struct gen *g, uint64_t cyc); /* the spec's §3.1 rule */
uint64_t gen_splitmix(uint64_t *state);
uint64_t gen_hash_name(const char *s);   /* hash_dic ids */
const char *gen_kind_name(enum gen_kind k);

/* ---- output --------------------------------------------------------------- */

struct gen_sink {
	struct gen *g;
	enum gen_kind kind;
	char *base;        /* path without the slice suffix */
	unsigned char *buf;
	size_t n, cap;
	uint64_t total;    /* logical bytes so far (flushed + buffered) */
	uint64_t flushed;
	int slice;         /* current slice number */
	uint64_t slice_left; /* slice_bytes mode */
	FILE *f;
	bool buffer_all;
};

/* Opens the sink of kind (file name from the era/device/options); NULL when
 * the kind is disabled. */
struct gen_sink *gen_sink_open(struct gen *g, enum gen_kind kind);
void gen_sink_write(struct gen_sink *s, const void *p, size_t n);
void gen_sink_puts(struct gen_sink *s, const char *str);
void gen_sink_printf(struct gen_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes out what is left, cuts slices, writes .done markers, frees.
 * Returns the length of slice 0 (the whole length when not sliced by count). */
uint64_t gen_sink_close(struct gen_sink *s);

/* Writes a whole text kind given as lines, applying the text injections. */
void gen_text_emit(struct gen *g, enum gen_kind kind, char **lines, size_t n, char sep);

/* EXPECT lines (no-op without --print-expect) */
void gen_expect(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* little-endian stores */
static inline void gen_le16(unsigned char *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static inline void gen_le32(unsigned char *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}
static inline void gen_le64(unsigned char *p, uint64_t v)
{
	gen_le32(p, (uint32_t)v);
	gen_le32(p + 4, (uint32_t)(v >> 32));
}

/* injections of kind in description order */
#define gen_for_inj(g, kindv, ip) \
	for (struct gen_inj *ip = (g)->injs.v; ip < (g)->injs.v + (g)->injs.n; ip++) \
		if (ip->kind == (kindv))

/* back ends */
void gen_hwts(struct gen *g);
void gen_steptrace(struct gen *g);
void gen_framework_text(struct gen *g);
void gen_framework_bin(struct gen *g);
void gen_aicpu(struct gen *g);
void gen_aicpumi(struct gen *g);
void gen_tdt(struct gen *g);
void gen_clock(struct gen *g);

/* MindData back end (gen-minddata.c): md-* directives, kept in its own state. */
int gen_minddata_directive(struct gen *g, char **tok, int n); /* 1 done, 0 not md-*, -1 error */
const char *gen_minddata_error(void);
void gen_minddata(struct gen *g);
int gen_memory_directive(struct gen *g, char **tok, int n); /* 1 done, 0 not mem-*, -1 error */
const char *gen_memory_error(void);
void gen_memory(struct gen *g);

/* HCCL trace back end (gen-hccl.c): hccl-* directives, kept in its own state. */
int gen_hccl_directive(struct gen *g, char **tok, int n); /* 1 done, 0 not hccl-*, -1 error */
const char *gen_hccl_error(void);
void gen_hccl(struct gen *g);

/* AI Core back end (gen-aicore.c): aicore* directives, kept in its own state. */
int gen_aicore_directive(struct gen *g, char **tok, int n); /* 1 done, 0 not aicore*, -1 error */
const char *gen_aicore_error(void);
void gen_aicore(struct gen *g);

/* mkdir -p: creates path and its missing parents, or dies. */
void gen_mkdir_p(const char *path);

/* proftool-gen msgpu DESC OUTDIR (gen-msgpu.c); argv[0] is "msgpu". */
int gen_msgpu_main(int argc, char **argv);
/* proftool-gen kineto DESC -o OUT.json[.gz] (gen-kineto.c); argv[0] is "kineto". */
int gen_kineto_main(int argc, char **argv);
int gen_nsys_main(int argc, char **argv); /* gen-nsys.c */

/* proftool-gen perturb-job SRC_JOB -o DIR --scale OP FACTOR... (gen-perturb-job.c);
 * argv[0] is "perturb-job". */
int gen_perturb_job_main(int argc, char **argv);

#endif
