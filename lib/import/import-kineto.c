/*
 * PyTorch profiler (Kineto) trace importer: the Chrome-trace JSON that
 * torch.profiler writes (`*.pt.trace.json`, often gzipped, one file per rank)
 * onto the records the CUPTI importer produces (model.h), so that every view
 * works on it unchanged:
 *  - kernel / gpu_memcpy / gpu_memset / cuda_sync events are GPU events on the
 *    stream tracks of one GPU device per (file, CUDA device), with their
 *    launch configuration, copy kinds and bytes, synchronization joins;
 *  - cuda_runtime / cuda_driver events are API calls on host-thread tracks of
 *    one CPU device per (file, process); GPU work joins its call through
 *    `correlation` (import-cupti-join.c), and the call's innermost host range;
 *  - cpu_op events are `Operator` host ranges, user_annotation events
 *    `UserRange` ranges (`ProfileStep` for ProfilerStep#N), on their threads;
 *  - process_name / thread_name metadata name the devices and threads;
 *    deviceProperties and distributedInfo fill the GPU devices and ranks.
 * Times: `ts` and `dur` are microseconds written as decimal text (three
 * decimals today, integers in older traces); they are converted from the
 * text to exact nanoseconds, plus baseTimeNanoseconds when the trace has one
 * (before traceEvents in current writers; after them in older ones, where a
 * probe of the file's tail finds it first).
 * The JSON is parsed as a stream (yajl) from zlib's gzread, so plain and
 * gzipped files are read alike, a buffer at a time: memory holds the model
 * and the joins' small records, never the text.
 */
#define _GNU_SOURCE /* memmem */
#include "import/import-kineto.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "import/import-cupti-join.h"
#include "import/input.h"
#include "import/registry.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/sort.h"
#include "support/xalloc.h"

#define KT_CHUNK (1u << 20)   /* bytes handed to the parser at a time */
#define KT_HEAD (64u << 10)   /* bytes the content sniff reads */
#define KT_TAIL (64u << 10)   /* bytes the baseTimeNanoseconds probe searches */

/* ---- numbers ------------------------------------------------------------------------ */

bool pt_kineto_decimal(const char *s, size_t n, int scale, int64_t *out)
{
	/* the common texts first: an integer of up to 15 digits, or with up to `scale` (≤ 3)
	 * decimals ("2413669097444.592"), exact without the general path below */
	if (n && n <= 20 && scale >= 0 && scale <= 3) {
		size_t j = s[0] == '-';
		uint64_t v = 0;
		size_t d0 = j;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			v = v * 10 + (uint64_t)(s[j++] - '0');
		size_t nint = j - d0;
		int frac = 0;
		if (j < n && s[j] == '.' && nint) {
			size_t f0 = ++j;
			while (j < n && s[j] >= '0' && s[j] <= '9' && frac < scale) {
				v = v * 10 + (uint64_t)(s[j++] - '0');
				frac++;
			}
			if (j == f0)
				frac = -1; /* "1." : not a number; the general path says so */
		}
		if (j == n && nint && nint <= 15 && frac >= 0) {
			for (int e = frac; e < scale; e++)
				v *= 10;
			*out = s[0] == '-' ? -(int64_t)v : (int64_t)v;
			return true;
		}
	}
	size_t i = 0;
	bool neg = i < n && s[i] == '-';
	i += neg;
	if (i >= n || s[i] < '0' || s[i] > '9')
		return false;
	/* value = mant * 10^exp10; digits beyond 19 significant ones are dropped (integer
	 * digits then count in exp10): no Kineto time has that many */
	uint64_t mant = 0;
	int exp10 = 0, sig = 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sig < 19) {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			sig += mant != 0;
		} else {
			exp10++;
		}
	}
	if (i < n && s[i] == '.') {
		if (++i >= n || s[i] < '0' || s[i] > '9')
			return false;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (sig < 19) {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				sig += mant != 0;
				exp10--;
			}
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		bool eneg = false;
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		if (i >= n || s[i] < '0' || s[i] > '9')
			return false;
		int e = 0;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		exp10 += eneg ? -e : e;
	}
	if (i != n)
		return false;
	exp10 += scale;
	const uint64_t lim = (uint64_t)1 << 62;
	if (exp10 >= 0) {
		for (int k = 0; k < exp10 && mant; k++) {
			if (mant > lim / 10)
				return false;
			mant *= 10;
		}
	} else {
		/* round half away from zero at the unit */
		for (int k = 0; k < -exp10 && mant; k++)
			mant = k == -exp10 - 1 ? mant / 10 + (mant % 10 >= 5) : mant / 10;
	}
	if (mant > lim)
		return false;
	*out = neg ? -(int64_t)mant : (int64_t)mant;
	return true;
}

/* ---- content sniff ------------------------------------------------------------------ */

static bool has(const char *b, size_t n, const char *needle)
{
	return memmem(b, n, needle, strlen(needle)) != NULL;
}

bool pt_kineto_sniff(const char *b, size_t n)
{
	size_t i = 0;
	if (n >= 3 && (unsigned char)b[0] == 0xef && (unsigned char)b[1] == 0xbb && (unsigned char)b[2] == 0xbf)
		i = 3; /* UTF-8 byte order mark */
	while (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t'))
		i++;
	if (i >= n || b[i] != '{' || !has(b, n, "\"traceEvents\""))
		return false;
	if (has(b, n, "\"profile\": \"viewer\""))
		return false; /* proftool's own viewer timeline: not Kineto's dialect */
	static const char *const marks[] = {
		"\"schemaVersion\"", "\"deviceProperties\"", "\"distributedInfo\"", "\"baseTimeNanoseconds\"",
		"\"cpu_op\"", "\"cuda_runtime\"", "\"kernel\"", "\"user_annotation\"", "\"gpu_memcpy\"",
		"\"Operator\"", "\"Runtime\"", "\"Kernel\"", "\"python_function\"", NULL,
	};
	for (int k = 0; marks[k]; k++)
		if (has(b, n, marks[k]))
			return true;
	return false;
}

/* ---- parser state --------------------------------------------------------------------- */

enum state {
	S_TOP0, S_TOP, S_TOPVAL, S_EVENTS, S_EV, S_EVVAL, S_ARGS, S_ARGVAL, S_ARGARR, S_DIMS, S_TYPES,
	S_PROPS, S_PROP, S_PROPVAL, S_DIST, S_DISTVAL, S_DONE,
};

enum topkey { TK_OTHER, TK_EVENTS, TK_PROPS, TK_DIST, TK_BASE };
enum evkey { EK_OTHER, EK_PH, EK_CAT, EK_NAME, EK_PID, EK_TID, EK_TS, EK_DUR, EK_ARGS };
enum argkey {
	AK_OTHER, AK_EXTID, AK_CORR, AK_STREAM, AK_DEVICE, AK_GRID, AK_BLOCK, AK_REGS, AK_SMEM, AK_BYTES,
	AK_SYNC_KIND, AK_WAIT_STREAM, AK_WAIT_CORR, AK_WAIT_EVENT, AK_NAME, AK_FROMDEV, AK_TODEV,
	AK_DIMS, AK_TYPES,
	/* NCCL collective arguments, kept as text in the model's event arguments */
	AK_COLL, AK_DTYPE, AK_IN_NELEMS, AK_OUT_NELEMS, AK_GROUP_SIZE, AK_PG_NAME, AK_PG_DESC, AK_PG_RANKS,
	AK_IN_SPLIT, AK_OUT_SPLIT, AK_SEQ,
	AK__N,
};
#define AK_COMM_FIRST AK_COLL

/* The model's key of each kept argument (EventArgBatch of proftool-model(5)): Kineto's own. */
static const char *const arg_keys[AK__N] = {
	[AK_DIMS] = "Input Dims",
	[AK_COLL] = "Collective name",
	[AK_DTYPE] = "dtype",
	[AK_IN_NELEMS] = "In msg nelems",
	[AK_OUT_NELEMS] = "Out msg nelems",
	[AK_GROUP_SIZE] = "Group size",
	[AK_PG_NAME] = "Process Group Name",
	[AK_PG_DESC] = "Process Group Description",
	[AK_PG_RANKS] = "Process Group Ranks",
	[AK_IN_SPLIT] = "In split size",
	[AK_OUT_SPLIT] = "Out split size",
	[AK_SEQ] = "Seq",
};

/* An event's Input Dims (as cupti.md §6.12's sizes text), Input type and collective arguments. */
#define KT_MAX_INPUTS 64
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
enum propkey { PK_OTHER, PK_ID, PK_NAME, PK_MEM, PK_SMS, PK_CCMAJ, PK_CCMIN };
enum distkey { DK_OTHER, DK_RANK, DK_WORLD, DK_BACKEND };

enum cat {
	C_NONE, C_OTHER, C_KERNEL, C_MEMCPY, C_MEMSET, C_RUNTIME, C_DRIVER, C_SYNC, C_CPU_OP, C_USER_ANN,
	C_GPU_USER_ANN, C_PYFUNC, C_FLOW,
};

/* A time field: absent, a number (ns in v), or something else. */
enum tstate { T_ABSENT, T_OK, T_BAD, T_RANGE };

struct prop {
	int64_t id, mem, sms, ccmaj, ccmin;
	char *name;
};

struct kev {
	char ph;
	enum cat cat;
	bool pid_num, tid_num;
	int64_t pid, tid;
	enum tstate ts_st, dur_st;
	int64_t ts, dur;
	uint64_t off; /* byte offset of the event's '{' */
	bool has[AK__N];
	int64_t a[AK__N];
	int32_t grid[3], block[3];
	uint32_t ngrid, nblock;
	char *name;   /* the event's name, NUL-terminated */
	size_t nlen, ncap;
	char *aname;  /* args.name (metadata) or args.cuda_sync_kind */
	size_t alen, acap;
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

struct kt {
	struct pt_model *m;
	const char *path;
	struct pt_diag *diag;
	bool pyfunc; /* import python_function events (--kineto-python-functions) */
	yajl_handle h;
	bool gz;
	uint64_t fed; /* bytes handed to the parser before the current chunk */
	struct pt_err **e;
	char *err;    /* the first error, set by a callback that cancels the parse */
	uint64_t err_off;
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
	uint64_t last_key;
	uint32_t last_track;
	uint32_t first_cpu;       /* PT_NONE until a host event */
	PT_VEC(uint32_t) devs;    /* devices this file added */
	PT_VEC(uint32_t) host_tracks;
	struct pt_hashmap pnames; /* pid -> string id + 1 (process_name) */
	struct pt_hashmap tnames; /* pid << 32 | tid -> string id + 1 (thread_name) */
	struct pt_hashmap names;  /* hash of a name -> string id + 1, for the last one seen */
	uint32_t copy_names[64];
	struct pt_cjoin *join;
	PT_VEC(struct pt_cjoin_range) ranges;
	/* counters */
	uint64_t n_imported, n_ignored, n_flows, n_pyfunc, n_gpu_ann, n_neg_dur, n_no_pid, n_no_device, n_meta;
	uint64_t n_unjoined; /* calls and ranges of a process other than the GPUs' (first) one */
};

static int fail(struct kt *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct kt *k, const char *fmt, ...)
{
	if (k->err)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	char b[512];
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	k->err = pt_xstrdup(b);
	k->err_off = k->fed + yajl_get_bytes_consumed(k->h);
	return 0; /* yajl: cancel the parse */
}

/* ---- model helpers ---------------------------------------------------------------------- */

static uint32_t new_device(struct kt *k, enum pt_device_kind kind, uint32_t id, const char *name)
{
	struct pt_device d;
	memset(&d, 0, sizeof(d));
	d.id = id;
	d.kind = kind;
	d.name = pt_xstrdup(name);
	d.clock = pt_xstrdup("unix");
	d.rank = -1;
	pt_vec_push(&k->m->devices, d);
	uint32_t di = (uint32_t)(k->m->devices.n - 1);
	pt_vec_push(&k->devs, di);
	return di;
}

static uint32_t cpu_device(struct kt *k, int64_t pid)
{
	bool added;
	uint64_t *v = pt_hashmap_put(&k->cpu, (uint64_t)pid, 0, &added);
	if (added) {
		char b[48];
		snprintf(b, sizeof(b), "process %" PRId64, pid);
		*v = new_device(k, PT_DEV_CPU, (uint32_t)pid, b);
		k->m->devices.v[*v].pid = (uint32_t)pid;
		if (k->first_cpu == PT_NONE)
			k->first_cpu = (uint32_t)*v;
	}
	return (uint32_t)*v;
}

static uint32_t gpu_device(struct kt *k, int64_t dev)
{
	bool added;
	uint64_t *v = pt_hashmap_put(&k->gpu, (uint64_t)dev, 0, &added);
	if (added) {
		char b[48];
		snprintf(b, sizeof(b), "GPU %" PRId64, dev);
		*v = new_device(k, PT_DEV_GPU, (uint32_t)dev, b);
	}
	return (uint32_t)*v;
}

static uint32_t track(struct kt *k, uint32_t dev, enum pt_track_kind kind, int64_t stream)
{
	uint64_t key = (uint64_t)dev << 40 | (uint64_t)kind << 36 | ((uint64_t)stream & 0xfffffffffULL);
	if (key == k->last_key)
		return k->last_track;
	bool added;
	uint64_t *v = pt_hashmap_put(&k->tracks, key, 0, &added);
	if (added) {
		char name[64];
		if (kind == PT_TRACK_STREAM)
			snprintf(name, sizeof(name), stream < 0 ? "device" : "stream %" PRId64, stream);
		else
			snprintf(name, sizeof(name), "thread %" PRId64, stream);
		struct pt_track t = { dev, kind, stream, pt_model_str(k->m, name) };
		pt_vec_push(&k->m->tracks, t);
		*v = k->m->tracks.n - 1;
		if (kind == PT_TRACK_HOST_THREAD)
			pt_vec_push(&k->host_tracks, (uint32_t)*v);
	}
	k->last_key = key;
	k->last_track = (uint32_t)*v;
	return (uint32_t)*v;
}

/* The model string of the event's name; the last id per hash slot is remembered. */
static uint32_t ev_name(struct kt *k)
{
	/* eight bytes at a time (kernel names run to hundreds of bytes) */
	uint64_t hsh = 1469598103934665603ULL ^ k->ev.nlen;
	size_t i = 0;
	for (; i + 8 <= k->ev.nlen; i += 8) {
		uint64_t w;
		memcpy(&w, k->ev.name + i, 8);
		hsh = (hsh ^ w) * 0x9e3779b97f4a7c15ULL;
		hsh ^= hsh >> 29;
	}
	for (; i < k->ev.nlen; i++)
		hsh = (hsh ^ (unsigned char)k->ev.name[i]) * 1099511628211ULL;
	bool added;
	uint64_t *v = pt_hashmap_put(&k->names, hsh, 0, &added);
	if (!added) {
		uint32_t id = (uint32_t)(*v - 1);
		if (pt_strtab_len(&k->m->strings, id) == k->ev.nlen &&
		    !memcmp(pt_model_strget(k->m, id), k->ev.name, k->ev.nlen))
			return id;
	}
	uint32_t id = pt_strtab_intern(&k->m->strings, k->ev.name, k->ev.nlen);
	*v = (uint64_t)id + 1;
	return id;
}

static const char *const copy_kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
static const char *const mem_kinds[] = { "Unknown", "Pageable", "Pinned", "Device",
					 "Array",   "Managed",  "Device Static", "Managed Static" };

static uint8_t find_kind(const char *const *tab, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(tab[i]) == len && !memcmp(tab[i], s, len))
			return (uint8_t)i;
	return 0;
}

/* "Memcpy HtoD (Pageable -> Device)" / "Memset (Device)": CUPTI's kinds back from Kineto's names. */
static void copy_kinds_of(const char *name, bool set, struct pt_copy_info *ci)
{
	const char *p = name + (set ? 6 : 6);
	if (strncmp(name, set ? "Memset" : "Memcpy", 6))
		return;
	while (*p == ' ')
		p++;
	if (!set) {
		const char *sp = strchr(p, ' ');
		size_t l = sp ? (size_t)(sp - p) : strlen(p);
		ci->copy_kind = find_kind(copy_kinds, 11, p, l);
		p += l;
		while (*p == ' ')
			p++;
	}
	if (*p != '(')
		return;
	p++;
	const char *close = strchr(p, ')');
	if (!close)
		return;
	if (set) {
		ci->dst_kind = find_kind(mem_kinds, 8, p, (size_t)(close - p));
		return;
	}
	const char *arrow = strstr(p, " -> ");
	if (!arrow || arrow > close)
		return;
	ci->src_kind = find_kind(mem_kinds, 8, p, (size_t)(arrow - p));
	ci->dst_kind = find_kind(mem_kinds, 8, arrow + 4, (size_t)(close - arrow - 4));
}

static bool is_step_name(const char *s)
{
	if (strncmp(s, "ProfilerStep#", 13) || !s[13])
		return false;
	for (s += 13; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* ---- one event ------------------------------------------------------------------------------ */

static int check_time(struct kt *k, const char *what, enum tstate st)
{
	if (st == T_ABSENT)
		return fail(k, "event %zu: no '%s' at byte %" PRIu64, k->nev, what, k->ev.off);
	if (st == T_BAD)
		return fail(k, "event %zu: '%s' is not a number at byte %" PRIu64, k->nev, what, k->ev.off);
	return fail(k, "event %zu: '%s' out of range at byte %" PRIu64, k->nev, what, k->ev.off);
}

static void metadata(struct kt *k)
{
	struct kev *ev = &k->ev;
	k->n_meta++;
	if (!ev->pid_num || !ev->aname || !ev->alen)
		return;
	uint32_t sid = pt_strtab_intern(&k->m->strings, ev->aname, ev->alen) + 1;
	if (!strcmp(ev->name, "process_name"))
		*pt_hashmap_put(&k->pnames, (uint64_t)ev->pid, 0, NULL) = sid;
	else if (!strcmp(ev->name, "thread_name") && ev->tid_num)
		*pt_hashmap_put(&k->tnames, (uint64_t)ev->pid << 32 ^ (uint32_t)ev->tid, 0, NULL) = sid;
}

static void add_arg(struct kt *k, uint32_t evi, enum argkey key, const char *s, size_t n)
{
	if (!k->key_ids[key])
		k->key_ids[key] = pt_model_str(k->m, arg_keys[key]) + 1;
	struct pt_event_arg a = { evi, k->key_ids[key] - 1, pt_strtab_intern(&k->m->strings, s, n) };
	pt_vec_push(&k->m->event_args, a);
	k->n_args++;
}

/* The event's Input Dims (inputs that Input type says are no tensors as []) and collective arguments. */
static void keep_args(struct kt *k, uint32_t evi)
{
	struct kargs *a = &k->ka;
	if (a->has_dims) {
		uint64_t nt = a->has_types ? a->nontensor : 0;
		uint32_t n = a->ndims < KT_MAX_INPUTS ? a->ndims : KT_MAX_INPUTS;
		for (uint32_t i = 0; i < n && nt; i++) {
			if (!(nt >> i & 1) || a->dend[i] - a->dstart[i] == 2)
				continue;
			/* "[2, 3]" of a scalar list: [], as PyTorch's NVTX text writes it */
			size_t cut = a->dend[i] - a->dstart[i] - 2;
			memmove(a->dims + a->dstart[i] + 1, a->dims + a->dend[i] - 1, a->dlen - a->dend[i] + 2);
			a->dlen -= cut;
			for (uint32_t j = i; j < n; j++) {
				a->dstart[j] -= j > i ? (uint32_t)cut : 0;
				a->dend[j] -= (uint32_t)cut;
			}
		}
		add_arg(k, evi, AK_DIMS, a->dims, a->dlen);
	}
	for (uint32_t i = 0; i < a->ncv; i++)
		add_arg(k, evi, (enum argkey)a->cv[i].key, a->text + a->cv[i].off, a->cv[i].len);
}

static int event_done(struct kt *k)
{
	struct kev *ev = &k->ev;
	if (ev->name)
		ev->name[ev->nlen] = 0;
	else
		ev->name = pt_xcalloc(1, (ev->ncap = 16));
	if (ev->ph == 'M') {
		metadata(k);
		return 1;
	}
	if (ev->ph == 's' || ev->ph == 'f' || ev->ph == 't' || ev->cat == C_FLOW) {
		k->n_flows++;
		return 1;
	}
	enum cat c = ev->cat;
	if (ev->ph != 'X' || c == C_NONE || c == C_OTHER) {
		k->n_ignored++;
		return 1;
	}
	if (c == C_PYFUNC && !k->pyfunc) {
		k->n_pyfunc++;
		return 1;
	}
	if (c == C_GPU_USER_ANN) {
		k->n_gpu_ann++;
		return 1;
	}
	if (ev->ts_st != T_OK)
		return check_time(k, "ts", ev->ts_st);
	if (ev->dur_st != T_OK)
		return check_time(k, "dur", ev->dur_st);
	int64_t start = ev->ts + k->base, dur = ev->dur;
	if (start > PT_TIME_LIMIT || start < -PT_TIME_LIMIT || start + dur > PT_TIME_LIMIT)
		return fail(k, "event %zu: 'ts' out of range at byte %" PRIu64, k->nev, ev->off);
	if (dur < 0) {
		k->n_neg_dur++;
		pt_diag_warn(k->diag, k->path, "skipped events with a negative 'dur'", PT_POS_OFFSET, ev->off);
		return 1;
	}
	struct pt_model *m = k->m;
	uint32_t evi = (uint32_t)pt_events_total(&m->events);
	uint64_t corr = ev->has[AK_CORR] ? (uint64_t)ev->a[AK_CORR] : 0;
	if (c == C_KERNEL || c == C_MEMCPY || c == C_MEMSET || c == C_SYNC) {
		int64_t dev = ev->has[AK_DEVICE] ? ev->a[AK_DEVICE] : ev->pid_num ? ev->pid : -1;
		if (dev < 0 || dev > UINT32_MAX) {
			k->n_no_device++;
			return 1;
		}
		int64_t stream = ev->has[AK_STREAM] ? ev->a[AK_STREAM] : ev->tid_num ? ev->tid : -1;
		uint32_t gd = gpu_device(k, dev);
		uint32_t t = track(k, gd, PT_TRACK_STREAM, stream);
		uint32_t name = ev_name(k);
		if (c == C_KERNEL) {
			pt_model_add_event(m, t, name, PT_EV_KERNEL, start, dur, corr, PT_NONE, 0);
			struct pt_kernel_config kc;
			memset(&kc, 0, sizeof(kc));
			for (int i = 0; i < 3; i++) {
				kc.grid[i] = i < (int)ev->ngrid ? ev->grid[i] : 0;
				kc.block[i] = i < (int)ev->nblock ? ev->block[i] : 0;
			}
			kc.registers = ev->has[AK_REGS] ? (uint32_t)ev->a[AK_REGS] : 0;
			kc.static_smem = ev->has[AK_SMEM] ? (int32_t)ev->a[AK_SMEM] : 0;
			pt_model_add_kernel(m, evi, &kc);
			pt_cjoin_activity(k->join, evi, start, (uint32_t)corr, 0, true);
		} else if (c == C_SYNC) {
			pt_model_add_event(m, t, name, PT_EV_SYNC, start, dur, corr, PT_NONE, 0);
			static const char *const names[] = { "Unknown Sync", "Event Sync", "Stream Wait Event",
							     "Stream Sync", "Context Sync" };
			uint32_t ty = 0;
			const char *kind = ev->aname && ev->alen ? ev->aname : ev->name;
			for (uint32_t i = 0; i < 5; i++)
				if (!strcmp(kind, names[i]))
					ty = i;
			struct pt_sync_info si = { evi, ty, ev->has[AK_WAIT_EVENT] ? ev->a[AK_WAIT_EVENT] : -1,
						   ev->has[AK_WAIT_STREAM] ? ev->a[AK_WAIT_STREAM] : -1,
						   ev->has[AK_WAIT_CORR] ? ev->a[AK_WAIT_CORR] : -1 };
			pt_vec_push(&m->syncs, si);
			pt_cjoin_activity(k->join, evi, start, (uint32_t)corr, 0, false);
		} else {
			bool set = c == C_MEMSET;
			struct pt_copy_info ci = { evi, 0, 0, 0, ev->has[AK_BYTES] ? (uint64_t)ev->a[AK_BYTES] : 0, -1, -1 };
			copy_kinds_of(ev->name, set, &ci);
			if (ev->has[AK_FROMDEV])
				ci.src_device = (int32_t)ev->a[AK_FROMDEV];
			if (ev->has[AK_TODEV])
				ci.dst_device = (int32_t)ev->a[AK_TODEV];
			pt_model_add_event(m, t, name, set ? PT_EV_MEMSET : PT_EV_MEMCPY, start, dur, corr, PT_NONE, 0);
			pt_vec_push(&m->copies, ci);
			pt_cjoin_activity(k->join, evi, start, (uint32_t)corr, 0, false);
		}
		if (k->ka.has_dims || k->ka.ncv)
			keep_args(k, evi);
		k->n_imported++;
		return 1;
	}
	/* host events */
	if (!ev->pid_num || !ev->tid_num) {
		k->n_no_pid++;
		return 1;
	}
	uint32_t cd = cpu_device(k, ev->pid);
	uint32_t t = track(k, cd, PT_TRACK_HOST_THREAD, ev->tid);
	uint32_t name = ev_name(k);
	/* the GPU devices belong to the first process (finish); another process's calls and
	 * ranges are kept but never joined to GPU work, which a model's links may not cross */
	bool joins = cd == k->first_cpu;
	k->n_unjoined += !joins;
	if (c == C_RUNTIME || c == C_DRIVER) {
		pt_model_add_event(m, t, name, PT_EV_API, start, dur, corr, PT_NONE, 0);
		if (joins)
			pt_cjoin_call(k->join, c == C_DRIVER, (uint32_t)corr, evi, t, start);
		if (ev->has[AK_EXTID] && corr) {
			struct pt_ext_corr x = { cd, 3, corr, (uint64_t)ev->a[AK_EXTID] };
			pt_vec_push(&m->ext_corr, x);
		}
	} else { /* cpu_op, user_annotation, python_function */
		pt_model_add_event(m, t, name, PT_EV_RANGE, start, dur, 0, PT_NONE, 0);
		bool coll = false; /* a collective call (record_param_comms, nccl:all_reduce, ...) */
		for (uint32_t i = 0; i < k->ka.ncv; i++)
			coll |= k->ka.cv[i].key == AK_COLL;
		const char *type = c == C_PYFUNC              ? "PythonOp"
				   : coll                     ? "Communication"
				   : c == C_CPU_OP            ? "Operator"
				   : is_step_name(ev->name)   ? "ProfileStep"
							      : "UserRange";
		struct pt_range_info ri = { evi, pt_model_str(m, type), 0, 0, 0,
					    ev->has[AK_EXTID] ? (uint64_t)ev->a[AK_EXTID] : 0, 0 };
		pt_vec_push(&m->ranges, ri);
		/* Python functions enclose the operators that launch GPU work: GPU work joins the
		 * operators and annotations alone, with or without them */
		struct pt_cjoin_range r = { start, start + dur, t, evi, true, false };
		if (joins && c != C_PYFUNC)
			pt_vec_push(&k->ranges, r);
	}
	if (k->ka.has_dims || k->ka.ncv)
		keep_args(k, evi);
	k->n_imported++;
	return 1;
}

/* An integer's JSON text: -?[0-9]+ */
static bool int_text(const char *s, size_t n)
{
	size_t i = n && s[0] == '-';
	if (i >= n)
		return false;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* ---- baseTimeNanoseconds after the events: a probe of the file's tail -------------------- */

static bool tail_base(const char *b, size_t n, int64_t *out)
{
	static const char key[] = "\"baseTimeNanoseconds\"";
	const char *hit = NULL;
	for (const char *p = b; (p = memmem(p, n - (size_t)(p - b), key, sizeof(key) - 1)); p++)
		hit = p;
	if (!hit)
		return false;
	const char *p = hit + sizeof(key) - 1, *end = b + n;
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	if (p >= end || *p++ != ':')
		return false;
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	const char *q = p;
	while (q < end && (*q == '-' || (*q >= '0' && *q <= '9')))
		q++;
	if (q < end && *q != ' ' && *q != '\n' && *q != '\r' && *q != '\t' && *q != ',' && *q != '}')
		return false;
	return q > p && int_text(p, (size_t)(q - p)) && pt_kineto_decimal(p, (size_t)(q - p), 0, out);
}

/*
 * Open path through pt_input_open (a regular file, never a blocking open) as a gzip
 * stream that also reads plain text. *fd stays open for the caller's pread/fstat.
 */
static gzFile open_gz(const char *path, int *fd, uint64_t *size, struct pt_err **e)
{
	if (pt_input_open(path, fd, size, e))
		return NULL;
	int gfd = dup(*fd);
	gzFile g = gfd >= 0 ? gzdopen(gfd, "rb") : NULL;
	if (!g) {
		if (gfd >= 0)
			close(gfd);
		close(*fd);
		*fd = -1;
		pt_err_errno(e, errno ? errno : ENOMEM, "cannot open '%s'", path);
	}
	return g;
}

/* The last KT_TAIL bytes of the (decompressed) file, searched for the key. */
static void probe_tail(struct kt *k)
{
	k->tail_probed = true;
	int fd;
	uint64_t size;
	struct pt_err *ignored = NULL;
	gzFile g = open_gz(k->path, &fd, &size, &ignored);
	pt_err_free(ignored);
	if (!g)
		return;
	char *b = pt_xmalloc(2 * KT_TAIL);
	size_t n = 0;
	if (gzdirect(g)) {
		ssize_t r = pread(fd, b, KT_TAIL, size > KT_TAIL ? (off_t)(size - KT_TAIL) : 0);
		n = r > 0 ? (size_t)r : 0;
	} else {
		for (;;) {
			if (n == 2 * KT_TAIL) {
				memmove(b, b + KT_TAIL, KT_TAIL);
				n = KT_TAIL;
			}
			int r = gzread(g, b + n, (unsigned)(2 * KT_TAIL - n));
			if (r <= 0)
				break;
			n += (size_t)r;
		}
	}
	gzclose(g);
	close(fd);
	k->tail_found = tail_base(b, n, &k->tail_base);
	free(b);
}

/* ---- yajl callbacks ----------------------------------------------------------------------- */

#define KEYIS(s, n, lit) ((n) == sizeof(lit) - 1 && !memcmp((s), (lit), sizeof(lit) - 1))
#define E(lit, v) { lit, sizeof(lit) - 1, v } /* a table entry with its length */

static void buf_set(char **b, size_t *len, size_t *cap, const unsigned char *s, size_t n)
{
	if (n + 1 > *cap) {
		size_t c = *cap ? *cap : 64;
		while (c < n + 1)
			c *= 2;
		*b = pt_xrealloc(*b, c);
		*cap = c;
	}
	memcpy(*b, s, n);
	(*b)[n] = 0;
	*len = n;
}

/*
 * Key dispatch, once per event category and per args key: an open-addressing
 * table of KW_SLOTS slots hashed from the length and three bytes, each hit
 * confirmed by one memcmp (a linear scan of the tables cost 4 % of the import).
 */
static unsigned kw_hash(const unsigned char *s, size_t n)
{
	return (unsigned)(n * 131 + s[0] * 31 + s[n / 2] * 7 + s[n - 1]) & (KW_SLOTS - 1);
}

static void kw_build(struct kwtab *t, const struct kw *w, size_t nw)
{
	memset(t, 0, sizeof(*t));
	t->w = w;
	for (size_t i = 0; i < nw; i++) {
		unsigned h = kw_hash((const unsigned char *)w[i].s, w[i].n);
		while (t->slot[h])
			h = (h + 1) & (KW_SLOTS - 1);
		t->slot[h] = (uint8_t)(i + 1);
	}
}

static int kw_find(const struct kwtab *t, const unsigned char *s, size_t n, int dflt)
{
	if (!n)
		return dflt;
	for (unsigned h = kw_hash(s, n); t->slot[h]; h = (h + 1) & (KW_SLOTS - 1)) {
		const struct kw *w = &t->w[t->slot[h] - 1];
		if (w->n == n && !memcmp(w->s, s, n))
			return w->v;
	}
	return dflt;
}

static const struct kw cat_words[] = {
	E("kernel", C_KERNEL),       E("Kernel", C_KERNEL),
	E("gpu_memcpy", C_MEMCPY),   E("Memcpy", C_MEMCPY),
	E("gpu_memset", C_MEMSET),   E("Memset", C_MEMSET),
	E("cuda_runtime", C_RUNTIME), E("Runtime", C_RUNTIME),
	E("cuda_driver", C_DRIVER),  E("Driver", C_DRIVER),
	E("cuda_sync", C_SYNC),      E("cpu_op", C_CPU_OP),
	E("Operator", C_CPU_OP),     E("user_annotation", C_USER_ANN),
	E("gpu_user_annotation", C_GPU_USER_ANN), E("python_function", C_PYFUNC),
	E("ac2g", C_FLOW),
};

static const struct kw arg_words[] = {
	E("External id", AK_EXTID),   E("correlation", AK_CORR),
	E("stream", AK_STREAM),       E("device", AK_DEVICE),
	E("grid", AK_GRID),           E("block", AK_BLOCK),
	E("registers per thread", AK_REGS), E("shared memory", AK_SMEM),
	E("bytes", AK_BYTES),         E("cuda_sync_kind", AK_SYNC_KIND),
	E("wait_on_stream", AK_WAIT_STREAM), E("wait_on_cuda_event_record_corr_id", AK_WAIT_CORR),
	E("wait_on_cuda_event_id", AK_WAIT_EVENT), E("name", AK_NAME),
	E("fromDevice", AK_FROMDEV),  E("toDevice", AK_TODEV),
	E("Input Dims", AK_DIMS),     E("Input type", AK_TYPES),
	E("Collective name", AK_COLL), E("dtype", AK_DTYPE),
	E("In msg nelems", AK_IN_NELEMS), E("Out msg nelems", AK_OUT_NELEMS),
	E("Group size", AK_GROUP_SIZE), E("Process Group Name", AK_PG_NAME),
	E("Process Group Description", AK_PG_DESC), E("Process Group Ranks", AK_PG_RANKS),
	E("In split size", AK_IN_SPLIT), E("Out split size", AK_OUT_SPLIT),
	E("Seq", AK_SEQ),
};

/* Enter a value that is skipped whole (its nesting counted), then return to `ret`. */
static int skip_container(struct kt *k, enum state ret)
{
	k->skip = 1;
	k->skip_ret = ret;
	return 1;
}

static void event_begin(struct kt *k)
{
	struct kev *ev = &k->ev;
	char *name = ev->name, *aname = ev->aname;
	size_t ncap = ev->ncap, acap = ev->acap;
	memset(ev, 0, sizeof(*ev));
	ev->name = name;
	ev->aname = aname;
	ev->ncap = ncap;
	ev->acap = acap;
	if (ev->name)
		ev->name[0] = 0;
	k->ka.has_dims = k->ka.has_types = false;
	k->ka.ncv = 0;
	k->ka.tlen = 0;
	ev->off = k->fed + yajl_get_bytes_consumed(k->h) - 1;
	k->nev++;
}

static void events_begin(struct kt *k)
{
	k->in_events_seen = true;
	if (!k->base_known && !k->tail_probed)
		probe_tail(k);
	if (!k->base_known && k->tail_found) {
		k->base = k->tail_base;
		k->base_known = true;
	}
}

enum stype { V_NULL, V_BOOL, V_NUM, V_STR };

static void text_add(char **b, size_t *len, size_t *cap, const void *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = *cap ? *cap : 256;
		while (c < *len + n + 1)
			c *= 2;
		*b = pt_xrealloc(*b, c);
		*cap = c;
	}
	memcpy(*b + *len, s, n);
	*len += n;
	(*b)[*len] = 0;
}

static void dims_add(struct kargs *a, const void *s, size_t n)
{
	text_add(&a->dims, &a->dlen, &a->dcap, s, n);
}

/* A collective argument's value, as its text (a string's content, a number's digits). */
static void comm_arg(struct kargs *a, enum argkey key, const unsigned char *s, size_t n)
{
	if (a->ncv >= sizeof(a->cv) / sizeof(a->cv[0]))
		return;
	a->cv[a->ncv].key = (uint8_t)key;
	a->cv[a->ncv].off = (uint32_t)a->tlen;
	a->cv[a->ncv].len = (uint32_t)n;
	a->ncv++;
	text_add(&a->text, &a->tlen, &a->tcap, s, n);
}

/* Input type values of inputs that are not tensors (PyTorch's profiler: the dtype's name for a tensor). */
static bool nontensor_type(const unsigned char *s, size_t n)
{
	return !n || KEYIS(s, n, "Scalar") || KEYIS(s, n, "ScalarList") || KEYIS(s, n, "TensorList") ||
	       KEYIS(s, n, "GenericList") || KEYIS(s, n, "None");
}

static int on_scalar(struct kt *k, enum stype ty, const unsigned char *s, size_t n)
{
	if (k->skip)
		return 1;
	struct kev *ev = &k->ev;
	switch (k->st) {
	case S_TOP0:
		return fail(k, "not a Kineto trace: the JSON text is not an object at byte 0");
	case S_TOPVAL:
		k->st = S_TOP;
		if (k->tk == TK_EVENTS)
			return fail(k, "'traceEvents' is not an array at byte %" PRIu64,
				    k->fed + yajl_get_bytes_consumed(k->h));
		if (k->tk == TK_BASE) {
			int64_t b;
			if (ty != V_NUM || !int_text((const char *)s, n) || !pt_kineto_decimal((const char *)s, n, 0, &b))
				return fail(k, "'baseTimeNanoseconds' is not an integer at byte %" PRIu64,
					    k->fed + yajl_get_bytes_consumed(k->h));
			if (k->in_events_seen) {
				/* after the events: the tail probe must have found this very value */
				if (!k->base_known || b != k->base)
					return fail(k, "'baseTimeNanoseconds' after the events (%" PRId64
						       ") differs from the value found before them at byte %" PRIu64,
						    b, k->fed + yajl_get_bytes_consumed(k->h));
			}
			k->base = b;
			k->base_known = true;
			k->base_seen = true;
		}
		return 1;
	case S_EVENTS:
		return fail(k, "event %zu is not an object at byte %" PRIu64, k->nev + 1,
			    k->fed + yajl_get_bytes_consumed(k->h));
	case S_EVVAL:
		k->st = S_EV;
		switch (k->ek) {
		case EK_PH:
			ev->ph = ty == V_STR && n ? (char)s[0] : '?';
			break;
		case EK_CAT:
			ev->cat = ty == V_STR ? (enum cat)kw_find(&k->cats, s, n, C_OTHER) : C_OTHER;
			break;
		case EK_NAME:
			if (ty == V_STR)
				buf_set(&ev->name, &ev->nlen, &ev->ncap, s, n);
			break;
		case EK_PID:
		case EK_TID: {
			int64_t v = 0;
			bool ok = false;
			if (ty == V_NUM) {
				ok = pt_kineto_decimal((const char *)s, n, 0, &v);
			} else if (ty == V_STR && k->ek == EK_TID) {
				/* older traces: "tid": "stream 7" */
				size_t i = n;
				while (i && s[i - 1] >= '0' && s[i - 1] <= '9')
					i--;
				ok = i < n && n - i < 12 && (i == 0 || s[i - 1] == ' ') &&
				     pt_kineto_decimal((const char *)s + i, n - i, 0, &v);
			}
			if (k->ek == EK_PID) {
				ev->pid_num = ok;
				ev->pid = v;
			} else {
				ev->tid_num = ok;
				ev->tid = v;
			}
			break;
		}
		case EK_TS:
		case EK_DUR: {
			enum tstate st = T_BAD;
			int64_t v = 0;
			if (ty == V_NUM)
				st = pt_kineto_decimal((const char *)s, n, 3, &v) ? T_OK : T_RANGE;
			if (k->ek == EK_TS) {
				ev->ts_st = st;
				ev->ts = v;
			} else {
				ev->dur_st = st;
				ev->dur = v;
			}
			break;
		}
		default:
			break;
		}
		return 1;
	case S_ARGVAL:
		k->st = S_ARGS;
		if (k->ak >= AK_COMM_FIRST) {
			if (ty == V_STR || ty == V_NUM)
				comm_arg(&k->ka, k->ak, s, n);
		} else if (k->ak == AK_NAME || k->ak == AK_SYNC_KIND) {
			if (ty == V_STR)
				buf_set(&ev->aname, &ev->alen, &ev->acap, s, n);
		} else if (k->ak != AK_OTHER && ty == V_NUM) {
			int64_t v;
			if (pt_kineto_decimal((const char *)s, n, 0, &v)) {
				ev->has[k->ak] = true;
				ev->a[k->ak] = v;
			}
		}
		return 1;
	case S_DIMS: {
		struct kargs *a = &k->ka;
		if (a->depth >= 3)
			return 1;
		if (a->depth != 2 || ty != V_NUM || !int_text((const char *)s, n)) {
			a->dbad = true;
			return 1;
		}
		if (!a->dfirst)
			dims_add(a, ", ", 2);
		dims_add(a, s, n);
		a->dfirst = false;
		return 1;
	}
	case S_TYPES:
		if (k->ka.ntypes < KT_MAX_INPUTS && (ty == V_NULL || (ty == V_STR && nontensor_type(s, n))))
			k->ka.nontensor |= (uint64_t)1 << k->ka.ntypes;
		k->ka.ntypes++;
		return 1;
	case S_ARGARR: {
		int64_t v;
		if (ty == V_NUM && pt_kineto_decimal((const char *)s, n, 0, &v) && v >= INT32_MIN && v <= INT32_MAX) {
			if (k->ak == AK_GRID && ev->ngrid < 3)
				ev->grid[ev->ngrid++] = (int32_t)v;
			else if (k->ak == AK_BLOCK && ev->nblock < 3)
				ev->block[ev->nblock++] = (int32_t)v;
		}
		return 1;
	}
	case S_PROPVAL: {
		k->st = S_PROP;
		struct prop *p = &k->cur_prop;
		int64_t v = 0;
		bool num = ty == V_NUM && pt_kineto_decimal((const char *)s, n, 0, &v);
		switch (k->pk) {
		case PK_ID: if (num) p->id = v; break;
		case PK_MEM: if (num) p->mem = v; break;
		case PK_SMS: if (num) p->sms = v; break;
		case PK_CCMAJ: if (num) p->ccmaj = v; break;
		case PK_CCMIN: if (num) p->ccmin = v; break;
		case PK_NAME:
			if (ty == V_STR) {
				free(p->name);
				p->name = pt_xstrndup((const char *)s, n);
			}
			break;
		default: break;
		}
		return 1;
	}
	case S_DISTVAL: {
		k->st = S_DIST;
		int64_t v;
		if (k->dk == DK_BACKEND && ty == V_STR) {
			free(k->backend);
			k->backend = pt_xstrndup((const char *)s, n);
		} else if (ty == V_NUM && pt_kineto_decimal((const char *)s, n, 0, &v)) {
			if (k->dk == DK_RANK)
				k->rank = v;
			else if (k->dk == DK_WORLD)
				k->world = v;
		}
		return 1;
	}
	default:
		return 1; /* elements of arrays that are read for nothing else */
	}
}

static int cb_null(void *c)
{
	return on_scalar(c, V_NULL, NULL, 0);
}
static int cb_bool(void *c, int b)
{
	(void)b;
	return on_scalar(c, V_BOOL, NULL, 0);
}
static int cb_number(void *c, const char *s, size_t n)
{
	return on_scalar(c, V_NUM, (const unsigned char *)s, n);
}
static int cb_string(void *c, const unsigned char *s, size_t n)
{
	return on_scalar(c, V_STR, s, n);
}

static int cb_start_map(void *c)
{
	struct kt *k = c;
	if (k->skip) {
		k->skip++;
		return 1;
	}
	switch (k->st) {
	case S_TOP0:
		k->st = S_TOP;
		return 1;
	case S_TOPVAL:
		if (k->tk == TK_DIST) {
			k->st = S_DIST;
			return 1;
		}
		if (k->tk == TK_EVENTS)
			return fail(k, "'traceEvents' is not an array at byte %" PRIu64,
				    k->fed + yajl_get_bytes_consumed(k->h));
		return skip_container(k, S_TOP);
	case S_EVENTS:
		event_begin(k);
		k->st = S_EV;
		return 1;
	case S_EVVAL:
		if (k->ek == EK_ARGS) {
			k->st = S_ARGS;
			return 1;
		}
		return skip_container(k, S_EV);
	case S_ARGVAL:
		return skip_container(k, S_ARGS);
	case S_ARGARR:
		return skip_container(k, S_ARGARR);
	case S_DIMS:
		k->ka.dbad = true;
		return skip_container(k, S_DIMS);
	case S_TYPES:
		k->ka.ntypes++;
		return skip_container(k, S_TYPES);
	case S_PROPS:
		free(k->cur_prop.name);
		memset(&k->cur_prop, 0, sizeof(k->cur_prop));
		k->cur_prop.id = -1;
		k->st = S_PROP;
		return 1;
	case S_PROPVAL:
		return skip_container(k, S_PROP);
	case S_DISTVAL:
		return skip_container(k, S_DIST);
	default:
		return skip_container(k, k->st);
	}
}

static int cb_map_key(void *c, const unsigned char *s, size_t n)
{
	struct kt *k = c;
	if (k->skip)
		return 1;
	switch (k->st) {
	case S_TOP:
		k->tk = KEYIS(s, n, "traceEvents")           ? TK_EVENTS
			: KEYIS(s, n, "deviceProperties")    ? TK_PROPS
			: KEYIS(s, n, "distributedInfo")     ? TK_DIST
			: KEYIS(s, n, "baseTimeNanoseconds") ? TK_BASE
							     : TK_OTHER;
		k->st = S_TOPVAL;
		break;
	case S_EV: /* by length first: this runs for every key of every event */
		k->ek = EK_OTHER;
		if (n == 2)
			k->ek = s[0] == 'p' && s[1] == 'h' ? EK_PH : s[0] == 't' && s[1] == 's' ? EK_TS : EK_OTHER;
		else if (n == 3 && s[1] == 'i' && s[2] == 'd')
			k->ek = s[0] == 'p' ? EK_PID : s[0] == 't' ? EK_TID : EK_OTHER;
		else if (n == 3)
			k->ek = !memcmp(s, "cat", 3) ? EK_CAT : !memcmp(s, "dur", 3) ? EK_DUR : EK_OTHER;
		else if (n == 4)
			k->ek = !memcmp(s, "name", 4) ? EK_NAME : !memcmp(s, "args", 4) ? EK_ARGS : EK_OTHER;
		k->st = S_EVVAL;
		break;
	case S_ARGS:
		k->ak = (enum argkey)kw_find(&k->args, s, n, AK_OTHER);
		k->st = S_ARGVAL;
		break;
	case S_PROP:
		k->pk = KEYIS(s, n, "id")               ? PK_ID
			: KEYIS(s, n, "name")           ? PK_NAME
			: KEYIS(s, n, "totalGlobalMem") ? PK_MEM
			: KEYIS(s, n, "numSms")         ? PK_SMS
			: KEYIS(s, n, "computeMajor")   ? PK_CCMAJ
			: KEYIS(s, n, "computeMinor")   ? PK_CCMIN
							: PK_OTHER;
		k->st = S_PROPVAL;
		break;
	case S_DIST:
		k->dk = KEYIS(s, n, "rank")         ? DK_RANK
			: KEYIS(s, n, "world_size") ? DK_WORLD
			: KEYIS(s, n, "backend")    ? DK_BACKEND
						    : DK_OTHER;
		k->st = S_DISTVAL;
		break;
	default:
		break;
	}
	return 1;
}

static int cb_end_map(void *c)
{
	struct kt *k = c;
	if (k->skip) {
		if (!--k->skip)
			k->st = k->skip_ret;
		return 1;
	}
	switch (k->st) {
	case S_TOP:
		k->st = S_DONE;
		return 1;
	case S_EV:
		k->st = S_EVENTS;
		return event_done(k);
	case S_ARGS:
		k->st = S_EV;
		return 1;
	case S_PROP:
		pt_vec_push(&k->props, k->cur_prop);
		memset(&k->cur_prop, 0, sizeof(k->cur_prop));
		k->st = S_PROPS;
		return 1;
	case S_DIST:
		k->st = S_TOP;
		return 1;
	default:
		return 1;
	}
}

static int cb_start_array(void *c)
{
	struct kt *k = c;
	if (k->skip) {
		k->skip++;
		return 1;
	}
	switch (k->st) {
	case S_TOP0:
		return fail(k, "not a Kineto trace: the JSON text is an array, not an object, at byte 0");
	case S_TOPVAL:
		if (k->tk == TK_EVENTS) {
			events_begin(k);
			k->st = S_EVENTS;
			return 1;
		}
		if (k->tk == TK_PROPS) {
			k->st = S_PROPS;
			return 1;
		}
		return skip_container(k, S_TOP);
	case S_EVENTS:
		return fail(k, "event %zu is not an object at byte %" PRIu64, k->nev + 1,
			    k->fed + yajl_get_bytes_consumed(k->h));
	case S_EVVAL:
		return skip_container(k, S_EV);
	case S_ARGVAL:
		if (k->ak == AK_GRID || k->ak == AK_BLOCK) {
			k->st = S_ARGARR;
			return 1;
		}
		if (k->ak == AK_DIMS) {
			struct kargs *a = &k->ka;
			a->dlen = a->ndims = 0;
			a->depth = 1;
			a->dfirst = true;
			a->dbad = a->dlist = a->has_dims = false;
			dims_add(a, "[", 1);
			k->st = S_DIMS;
			return 1;
		}
		if (k->ak == AK_TYPES) {
			k->ka.ntypes = 0;
			k->ka.nontensor = 0;
			k->st = S_TYPES;
			return 1;
		}
		return skip_container(k, S_ARGS);
	case S_DIMS: {
		struct kargs *a = &k->ka;
		if (a->depth == 1) {
			if (!a->dfirst)
				dims_add(a, ", ", 2);
			a->dfirst = true;
			a->dcur = (uint32_t)a->dlen;
			a->dlist = false;
			dims_add(a, "[", 1);
		} else if (a->depth == 2) {
			a->dlist = true; /* a list of tensors: no shape of its own */
		}
		a->depth++;
		return 1;
	}
	case S_TYPES:
		k->ka.ntypes++;
		return skip_container(k, S_TYPES);
	case S_ARGARR:
		return skip_container(k, S_ARGARR);
	case S_PROPVAL:
		return skip_container(k, S_PROP);
	case S_DISTVAL:
		return skip_container(k, S_DIST);
	default:
		return skip_container(k, k->st);
	}
}

static int cb_end_array(void *c)
{
	struct kt *k = c;
	if (k->skip) {
		if (!--k->skip)
			k->st = k->skip_ret;
		return 1;
	}
	switch (k->st) {
	case S_EVENTS:
	case S_PROPS:
		k->st = S_TOP;
		return 1;
	case S_ARGARR:
		k->st = S_ARGS;
		return 1;
	case S_DIMS: {
		struct kargs *a = &k->ka;
		if (a->depth == 2) {
			if (a->dlist)
				a->dlen = a->dcur + 1; /* "[" */
			dims_add(a, "]", 1);
			if (a->ndims < KT_MAX_INPUTS) {
				a->dstart[a->ndims] = a->dcur;
				a->dend[a->ndims] = (uint32_t)a->dlen;
			}
			a->ndims++;
			a->dfirst = false;
		} else if (a->depth == 1) {
			dims_add(a, "]", 1);
			a->has_dims = !a->dbad;
			k->st = S_ARGS;
		}
		a->depth--;
		return 1;
	}
	case S_TYPES:
		k->ka.has_types = true;
		k->st = S_ARGS;
		return 1;
	default:
		return 1;
	}
}

static const yajl_callbacks callbacks = {
	cb_null, cb_bool, NULL, NULL, cb_number, cb_string, cb_start_map, cb_map_key, cb_end_map,
	cb_start_array, cb_end_array,
};

/* ---- one file -------------------------------------------------------------------------------- */

static int cmp_range(const void *a, const void *b)
{
	const struct pt_cjoin_range *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* longer first: the shorter one is inner */
	return x->event < y->event ? -1 : x->event > y->event;
}

/* After the parse: ranges and joins, names, properties, ranks, stats. */
static void finish(struct kt *k, uint64_t size)
{
	struct pt_model *m = k->m;
	pt_sort(k->ranges.v, k->ranges.n, sizeof(*k->ranges.v), cmp_range);
	struct pt_cjoin_stats js;
	pt_cjoin_finish(k->join, k->ranges.v, k->ranges.n, &js);
	/* names of threads and processes */
	for (size_t i = 0; i < k->host_tracks.n; i++) {
		struct pt_track *t = &m->tracks.v[k->host_tracks.v[i]];
		uint32_t pid = m->devices.v[t->device].pid;
		uint64_t *v = pt_hashmap_get(&k->tnames, (uint64_t)pid << 32 ^ (uint32_t)t->stream);
		if (v)
			t->name = (uint32_t)(*v - 1);
	}
	uint32_t host_pid = k->first_cpu != PT_NONE ? m->devices.v[k->first_cpu].pid : 0;
	for (size_t i = 0; i < k->devs.n; i++) {
		struct pt_device *d = &m->devices.v[k->devs.v[i]];
		d->rank = k->rank >= 0 && k->rank <= INT32_MAX ? (int32_t)k->rank : -1;
		if (k->backend && *k->backend) {
			free(d->comm_backend);
			d->comm_backend = pt_xstrdup(k->backend);
		}
		if (d->kind == PT_DEV_CPU) {
			uint64_t *v = pt_hashmap_get(&k->pnames, d->pid);
			if (v) {
				free(d->name);
				d->name = pt_xstrdup(pt_model_strget(m, (uint32_t)(*v - 1)));
			}
			continue;
		}
		d->pid = host_pid;
		for (size_t j = 0; j < k->props.n; j++) {
			const struct prop *p = &k->props.v[j];
			if (p->id != (int64_t)d->id)
				continue;
			if (p->name) {
				free(d->name);
				d->name = pt_xstrdup(p->name);
			}
			d->mem_bytes = p->mem > 0 ? (uint64_t)p->mem : 0;
			d->sm_count = p->sms > 0 && p->sms <= UINT32_MAX ? (uint32_t)p->sms : 0;
			d->cc_major = p->ccmaj > 0 && p->ccmaj <= UINT32_MAX ? (uint32_t)p->ccmaj : 0;
			d->cc_minor = p->ccmin > 0 && p->ccmin <= UINT32_MAX ? (uint32_t)p->ccmin : 0;
		}
	}
	int32_t sd = k->first_cpu != PT_NONE ? (int32_t)k->first_cpu : -1;
	pt_model_add_source(m, k->path, size, "kineto", sd);
	const struct { const char *key; uint64_t v; } s[] = {
		{ "kineto.events", k->nev },
		{ "kineto.imported_events", k->n_imported },
		{ "kineto.metadata_events", k->n_meta },
		{ "kineto.flow_events", k->n_flows },
		{ "kineto.event_args", k->n_args },
		{ "kineto.ignored_events", k->n_ignored },
		{ "kineto.python_functions_skipped", k->n_pyfunc },
		{ "kineto.gpu_user_annotations_skipped", k->n_gpu_ann },
		{ "kineto.negative_durations", k->n_neg_dur },
		{ "kineto.host_events_without_pid", k->n_no_pid },
		{ "kineto.host_events_of_other_processes_not_joined", k->n_unjoined },
		{ "kineto.gpu_events_without_device", k->n_no_device },
		{ "kineto.gpu_before_api", js.gpu_before_api },
		{ "kineto.gpu_without_api", js.gpu_without_api },
		{ "kineto.kernels_without_launch", js.kernels_without_launch },
		{ "kineto.correlation_duplicates", js.corr_dup },
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i].v || i < 2)
			pt_model_stat_set(m, sd, s[i].key, (int64_t)s[i].v);
	if (k->world > 0)
		pt_model_stat_set(m, sd, "kineto.world_size", k->world);
}

static void kt_free(struct kt *k)
{
	if (k->h)
		yajl_free(k->h);
	free(k->err);
	free(k->ev.name);
	free(k->ev.aname);
	free(k->ka.dims);
	free(k->ka.text);
	free(k->backend);
	for (size_t i = 0; i < k->props.n; i++)
		free(k->props.v[i].name);
	pt_vec_free(&k->props);
	free(k->cur_prop.name);
	pt_hashmap_free(&k->cpu);
	pt_hashmap_free(&k->gpu);
	pt_hashmap_free(&k->tracks);
	pt_hashmap_free(&k->pnames);
	pt_hashmap_free(&k->tnames);
	pt_hashmap_free(&k->names);
	pt_vec_free(&k->devs);
	pt_vec_free(&k->host_tracks);
	pt_vec_free(&k->ranges);
	if (k->join)
		pt_cjoin_free(k->join);
}

/* Parse error text from yajl, on one line, without its context excerpt. */
static void yajl_msg(yajl_handle h, char *out, size_t n)
{
	unsigned char *s = yajl_get_error(h, 0, NULL, 0);
	snprintf(out, n, "%s", s ? (const char *)s : "invalid JSON");
	if (s)
		yajl_free_error(h, s);
	for (char *p = out; *p; p++)
		if (*p == '\n')
			*p = ' ';
	size_t l = strlen(out);
	while (l && (out[l - 1] == ' ' || out[l - 1] == '.'))
		out[--l] = 0;
	if (!strncmp(out, "parse error: ", 13))
		memmove(out, out + 13, strlen(out + 13) + 1);
}

static int import_file(struct pt_model *m, const char *path, bool named, const struct pt_import_opts *o,
		       struct pt_diag *diag, struct pt_err **e)
{
	int fd;
	uint64_t size;
	gzFile g = open_gz(path, &fd, &size, e);
	if (!g)
		return -1;
	gzbuffer(g, 256u << 10);
	struct kt k;
	memset(&k, 0, sizeof(k));
	k.m = m;
	k.path = path;
	k.diag = diag;
	k.pyfunc = o && o->kineto_python_functions;
	k.e = e;
	k.gz = !gzdirect(g);
	k.rank = -1;
	k.world = -1;
	k.first_cpu = PT_NONE;
	k.last_key = UINT64_MAX;
	pt_hashmap_init(&k.cpu);
	pt_hashmap_init(&k.gpu);
	pt_hashmap_init(&k.tracks);
	pt_hashmap_init(&k.pnames);
	pt_hashmap_init(&k.tnames);
	pt_hashmap_init(&k.names);
	k.join = pt_cjoin_new(m);
	kw_build(&k.cats, cat_words, sizeof(cat_words) / sizeof(cat_words[0]));
	kw_build(&k.args, arg_words, sizeof(arg_words) / sizeof(arg_words[0]));
	k.h = yajl_alloc(&callbacks, NULL, &k);
	yajl_config(k.h, yajl_dont_validate_strings, 1);
	const char *where = k.gz ? " of the decompressed text" : "";
	/* read, never mapped: a file cut short while it is read is an error, not SIGBUS */
	unsigned char *buf = pt_xmalloc(KT_CHUNK);
	int rc = 0;
	for (;;) {
		size_t r;
		{
			int got = gzread(g, buf, KT_CHUNK);
			int zerr;
			const char *msg = gzerror(g, &zerr);
			if (got < 0) {
				rc = pt_err(e, "%s after byte %" PRIu64 "%s", zerr == Z_ERRNO ? strerror(errno) : msg, k.fed,
					    where);
				break;
			}
			struct stat now;
			if (!got && zerr != Z_OK && !fstat(fd, &now) && (uint64_t)now.st_size < size) {
				rc = pt_input_shrunk(path, (uint64_t)now.st_size, size, e); /* cut while read */
				break;
			}
			if (!got && zerr != Z_OK) { /* a gzip stream cut short or damaged */
				rc = pt_err(e, "truncated or damaged gzip data after byte %" PRIu64 "%s", k.fed, where);
				break;
			}
			r = (size_t)got;
			if (!k.fed)
				pt_input_test_shrink(path);
		}
		if (!r) { /* the end, short of the size the file had when opened: it was cut while read */
			z_off_t raw = k.gz ? gzoffset(g) : (z_off_t)k.fed;
			if (raw >= 0 && (uint64_t)raw < size) {
				rc = pt_input_shrunk(path, (uint64_t)raw, size, e);
				break;
			}
		}
		yajl_status ys = r ? yajl_parse(k.h, buf, r) : yajl_complete_parse(k.h);
		if (ys != yajl_status_ok) {
			if (k.err) {
				rc = pt_err(e, "%s%s", k.err, where);
			} else {
				char msg[256];
				yajl_msg(k.h, msg, sizeof(msg));
				uint64_t off = k.fed + yajl_get_bytes_consumed(k.h);
				rc = pt_err(e, "invalid JSON (%s) at byte %" PRIu64 "%s", msg, off, where);
			}
			break;
		}
		if (!r)
			break;
		k.fed += (uint64_t)r;
	}
	free(buf);
	gzclose(g);
	close(fd);
	if (!rc && !k.in_events_seen)
		rc = pt_err(e, "not a Kineto trace: no 'traceEvents' array");
	if (!rc)
		finish(&k, size);
	kt_free(&k);
	/* the caller names a lone PATH; among several, or in a directory, the failing file is named */
	if (rc && !named)
		pt_err(e, "'%s'", path);
	return rc;
}

/* ---- discovery -------------------------------------------------------------------------------- */

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

/* Whether the file's first bytes (decompressed when gzipped) are a Kineto trace's. */
static bool sniff_file(const char *path)
{
	int fd;
	uint64_t size;
	struct pt_err *ignored = NULL;
	gzFile g = open_gz(path, &fd, &size, &ignored);
	pt_err_free(ignored);
	if (!g)
		return false;
	char *b = pt_xmalloc(KT_HEAD);
	int n = gzread(g, b, KT_HEAD);
	gzclose(g);
	close(fd);
	bool ok = n > 0 && pt_kineto_sniff(b, (size_t)n);
	free(b);
	return ok;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pt_import_kineto(struct pt_model *m, const char *const *paths, int npaths, const struct pt_import_opts *o,
		     struct pt_diag *diag, struct pt_err **e)
{
	bool any = false;
	for (int i = 0; i < npaths; i++) {
		const char *p = paths[i];
		struct stat st;
		if (!strcmp(p, "-") || stat(p, &st))
			continue;
		if (S_ISREG(st.st_mode)) {
			if (!sniff_file(p))
				continue;
			if (import_file(m, p, npaths == 1, o, diag, e))
				return -1;
			any = true;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		DIR *dir = opendir(p);
		if (!dir)
			continue;
		char **names = NULL;
		size_t n = 0, cap = 0;
		struct dirent *de;
		while ((de = readdir(dir))) {
			if (de->d_name[0] == '.' || (!ends_with(de->d_name, ".json") && !ends_with(de->d_name, ".json.gz")))
				continue;
			char *full = pt_xasprintf("%s/%s", p, de->d_name);
			const char *odd = pt_input_not_regular(full);
			if (odd || !sniff_file(full)) {
				/* other importers also list *.json: only a trace's own name is ours to warn of */
				if (odd && (ends_with(de->d_name, ".pt.trace.json") || ends_with(de->d_name, ".pt.trace.json.gz")))
					pt_input_skip(diag, full, odd);
				free(full);
				continue;
			}
			pt_xgrow((void **)&names, &cap, n + 1, sizeof(*names));
			names[n++] = full;
		}
		closedir(dir);
		pt_sort(names, n, sizeof(*names), cmp_str);
		int rc = 0;
		for (size_t j = 0; j < n; j++) {
			if (!rc && import_file(m, names[j], false, o, diag, e))
				rc = -1;
			free(names[j]);
		}
		free(names);
		if (rc)
			return -1;
		any |= n > 0;
	}
	return any ? 0 : 1;
}
