/*
 * MindSpore GPU profiler directory importer. The files and their units, as
 * MindSpore's writer (mindspore/ccsrc/profiler/device/gpu/gpu_data_saver.cc,
 * profiler/device/data_saver.cc, gpu_profiling.cc) writes them and
 * MindInsight's GPU analysers (GpuFrameWorkParser, GpuStepTraceParser,
 * GpuTimelineGenerator) read them; <d> is the CUDA device id:
 *
 *   activity_execute_timestamp_<d>.txt  one line per kernel execution,
 *       `NAME;STREAM;START;DURATION`: NAME the demangled kernel name without
 *       its "void " return type, STREAM the CUDA stream id, START the CUPTI
 *       timestamp in ns (an integer), DURATION in µs as a C++ float text
 *       (six significant digits: "3.456", "1234.57", "1.23457e+06").
 *   gpu_op_execute_timestamp_<d>.txt  (MindSpore 1.0: op_execute_timestamp_<d>.txt,
 *       tag "Ops") one line per op, `FULL_NAME;GpuOps;START,DUR START,DUR ...`:
 *       START the CUPTI timestamp in ns when the op's launch began, DUR µs
 *       (float text): host time of the launch, or with sync profiling the
 *       op's CUDA event time.
 *   gpu_op_detail_info_<d>.csv  op_side,op_type,op_name,op_full_name,
 *       op_occurrences,op_total_time(us),op_avg_time(us),total_proportion,
 *       cuda_activity_cost_time(us),cuda_activity_call_count
 *   gpu_op_type_info_<d>.csv  op_type,type_occurrences,total_time(us),
 *       total_proportion,avg_time(us)
 *   gpu_activity_data_<d>.csv  name,type,op_full_name,stream_id,block_dim,
 *       grid_dim,occurrences,total_duration(us),avg_duration(us),
 *       max_duration(us),min_duration(us) (one row per kernel name; block and
 *       grid as "x,y,z" in quotes)
 *   step_trace_profiling_<d>.txt  two layouts:
 *       graph mode (GpuDataSaver::WriteStepTrace): one line per point, the
 *       fp start op, the bp end op, the iteration end op, then each
 *       communication op: `OP_NAME START,END START,END ...`, one pair per
 *       step, in units of 10 ns (CUPTI ns / 10, truncated);
 *       MindRT (WriteStepTraceAsyncLaunchKernel): one line per step,
 *       `ITER_START,T FP_START,T BP_END,T ITER_END,T [COMM,START,END]...`
 *       in ns (ITER_END's T is the end of that op; BP_END's the start of it).
 *   start_time_<d>.txt  `host_monotonic_raw_time(ns): N` and
 *       `gpu_start_time(ns): N`: the host CLOCK_MONOTONIC_RAW and the CUPTI
 *       clock read together at profiler start.
 *
 * The model (model.h), as the CUPTI and Kineto importers map GPU data:
 * one PT_DEV_GPU device <d> (clock "cupti") whose kernels are PT_EV_KERNEL
 * events on its stream tracks, with the launch configuration of their name
 * from gpu_activity_data; one PT_DEV_CPU device <d> (the host) whose op
 * executions are `Operator` PT_EV_RANGE events, each with its framework op,
 * on one host-thread track; step trace steps are struct pt_step rows of the
 * GPU device (times in ns: graph-mode values × 10), communication ops their
 * comm spans; start_time gives the clock offset cupti → host-monotonic-raw.
 * MindData files beside them are the MindData importer's: it attaches them
 * to the GPU device of their number.
 *
 * Any line that does not parse, an unknown header or tag, a missing
 * start_time_<d>.txt beside the activity file are errors naming the file and
 * line: the import fails.
 */
#include "import/import-msgpu.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import/import-kineto.h"
#include "import/input.h"
#include "import/registry.h"
#include "import/slices.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/parse.h"
#include "support/sort.h"
#include "support/xalloc.h"

static const char *const prefixes[PT_MSK__N] = {
	"activity_execute_timestamp_", "gpu_op_execute_timestamp_", "op_execute_timestamp_",
	"gpu_op_detail_info_",         "gpu_op_type_info_",         "gpu_activity_data_",
	"step_trace_profiling_",       "start_time_",
};
static const char *const exts[PT_MSK__N] = { ".txt", ".txt", ".txt", ".csv", ".csv", ".csv", ".txt", ".txt" };

static const char hdr_detail[] = "op_side,op_type,op_name,op_full_name,op_occurrences,op_total_time(us),"
				 "op_avg_time(us),total_proportion,cuda_activity_cost_time(us),"
				 "cuda_activity_call_count";
static const char hdr_type[] = "op_type,type_occurrences,total_time(us),total_proportion,avg_time(us)";
static const char hdr_act[] = "name,type,op_full_name,stream_id,block_dim,grid_dim,occurrences,"
			      "total_duration(us),avg_duration(us),max_duration(us),min_duration(us)";

int pt_msgpu_kind_of(const char *base, uint32_t *number)
{
	for (int k = 0; k < PT_MSK__N; k++) {
		size_t pl = strlen(prefixes[k]);
		if (strncmp(base, prefixes[k], pl))
			continue;
		const char *p = base + pl;
		uint64_t v = 0;
		size_t nd = 0;
		while (p[nd] >= '0' && p[nd] <= '9' && nd < 10)
			v = v * 10 + (uint64_t)(p[nd++] - '0');
		if (!nd || v > UINT32_MAX || strcmp(p + nd, exts[k]))
			continue; /* the prefix fits, the number or the extension does not: try the others */
		*number = (uint32_t)v;
		return k;
	}
	return -1;
}

/* ---- numbers ------------------------------------------------------------------------ */

int pt_msgpu_us_to_ns(const char *s, size_t n, int64_t *ns)
{
	if (!n || s[0] == '-' || s[0] == '+')
		return -1;
	return pt_kineto_decimal(s, n, 3, ns) ? 0 : -1;
}

/* A non-negative integer of at most 2^62 (a time in ns, or in 10 ns before scaling). */
static bool parse_time(const char *s, size_t n, int64_t *v)
{
	uint64_t u;
	if (!n || !pt_parse_u64(s, n, &u) || u > (uint64_t)PT_TIME_LIMIT)
		return false;
	*v = (int64_t)u;
	return true;
}

/* A CSV number as MindSpore writes floats and ints: [-]digits[.digits][e[+-]digits], nan, inf. */
static bool is_number(const char *s, size_t n)
{
	size_t i = 0;
	if (i < n && s[i] == '-')
		i++;
	if (n - i == 3 && (!strncmp(s + i, "nan", 3) || !strncmp(s + i, "inf", 3)))
		return true;
	size_t d = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, d++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, d++;
	}
	if (!d)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t e = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, e++;
		if (!e)
			return false;
	}
	return i == n;
}

/* Last occurrence of c in s[0, n), or NULL. */
static const char *last_of(const char *s, size_t n, char c)
{
	while (n--)
		if (s[n] == c)
			return s + n;
	return NULL;
}

/* ---- activity lines ----------------------------------------------------------------- */

const char *pt_msgpu_parse_kernel(const char *s, size_t n, struct pt_msgpu_kernel *k)
{
	/* from the right: a demangled name may hold anything, the numbers may not */
	const char *f[3];
	size_t end = n;
	for (int i = 2; i >= 0; i--) {
		const char *p = last_of(s, end, ';');
		if (!p)
			return "expected NAME;STREAM;START;DURATION";
		f[i] = p + 1;
		end = (size_t)(p - s);
	}
	size_t l0 = (size_t)(f[1] - f[0]) - 1, l1 = (size_t)(f[2] - f[1]) - 1, l2 = n - (size_t)(f[2] - s);
	uint64_t st;
	if (!l0 || !pt_parse_u64(f[0], l0, &st) || st > UINT32_MAX)
		return "the stream is not an unsigned 32-bit integer";
	if (!parse_time(f[1], l1, &k->start))
		return "the start is not an integer number of ns within 2^62";
	if (pt_msgpu_us_to_ns(f[2], l2, &k->dur))
		return "the duration is not a non-negative number of microseconds";
	if (k->dur > PT_TIME_LIMIT - k->start)
		return "the kernel ends after 2^62 ns";
	k->name = s;
	k->name_len = end;
	k->stream = (uint32_t)st;
	return NULL;
}

/* ---- files -------------------------------------------------------------------------- */

struct tfile {
	const char *path;
	struct pt_slices s;
	char *buf;
	size_t len;
	struct pt_textiter it;
};

static int tfile_open(struct tfile *f, const char *path, const char *what, struct pt_err **e)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	pt_slices_add(&f->s, path);
	if (pt_slices_read_all(&f->s, &f->buf, &f->len, e)) {
		pt_slices_free(&f->s);
		return pt_err(e, "MindSpore GPU %s '%s'", what, path);
	}
	pt_textiter_init(&f->it, &f->s, f->buf, f->len, '\n');
	return 0;
}

static void tfile_close(struct tfile *f)
{
	free(f->buf);
	pt_slices_free(&f->s);
}

/* Next non-blank line. */
static bool tfile_line(struct tfile *f, const char **rec, size_t *rl, uint64_t *line)
{
	size_t file;
	while (pt_textiter_next(&f->it, rec, rl, &file, line)) {
		size_t i = 0;
		while (i < *rl && ((*rec)[i] == ' ' || (*rec)[i] == '\t'))
			i++;
		if (i < *rl)
			return true;
	}
	return false;
}

static int line_err(struct pt_err **e, const char *path, uint64_t line, const char *why)
{
	return pt_err(e, "'%s' line %" PRIu64 ": %s", path, line, why);
}

/* Split a CSV line into at most max fields (quotes: a field "..." ends at `",` or the line's end). */
static int csv_split(const char *s, size_t n, const char **f, size_t *fl, int max)
{
	int nf = 0;
	size_t i = 0;
	for (;;) {
		if (nf == max)
			return max + 1;
		if (i < n && s[i] == '"') {
			size_t j = i + 1;
			while (j < n && !(s[j] == '"' && (j + 1 == n || s[j + 1] == ',')))
				j++;
			if (j >= n)
				return -1; /* unterminated quote */
			f[nf] = s + i + 1;
			fl[nf++] = j - i - 1;
			i = j + 1;
		} else {
			size_t j = i;
			while (j < n && s[j] != ',')
				j++;
			f[nf] = s + i;
			fl[nf++] = j - i;
			i = j;
		}
		if (i >= n)
			return nf;
		i++; /* the comma */
	}
}

/* A header line: exactly want (else an error naming the file and what it found). */
static int check_header(struct tfile *f, const char *want, const char *what, struct pt_err **e)
{
	const char *rec;
	size_t rl;
	uint64_t line;
	if (!tfile_line(f, &rec, &rl, &line))
		return pt_err(e, "'%s': empty %s file: no header line", f->path, what);
	if (rl != strlen(want) || memcmp(rec, want, rl)) {
		char *got = pt_xstrndup(rec, rl > 200 ? 200 : rl);
		int rc = pt_err(e, "'%s' line %" PRIu64 ": unknown %s columns or units '%s' (expected '%s')", f->path,
				line, what, got, want);
		free(got);
		return rc;
	}
	return 0;
}

/* ---- one device's files ------------------------------------------------------------- */

struct group {
	uint32_t num;
	bool from_dir;
	char *path[PT_MSK__N];
};

struct dev {
	struct pt_model *m;
	struct pt_diag *diag;
	uint32_t gpu, cpu;
	struct group *g;
	struct pt_hashmap optype; /* full name string id -> type string id (gpu_op_detail_info) */
	struct pt_hashmap config; /* kernel name string id -> kernel_configs index + 1 */
	PT_VEC(struct pt_kernel_config) configs;
};

static uint32_t new_device(struct pt_model *m, enum pt_device_kind kind, uint32_t id, const char *name)
{
	uint32_t d = pt_model_device(m, kind, id);
	struct pt_device *dv = &m->devices.v[d];
	if (!dv->name) {
		dv->name = pt_xstrdup(name);
		dv->clock = pt_xstrdup("cupti");
		dv->rank = -1;
	}
	return d;
}

static int read_start_time(struct dev *d, struct pt_err **e)
{
	const char *path = d->g->path[PT_MSK_START_TIME];
	struct tfile f;
	if (tfile_open(&f, path, "start time file", e))
		return -1;
	pt_model_add_source(d->m, path, f.len, "msgpu-start-time", (int32_t)d->gpu);
	static const char *const keys[2] = { "host_monotonic_raw_time(ns):", "gpu_start_time(ns):" };
	int64_t v[2];
	bool have[2] = { false, false };
	const char *rec;
	size_t rl;
	uint64_t line;
	int rc = 0;
	while (!rc && tfile_line(&f, &rec, &rl, &line)) {
		int k = -1;
		for (int i = 0; i < 2; i++)
			if (rl > strlen(keys[i]) && !memcmp(rec, keys[i], strlen(keys[i])))
				k = i;
		if (k < 0) {
			rc = line_err(e, path, line, "expected 'host_monotonic_raw_time(ns): N' or 'gpu_start_time(ns): N'");
			break;
		}
		const char *p = rec + strlen(keys[k]);
		size_t n = rl - strlen(keys[k]);
		while (n && *p == ' ')
			p++, n--;
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (have[k] || !parse_time(p, n, &v[k]))
			rc = line_err(e, path, line, have[k] ? "a second value of the same clock"
							    : "not an integer number of ns within 2^62");
		have[k] = true;
	}
	if (!rc && !(have[0] && have[1]))
		rc = pt_err(e, "'%s': no %s line", path, have[0] ? "gpu_start_time(ns)" : "host_monotonic_raw_time(ns)");
	if (!rc)
		pt_model_add_clock_offset(d->m, d->gpu, "cupti", "host-monotonic-raw", v[0] - v[1]);
	tfile_close(&f);
	return rc;
}

static int read_op_detail(struct dev *d, struct pt_err **e)
{
	const char *path = d->g->path[PT_MSK_OP_DETAIL];
	struct tfile f;
	if (tfile_open(&f, path, "op detail file", e))
		return -1;
	pt_model_add_source(d->m, path, f.len, "msgpu-op-detail", (int32_t)d->cpu);
	int rc = check_header(&f, hdr_detail, "op detail", e);
	const char *rec;
	size_t rl;
	uint64_t line;
	int64_t rows = 0;
	while (!rc && tfile_line(&f, &rec, &rl, &line)) {
		const char *c[11];
		size_t cl[11];
		int nf = csv_split(rec, rl, c, cl, 10);
		bool ok = nf == 10 && cl[1] && cl[3];
		for (int i = 4; ok && i < 10; i++)
			ok = is_number(c[i], cl[i]);
		if (!ok) {
			rc = line_err(e, path, line, "expected 10 columns: side, type, name, full name and 6 numbers");
			break;
		}
		uint32_t full = pt_strtab_intern(&d->m->strings, c[3], cl[3]);
		uint32_t type = pt_strtab_intern(&d->m->strings, c[1], cl[1]);
		*pt_hashmap_put(&d->optype, full, 0, NULL) = type;
		rows++;
	}
	if (!rc)
		pt_model_stat_add(d->m, (int32_t)d->cpu, "msgpu.op_detail.rows", rows);
	tfile_close(&f);
	return rc;
}

static int read_op_type(struct dev *d, struct pt_err **e)
{
	const char *path = d->g->path[PT_MSK_OP_TYPE];
	struct tfile f;
	if (tfile_open(&f, path, "op type file", e))
		return -1;
	pt_model_add_source(d->m, path, f.len, "msgpu-op-type", (int32_t)d->cpu);
	int rc = check_header(&f, hdr_type, "op type", e);
	const char *rec;
	size_t rl;
	uint64_t line;
	int64_t rows = 0;
	while (!rc && tfile_line(&f, &rec, &rl, &line)) {
		const char *c[6];
		size_t cl[6];
		int nf = csv_split(rec, rl, c, cl, 5);
		bool ok = nf == 5 && cl[0];
		for (int i = 1; ok && i < 5; i++)
			ok = is_number(c[i], cl[i]);
		if (!ok) {
			rc = line_err(e, path, line, "expected 5 columns: a type and 4 numbers");
			break;
		}
		rows++;
	}
	if (!rc)
		pt_model_stat_add(d->m, (int32_t)d->cpu, "msgpu.op_type.rows", rows);
	tfile_close(&f);
	return rc;
}

/* "x,y,z" of block_dim / grid_dim into v[3]. */
static bool parse_dim3(const char *s, size_t n, int32_t v[3])
{
	const char *f[4];
	size_t fl[4];
	int nf = csv_split(s, n, f, fl, 3);
	if (nf != 3)
		return false;
	for (int i = 0; i < 3; i++) {
		uint64_t u;
		if (!fl[i] || !pt_parse_u64(f[i], fl[i], &u) || u > INT32_MAX)
			return false;
		v[i] = (int32_t)u;
	}
	return true;
}

static int read_activity_data(struct dev *d, struct pt_err **e)
{
	const char *path = d->g->path[PT_MSK_ACT_DATA];
	struct tfile f;
	if (tfile_open(&f, path, "activity data file", e))
		return -1;
	pt_model_add_source(d->m, path, f.len, "msgpu-activity-data", (int32_t)d->gpu);
	int rc = check_header(&f, hdr_act, "activity data", e);
	const char *rec;
	size_t rl;
	uint64_t line;
	int64_t rows = 0;
	while (!rc && tfile_line(&f, &rec, &rl, &line)) {
		const char *c[12];
		size_t cl[12];
		int nf = csv_split(rec, rl, c, cl, 11);
		struct pt_kernel_config kc;
		memset(&kc, 0, sizeof(kc));
		uint64_t u;
		bool ok = nf == 11 && pt_parse_u64(c[3], cl[3], &u) && u <= UINT32_MAX;
		/* memcpy rows have empty dims */
		ok = ok && (cl[4] ? parse_dim3(c[4], cl[4], kc.block) : true);
		ok = ok && (cl[5] ? parse_dim3(c[5], cl[5], kc.grid) : true);
		for (int i = 6; ok && i < 11; i++)
			ok = is_number(c[i], cl[i]);
		if (!ok) {
			rc = line_err(e, path, line,
				      "expected 11 columns: name, type, op, stream, \"block\", \"grid\" and 5 numbers");
			break;
		}
		uint32_t name = pt_strtab_intern(&d->m->strings, c[0], cl[0]);
		bool added;
		uint64_t *v = pt_hashmap_put(&d->config, name, 0, &added);
		if (added) {
			pt_vec_push(&d->configs, kc);
			*v = d->configs.n;
		}
		rows++;
	}
	if (!rc)
		pt_model_stat_add(d->m, (int32_t)d->gpu, "msgpu.activity_data.rows", rows);
	tfile_close(&f);
	return rc;
}

static int read_activity(struct dev *d, struct pt_err **e)
{
	const char *path = d->g->path[PT_MSK_ACTIVITY];
	struct tfile f;
	if (tfile_open(&f, path, "activity file", e))
		return -1;
	pt_model_add_source(d->m, path, f.len, "msgpu-activity", (int32_t)d->gpu);
	const char *rec;
	size_t rl;
	uint64_t line;
	int rc = 0;
	int64_t n = 0;
	uint32_t last_stream = UINT32_MAX, track = 0;
	while (tfile_line(&f, &rec, &rl, &line)) {
		struct pt_msgpu_kernel k;
		const char *why = pt_msgpu_parse_kernel(rec, rl, &k);
		if (why) {
			rc = line_err(e, path, line, why);
			break;
		}
		if (k.stream != last_stream) {
			char b[32];
			snprintf(b, sizeof(b), "stream %" PRIu32, k.stream);
			track = pt_model_track(d->m, d->gpu, PT_TRACK_STREAM, k.stream, b);
			last_stream = k.stream;
		}
		uint32_t name = pt_strtab_intern(&d->m->strings, k.name, k.name_len);
		uint32_t evi = (uint32_t)pt_events_total(&d->m->events);
		pt_model_add_event(d->m, track, name, PT_EV_KERNEL, k.start, k.dur, 0, PT_NONE, 0);
		uint64_t *c = pt_hashmap_get(&d->config, name);
		if (c)
			pt_model_add_kernel(d->m, evi, &d->configs.v[*c - 1]);
		n++;
	}
	if (!rc)
		pt_model_stat_add(d->m, (int32_t)d->gpu, "msgpu.kernels", n);
	tfile_close(&f);
	return rc;
}

static int read_ops(struct dev *d, int kind, struct pt_err **e)
{
	const char *path = d->g->path[kind];
	struct tfile f;
	if (tfile_open(&f, path, "op timestamp file", e))
		return -1;
	pt_model_add_source(d->m, path, f.len, "msgpu-ops", (int32_t)d->cpu);
	const char *want = kind == PT_MSK_OPS ? "GpuOps" : "Ops";
	uint32_t track = pt_model_track(d->m, d->cpu, PT_TRACK_HOST_THREAD, 0, "MindSpore ops");
	uint32_t optype = pt_model_str(d->m, "Operator");
	const char *rec;
	size_t rl;
	uint64_t line;
	int rc = 0;
	int64_t n = 0, nops = 0;
	while (!rc && tfile_line(&f, &rec, &rl, &line)) {
		const char *p2 = last_of(rec, rl, ';');
		const char *p1 = p2 ? last_of(rec, (size_t)(p2 - rec), ';') : NULL;
		if (!p1 || p1 == rec) {
			rc = line_err(e, path, line, "expected FULL_NAME;TAG;START,DURATION ...");
			break;
		}
		size_t tl = (size_t)(p2 - p1) - 1;
		if (tl != strlen(want) || memcmp(p1 + 1, want, tl)) {
			char *t = pt_xstrndup(p1 + 1, tl > 40 ? 40 : tl);
			char *why = pt_xasprintf("unknown tag '%s' (expected '%s')", t, want);
			rc = line_err(e, path, line, why);
			free(why);
			free(t);
			break;
		}
		size_t nl = (size_t)(p1 - rec);
		const char *full = rec;
		const char *sl = last_of(full, nl, '/');
		size_t s0 = sl ? (size_t)(sl - full) + 1 : 0;
		struct pt_op op;
		memset(&op, 0, sizeof(op));
		op.device = d->cpu;
		op.name = pt_strtab_intern(&d->m->strings, full, nl);
		op.short_name = pt_strtab_intern(&d->m->strings, full + s0, nl - s0);
		op.task_type = -1;
		uint64_t *ty = pt_hashmap_get(&d->optype, op.name);
		if (ty) {
			op.type = (uint32_t)*ty;
		} else { /* MindSpore's own rule: between the last '/' and the last '-' */
			const char *dash = last_of(full + s0, nl - s0, '-');
			size_t tl2 = dash ? (size_t)(dash - full) - s0 : nl - s0;
			op.type = pt_strtab_intern(&d->m->strings, full + s0, tl2);
		}
		uint32_t opi = pt_model_add_op(d->m, &op);
		nops++;
		/* the executions */
		const char *q = p2 + 1, *qe = rec + rl;
		while (q < qe) {
			while (q < qe && (*q == ' ' || *q == '\t'))
				q++;
			if (q >= qe)
				break;
			const char *t = q;
			while (q < qe && *q != ' ' && *q != '\t')
				q++;
			const char *c = memchr(t, ',', (size_t)(q - t));
			int64_t st, du;
			if (!c || !parse_time(t, (size_t)(c - t), &st) ||
			    pt_msgpu_us_to_ns(c + 1, (size_t)(q - c - 1), &du) || du > PT_TIME_LIMIT - st) {
				rc = line_err(e, path, line,
					      "an execution is not START_NS,DURATION_US (integer ns, non-negative µs)");
				break;
			}
			uint32_t evi = (uint32_t)pt_events_total(&d->m->events);
			pt_model_add_event(d->m, track, op.name, PT_EV_RANGE, st, du, 0, opi, 0);
			struct pt_range_info ri = { evi, optype, 0, 0, 0, 0, 0 };
			pt_model_add_range(d->m, &ri);
			n++;
		}
	}
	if (!rc) {
		pt_model_stat_add(d->m, (int32_t)d->cpu, "msgpu.ops", nops);
		pt_model_stat_add(d->m, (int32_t)d->cpu, "msgpu.op_executions", n);
	}
	tfile_close(&f);
	return rc;
}

/* ---- step trace --------------------------------------------------------------------- */

/* One token `NAME,V[,V]`: the name and up to two ns values (scaled by mul). */
static int tok_values(const char *t, size_t n, int64_t mul, int want, size_t *namelen, int64_t v[2])
{
	const char *c = memchr(t, ',', n);
	if (!c || c == t)
		return -1;
	*namelen = (size_t)(c - t);
	const char *p = c + 1, *e = t + n;
	for (int i = 0; i < want; i++) {
		const char *q = i + 1 < want ? memchr(p, ',', (size_t)(e - p)) : e;
		if (!q)
			return -1;
		if (!parse_time(p, (size_t)(q - p), &v[i]) || v[i] > PT_TIME_LIMIT / mul)
			return -1;
		v[i] *= mul;
		p = q + 1;
	}
	return 0;
}

/* Split on blanks into tokens (pointers into rec). */
static size_t tokens(const char *rec, size_t rl, const char ***t, size_t **tl, size_t *cap)
{
	size_t n = 0, i = 0;
	while (i < rl) {
		while (i < rl && (rec[i] == ' ' || rec[i] == '\t'))
			i++;
		if (i >= rl)
			break;
		size_t s = i;
		while (i < rl && rec[i] != ' ' && rec[i] != '\t')
			i++;
		if (n + 1 > *cap) {
			size_t c2 = *cap;
			pt_xgrow((void **)t, &c2, n + 1, sizeof(**t));
			pt_xgrow((void **)tl, cap, n + 1, sizeof(**tl));
		}
		(*t)[n] = rec + s;
		(*tl)[n++] = i - s;
	}
	return n;
}

/* The op type of a full name ("Default/AllReduce-op3" -> "AllReduce"). */
static uint32_t type_of(struct pt_model *m, const char *s, size_t n)
{
	const char *sl = last_of(s, n, '/');
	size_t s0 = sl ? (size_t)(sl - s) + 1 : 0;
	const char *dash = last_of(s + s0, n - s0, '-');
	size_t l = dash ? (size_t)(dash - s) - s0 : n - s0;
	return pt_strtab_intern(&m->strings, s + s0, l);
}

struct pline {
	uint64_t line;
	uint32_t name; /* string id */
	PT_VEC(int64_t) v; /* start, end pairs (ns) */
};

static int read_step_trace(struct dev *d, struct pt_err **e)
{
	const char *path = d->g->path[PT_MSK_STEP_TRACE];
	struct tfile f;
	if (tfile_open(&f, path, "step trace file", e))
		return -1;
	pt_model_add_source(d->m, path, f.len, "msgpu-step-trace", (int32_t)d->gpu);
	const char **t = NULL;
	size_t *tl = NULL, cap = 0;
	PT_VEC(struct pline) pl = { 0 };
	const char *rec;
	size_t rl;
	uint64_t line;
	int rc = 0, layout = -1; /* 0 graph mode (10 ns), 1 MindRT (ns) */
	uint32_t nsteps = 0;
	while (!rc && tfile_line(&f, &rec, &rl, &line)) {
		size_t nt = tokens(rec, rl, &t, &tl, &cap);
		if (layout < 0)
			layout = memchr(t[0], ',', tl[0]) != NULL;
		if (layout == 0) {
			if (memchr(t[0], ',', tl[0]) || nt < 2) {
				rc = line_err(e, path, line, "expected OP_NAME START,END ... (graph-mode step trace)");
				break;
			}
			struct pline p = { line, pt_strtab_intern(&d->m->strings, t[0], tl[0]), { 0 } };
			for (size_t i = 1; i < nt && !rc; i++) {
				const char *c = memchr(t[i], ',', tl[i]);
				int64_t s, en;
				if (!c || !parse_time(t[i], (size_t)(c - t[i]), &s) ||
				    !parse_time(c + 1, tl[i] - (size_t)(c - t[i]) - 1, &en) || s > PT_TIME_LIMIT / 10 ||
				    en > PT_TIME_LIMIT / 10) {
					rc = line_err(e, path, line, "a point is not START,END in integer units of 10 ns");
					break;
				}
				pt_vec_push(&p.v, s * 10);
				pt_vec_push(&p.v, en * 10);
			}
			if (!rc && pl.n && p.v.n != pl.v[0].v.n)
				rc = line_err(e, path, line, "not as many steps as the first line (fp start)");
			if (rc) {
				pt_vec_free(&p.v);
				break;
			}
			pt_vec_push(&pl, p);
			continue;
		}
		/* MindRT: one step per line */
		size_t nl;
		int64_t v[4][2];
		bool ok = nt >= 4;
		for (int i = 0; ok && i < 4; i++)
			ok = !tok_values(t[i], tl[i], 1, 1, &nl, v[i]);
		if (!ok) {
			rc = line_err(e, path, line,
				      "expected ITER_START,T FP_START,T BP_END,T ITER_END,T [COMM,START,END]... (ns)");
			break;
		}
		struct pt_step st;
		memset(&st, 0, sizeof(st));
		st.device = d->gpu;
		st.step = ++nsteps;
		st.has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_BP | PT_STEP_HAS_END;
		st.start = v[0][0];
		st.fp = v[1][0];
		st.bp = v[2][0];
		st.end = v[3][0];
		for (size_t i = 4; i < nt; i++) {
			int64_t cv[2];
			if (tok_values(t[i], tl[i], 1, 2, &nl, cv)) {
				rc = line_err(e, path, line, "a communication op is not NAME,START,END (ns)");
				break;
			}
			struct pt_comm cm = { 0, (uint32_t)(2 * (i - 4) + 1), cv[0], cv[1],
					      pt_strtab_intern(&d->m->strings, t[i], nl), type_of(d->m, t[i], nl) };
			pt_vec_push(&st.comm, cm);
		}
		if (rc) {
			pt_vec_free(&st.comm);
			break;
		}
		pt_model_add_step(d->m, &st);
	}
	if (!rc && layout == 0) {
		if (pl.n < 3) {
			rc = pt_err(e, "'%s': %zu lines: a graph-mode step trace needs the fp start, bp end and "
				       "iteration end lines",
				    path, pl.n);
		} else {
			size_t ns = pl.v[0].v.n / 2;
			for (size_t k = 0; k < ns; k++) {
				struct pt_step st;
				memset(&st, 0, sizeof(st));
				st.device = d->gpu;
				st.step = (uint32_t)(k + 1);
				st.has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_BP | PT_STEP_HAS_END;
				/* a step starts where the one before ended (its iteration end op's end) */
				st.start = k ? pl.v[2].v.v[2 * (k - 1) + 1] : pl.v[0].v.v[0];
				st.fp = pl.v[0].v.v[2 * k];
				st.bp = pl.v[1].v.v[2 * k + 1];
				st.end = pl.v[2].v.v[2 * k + 1];
				for (size_t j = 3; j < pl.n; j++) {
					const char *nm = pt_model_strget(d->m, pl.v[j].name);
					struct pt_comm cm = { 0, (uint32_t)(2 * (j - 3) + 1), pl.v[j].v.v[2 * k],
							      pl.v[j].v.v[2 * k + 1], pl.v[j].name,
							      type_of(d->m, nm, strlen(nm)) };
					pt_vec_push(&st.comm, cm);
				}
				pt_model_add_step(d->m, &st);
			}
			nsteps = (uint32_t)ns;
		}
	}
	if (!rc)
		pt_model_stat_add(d->m, (int32_t)d->gpu, "msgpu.steps", nsteps);
	for (size_t i = 0; i < pl.n; i++)
		pt_vec_free(&pl.v[i].v);
	pt_vec_free(&pl);
	free(t);
	free(tl);
	tfile_close(&f);
	return rc;
}

static int import_group(struct pt_model *m, struct group *g, struct pt_diag *diag, struct pt_err **e)
{
	if (!g->path[PT_MSK_ACTIVITY]) {
		for (int k = 0; k < PT_MSK__N; k++)
			if (g->path[k])
				return pt_err(e, "'%s': no activity_execute_timestamp_%" PRIu32 ".txt beside it: not a "
						 "whole MindSpore GPU profiler directory",
					      g->path[k], g->num);
	}
	if (g->from_dir && !g->path[PT_MSK_START_TIME])
		return pt_err(e, "'%s': no start_time_%" PRIu32 ".txt beside it: not a whole MindSpore GPU profiler "
				 "directory",
			      g->path[PT_MSK_ACTIVITY], g->num);
	struct dev d;
	memset(&d, 0, sizeof(d));
	d.m = m;
	d.diag = diag;
	d.g = g;
	char b[48];
	snprintf(b, sizeof(b), "GPU %" PRIu32, g->num);
	d.gpu = new_device(m, PT_DEV_GPU, g->num, b);
	snprintf(b, sizeof(b), "MindSpore host %" PRIu32, g->num);
	d.cpu = new_device(m, PT_DEV_CPU, g->num, b);
	pt_hashmap_init(&d.optype);
	pt_hashmap_init(&d.config);
	int rc = 0;
	if (g->path[PT_MSK_START_TIME])
		rc = read_start_time(&d, e);
	if (!rc && g->path[PT_MSK_OP_DETAIL])
		rc = read_op_detail(&d, e);
	if (!rc && g->path[PT_MSK_ACT_DATA])
		rc = read_activity_data(&d, e);
	if (!rc)
		rc = read_activity(&d, e);
	if (!rc && (g->path[PT_MSK_OPS] || g->path[PT_MSK_OPS_OLD]))
		rc = read_ops(&d, g->path[PT_MSK_OPS] ? PT_MSK_OPS : PT_MSK_OPS_OLD, e);
	if (!rc && g->path[PT_MSK_OP_TYPE])
		rc = read_op_type(&d, e);
	if (!rc && g->path[PT_MSK_STEP_TRACE])
		rc = read_step_trace(&d, e);
	if (!rc && g->path[PT_MSK_OPS] && g->path[PT_MSK_OPS_OLD])
		pt_diag_warn(diag, g->path[PT_MSK_OPS_OLD], "skipped: gpu_op_execute_timestamp of the same device read",
			     PT_POS_NONE, 0);
	pt_hashmap_free(&d.optype);
	pt_hashmap_free(&d.config);
	pt_vec_free(&d.configs);
	return rc;
}

/* ---- discovery ---------------------------------------------------------------------- */

struct groups {
	struct group *v;
	size_t n, cap;
};

static void add(struct groups *gs, const char *path, int kind, uint32_t num, bool from_dir, struct pt_diag *diag)
{
	struct group *g = NULL;
	for (size_t i = 0; i < gs->n; i++)
		if (gs->v[i].num == num)
			g = &gs->v[i];
	if (!g) {
		pt_xgrow((void **)&gs->v, &gs->cap, gs->n + 1, sizeof(*gs->v));
		g = &gs->v[gs->n++];
		memset(g, 0, sizeof(*g));
		g->num = num;
	}
	if (g->path[kind]) {
		pt_diag_warn(diag, path, "skipped a MindSpore GPU profiler file already found elsewhere", PT_POS_NONE, 0);
		return;
	}
	g->path[kind] = pt_xstrdup(path);
	g->from_dir |= from_dir;
}

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return x->num < y->num ? -1 : x->num > y->num;
}

int pt_import_msgpu(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		    struct pt_diag *diag, struct pt_err **e)
{
	struct groups gs = { 0 };
	int rc = 0;
	/* the classifier's rule (pt_classify_msgpu) found them: depth 1 = listed in a directory PATH */
	for (size_t i = 0; i < in->n; i++)
		add(&gs, in->v[i].path, in->v[i].kind, in->v[i].number, in->v[i].depth == 1, diag);
	/* start_time_<d>.txt and step_trace_profiling_<d>.txt alone are not a GPU run */
	size_t keep = 0;
	for (size_t i = 0; i < gs.n; i++) {
		struct group *g = &gs.v[i];
		bool gpu = false;
		for (int k = 0; k < PT_MSK__N; k++)
			gpu |= g->path[k] && k != PT_MSK_START_TIME && k != PT_MSK_STEP_TRACE;
		if (gpu) {
			gs.v[keep++] = *g;
		} else {
			for (int k = 0; k < PT_MSK__N; k++)
				free(g->path[k]);
		}
	}
	gs.n = keep;
	if (!rc && !gs.n)
		rc = 1;
	pt_sort(gs.v, gs.n, sizeof(*gs.v), cmp_group);
	bool any = false;
	for (size_t i = 0; i < gs.n && rc == 0; i++) {
		struct group *g = &gs.v[i];
		if (o->ascend.device >= 0 && g->num != (uint64_t)o->ascend.device) {
			for (int k = 0; k < PT_MSK__N; k++)
				if (g->path[k])
					pt_diag_warn(diag, g->path[k], "skipped files of unselected devices", PT_POS_NONE, 0);
			continue;
		}
		rc = import_group(m, g, diag, e);
		if (rc)
			rc = pt_err(e, "cannot import the MindSpore GPU profiler files of device %" PRIu32, g->num);
		any = true;
	}
	if (!rc && !any)
		rc = 1;
	for (size_t i = 0; i < gs.n; i++)
		for (int k = 0; k < PT_MSK__N; k++)
			free(gs.v[i].path[k]);
	free(gs.v);
	return rc;
}
