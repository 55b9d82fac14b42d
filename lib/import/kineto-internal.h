/*
 * The Kineto importer's parse state, shared by its two halves: import-kineto.c
 * reads a trace (content sniff, the text cut into pieces for the JSON parser of
 * kineto-json.cc and its callbacks, files and directories) and kineto-events.c
 * turns each complete traceEvents element into model records and, after the
 * parse, completes the file's devices.
 */
#ifndef PT_IMPORT_KINETO_INTERNAL_H
#define PT_IMPORT_KINETO_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import/import-cupti-join.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"

enum state {
	S_TOP0, S_TOP, S_TOPVAL, S_EVENTS, S_EV, S_EVVAL, S_ARGS, S_ARGVAL, S_ARGARR, S_DIMS, S_TYPES,
	S_PROPS, S_PROP, S_PROPVAL, S_DIST, S_DISTVAL, S_DONE,
};

enum topkey { TK_OTHER, TK_EVENTS, TK_PROPS, TK_DIST, TK_BASE };
enum evkey { EK_OTHER, EK_PH, EK_CAT, EK_NAME, EK_PID, EK_TID, EK_TS, EK_DUR, EK_ARGS };
enum argkey {
	AK_OTHER, AK_EXTID, AK_CORR, AK_STREAM, AK_DEVICE, AK_GRID, AK_BLOCK, AK_REGS, AK_SMEM, AK_BYTES,
	AK_SYNC_KIND, AK_WAIT_STREAM, AK_WAIT_CORR, AK_WAIT_EVENT, AK_NAME, AK_FROMDEV, AK_TODEV, AK_CBID,
	AK_DIMS, AK_TYPES,
	/* NCCL collective arguments, kept as text in the model's event arguments */
	AK_COLL, AK_DTYPE, AK_IN_NELEMS, AK_OUT_NELEMS, AK_GROUP_SIZE, AK_PG_NAME, AK_PG_DESC, AK_PG_RANKS,
	AK_IN_SPLIT, AK_OUT_SPLIT, AK_SEQ,
	AK__N,
};
#define AK_COMM_FIRST AK_COLL


/* An event's Input Dims (as cupti.md §6.12's sizes text), Input type and collective arguments. */
#define KT_MAX_INPUTS 64
#define KT_NTYPES 5 /* PythonOp, Communication, Operator, ProfileStep, UserRange */
struct kargs {
	char *dims;            /* "[[512], [64, 1024], []]" */
	size_t dlen, dcap;
	uint32_t dstart[KT_MAX_INPUTS], dend[KT_MAX_INPUTS]; /* input i is dims[dstart[i] .. dend[i]) */
	uint32_t ndims, dcur;  /* inputs seen; the current one's start */
	uint32_t depth;        /* 1: in the list, 2: in an input's shape, more: in a list input */
	bool dfirst;           /* nothing yet at this depth */
	bool dlist;            /* the current input is a list (TensorList): its shape is [] */
	bool dbad;             /* something else than integers and lists: not kept */
	bool has_dims, has_types;
	uint64_t nontensor;    /* Input type: bit i, input i is not a tensor */
	uint32_t ntypes;
	/* collective arguments: key and text */
	char *text;
	size_t tlen, tcap;
	struct { uint8_t key; uint32_t off, len; } cv[AK__N - AK_COMM_FIRST];
	uint32_t ncv;
};
enum propkey { PK_OTHER, PK_ID, PK_NAME, PK_MEM, PK_SMS, PK_CCMAJ, PK_CCMIN, PK_LIM };
/* the GPU limits of deviceProperties (struct pt_gpu_limits), in prop.lim order; PK_LIM + i is key i */
#define KT_NLIM 8
extern const char *const pt_kt_lim_keys[KT_NLIM];
enum distkey { DK_OTHER, DK_RANK, DK_WORLD, DK_BACKEND };

enum cat {
	C_NONE, C_OTHER, C_KERNEL, C_MEMCPY, C_MEMSET, C_RUNTIME, C_DRIVER, C_SYNC, C_CPU_OP, C_USER_ANN,
	C_GPU_USER_ANN, C_PYFUNC, C_FLOW,
};

/* A time field: absent, a number (ns in v), or something else. */
enum tstate { T_ABSENT, T_OK, T_BAD, T_RANGE };

struct prop {
	int64_t id, mem, sms, ccmaj, ccmin;
	int64_t lim[KT_NLIM];
	char *name;
};

/* One event; the members before `a` are cleared for each event, the rest are read only where
 * the cleared ones say they were set (has, ngrid, nblock, nlen, alen). */
struct kev {
	char ph;
	enum cat cat;
	bool drop; /* its ph and cat say it is not imported: its other fields are not read */
	bool pid_num, tid_num;
	int64_t pid, tid;
	enum tstate ts_st, dur_st;
	int64_t ts, dur;
	uint64_t off; /* byte offset of the event's '{' */
	bool has[AK__N];
	uint32_t ngrid, nblock;
	size_t nlen, alen;
	/* not cleared */
	int64_t a[AK__N];
	int32_t grid[3], block[3];
	char *name;   /* the event's name, NUL-terminated (nlen bytes) */
	size_t ncap;
	char *aname;  /* args.name (metadata) or args.cuda_sync_kind (alen bytes) */
	size_t acap;
};

#define KW_SLOTS 128u
struct kw {
	const char *s;
	size_t n;
	int v;
};
struct kwtab {
	const struct kw *w;
	uint8_t slot[KW_SLOTS]; /* index + 1 into w, 0 = empty */
};

#define KT_NAME_SLOTS 4096u
struct kt_name {
	uint64_t hash;
	uint32_t id1; /* string id + 1; 0: empty */
};

struct kt_gext {
	uint64_t corr, id;
};

struct kt {
	struct pt_model *m;
	const char *path;
	struct pt_diag *diag;
	bool pyfunc; /* import python_function events (--kineto-python-functions) */
	bool gz;
	uint64_t fed; /* bytes read */
	uint64_t pos; /* the byte offset of the value being handed to the callbacks */
	struct pt_err **e;
	char *err;    /* the first error, set by a callback that stops the parse */
	/* parse state */
	enum state st, skip_ret;
	uint32_t skip;
	enum topkey tk;
	enum evkey ek;
	enum argkey ak;
	enum propkey pk;
	enum distkey dk;
	struct kev ev;
	struct kargs ka;
	struct kwtab cats, args; /* key dispatch */
	uint32_t key_ids[AK__N]; /* string ids of arg_keys, + 1 (0: not interned yet) */
	uint32_t type_ids[KT_NTYPES]; /* string ids of the host ranges' types, + 1 (0: not yet) */
	uint64_t n_args;         /* event arguments kept */
	size_t nev; /* traceEvents elements seen */
	bool in_events_seen;
	/* trace facts */
	bool base_known, base_seen, tail_probed, tail_found;
	int64_t base, tail_base;
	int64_t rank, world;
	char *backend;
	PT_VEC(struct prop) props;
	struct prop cur_prop;
	/* model */
	struct pt_hashmap cpu;    /* host pid -> CPU device index */
	struct pt_hashmap gpu;    /* CUDA device id -> GPU device index */
	struct pt_hashmap tracks; /* (device << 40 | kind << 36 | stream) -> track index */
	uint64_t last_key[2];     /* the last track used, of the host [0] and of the GPUs [1] */
	uint32_t last_track[2];
	uint32_t first_cpu;       /* PT_NONE until a host event */
	PT_VEC(uint32_t) devs;    /* devices this file added */
	PT_VEC(uint32_t) host_tracks;
	struct pt_hashmap pnames; /* pid -> string id + 1 (process_name) */
	struct pt_hashmap tnames; /* pid << 32 | tid -> string id + 1 (thread_name) */
	struct pt_hashmap cbids;  /* name string id << 32 | cbid -> 1 once in m->api_cbids */
	/* External ids of GPU events (correlation, id), until finish: those whose correlation no call of this file
	 * carries an External id for (a trace cut short of its calls) become external correlations there */
	PT_VEC(struct kt_gext) gpu_ext;
	size_t ext0; /* m->ext_corr rows before this file */
	uint64_t *api_ext;    /* bit per correlation id (below 2^28) that a call of the first process gave an External id */
	size_t api_ext_words;
	struct kt_name *names;    /* KT_NAME_SLOTS slots by a name's hash: the last name seen there */
	uint32_t copy_names[64];
	struct pt_cjoin *join;
	PT_VEC(struct pt_cjoin_range) ranges;
	/* counters */
	uint64_t n_imported, n_ignored, n_flows, n_pyfunc, n_gpu_ann, n_neg_dur, n_no_pid, n_no_device, n_meta;
	uint64_t n_unjoined; /* calls and ranges of a process other than the GPUs' (first) one */
};

/* A scalar's type, for the value handlers. */
enum stype { V_NULL, V_BOOL, V_NUM, V_STR };

struct pt_kt_json_num;
/* The event walker's entry points (kineto-json.cc walks each traceEvents element itself and hands
 * only the values of known keys over, by these direct calls):
 * a new event: its fields cleared, ev.off = k->pos; */
void pt_kt_event_begin(struct kt *k);
/* a scalar value in the state k->st (S_EVVAL with k->ek, S_ARGVAL with k->ak): as the callbacks'
 * own handler; returns 1, or 0 with the error kept (pt_kt_fail) */
int pt_kt_scalar(struct kt *k, enum stype ty, const unsigned char *s, size_t n, const struct pt_kt_json_num *d);
/* an args key's code (AK_OTHER when no value of it is read) */
enum argkey pt_kt_argkey(const struct kt *k, const unsigned char *s, size_t n);

/* Record the first error; returns 0, which stops the parse. */
int pt_kt_fail(struct kt *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The complete event k->ev (and k->ka) onto the model; returns 1, or pt_kt_fail()'s 0. */
int pt_kt_event_done(struct kt *k);
/* After a good parse: ranges and joins, names, device properties, ranks, stats. */
void pt_kt_finish(struct kt *k, uint64_t size);

#endif
