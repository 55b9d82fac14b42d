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
 * The text is read from zlib's gzread, so plain and gzipped files are read
 * alike, a chunk at a time, cut into pieces that are each one JSON document and
 * parsed by simdjson (kineto-json.cc, the reader below): memory holds the model,
 * the joins' small records and a chunk or two of text, never the whole text.
 * This file reads: the sniff, the pieces and the parser's callbacks and value handlers
 * (which collect one event at a time in struct kt, kineto-internal.h; kineto-json.cc's
 * event walker calls the handlers directly), files and directories;
 * kineto-events.c maps each complete event onto the model.
 */
#define _GNU_SOURCE /* memmem */
#include "import/import-kineto.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "import/import-cupti-join.h"
#include "import/input.h"
#include "import/kineto-internal.h"
#include "import/kineto-json.h"
#include "import/registry.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/progress.h"
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

int pt_kt_fail(struct kt *k, const char *fmt, ...)
{
	if (k->err)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	char b[512];
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	k->err = pt_xstrdup(b);
	return 0; /* stops the parse */
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

/* ---- the parser's callbacks ----------------------------------------------------------------------- */

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
	E("Seq", AK_SEQ),             E("cbid", AK_CBID),
};

/* Enter a value that is skipped whole (its nesting counted), then return to `ret`. */
static int skip_container(struct kt *k, enum state ret)
{
	k->skip = 1;
	k->skip_ret = ret;
	return 1;
}

void pt_kt_event_begin(struct kt *k)
{
	struct kev *ev = &k->ev;
	memset(ev, 0, offsetof(struct kev, a));
	if (ev->name)
		ev->name[0] = 0;
	k->ka.has_dims = k->ka.has_types = false;
	k->ka.ncv = 0;
	k->ka.tlen = 0;
	ev->off = k->pos; /* the event's '{' */
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

/*
 * Whether the event's ph and cat, as far as read, already say that pt_kt_event_done()
 * will not import it (a flow, an ignored or skipped category): its other fields are then
 * not converted (most flows write ph first). ph 'M' and 'X' with a kept category are read.
 */
static bool dropped(const struct kt *k, const struct kev *ev)
{
	if (!ev->ph || ev->ph == 'M')
		return false; /* metadata, or not known yet */
	if (ev->ph == 's' || ev->ph == 'f' || ev->ph == 't')
		return true; /* a flow */
	enum cat c = ev->cat;
	if (c == C_NONE)
		return false;
	return c == C_FLOW || ev->ph != 'X' || c == C_OTHER || (c == C_PYFUNC && !k->pyfunc) ||
	       c == C_GPU_USER_ANN;
}

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

static const int64_t pow10_3[4] = { 1, 10, 100, 1000 };

/* A number's value in units of 10^-scale (scale ≤ 3): from the digits its check read when they are
 * plain, otherwise from its text; as pt_kineto_decimal(). */
static bool num_value(const struct pt_kt_json_num *d, const unsigned char *s, size_t n, int scale, int64_t *out)
{
	if (d && d->plain && d->nfrac <= (uint32_t)scale) {
		int64_t v = (int64_t)d->mant * pow10_3[scale - (int)d->nfrac];
		*out = d->neg ? -v : v;
		return true;
	}
	return pt_kineto_decimal((const char *)s, n, scale, out);
}

enum argkey pt_kt_argkey(const struct kt *k, const unsigned char *s, size_t n)
{
	return (enum argkey)kw_find(&k->args, s, n, AK_OTHER);
}

int pt_kt_scalar(struct kt *k, enum stype ty, const unsigned char *s, size_t n, const struct pt_kt_json_num *d)
{
	if (k->skip)
		return 1;
	struct kev *ev = &k->ev;
	switch (k->st) {
	case S_TOP0:
		return pt_kt_fail(k, "not a Kineto trace: the JSON text is not an object at byte 0");
	case S_TOPVAL:
		k->st = S_TOP;
		if (k->tk == TK_EVENTS)
			return pt_kt_fail(k, "'traceEvents' is not an array at byte %" PRIu64,
				    k->pos);
		if (k->tk == TK_BASE) {
			int64_t b;
			if (ty != V_NUM || !int_text((const char *)s, n) || !pt_kineto_decimal((const char *)s, n, 0, &b))
				return pt_kt_fail(k, "'baseTimeNanoseconds' is not an integer at byte %" PRIu64,
					    k->pos);
			if (k->in_events_seen) {
				/* after the events: the tail probe must have found this very value */
				if (!k->base_known || b != k->base)
					return pt_kt_fail(k, "'baseTimeNanoseconds' after the events (%" PRId64
						       ") differs from the value found before them at byte %" PRIu64,
						    b, k->pos);
			}
			k->base = b;
			k->base_known = true;
			k->base_seen = true;
		}
		return 1;
	case S_EVENTS:
		return pt_kt_fail(k, "event %zu is not an object at byte %" PRIu64, k->nev + 1,
			    k->pos);
	case S_EVVAL:
		k->st = S_EV;
		switch (k->ek) {
		case EK_PH:
			ev->ph = ty == V_STR && n ? (char)s[0] : '?';
			ev->drop = dropped(k, ev);
			break;
		case EK_CAT:
			ev->cat = ty == V_STR ? (enum cat)kw_find(&k->cats, s, n, C_OTHER) : C_OTHER;
			ev->drop = dropped(k, ev);
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
				ok = num_value(d, s, n, 0, &v);
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
				st = num_value(d, s, n, 3, &v) ? T_OK : T_RANGE;
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
			if (num_value(d, s, n, 0, &v)) {
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
		if (ty == V_NUM && num_value(d, s, n, 0, &v) && v >= INT32_MIN && v <= INT32_MAX) {
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
		bool num = ty == V_NUM && num_value(d, s, n, 0, &v);
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
		default:
			if (k->pk >= PK_LIM && k->pk < PK_LIM + KT_NLIM && num)
				p->lim[k->pk - PK_LIM] = v;
			break;
		}
		return 1;
	}
	case S_DISTVAL: {
		k->st = S_DIST;
		int64_t v;
		if (k->dk == DK_BACKEND && ty == V_STR) {
			free(k->backend);
			k->backend = pt_xstrndup((const char *)s, n);
		} else if (ty == V_NUM && num_value(d, s, n, 0, &v)) {
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
	return pt_kt_scalar(c, V_NULL, NULL, 0, NULL);
}
static int cb_bool(void *c, int b)
{
	(void)b;
	return pt_kt_scalar(c, V_BOOL, NULL, 0, NULL);
}
static int cb_number(void *c, const char *s, size_t n, const struct pt_kt_json_num *d)
{
	return pt_kt_scalar(c, V_NUM, (const unsigned char *)s, n, d);
}
static int cb_string(void *c, const unsigned char *s, size_t n)
{
	return pt_kt_scalar(c, V_STR, s, n, NULL);
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
			return pt_kt_fail(k, "'traceEvents' is not an array at byte %" PRIu64,
				    k->pos);
		return skip_container(k, S_TOP);
	case S_EVENTS:
		pt_kt_event_begin(k);
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
		k->st = S_EVVAL;
		if (k->ev.drop) /* every other key (a repeated ph or cat too) is skipped */
			break;
		if (n == 2)
			k->ek = s[0] == 'p' && s[1] == 'h' ? EK_PH : s[0] == 't' && s[1] == 's' ? EK_TS : EK_OTHER;
		else if (n == 3 && s[1] == 'i' && s[2] == 'd')
			k->ek = s[0] == 'p' ? EK_PID : s[0] == 't' ? EK_TID : EK_OTHER;
		else if (n == 3)
			k->ek = !memcmp(s, "cat", 3) ? EK_CAT : !memcmp(s, "dur", 3) ? EK_DUR : EK_OTHER;
		else if (n == 4)
			k->ek = !memcmp(s, "name", 4) ? EK_NAME : !memcmp(s, "args", 4) ? EK_ARGS : EK_OTHER;
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
		for (int i = 0; k->pk == PK_OTHER && i < KT_NLIM; i++)
			if (n == strlen(pt_kt_lim_keys[i]) && !memcmp(s, pt_kt_lim_keys[i], n))
				k->pk = (enum propkey)(PK_LIM + i);
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
		return pt_kt_event_done(k);
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
		return pt_kt_fail(k, "not a Kineto trace: the JSON text is an array, not an object, at byte 0");
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
		return pt_kt_fail(k, "event %zu is not an object at byte %" PRIu64, k->nev + 1,
			    k->pos);
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

/* Whether the callbacks read the next value: values they would skip are only checked, and
 * the state moves past them here (as pt_kt_scalar() would for them). */
static int cb_wanted(void *c)
{
	struct kt *k = c;
	if (k->skip)
		return 0;
	if (k->st == S_EVVAL && k->ek == EK_OTHER) {
		k->st = S_EV;
		return k->ev.drop ? -1 : 0; /* nothing more of a dropped event is read */
	}
	if (k->st == S_ARGVAL && k->ak == AK_OTHER) {
		k->st = S_ARGS;
		return 0;
	}
	return 1;
}

static const struct pt_kt_json_cb callbacks = {
	cb_null, cb_bool, cb_number, cb_string, cb_start_map, cb_map_key, cb_end_map, cb_start_array, cb_end_array,
	cb_wanted,
};

/* ---- one file -------------------------------------------------------------------------------- */

static void kt_free(struct kt *k)
{
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
	pt_hashmap_free(&k->cbids);
	pt_vec_free(&k->gpu_ext);
	free(k->api_ext);
	free(k->names);
	pt_vec_free(&k->devs);
	pt_vec_free(&k->host_tracks);
	pt_vec_free(&k->ranges);
	if (k->join)
		pt_cjoin_free(k->join);
}

/*
 * The reader: the text, read a chunk at a time, is cut into pieces that are each one JSON
 * document for the parser (kineto-json.cc), all of it parsed there. A scanner follows the
 * strings and the nesting depth of the text; it cuts
 *  - each top-level member: written in place as "{" member "}" (over the '{' or ',' before it
 *    and the ',' or '}' after it);
 *  - the traceEvents array into batches of the complete events in the buffer: written in
 *    place as "[" events "]" (over the '[' or ',' before them and the byte after the last).
 * The scanner checks what lies between the pieces (the separators, the closing brackets, the
 * end of the text); the parser checks every piece whole.
 */
enum jmode { J_START, J_MEMBERS, J_EVENTS, J_AFTER, J_END };

struct jr {
	struct pt_kt_json *p;
	char *b;             /* b[0 .. n) is the text from file offset base */
	size_t n, cap;
	uint64_t base;
	enum jmode mode;
	uint32_t depth;      /* of the brackets outside strings */
	bool instr, esc;
	uint64_t str_at;     /* the open string's quote */
	uint64_t from;       /* J_MEMBERS: the '{' or ',' before the member; J_EVENTS: the '[' before the
	                      * first batch, or the end of the previous batch (comma: a ',' is due there) */
	bool comma;
	bool members;        /* J_MEMBERS: a member was read */
	uint64_t last;       /* J_EVENTS: the end of the last complete event scanned (0: none) */
	uint64_t ev_at;      /* J_EVENTS: the '{' of the event being scanned */
	uint64_t bad;        /* 1 + the offset of a control character in a string (JSON wants it escaped) */
	const char *where;   /* " of the decompressed text" or "" */
};

#define JR(r, off) ((r)->b[(off) - (r)->base])

static bool ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Parse the piece JR[at .. to], its first and last byte written over with the piece's brackets. */
static int piece(struct kt *k, struct jr *r, enum pt_kt_json_kind kind, uint64_t at, uint64_t to, size_t *nitems)
{
	char *p = &JR(r, at), *q = &JR(r, to), save = *q;
	*p = kind == PT_KT_JSON_MEMBER ? '{' : '[';
	*q = kind == PT_KT_JSON_MEMBER ? '}' : ']';
	char msg[128];
	size_t len = (size_t)(to - at) + 1;
	int rc = pt_kt_json_parse(r->p, kind, p, len, r->cap - (size_t)(at - r->base), &callbacks, k, at, &k->pos,
				  nitems, msg, sizeof(msg));
	*q = save;
	if (rc > 0)
		return pt_err(k->e, "%s%s", k->err, r->where);
	if (rc < 0)
		return pt_err(k->e, "invalid JSON (%s) at byte %" PRIu64 "%s", msg, k->pos, r->where);
	return 0;
}

/* The events from r->from up to `to` (exclusive; the events' ']' when final). */
static int batch(struct kt *k, struct jr *r, uint64_t to, bool final)
{
	uint64_t at = r->from;
	if (r->comma) {
		while (at < to && ws(JR(r, at)))
			at++;
		if (at == to && final)
			return 0;
		if (JR(r, at) != ',')
			return pt_err(k->e, "invalid JSON (',' or ']' expected after event %zu) at byte %" PRIu64 "%s",
				      k->nev, at, r->where);
	}
	size_t n;
	if (piece(k, r, PT_KT_JSON_EVENTS, at, to, &n))
		return -1;
	if (!n && r->comma)
		return pt_err(k->e, "invalid JSON (an event expected after ',') at byte %" PRIu64 "%s", to, r->where);
	r->from = to;
	r->comma = true;
	r->last = 0;
	return 0;
}

/* The member between r->from and `to` (its ',' or '}'); an empty one is an error unless the object is "{}". */
static int member(struct kt *k, struct jr *r, uint64_t to, bool close)
{
	uint64_t i = r->from + 1;
	while (i < to && ws(JR(r, i)))
		i++;
	if (i == to) {
		if (close && !r->members)
			return 0;
		return pt_err(k->e, "invalid JSON (a member expected %s) at byte %" PRIu64 "%s",
			      r->members ? "after ','" : "before ','", to, r->where);
	}
	size_t n;
	if (piece(k, r, PT_KT_JSON_MEMBER, r->from, to, &n))
		return -1;
	r->members = true;
	r->from = to;
	return 0;
}

/* Whether the text before a member's '[' is exactly "traceEvents" and its ':' (streamed in batches). */
static bool events_key(const struct jr *r, uint64_t from, uint64_t to)
{
	static const char key[] = "\"traceEvents\"";
	uint64_t i = from + 1;
	while (i < to && ws(JR(r, i)))
		i++;
	if (to - i < sizeof(key) - 1 || memcmp(&JR(r, i), key, sizeof(key) - 1))
		return false;
	i += sizeof(key) - 1;
	while (i < to && ws(JR(r, i)))
		i++;
	if (i >= to || JR(r, i) != ':')
		return false;
	for (i++; i < to; i++)
		if (!ws(JR(r, i)))
			return false;
	return true;
}

static int stopped(struct kt *k, struct jr *r)
{
	return pt_err(k->e, "%s%s", k->err, r->where);
}

/* The end of the traceEvents array at `at` (its ']', or a '}' that is an error). */
static int events_end(struct kt *k, struct jr *r, uint64_t at)
{
	char c = JR(r, at);
	JR(r, at) = ']';
	int rc = batch(k, r, at, true);
	JR(r, at) = c;
	if (rc)
		return -1;
	if (c != ']')
		return pt_err(k->e, "invalid JSON ('%c' where ']' closes traceEvents) at byte %" PRIu64 "%s", c, at,
			      r->where);
	k->pos = at;
	if (!cb_end_array(k))
		return stopped(k, r);
	r->mode = J_AFTER;
	return 0;
}

/* A control character inside a string: the scan stops there (the caller reports it). */
static uint64_t ctl_char(struct jr *r, uint64_t i)
{
	r->bad = i + 1;
	return i;
}

static int ctl_error(struct kt *k, struct jr *r)
{
	return pt_err(k->e, "invalid JSON (a control character not escaped in a string) at byte %" PRIu64 "%s",
		      r->bad - 1, r->where);
}

/* The scanner outside the events, a byte at a time, from offset i; returns the next offset or UINT64_MAX. */
static uint64_t scan_top(struct kt *k, struct jr *r, uint64_t i, uint64_t end)
{
	for (; i < end; i++) {
		char c = JR(r, i);
		if (r->instr) {
			if (r->esc)
				r->esc = false;
			else if (c == '\\')
				r->esc = true;
			else if (c == '"')
				r->instr = false;
			else if ((unsigned char)c < 0x20)
				return ctl_char(r, i);
			continue;
		}
		if (ws(c))
			continue;
		switch (r->mode) {
		case J_START:
			if (i == 0 && end >= 3 && !memcmp(r->b, "\xef\xbb\xbf", 3)) {
				i += 2; /* a UTF-8 byte order mark */
				continue;
			}
			if (c == '[') {
				pt_err(k->e, "not a Kineto trace: the JSON text is an array, not an object, at byte %" PRIu64
				       "%s", i, r->where);
				return UINT64_MAX;
			}
			if (c != '{') {
				pt_err(k->e, "not a Kineto trace: the JSON text is not an object at byte %" PRIu64 "%s", i,
				       r->where);
				return UINT64_MAX;
			}
			r->depth = 1;
			r->mode = J_MEMBERS;
			r->from = i;
			k->pos = i;
			if (!cb_start_map(k)) {
				stopped(k, r);
				return UINT64_MAX;
			}
			continue;
		case J_END:
			pt_err(k->e, "invalid JSON (text after the top-level object) at byte %" PRIu64 "%s", i, r->where);
			return UINT64_MAX;
		case J_AFTER:
			if (c != ',' && c != '}') {
				pt_err(k->e, "invalid JSON (',' or '}' expected after traceEvents) at byte %" PRIu64 "%s", i,
				       r->where);
				return UINT64_MAX;
			}
			break;
		default:
			break;
		}
		if (c == '"') {
			r->instr = true;
			r->str_at = i;
		} else if (c == '{' || c == '[') {
			if (++r->depth == 2 && c == '[' && events_key(r, r->from, i)) {
				/* traceEvents: its key and '[' to the callbacks, then the events in batches */
				k->pos = r->from + 1;
				while (ws(JR(r, k->pos)))
					k->pos++;
				if (!cb_map_key(k, (const unsigned char *)"traceEvents", 11)) {
					stopped(k, r);
					return UINT64_MAX;
				}
				k->pos = i;
				if (!cb_start_array(k)) {
					stopped(k, r);
					return UINT64_MAX;
				}
				r->mode = J_EVENTS;
				r->from = i;
				r->comma = false;
				r->last = 0;
				return i + 1;
			}
		} else if (c == '}' || c == ']') {
			if (--r->depth)
				continue;
			if (r->mode == J_MEMBERS) {
				char save = c;
				JR(r, i) = '}';
				int rc = member(k, r, i, true);
				JR(r, i) = save;
				if (rc)
					return UINT64_MAX;
			}
			if (c != '}') {
				pt_err(k->e, "invalid JSON (']' where '}' closes the top-level object) at byte %" PRIu64 "%s", i,
				       r->where);
				return UINT64_MAX;
			}
			k->pos = i;
			if (!cb_end_map(k)) {
				stopped(k, r);
				return UINT64_MAX;
			}
			r->mode = J_END;
		} else if (c == ',' && r->depth == 1) {
			if (r->mode == J_AFTER) {
				r->mode = J_MEMBERS;
				r->from = i;
				r->members = true;
			} else if (member(k, r, i, false)) {
				return UINT64_MAX;
			}
		}
	}
	return i;
}

/* The events' scanner, a byte at a time: depth and strings; complete events and the array's end. */
static uint64_t scan_events_bytes(struct jr *r, uint64_t i, uint64_t end, bool *ended)
{
	for (; i < end; i++) {
		char c = JR(r, i);
		if (r->instr) {
			if (r->esc)
				r->esc = false;
			else if (c == '\\')
				r->esc = true;
			else if (c == '"')
				r->instr = false;
			else if ((unsigned char)c < 0x20)
				return ctl_char(r, i);
			continue;
		}
		if (c == '"') {
			r->instr = true;
			r->str_at = i;
		} else if (c == '{' || c == '[') {
			if (++r->depth == 3)
				r->ev_at = i;
		} else if (c == '}' || c == ']') {
			if (--r->depth == 2) {
				r->last = i + 1;
			} else if (r->depth == 1) {
				*ended = true;
				return i;
			}
		}
	}
	return i;
}

#ifdef __SSE2__
#include <emmintrin.h>
/* The bytes of p[0 .. 64) that are a backslash, a quote, an opening and a closing bracket, a
 * control character: one bit each ('[' and '{', ']' and '}' differ only in bit 5). */
struct masks64 {
	uint64_t bs, q, open, close, ctl;
};

static void masks64(const char *p, struct masks64 *m)
{
	const __m128i bs = _mm_set1_epi8('\\'), q = _mm_set1_epi8('"'), ob = _mm_set1_epi8('{'),
		      cb = _mm_set1_epi8('}'), b5 = _mm_set1_epi8(0x20), c1f = _mm_set1_epi8(0x1f);
	memset(m, 0, sizeof(*m));
	for (int j = 0; j < 4; j++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * j)), l = _mm_or_si128(v, b5);
		int sh = 16 * j;
		m->bs |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, bs)) << sh;
		m->q |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, q)) << sh;
		m->open |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, ob)) << sh;
		m->close |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, cb)) << sh;
		m->ctl |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, c1f), v)) << sh;
	}
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define KT_AVX2 1
/* masks64() with AVX2, 32 bytes a compare; with AVX-512 (BW), 64 bytes a compare straight into the
 * masks. The machine's best, when it has it (for the tests, the environment's PT_TEST_KINETO_SSE2
 * forces SSE2, PT_TEST_KINETO_AVX2 AVX2) */
__attribute__((target("avx2"))) static void masks64_avx2(const char *p, struct masks64 *m)
{
	const __m256i bs = _mm256_set1_epi8('\\'), q = _mm256_set1_epi8('"'), ob = _mm256_set1_epi8('{'),
		      cb = _mm256_set1_epi8('}'), b5 = _mm256_set1_epi8(0x20), c1f = _mm256_set1_epi8(0x1f);
	memset(m, 0, sizeof(*m));
	for (int j = 0; j < 2; j++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + 32 * j)), l = _mm256_or_si256(v, b5);
		int sh = 32 * j;
		m->bs |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, bs)) << sh;
		m->q |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, q)) << sh;
		m->open |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(l, ob)) << sh;
		m->close |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(l, cb)) << sh;
		m->ctl |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(v, c1f), v)) << sh;
	}
}

__attribute__((target("avx512f,avx512bw"))) static void masks64_avx512(const char *p, struct masks64 *m)
{
	__m512i v = _mm512_loadu_si512((const void *)p), l = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
	m->bs = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
	m->q = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
	m->open = _mm512_cmpeq_epi8_mask(l, _mm512_set1_epi8('{'));
	m->close = _mm512_cmpeq_epi8_mask(l, _mm512_set1_epi8('}'));
	m->ctl = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
}
#endif

enum kt_simd { KT_SSE2, KT_AVX2_ONLY, KT_AVX512 };

/*
 * The events' scanner from offset i to end: 64 bytes at a time with SSE2, AVX2 or AVX-512 (simd)
 * (the quotes to an in-string mask by a prefix xor, then the brackets outside strings one by one;
 * a block with a backslash, or after one, byte by byte). *ended: stopped at the bracket that
 * closes the array.
 */
static inline __attribute__((always_inline)) uint64_t scan_events_blocks(struct jr *r, uint64_t i, uint64_t end,
									 bool *ended, enum kt_simd simd)
{
	(void)simd;
	*ended = false;
#ifdef __SSE2__
	while (i + 64 <= end) {
		struct masks64 m;
#ifdef KT_AVX2
		if (simd == KT_AVX512)
			masks64_avx512(&JR(r, i), &m);
		else if (simd == KT_AVX2_ONLY)
			masks64_avx2(&JR(r, i), &m);
		else
#endif
			masks64(&JR(r, i), &m);
		if (m.bs || r->esc) {
			i = scan_events_bytes(r, i, i + 64, ended);
			if (*ended || r->bad)
				return i;
			continue;
		}
		uint64_t q = m.q, x = q;
		x ^= x << 1;
		x ^= x << 2;
		x ^= x << 4;
		x ^= x << 8;
		x ^= x << 16;
		x ^= x << 32;
		if (r->instr)
			x = ~x;
		bool instr_end = x >> 63;
		if (instr_end && q)
			r->str_at = i + 63 - (uint64_t)__builtin_clzll(q); /* the last quote opens the string */
		uint64_t ctl = m.ctl & x; /* control characters inside strings */
		uint64_t below = ctl ? (ctl & -ctl) - 1 : ~(uint64_t)0;
		uint64_t open = m.open & ~x, close = m.close & ~x;
		for (uint64_t br = (open | close) & below; br; br &= br - 1) {
			int t = __builtin_ctzll(br);
			if (open >> t & 1) {
				if (++r->depth == 3)
					r->ev_at = i + (uint64_t)t;
			} else if (--r->depth == 2) {
				r->last = i + (uint64_t)t + 1;
			} else if (r->depth == 1) {
				*ended = true;
				r->instr = false;
				return i + (uint64_t)t;
			}
		}
		if (ctl)
			return ctl_char(r, i + (uint64_t)__builtin_ctzll(ctl));
		r->instr = instr_end;
		i += 64;
	}
#endif
	return scan_events_bytes(r, i, end, ended);
}

#ifdef KT_AVX2
__attribute__((target("avx2"))) static uint64_t scan_events_avx2(struct jr *r, uint64_t i, uint64_t end, bool *ended)
{
	return scan_events_blocks(r, i, end, ended, KT_AVX2_ONLY);
}

__attribute__((target("avx512f,avx512bw"))) static uint64_t scan_events_avx512(struct jr *r, uint64_t i, uint64_t end,
									      bool *ended)
{
	return scan_events_blocks(r, i, end, ended, KT_AVX512);
}
#endif

static uint64_t scan_events(struct jr *r, uint64_t i, uint64_t end, bool *ended)
{
#ifdef KT_AVX2
	static int simd = -1;
	if (simd < 0) {
		simd = KT_SSE2;
		if (__builtin_cpu_supports("avx2") && !getenv("PT_TEST_KINETO_SSE2"))
			simd = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
					       !getenv("PT_TEST_KINETO_AVX2")
				       ? KT_AVX512
				       : KT_AVX2_ONLY;
	}
	if (simd == KT_AVX512)
		return scan_events_avx512(r, i, end, ended);
	if (simd == KT_AVX2_ONLY)
		return scan_events_avx2(r, i, end, ended);
#endif
	return scan_events_blocks(r, i, end, ended, KT_SSE2);
}

/* Scan and parse the text in the buffer from offset `scan`; 0, or -1 with the error in k->e. */
static int feed(struct kt *k, struct jr *r, uint64_t scan)
{
	uint64_t end = r->base + r->n;
	while (scan < end) {
		if (r->mode == J_EVENTS) {
			bool ended;
			scan = scan_events(r, scan, end, &ended);
			if (r->bad) /* the complete events before it first */
				return (r->last && batch(k, r, r->last, false)) ? -1 : ctl_error(k, r);
			if (!ended)
				break;
			if (events_end(k, r, scan))
				return -1;
			scan++;
		} else {
			scan = scan_top(k, r, scan, end);
			if (scan == UINT64_MAX)
				return -1;
			if (r->bad)
				return ctl_error(k, r);
		}
	}
	/* the complete events read so far: parsed now, the rest carried over */
	if (r->mode == J_EVENTS && r->last)
		return batch(k, r, r->last, false);
	return 0;
}

/* Drop the text that no piece needs any more. */
static void compact(struct jr *r)
{
	uint64_t keep = r->base + r->n;
	if (r->mode == J_MEMBERS || r->mode == J_EVENTS)
		keep = r->from;
	size_t d = (size_t)(keep - r->base);
	memmove(r->b, r->b + d, r->n - d);
	r->n -= d;
	r->base = keep;
}

/* At the end of the text: what is left open is an error. */
static int text_end(struct kt *k, struct jr *r)
{
	uint64_t at = r->base + r->n;
	if (r->mode == J_END)
		return 0;
	if (r->mode == J_START)
		return pt_err(k->e, "invalid JSON (no JSON text) at byte %" PRIu64 "%s", at, r->where);
	if (r->instr)
		return pt_err(k->e, "invalid JSON (the text ends inside the string from byte %" PRIu64 ") at byte %" PRIu64
			      "%s", r->str_at, at, r->where);
	if (r->mode == J_EVENTS && r->depth > 2)
		return pt_err(k->e, "invalid JSON (the text ends inside event %zu, from byte %" PRIu64 ") at byte %" PRIu64
			      "%s", k->nev + 1, r->ev_at, at, r->where);
	if (r->mode == J_EVENTS)
		return pt_err(k->e, "invalid JSON (the text ends before the ']' of traceEvents) at byte %" PRIu64 "%s", at,
			      r->where);
	if (r->depth > 1)
		return pt_err(k->e, "invalid JSON (the text ends inside the member from byte %" PRIu64 ") at byte %" PRIu64
			      "%s", r->from + 1, at, r->where);
	return pt_err(k->e, "invalid JSON (the text ends before the top-level object's '}') at byte %" PRIu64 "%s", at,
		      r->where);
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
	k.last_key[0] = k.last_key[1] = UINT64_MAX;
	pt_hashmap_init(&k.cpu);
	pt_hashmap_init(&k.gpu);
	pt_hashmap_init(&k.tracks);
	pt_hashmap_init(&k.pnames);
	pt_hashmap_init(&k.tnames);
	pt_hashmap_init(&k.cbids);
	k.ext0 = m->ext_corr.n;
	k.names = pt_xcalloc(KT_NAME_SLOTS, sizeof(*k.names));
	k.join = pt_cjoin_new(m);
	kw_build(&k.cats, cat_words, sizeof(cat_words) / sizeof(cat_words[0]));
	kw_build(&k.args, arg_words, sizeof(arg_words) / sizeof(arg_words[0]));
	struct jr r;
	memset(&r, 0, sizeof(r));
	r.p = pt_kt_json_new();
	r.where = k.gz ? " of the decompressed text" : "";
	size_t pad = pt_kt_json_padding();
	/* read, never mapped: a file cut short while it is read is an error, not SIGBUS */
	int rc = 0;
	for (;;) {
		if (r.n + KT_CHUNK + pad > r.cap) {
			size_t c = r.cap ? r.cap : 2 * KT_CHUNK;
			while (c < r.n + KT_CHUNK + pad)
				c *= 2;
			r.b = pt_xrealloc(r.b, c);
			r.cap = c;
		}
		int got = gzread(g, r.b + r.n, KT_CHUNK);
		int zerr;
		const char *msg = gzerror(g, &zerr);
		if (got < 0) {
			rc = pt_err(e, "%s after byte %" PRIu64 "%s", zerr == Z_ERRNO ? strerror(errno) : msg, k.fed, r.where);
			break;
		}
		struct stat now;
		if (!got && zerr != Z_OK && !fstat(fd, &now) && (uint64_t)now.st_size < size) {
			rc = pt_input_shrunk(path, (uint64_t)now.st_size, size, e); /* cut while read */
			break;
		}
		if (!got && zerr != Z_OK) { /* a gzip stream cut short or damaged */
			rc = pt_err(e, "truncated or damaged gzip data after byte %" PRIu64 "%s", k.fed, r.where);
			break;
		}
		if (!k.fed)
			pt_input_test_shrink(path);
		if (!got) { /* the end, short of the size the file had when opened: it was cut while read */
			z_off_t raw = k.gz ? gzoffset(g) : (z_off_t)k.fed;
			if (raw >= 0 && (uint64_t)raw < size) {
				rc = pt_input_shrunk(path, (uint64_t)raw, size, e);
				break;
			}
			rc = text_end(&k, &r);
			break;
		}
		uint64_t scan = r.base + r.n;
		r.n += (size_t)got;
		k.fed += (uint64_t)got;
		if ((rc = feed(&k, &r, scan)))
			break;
		compact(&r);
		z_off_t raw = k.gz ? gzoffset(g) : (z_off_t)k.fed; /* bytes of the file, as its size counts them */
		pt_progress_report(path, raw >= 0 ? (uint64_t)raw : 0, size);
	}
	pt_progress_end();
	free(r.b);
	pt_kt_json_free(r.p);
	gzclose(g);
	close(fd);
	if (!rc && !k.in_events_seen)
		rc = pt_err(e, "not a Kineto trace: no 'traceEvents' array");
	if (!rc)
		pt_kt_finish(&k, size);
	kt_free(&k);
	/* the caller names a lone PATH; among several, or in a directory, the failing file is named */
	if (rc && !named)
		pt_err(e, "'%s'", path);
	return rc;
}

/* ---- discovery -------------------------------------------------------------------------------- */

bool pt_kineto_sniff_file(const char *path)
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

int pt_import_kineto(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		     struct pt_diag *diag, struct pt_err **e)
{
	bool any = false;
	for (size_t i = 0; i < in->n; i++) {
		if (in->v[i].skip) {
			pt_input_skip(diag, in->v[i].path, in->v[i].skip);
			continue;
		}
		if (import_file(m, in->v[i].path, in->v[i].named, o, diag, e))
			return -1;
		any = true;
	}
	return any ? 0 : 1;
}
