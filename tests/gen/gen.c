/*
 * proftool-gen: driver, description parser, timeline and output sinks.
 * See tests/gen/README.md for the description language.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen.h"
#include "gen-cupti.h"
#include "support/hashmap.h"
#include "support/xalloc.h"

static const char *usage_text =
	"usage: proftool-gen DESC.txt -o OUTDIR [options]\n"
	"       proftool-gen cupti DESC.cdtxt -o OUT.cdump [--scale SIZE]\n"
	"       proftool-gen perturb-job SRC_JOB -o DIR --scale OP FACTOR [...]\n"
	"\n"
	"Writes a raw Ascend profiling job directory (HWTS logs, step trace, framework,\n"
	"AI CPU, AI Core, HCCL, MindData and memory files) described by DESC.txt.\n"
	"The cupti mode (also spelled cuptidmp) writes one CUPTI dump, as proftool's\n"
	"collector does, described by DESC.cdtxt; see 'proftool-gen cupti -h'.\n"
	"The perturb-job mode copies a real Ascend job with chosen ops' HWTS tasks made\n"
	"FACTOR times as long and writes the true per-op deltas; see\n"
	"'proftool-gen perturb-job -h'.\n"
	"Same description, same bytes. Both languages: tests/gen/README.md.\n"
	"\n"
	"options (Ascend):\n"
	"  -o, --out DIR          job directory to write (created; files overwritten)\n"
	"  --print-expect[=FILE]  write the facts the generator knows (pairs, orphans,\n"
	"                         steps, per-op calls and ns) to FILE (default DIR/EXPECT)\n"
	"  --hwts-bytes SIZE      scale mode: add steps until the HWTS log has SIZE bytes\n"
	"                         (suffixes K, M, G = 2^10, 2^20, 2^30); same as `scale`\n"
	"  --steps N              override the description's step count\n"
	"  --perturbed DIR        also write the job with the description's `perturb`\n"
	"                         changes into DIR, and the true per-op deltas\n"
	"                         (base -> perturbed) into DIR/DELTA\n"
	"  --print-delta=FILE     write those deltas to FILE instead\n"
	"  -h, --help             this text\n";

/* ---------------------------------------------------------------------------
 * errors
 */

static const char *g_file = "";
static int g_line;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "proftool-gen: error: ");
	if (g_line)
		fprintf(stderr, "'%s' line %d: ", g_file, g_line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---------------------------------------------------------------------------
 * small helpers
 */

uint64_t gen_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t gen_hash_name(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a 64 */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t gen_ns_to_cyc(const struct gen *g, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * g->freq_khz / 1000000u);
}

uint64_t gen_cyc_to_ns(const struct gen *g, uint64_t cyc)
{
	return (uint64_t)((unsigned __int128)cyc * 1000000u / g->freq_khz);
}

static const char *kind_names[GK__N] = {
	[GK_HWTS] = "hwts", [GK_STEP_TRACE] = "step_trace", [GK_TASK_DESC] = "task_desc",
	[GK_GRAPH_DESC] = "graph_desc", [GK_POINT] = "point", [GK_TENSOR] = "tensor_data",
	[GK_STEP_INFO] = "step_info", [GK_HASH_DIC] = "hash_dic",
	[GK_HOST_START] = "host_start", [GK_DEV_START] = "dev_start", [GK_INFO] = "info",
	[GK_AICPU] = "aicpu", [GK_AICPUMI] = "aicpumi", [GK_TDT] = "tdt",
};

const char *gen_kind_name(enum gen_kind k)
{
	return kind_names[k];
}

static enum gen_kind parse_kind(const char *s)
{
	for (int k = 0; k < GK__N; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	if (!strcmp(s, "steptrace") || !strcmp(s, "training_trace"))
		return GK_STEP_TRACE;
	if (!strcmp(s, "framework"))
		return GK_TASK_DESC;
	if (!strcmp(s, "info.json"))
		return GK_INFO;
	die("unknown file kind '%s' (hwts, step_trace, task_desc, graph_desc, point, tensor_data, "
	    "step_info, hash_dic, host_start, dev_start, info, aicpu, aicpumi, tdt)", s);
}

/* Unsigned integer, decimal or 0x hex, with an optional size suffix K/M/G (binary). */
static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	uint64_t v, mul = 1;

	if (!s)
		die("%s: missing value", what);
	errno = 0;
	if (*s == '-' || *s == '\0')
		die("%s: '%s' is not an unsigned integer", what, s);
	v = strtoull(s, &end, 0);
	if (errno)
		die("%s: '%s' is out of range", what, s);
	if (*end == 'K' || *end == 'k')
		mul = 1ULL << 10, end++;
	else if (*end == 'M')
		mul = 1ULL << 20, end++;
	else if (*end == 'G' || *end == 'g')
		mul = 1ULL << 30, end++;
	if (*end)
		die("%s: '%s' is not an unsigned integer", what, s);
	if (v && mul > UINT64_MAX / v)
		die("%s: '%s' is out of range", what, s);
	return v * mul;
}

static int64_t parse_i64(const char *s, const char *what)
{
	if (s && *s == '-')
		return -(int64_t)parse_u64(s + 1, what);
	return (int64_t)parse_u64(s, what);
}

/* Duration: integer with unit ns (default), us, ms, s. */
static uint64_t parse_ns(const char *s, const char *what)
{
	char buf[64];
	size_t n;
	uint64_t mul = 1;

	if (!s)
		die("%s: missing value", what);
	n = strlen(s);
	if (n >= sizeof(buf))
		die("%s: '%s' is too long", what, s);
	memcpy(buf, s, n + 1);
	if (n > 2 && !strcmp(buf + n - 2, "ns"))
		buf[n - 2] = 0;
	else if (n > 2 && !strcmp(buf + n - 2, "us"))
		buf[n - 2] = 0, mul = 1000;
	else if (n > 2 && !strcmp(buf + n - 2, "ms"))
		buf[n - 2] = 0, mul = 1000000;
	else if (n > 1 && buf[n - 1] == 's')
		buf[n - 1] = 0, mul = 1000000000;
	for (char *p = buf; *p; p++)
		if (*p < '0' || *p > '9')
			die("%s: '%s' is not a duration (integer with ns, us, ms or s)", what, s);
	return parse_u64(buf, what) * mul;
}

static bool parse_bool(const char *s, const char *what)
{
	if (s && (!strcmp(s, "yes") || !strcmp(s, "on") || !strcmp(s, "1")))
		return true;
	if (s && (!strcmp(s, "no") || !strcmp(s, "off") || !strcmp(s, "0")))
		return false;
	die("%s: expected yes or no, got '%s'", what, s ? s : "");
}

/* MHz as an exact decimal -> kHz */
static uint64_t parse_mhz(const char *s, const char *what)
{
	uint64_t ip = 0, frac = 0;
	int fd = 0;
	const char *p = s;

	if (!s || !*s)
		die("%s: missing value", what);
	for (; *p >= '0' && *p <= '9'; p++)
		ip = ip * 10 + (uint64_t)(*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (fd < 3)
				frac = frac * 10 + (uint64_t)(*p - '0'), fd++;
	if (*p || p == s)
		die("%s: '%s' is not a frequency in MHz", what, s);
	while (fd < 3)
		frac *= 10, fd++;
	if (ip * 1000 + frac == 0)
		die("%s: frequency must not be 0", what);
	return ip * 1000 + frac;
}

/* "A-B" or "A" */
static void parse_range(const char *s, uint64_t *a, uint64_t *b, const char *what)
{
	const char *dash;
	char buf[64];

	if (!s)
		die("%s: missing value", what);
	dash = strchr(s, '-');
	if (!dash) {
		*a = *b = parse_u64(s, what);
		return;
	}
	if ((size_t)(dash - s) >= sizeof(buf))
		die("%s: '%s' is too long", what, s);
	memcpy(buf, s, (size_t)(dash - s));
	buf[dash - s] = 0;
	*a = parse_u64(buf, what);
	*b = parse_u64(dash + 1, what);
	if (*b < *a)
		die("%s: empty range '%s'", what, s);
}

/* ---------------------------------------------------------------------------
 * tokenizer: whitespace-separated, "..." protects spaces (quotes removed), #
 * outside quotes starts a comment
 */

#define MAXTOK 256

static int tokenize(char *line, char **tok)
{
	int n = 0;
	char *r = line, *w;

	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n')
			r++;
		if (!*r || *r == '#')
			break;
		if (n == MAXTOK)
			die("too many tokens");
		tok[n++] = w = r;
		bool q = false;
		while (*r && (q || (*r != ' ' && *r != '\t' && *r != '\r' && *r != '\n'))) {
			if (*r == '"') {
				q = !q;
				r++;
				continue;
			}
			if (*r == '\\' && q && r[1]) {
				r++;
				if (*r == 'n')
					*r = '\n';
				else if (*r == '0')
					*r = '\x01'; /* placeholder, see unescape_nul() */
			}
			*w++ = *r++;
		}
		if (q)
			die("unterminated quote");
		bool more = *r != 0;
		*w = 0;
		if (more)
			r++;
	}
	return n;
}

/* key value pairs after the fixed arguments */
struct kv {
	char **tok;
	int n, i;
};

static const char *kv_val(struct kv *kv, const char *key)
{
	if (kv->i + 1 >= kv->n)
		die("'%s' needs a value", key);
	return kv->tok[++kv->i];
}

/* ---------------------------------------------------------------------------
 * directives
 */

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* By name: the hash of a name gives the first op of that hash (benchmarks
 * describe millions of ops); another name of the same hash is searched for. */
static struct gen_op *find_op(struct gen *g, const char *name)
{
	uint64_t *v = pt_hashmap_get(&g->op_index, name_hash(name));
	if (!v)
		return NULL;
	if (!strcmp(g->ops.v[*v].name, name))
		return &g->ops.v[*v];
	for (size_t i = 0; i < g->ops.n; i++)
		if (!strcmp(g->ops.v[i].name, name))
			return &g->ops.v[i];
	return NULL;
}

static void add_op(struct gen *g, struct gen_op op)
{
	pt_hashmap_put(&g->op_index, name_hash(op.name), g->ops.n, NULL);
	pt_vec_push(&g->ops, op);
}

static void parse_tensor(struct gen_op *op, const char *spec, bool output)
{
	/* FORMAT:DTYPE:SHAPE (shape may contain ':'? no) */
	const char *a = strchr(spec, ':'), *b = a ? strchr(a + 1, ':') : NULL;
	struct gen_tensor t;

	if (!a || !b)
		die("tensor '%s': expected FORMAT:DTYPE:SHAPE", spec);
	t.format = pt_xstrndup(spec, (size_t)(a - spec));
	t.dtype = pt_xstrndup(a + 1, (size_t)(b - a - 1));
	t.shape = pt_xstrdup(b + 1);
	t.output = output;
	pt_vec_push(&op->tensors, t);
}

static void parse_tasks(struct gen_op *op, const char *s)
{
	char *dup = pt_xstrdup(s), *save = NULL;

	for (char *p = strtok_r(dup, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		uint64_t a, b;
		parse_range(p, &a, &b, "task");
		if (b > UINT32_MAX)
			die("task id %s out of range", p);
		for (uint64_t t = a; t <= b; t++)
			pt_vec_push(&op->tasks, (uint32_t)t);
	}
	free(dup);
}

static void op_opts(struct gen *g, struct gen_op *op, struct kv *kv)
{
	for (; kv->i < kv->n; kv->i++) {
		const char *k = kv->tok[kv->i];
		if (!strcmp(k, "type"))
			op->type = pt_xstrdup(kv_val(kv, k));
		else if (!strcmp(k, "stream"))
			op->stream = (uint32_t)parse_u64(kv_val(kv, k), k);
		else if (!strcmp(k, "task") || !strcmp(k, "tasks"))
			parse_tasks(op, kv_val(kv, k));
		else if (!strcmp(k, "block"))
			op->block = (uint32_t)parse_u64(kv_val(kv, k), k);
		else if (!strcmp(k, "dur"))
			op->dur_ns = parse_ns(kv_val(kv, k), k);
		else if (!strcmp(k, "in"))
			parse_tensor(op, kv_val(kv, k), false);
		else if (!strcmp(k, "out"))
			parse_tensor(op, kv_val(kv, k), true);
		else if (!strcmp(k, "task-type"))
			op->task_type = (uint32_t)parse_u64(kv_val(kv, k), k);
		else if (!strcmp(k, "every"))
			op->every = (int)parse_u64(kv_val(kv, k), k);
		else if (!strcmp(k, "no-graph"))
			op->no_graph = true;
		else if (!strcmp(k, "no-task"))
			op->no_task = true;
		else if (!strcmp(k, "no-exec"))
			op->no_exec = true;
		else if (!strcmp(k, "hashed"))
			op->hashed = true;
		else
			die("op: unknown option '%s'", k);
	}
	(void)g;
}

static void check_op(struct gen *g, struct gen_op *op)
{
	if (!op->tasks.n && !op->no_task && !g->dynamic)
		die("op '%s': no task id (task N)", op->name);
	if (!op->tasks.n)
		pt_vec_push(&op->tasks, 0);
	if (g->binary)
		for (size_t i = 0; i < op->tensors.n; i++) {
			parse_u64(op->tensors.v[i].format, "binary-era tensor format");
			parse_u64(op->tensors.v[i].dtype, "binary-era tensor data type");
		}
}

static void d_op(struct gen *g, char **tok, int n)
{
	struct gen_op op = { .block = 1, .dur_ns = 10000 };

	if (n < 2)
		die("op: missing name");
	if (find_op(g, tok[1]))
		die("op '%s' defined twice", tok[1]);
	op.name = pt_xstrdup(tok[1]);
	struct kv kv = { tok, n, 2 };
	op_opts(g, &op, &kv);
	check_op(g, &op);
	add_op(g, op);
}

/* opgen N prefix P types A,B stream S task FIRST [tasks-per-op K] [block B] [dur MIN-MAX] */
static void d_opgen(struct gen *g, char **tok, int n)
{
	uint64_t cnt, first = 0, dmin = 5000, dmax = 50000, per = 1, block = 32, stream = 0;
	const char *prefix = "Default/network/", *types = "MatMul,Add,Cast,Conv2D,ReLU";
	char *td, *typev[64], *save = NULL;
	int ntypes = 0;
	uint64_t rng;

	if (n < 2)
		die("opgen: missing count");
	cnt = parse_u64(tok[1], "opgen count");
	struct kv kv = { tok, n, 2 };
	for (; kv.i < n; kv.i++) {
		const char *k = tok[kv.i];
		if (!strcmp(k, "prefix"))
			prefix = kv_val(&kv, k);
		else if (!strcmp(k, "types"))
			types = kv_val(&kv, k);
		else if (!strcmp(k, "stream"))
			stream = parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "task"))
			first = parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "tasks-per-op"))
			per = parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "block"))
			block = parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "dur")) {
			const char *v = kv_val(&kv, k), *dash = strchr(v, '-');
			if (dash) {
				char b[64];
				snprintf(b, sizeof(b), "%.*s", (int)(dash - v), v);
				dmin = parse_ns(b, k);
				dmax = parse_ns(dash + 1, k);
			} else {
				dmin = dmax = parse_ns(v, k);
			}
			if (dmax < dmin)
				die("opgen: empty duration range");
		} else {
			die("opgen: unknown option '%s'", k);
		}
	}
	td = pt_xstrdup(types);
	for (char *p = strtok_r(td, ",", &save); p && ntypes < 64; p = strtok_r(NULL, ",", &save))
		typev[ntypes++] = p;
	if (!ntypes)
		die("opgen: no types");
	rng = g->seed ^ 0x6f7067656eULL ^ (g->ops.n * 0x9e37ULL);
	for (uint64_t i = 0; i < cnt; i++) {
		struct gen_op op = { .block = (uint32_t)block };
		const char *ty = typev[i % (uint64_t)ntypes];
		op.type = pt_xstrdup(ty);
		op.name = pt_xasprintf("%s%s-op%" PRIu64, prefix, ty, g->ops.n + 1);
		op.stream = (uint32_t)stream;
		for (uint64_t t = 0; t < per; t++)
			pt_vec_push(&op.tasks, (uint32_t)(first + i * per + t));
		op.dur_ns = dmin + gen_splitmix(&rng) % (dmax - dmin + 1);
		parse_tensor(&op, g->binary ? "2:1:16,16" : (g->ge ? "2:1:\"16,16\"" : "DefaultFormat:42:16,16"), false);
		parse_tensor(&op, g->binary ? "2:1:16,16" : (g->ge ? "2:1:\"16,16\"" : "DefaultFormat:42:16,16"), true);
		if (find_op(g, op.name))
			die("opgen: op '%s' exists", op.name);
		add_op(g, op);
	}
	free(td);
}

static void d_steps(struct gen *g, char **tok, int n)
{
	if (n < 2)
		die("steps: missing count");
	g->steps = parse_u64(tok[1], "steps");
	for (int i = 2; i < n; i++) {
		const char *k = tok[i];
		struct kv kv = { tok, n, i };
		if (!strcmp(k, "jobtag"))
			g->jobtag = parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "end-tag")) {
			g->end_tag = parse_u64(kv_val(&kv, k), k);
			if (g->end_tag != 255 && g->end_tag != 65535)
				die("end-tag must be 255 or 65535");
		} else if (!strcmp(k, "jobtag-at"))
			g->jobtag_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "fp-at"))
			g->fp_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "op-gap"))
			g->op_gap_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "tail"))
			g->tail_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "stream"))
			g->st_stream = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "task"))
			g->st_task = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "no-jobtag"))
			g->no_jobtag = true;
		else if (!strcmp(k, "order")) {
			const char *v = kv_val(&kv, k);
			if (!strcmp(v, "time"))
				g->st_order = 0;
			else if (!strcmp(v, "tag"))
				g->st_order = 1;
			else if (!strcmp(v, "shuffle"))
				g->st_order = 2;
			else
				die("order: time, tag or shuffle");
		} else
			die("steps: unknown option '%s'", k);
		i = kv.i;
	}
	g->files[GK_STEP_TRACE].enabled = true;
}

static void d_unnamed(struct gen *g, char **tok, int n)
{
	struct gen_unnamed u = { .count = 1, .dur_ns = 2000, .gap_ns = 500 };
	uint64_t a = 0, b = 0;
	bool have_s = false, have_t = false;

	for (int i = 1; i < n; i++) {
		const char *k = tok[i];
		struct kv kv = { tok, n, i };
		if (!strcmp(k, "streams") || !strcmp(k, "stream")) {
			parse_range(kv_val(&kv, k), &a, &b, k);
			have_s = true;
		} else if (!strcmp(k, "task")) {
			u.task_first = (uint32_t)parse_u64(kv_val(&kv, k), k);
			have_t = true;
		} else if (!strcmp(k, "count"))
			u.count = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "dur"))
			u.dur_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "gap"))
			u.gap_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "offset"))
			u.offset_ns = parse_ns(kv_val(&kv, k), k);
		else
			die("unnamed: unknown option '%s'", k);
		i = kv.i;
	}
	if (!have_s || !have_t)
		die("unnamed: needs streams and task");
	u.stream_first = (uint32_t)a;
	u.stream_last = (uint32_t)b;
	pt_vec_push(&g->unnamed, u);
}

static void d_reduce(struct gen *g, char **tok, int n)
{
	struct gen_reduce r = { .tag_first = 3, .tag_last = 4, .dur_ns = 5000, .spacing_ns = 8000,
				.offset_ns = 1000 };
	bool have_s = false;

	for (int i = 1; i < n; i++) {
		const char *k = tok[i];
		struct kv kv = { tok, n, i };
		if (!strcmp(k, "stream")) {
			r.stream = (uint32_t)parse_u64(kv_val(&kv, k), k);
			have_s = true;
		} else if (!strcmp(k, "tags")) {
			uint64_t a, b;
			parse_range(kv_val(&kv, k), &a, &b, k);
			if (a < 3 || a % 2 == 0 || (b - a) % 2 == 0 || b > 65534)
				die("reduce tags: an odd first tag >= 3 and an even last tag");
			r.tag_first = (int)a;
			r.tag_last = (int)b;
		} else if (!strcmp(k, "offset"))
			r.offset_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "dur"))
			r.dur_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "spacing"))
			r.spacing_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "from-bp"))
			r.from_end = true;
		else
			die("reduce: unknown option '%s'", k);
		i = kv.i;
	}
	if (!have_s)
		die("reduce: needs stream");
	pt_vec_push(&g->reduces, r);
}

static void d_aicpu(struct gen *g, char **tok, int n)
{
	struct gen_aicpu a = { .layout = 3, .dur_ns = 100000, .dispatch_us = 100, .total_us = 1500,
			       .offset_ns = 2000 };

	static const char *const keys[] = { "layout", "count", "offset", "dur", "dispatch", "total",
					    "cycles", "tart", "stream", "task", NULL };
	int first = 2;

	a.name = NULL;
	for (int k = 0; keys[k] && n >= 2; k++)
		if (!strcmp(tok[1], keys[k]))
			first = 1; /* no name given */
	a.name = pt_xstrdup(first == 1 || n < 2 ? "Default/TruncatedNormal-op0" : tok[1]);
	for (int i = first; i < n; i++) {
		const char *k = tok[i];
		struct kv kv = { tok, n, i };
		if (!strcmp(k, "layout")) {
			a.layout = (int)parse_u64(kv_val(&kv, k), k);
			if (a.layout != 3 && a.layout != 6)
				die("aicpu layout: 3 or 6");
		} else if (!strcmp(k, "count"))
			a.count = parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "offset"))
			a.offset_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "dur"))
			a.dur_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "dispatch"))
			a.dispatch_us = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "total"))
			a.total_us = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "cycles"))
			a.cycles = parse_bool(kv_val(&kv, k), k);
		else if (!strcmp(k, "tart"))
			a.tart = parse_bool(kv_val(&kv, k), k);
		else if (!strcmp(k, "stream"))
			a.stream = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "task"))
			a.task = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else
			die("aicpu: unknown option '%s'", k);
		i = kv.i;
	}
	pt_vec_push(&g->aicpu, a);
	g->files[GK_AICPU].enabled = true;
}

static void d_aicpumi(struct gen *g, char **tok, int n)
{
	struct gen_aicpumi a = { .layout = 1, .dur_ns = 50000, .queue = 2, .offset_ns = 500 };

	a.name = pt_xstrdup("GetNext_dequeue_wait");
	for (int i = 1; i < n; i++) {
		const char *k = tok[i];
		struct kv kv = { tok, n, i };
		if (!strcmp(k, "name")) {
			free(a.name);
			a.name = pt_xstrdup(kv_val(&kv, k));
		} else if (!strcmp(k, "layout")) {
			a.layout = (int)parse_u64(kv_val(&kv, k), k);
			if (a.layout != 1 && a.layout != 2)
				die("aicpumi layout: 1 or 2");
		} else if (!strcmp(k, "count"))
			a.count = parse_u64(kv_val(&kv, k), k);
		else if (!strcmp(k, "offset"))
			a.offset_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "dur"))
			a.dur_ns = parse_ns(kv_val(&kv, k), k);
		else if (!strcmp(k, "queue"))
			a.queue = (uint32_t)parse_u64(kv_val(&kv, k), k);
		else
			die("aicpumi: unknown option '%s'", k);
		i = kv.i;
	}
	pt_vec_push(&g->aicpumi, a);
	g->files[GK_AICPUMI].enabled = true;
}

static void d_file(struct gen *g, char **tok, int n, int first)
{
	enum gen_kind k;
	struct gen_file_opt *f;

	if (n < first + 1)
		die("%s: missing kind", tok[0]);
	k = parse_kind(tok[first]);
	f = &g->files[k];
	for (int i = first + 1; i < n; i++) {
		const char *o = tok[i];
		struct kv kv = { tok, n, i };
		if (!strcmp(o, "slices")) {
			f->slices = (int)parse_u64(kv_val(&kv, o), o);
			if (f->slices < 1 || f->slices > 10000)
				die("slices: 1 to 10000");
		} else if (!strcmp(o, "slice-bytes")) {
			f->slice_bytes = parse_u64(kv_val(&kv, o), o);
			if (!f->slice_bytes)
				die("slice-bytes must not be 0");
		} else if (!strcmp(o, "data"))
			f->in_data = true;
		else if (!strcmp(o, "root"))
			f->in_data = false;
		else if (!strcmp(o, "empty"))
			f->empty = f->enabled = true;
		else if (!strcmp(o, "new-name"))
			f->newname = true;
		else if (!strcmp(o, "no-slice"))
			f->no_slice = true;
		else if (!strcmp(o, "done"))
			f->done = true;
		else if (!strcmp(o, "off"))
			f->enabled = false, f->empty = false;
		else if (!strcmp(o, "on"))
			f->enabled = true;
		else
			die("file: unknown option '%s'", o);
		i = kv.i;
	}
}

/* inject KIND OP [args] */
static void d_inject(struct gen *g, char **tok, int n)
{
	struct gen_inj in = { .line = g_line, .tag = -100 };
	const char *op;
	int i = 3;

	if (n < 3)
		die("inject: expected KIND OP ...");
	in.kind = parse_kind(tok[1]);
	op = tok[2];

#define ARG(name) ({ if (i >= n) die("inject %s: missing %s", op, name); tok[i++]; })
#define AT() do { \
	if (i < n && !strcmp(tok[i], "at")) i++; \
	in.at = parse_u64(ARG("position"), "position"); \
} while (0)

	if (!strcmp(op, "zero-record")) {
		in.op = GI_ZERO_RECORD;
		AT();
		in.n = 1;
		if (i < n && !strcmp(tok[i], "count")) {
			i++;
			in.n = parse_u64(ARG("count"), "count");
		}
	} else if (!strcmp(op, "tail") || !strcmp(op, "truncate-tail")) {
		in.op = GI_TAIL;
		in.n = parse_u64(ARG("bytes"), "bytes");
	} else if (!strcmp(op, "invalid-type")) {
		in.op = GI_INVALID_TYPE;
		in.n = parse_u64(ARG("type"), "type");
		if (in.n < 5 || in.n > 7)
			die("invalid-type: 5, 6 or 7");
		AT();
	} else if (!strcmp(op, "drop") || !strcmp(op, "dup") || !strcmp(op, "zero")) {
		in.op = !strcmp(op, "drop") ? GI_DROP : !strcmp(op, "dup") ? GI_DUP : GI_ZERO_TAG;
		in.n = 1;
		if (in.kind == GK_STEP_TRACE) {
			const char *t = ARG("tag");
			in.tag = !strcmp(t, "job") ? -1 : !strcmp(t, "fp") ? 1 : !strcmp(t, "bp") ? 2 :
				 !strcmp(t, "end") ? -2 : (int)parse_u64(t, "tag");
			if (!strcmp(t, "record")) /* drop record at I */
				in.tag = -3;
			AT();
		} else {
			if (in.op == GI_ZERO_TAG)
				die("inject zero: step_trace only");
			AT();
			if (i < n && !strcmp(tok[i], "count")) {
				i++;
				in.n = parse_u64(ARG("count"), "count");
			}
		}
	} else if (!strcmp(op, "swap")) {
		in.op = GI_SWAP;
		AT();
	} else if (!strcmp(op, "shift")) {
		in.op = GI_SHIFT;
		AT();
		if (i < n && !strcmp(tok[i], "by"))
			i++;
		const char *v = ARG("amount");
		in.val = *v == '-' ? -(int64_t)parse_ns(v + 1, "shift") : (int64_t)parse_ns(v, "shift");
	} else if (!strcmp(op, "flag")) {
		in.op = GI_FLAG;
		AT();
	} else if (!strcmp(op, "jobid")) {
		in.op = GI_JOBID;
		in.val = parse_i64(ARG("value"), "job id");
		AT();
	} else if (!strcmp(op, "bad-magic")) {
		in.op = GI_BAD_MAGIC;
		in.at = 0;
		if (i < n)
			AT();
	} else if (!strcmp(op, "wrong-tag")) {
		in.op = GI_WRONG_TAG;
		in.n = parse_u64(ARG("tag"), "tag");
		AT();
	} else if (!strcmp(op, "tensor-num")) {
		in.op = GI_TENSOR_NUM;
		in.n = parse_u64(ARG("n"), "n");
		AT();
	} else if (!strcmp(op, "line") || !strcmp(op, "record")) {
		in.op = GI_LINE;
		in.at = parse_u64(ARG("number"), "line number");
		in.text = pt_xstrdup(ARG("text"));
	} else if (!strcmp(op, "insert")) {
		in.op = GI_INSERT;
		AT();
		in.text = pt_xstrdup(ARG("text"));
	} else if (!strcmp(op, "append")) {
		in.op = GI_INSERT;
		in.at = 0;
		in.text = pt_xstrdup(ARG("text"));
	} else if (!strcmp(op, "token-without-colon")) {
		in.op = GI_LINE; /* resolved in the graph_desc back end */
		in.at = 0;
		if (i < n && !strcmp(tok[i], "line"))
			i++;
		in.n = parse_u64(ARG("line"), "line");
		in.text = NULL;
		in.tag = -50;
	} else if (!strcmp(op, "split-line")) {
		in.op = GI_SPLIT_LINE;
		if (i < n && !strcmp(tok[i], "line"))
			i++;
		in.at = parse_u64(ARG("line"), "line");
		in.n = 40;
		if (i < n && !strcmp(tok[i], "after")) {
			i++;
			in.n = parse_u64(ARG("bytes"), "bytes");
		}
	} else if (!strcmp(op, "crlf")) {
		in.op = GI_CRLF;
	} else if (!strcmp(op, "no-final-newline")) {
		in.op = GI_NO_FINAL_NL;
	} else if (!strcmp(op, "newline-before-nul")) {
		in.op = GI_NEWLINE;
	} else if (!strcmp(op, "node-without-thread")) {
		in.op = GI_NODE_ONLY;
		AT();
	} else if (!strcmp(op, "thread-without-node")) {
		in.op = GI_THREAD_ONLY;
		AT();
	} else if (!strcmp(op, "node-fields")) {
		in.op = GI_FIELDS;
		in.n = parse_u64(ARG("fields"), "fields");
		AT();
	} else if (!strcmp(op, "thread-fields")) {
		in.op = GI_THREAD_FIELDS;
		in.n = parse_u64(ARG("fields"), "fields");
		AT();
	} else if (!strcmp(op, "drop-hash")) {
		in.op = GI_DROP_HASH;
		in.text = pt_xstrdup(ARG("name"));
	} else if (!strcmp(op, "junk-after-nul")) {
		in.op = GI_JUNK_AFTER_NUL;
		AT();
	} else {
		die("inject: unknown operation '%s'", op);
	}
	if (i < n)
		die("inject %s: unexpected '%s'", op, tok[i]);
#undef ARG
#undef AT
	pt_vec_push(&g->injs, in);
}

static void op_free(struct gen_op *op)
{
	for (size_t t = 0; t < op->tensors.n; t++) {
		free(op->tensors.v[t].format);
		free(op->tensors.v[t].dtype);
		free(op->tensors.v[t].shape);
	}
	pt_vec_free(&op->tensors);
	pt_vec_free(&op->tasks);
	free(op->name);
	free(op->type);
}

/* A factor "1.5", "0.25", "3": *num / *den exactly (at most 6 decimals). */
static void parse_factor(const char *s, uint64_t *num, uint64_t *den)
{
	const char *dot = strchr(s, '.');
	char buf[64];
	size_t il = dot ? (size_t)(dot - s) : strlen(s), fl = dot ? strlen(dot + 1) : 0;
	if (!il || il + fl >= sizeof(buf) || fl > 6)
		die("perturb scale: bad factor '%s' (a decimal with at most 6 decimals)", s);
	memcpy(buf, s, il);
	if (fl)
		memcpy(buf + il, dot + 1, fl);
	buf[il + fl] = 0;
	*num = parse_u64(buf, "perturb scale factor");
	*den = 1;
	for (size_t i = 0; i < fl; i++)
		*den *= 10;
}

/*
 * perturb scale OP FACTOR | perturb drop OP | perturb rename OP NEW | perturb op NAME ...:
 * applied only when generating the perturbed job (--perturbed), in description order.
 */
static void d_perturb(struct gen *g, char **tok, int n)
{
	if (n < 3)
		die("perturb scale OP FACTOR | drop OP | rename OP NEW | op NAME ...");
	const char *w = tok[1];
	if (!strcmp(w, "op")) {
		if (g->perturbed)
			d_op(g, tok + 1, n - 1);
		return;
	}
	if (strcmp(w, "scale") && strcmp(w, "drop") && strcmp(w, "rename"))
		die("perturb: unknown change '%s' (scale, drop, rename, op)", w);
	if (n != (strcmp(w, "drop") ? 4 : 3))
		die("perturb %s: wrong number of arguments", w);
	struct gen_op *op = find_op(g, tok[2]);
	if (!op)
		die("perturb %s: op '%s' is not defined above", w, tok[2]);
	uint64_t num = 1, den = 1;
	if (!strcmp(w, "scale"))
		parse_factor(tok[3], &num, &den);
	else if (!strcmp(w, "rename") && find_op(g, tok[3]))
		die("perturb rename: op '%s' is already defined", tok[3]);
	if (!g->perturbed)
		return;
	if (!strcmp(w, "scale")) {
		op->dur_ns = (uint64_t)((unsigned __int128)op->dur_ns * num / den);
	} else if (!strcmp(w, "rename")) {
		pt_vec_push(&g->renames, pt_xstrdup(op->name));
		pt_vec_push(&g->renames, pt_xstrdup(tok[3]));
		free(op->name);
		op->name = pt_xstrdup(tok[3]);
	} else {
		size_t i = (size_t)(op - g->ops.v);
		op_free(op);
		memmove(&g->ops.v[i], &g->ops.v[i + 1], (g->ops.n - i - 1) * sizeof(*g->ops.v));
		g->ops.n--;
	}
}

static void directive(struct gen *g, char **tok, int n)
{
	const char *d = tok[0];

	if (!strcmp(d, "device")) {
		if (n != 2) die("device N");
		g->device = (uint32_t)parse_u64(tok[1], "device");
	} else if (!strcmp(d, "era")) {
		for (int i = 1; i < n; i++) {
			if (!strcmp(tok[i], "text"))
				g->binary = false;
			else if (!strcmp(tok[i], "binary"))
				g->binary = true;
			else if (!strcmp(tok[i], "backend") && i + 1 < n) {
				i++;
				if (!strcmp(tok[i], "vm")) g->ge = false;
				else if (!strcmp(tok[i], "ge")) g->ge = true;
				else die("backend: vm or ge");
			} else
				die("era: text|binary [backend vm|ge]");
		}
		if (g->ops.n)
			die("era must come before the first op");
	} else if (!strcmp(d, "backend")) {
		if (n != 2 || (strcmp(tok[1], "vm") && strcmp(tok[1], "ge")))
			die("backend vm|ge");
		g->ge = !strcmp(tok[1], "ge");
	} else if (!strcmp(d, "freq")) {
		if (n != 2) die("freq MHZ");
		g->freq_khz = parse_mhz(tok[1], "freq");
		free(g->freq_text);
		g->freq_text = pt_xstrdup(tok[1]);
	} else if (!strcmp(d, "info")) {
		if (n < 2) die("info yes|no [aic MHZ] [cores N]");
		g->info = parse_bool(tok[1], "info");
		for (int i = 2; i < n; i++) {
			struct kv kv = { tok, n, i };
			if (!strcmp(tok[i], "aic")) {
				const char *v = kv_val(&kv, "aic");
				parse_mhz(v, "aic");
				free(g->aic_text);
				g->aic_text = pt_xstrdup(v);
			} else if (!strcmp(tok[i], "cores")) {
				g->cores = (uint32_t)parse_u64(kv_val(&kv, "cores"), "cores");
			} else {
				die("info: unknown option '%s'", tok[i]);
			}
			i = kv.i;
		}
		g->files[GK_INFO].enabled = g->info;
	} else if (!strcmp(d, "seed")) {
		if (n != 2) die("seed N");
		g->seed = parse_u64(tok[1], "seed");
	} else if (!strcmp(d, "start-cycles")) {
		if (n != 2) die("start-cycles N");
		g->start_cycles = parse_u64(tok[1], "start-cycles");
	} else if (!strcmp(d, "jitter")) {
		if (n != 2) die("jitter NS");
		g->jitter_ns = parse_ns(tok[1], "jitter");
	} else if (!strcmp(d, "dynamic")) {
		if (n < 2) die("dynamic yes|no [start ID]");
		g->dynamic = parse_bool(tok[1], "dynamic");
		if (n == 4 && !strcmp(tok[2], "start"))
			g->dyn_start = (uint32_t)parse_u64(tok[3], "start");
		else if (n != 2)
			die("dynamic yes|no [start ID]");
		if (g->dynamic && !g->binary)
			die("dynamic shape exists in the binary era only (put `era binary` first)");
	} else if (!strcmp(d, "taskdesc-fields")) {
		if (n != 2) die("taskdesc-fields 4|5");
		g->taskdesc_fields = (int)parse_u64(tok[1], "fields");
		if (g->taskdesc_fields != 4 && g->taskdesc_fields != 5)
			die("taskdesc-fields 4|5");
	} else if (!strcmp(d, "op")) {
		d_op(g, tok, n);
	} else if (!strcmp(d, "opgen")) {
		d_opgen(g, tok, n);
	} else if (!strcmp(d, "steps")) {
		d_steps(g, tok, n);
	} else if (!strcmp(d, "unnamed")) {
		d_unnamed(g, tok, n);
	} else if (!strcmp(d, "reduce")) {
		d_reduce(g, tok, n);
	} else if (!strcmp(d, "point")) {
		if (n != 3) die("point TAG OPNAME");
		if (g->npoints == 64) die("too many points");
		g->points[g->npoints].tag = (int)parse_u64(tok[1], "tag");
		if (g->points[g->npoints].tag < 1 || g->points[g->npoints].tag > 255)
			die("point tag: 1 to 255");
		g->points[g->npoints++].op = pt_xstrdup(tok[2]);
	} else if (!strcmp(d, "hwts")) {
		for (int i = 1; i < n; i++) {
			struct kv kv = { tok, n, i };
			if (!strcmp(tok[i], "no") || !strcmp(tok[i], "off"))
				g->hwts_enabled = false;
			else if (!strcmp(tok[i], "from-ops") || !strcmp(tok[i], "yes"))
				g->hwts_enabled = true;
			else if (!strcmp(tok[i], "blocks"))
				g->blocks = (int)parse_u64(kv_val(&kv, "blocks"), "blocks");
			else if (!strcmp(tok[i], "pmu"))
				g->pmu = parse_bool(kv_val(&kv, "pmu"), "pmu");
			else if (!strcmp(tok[i], "const"))
				g->hwts_const = (uint16_t)parse_u64(kv_val(&kv, "const"), "const");
			else
				die("hwts: unknown option '%s'", tok[i]);
			i = kv.i;
		}
	} else if (!strcmp(d, "aicpu")) {
		d_aicpu(g, tok, n);
	} else if (!strcmp(d, "aicpu-format")) {
		if (n != 2 || (strcmp(tok[1], "text") && strcmp(tok[1], "binary")))
			die("aicpu-format text|binary");
		g->aicpu_binary = !strcmp(tok[1], "binary");
	} else if (!strcmp(d, "aicpumi")) {
		d_aicpumi(g, tok, n);
	} else if (!strcmp(d, "tdt")) {
		for (int i = 1; i < n; i++) {
			struct kv kv = { tok, n, i };
			if (!strcmp(tok[i], "count"))
				g->tdt_count = parse_u64(kv_val(&kv, "count"), "count");
			else if (!strcmp(tok[i], "size"))
				g->tdt_size = parse_u64(kv_val(&kv, "size"), "size");
			else
				die("tdt: unknown option '%s'", tok[i]);
			i = kv.i;
		}
		g->files[GK_TDT].enabled = true;
	} else if (!strcmp(d, "host-start")) {
		g->host_start = true;
		g->files[GK_HOST_START].enabled = true;
		for (int i = 1; i < n; i++) {
			struct kv kv = { tok, n, i };
			if (!strcmp(tok[i], "realtime"))
				g->host_realtime = parse_u64(kv_val(&kv, "realtime"), "realtime");
			else if (!strcmp(tok[i], "monotonic"))
				g->host_monoraw = parse_u64(kv_val(&kv, "monotonic"), "monotonic");
			else if (!strcmp(tok[i], "label"))
				g->host_label = (int)parse_u64(kv_val(&kv, "label"), "label");
			else
				die("host-start: unknown option '%s'", tok[i]);
			i = kv.i;
		}
	} else if (!strcmp(d, "dev-start")) {
		g->dev_start = true;
		g->files[GK_DEV_START].enabled = true;
		for (int i = 1; i < n; i++) {
			struct kv kv = { tok, n, i };
			if (!strcmp(tok[i], "cntvct"))
				g->dev_cntvct = parse_u64(kv_val(&kv, "cntvct"), "cntvct");
			else
				die("dev-start: unknown option '%s'", tok[i]);
			i = kv.i;
		}
	} else if (!strncmp(d, "aicore", 6)) {
		if (gen_aicore_directive(g, tok, n) <= 0)
			die("%s", *gen_aicore_error() ? gen_aicore_error() : "unknown directive");
	} else if (!strncmp(d, "md-", 3)) {
		if (gen_minddata_directive(g, tok, n) < 0)
			die("%s", gen_minddata_error());
	} else if (!strncmp(d, "mem-", 4)) {
		if (gen_memory_directive(g, tok, n) < 0)
			die("%s", gen_memory_error());
	} else if (!strncmp(d, "hccl-", 5)) {
		if (gen_hccl_directive(g, tok, n) < 0)
			die("%s", gen_hccl_error());
	} else if (!strcmp(d, "file")) {
		d_file(g, tok, n, 1);
	} else if (!strcmp(d, "slices")) {
		if (n != 3) die("slices KIND N");
		char *t[4] = { tok[0], tok[1], "slices", tok[2] };
		d_file(g, t, 4, 1);
	} else if (!strcmp(d, "done")) {
		bool v = parse_bool(n > 1 ? tok[1] : NULL, "done");
		for (int k = 0; k < GK__N; k++)
			g->files[k].done = v;
	} else if (!strcmp(d, "inject")) {
		d_inject(g, tok, n);
	} else if (!strcmp(d, "perturb")) {
		d_perturb(g, tok, n);
	} else if (!strcmp(d, "scale")) {
		if (n == 3 && !strcmp(tok[1], "hwts-bytes"))
			g->scale_hwts_bytes = parse_u64(tok[2], "hwts-bytes");
		else if (n == 3 && !strcmp(tok[1], "steps"))
			g->steps = parse_u64(tok[2], "steps");
		else
			die("scale hwts-bytes SIZE | scale steps N");
	} else {
		die("unknown directive '%s'", d);
	}
}

static void parse_desc(struct gen *g, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *tok[MAXTOK];
	size_t cap = 0;
	ssize_t len;

	if (!f) {
		fprintf(stderr, "proftool-gen: error: cannot open '%s': %s\n", path, strerror(errno));
		exit(1);
	}
	g_file = path;
	while ((len = getline(&line, &cap, f)) >= 0) {
		g_line++;
		if (memchr(line, 0, (size_t)len))
			die("NUL byte in the description (write \\0 inside quotes)");
		int n = tokenize(line, tok);
		if (n)
			directive(g, tok, n);
	}
	free(line);
	fclose(f);
	g_line = 0;
}

/* resolve references once the whole description is read */
static void finish_desc(struct gen *g)
{
	for (int i = 0; i < g->npoints; i++)
		if (!find_op(g, g->points[i].op) && !g->binary)
			; /* text era: a point may name any op, even an unknown one */
		else if (!find_op(g, g->points[i].op))
			die("point %d: op '%s' is not defined (binary era needs its stream/task)",
			    g->points[i].tag, g->points[i].op);
	if (g->ops.n || g->unnamed.n)
		g->files[GK_HWTS].enabled = g->hwts_enabled;
	if (g->ops.n) {
		g->files[GK_TASK_DESC].enabled = true;
		if (!g->binary) {
			g->files[GK_GRAPH_DESC].enabled = true;
		} else {
			g->files[GK_TENSOR].enabled = true;
			for (size_t i = 0; i < g->ops.n; i++)
				if (g->ops.v[i].hashed || strlen(g->ops.v[i].name) > 119 ||
				    (g->ops.v[i].type && strlen(g->ops.v[i].type) > 55))
					g->files[GK_HASH_DIC].enabled = true;
		}
	}
	if (g->npoints)
		g->files[g->binary ? GK_STEP_INFO : GK_POINT].enabled = true;
	for (size_t i = 0; i < g->injs.n; i++) {
		struct gen_inj *in = &g->injs.v[i];
		g->files[in->kind].enabled = true;
		if (in->kind == GK_HASH_DIC || in->kind == GK_TENSOR || in->kind == GK_STEP_INFO) {
			if (!g->binary)
				die("inject %s: binary era only", gen_kind_name(in->kind));
		}
		if ((in->kind == GK_GRAPH_DESC || in->kind == GK_POINT) && g->binary)
			die("inject %s: text era only", gen_kind_name(in->kind));
	}
	for (size_t i = 0; i < g->aicpu.n; i++)
		if (g->aicpu_binary && !g->aicpu.v[i].stream && !g->aicpu.v[i].task) {
			struct gen_op *op = find_op(g, g->aicpu.v[i].name);
			if (op) {
				g->aicpu.v[i].stream = op->stream;
				g->aicpu.v[i].task = op->tasks.v[0];
			}
		}
	if (g->binary) {
		g->files[GK_GRAPH_DESC].enabled = false;
		g->files[GK_POINT].enabled = false;
		for (int k = GK_TASK_DESC; k <= GK_HASH_DIC; k++)
			if (!g->files[k].in_data)
				g->files[k].in_data = true; /* binary era: data/ (§1.5) */
	} else {
		g->files[GK_TENSOR].enabled = false;
		g->files[GK_STEP_INFO].enabled = false;
		g->files[GK_HASH_DIC].enabled = false;
	}
}

/* ---------------------------------------------------------------------------
 * timeline
 */

struct dyn_ctr {
	struct pt_hashmap next; /* stream -> next task id */
};
static struct dyn_ctr dyn;

void gen_dyn_reset(struct gen *g)
{
	(void)g;
	pt_hashmap_free(&dyn.next);
	pt_hashmap_init(&dyn.next);
}

static uint32_t dyn_next(struct gen *g, uint32_t stream)
{
	bool added;
	uint64_t *v = pt_hashmap_put(&dyn.next, stream, g->dyn_start, &added);
	return (uint32_t)(*v)++;
}

static uint64_t jitter(const struct gen *g, uint64_t k, uint64_t a, uint64_t b)
{
	uint64_t s;

	if (!g->jitter_ns)
		return 0;
	s = g->seed ^ (k * 0x9e3779b97f4a7c15ULL) ^ (a * 0xc2b2ae3d27d4eb4fULL) ^ (b << 40);
	return gen_splitmix(&s) % (g->jitter_ns + 1);
}

static int exec_cmp(const void *a, const void *b)
{
	const struct gen_exec *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

void gen_sort_u64(uint64_t *k, uint64_t *tmp, size_t n)
{
	uint64_t max = 0;
	size_t cnt[2048];

	for (size_t i = 0; i < n; i++)
		if (k[i] > max)
			max = k[i];
	for (int shift = 0; shift < 64 && (max >> shift); shift += 11) {
		memset(cnt, 0, sizeof(cnt));
		for (size_t i = 0; i < n; i++)
			cnt[(k[i] >> shift) & 2047]++;
		size_t sum = 0;
		for (int d = 0; d < 2048; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[cnt[(k[i] >> shift) & 2047]++] = k[i];
		memcpy(k, tmp, n * sizeof(*k));
	}
}

/* execs by (start, insertion order) */
static void sort_execs(struct gen_step *st)
{
	static PT_VEC(uint64_t) key, tmp;
	static PT_VEC(struct gen_exec) out;
	size_t n = st->execs.n;
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if (st->execs.v[i].start < lo)
			lo = st->execs.v[i].start;
		if (st->execs.v[i].start > hi)
			hi = st->execs.v[i].start;
	}
	if (n >= (1u << 24) || hi - lo >= (1ULL << 40)) {
		qsort(st->execs.v, n, sizeof(*st->execs.v), exec_cmp);
		return;
	}
	pt_vec_reserve(&key, n);
	pt_vec_reserve(&tmp, n);
	pt_vec_reserve(&out, n);
	for (size_t i = 0; i < n; i++)
		key.v[i] = (st->execs.v[i].start - lo) << 24 | i;
	gen_sort_u64(key.v, tmp.v, n);
	for (size_t i = 0; i < n; i++)
		out.v[i] = st->execs.v[key.v[i] & 0xffffff];
	memcpy(st->execs.v, out.v, n * sizeof(*out.v));
}

static bool op_runs(const struct gen_op *op, uint64_t k)
{
	return !op->no_exec && (op->every <= 1 || k % (uint64_t)op->every == 0);
}

void gen_step_layout(struct gen *g, uint64_t k, struct gen_step *st)
{
	uint64_t begin = k == 0 ? g->start_cycles : st->end;
	uint64_t cur, maxend, gap = gen_ns_to_cyc(g, g->op_gap_ns);

	st->k = k;
	st->begin = begin;
	st->execs.n = st->reduce.n = st->cpu.n = st->mi.n = 0;
	st->jobtag = begin + gen_ns_to_cyc(g, g->jobtag_ns);
	st->fp = begin + gen_ns_to_cyc(g, g->fp_ns);
	cur = st->fp;
	for (size_t i = 0; i < g->ops.n; i++) {
		struct gen_op *op = &g->ops.v[i];
		if (!op_runs(op, k))
			continue;
		for (size_t t = 0; t < op->tasks.n; t++) {
			struct gen_exec e = { .stream = op->stream, .op = (int)i, .block = op->block };
			e.task = g->dynamic ? dyn_next(g, op->stream) : op->tasks.v[t];
			e.start = cur;
			e.end = cur + gen_ns_to_cyc(g, op->dur_ns + jitter(g, k, i, t));
			if (e.end == e.start)
				e.end++;
			pt_vec_push(&st->execs, e);
			cur = e.end + gap;
		}
	}
	st->bp = cur;
	maxend = cur;
	for (size_t i = 0; i < g->unnamed.n; i++) {
		struct gen_unnamed *u = &g->unnamed.v[i];
		for (uint64_t s = u->stream_first; s <= u->stream_last; s++) {
			uint64_t t = st->fp + gen_ns_to_cyc(g, u->offset_ns);
			for (uint32_t c = 0; c < u->count; c++) {
				struct gen_exec e = { .stream = (uint32_t)s, .op = -1, .block = 1 };
				e.task = g->dynamic ? dyn_next(g, (uint32_t)s) : u->task_first + c;
				e.start = t;
				e.end = t + gen_ns_to_cyc(g, u->dur_ns + jitter(g, k, 1000000 + i, s * 4096 + c));
				if (e.end == e.start)
					e.end++;
				pt_vec_push(&st->execs, e);
				t = e.end + gen_ns_to_cyc(g, u->gap_ns);
			}
			if (t > maxend)
				maxend = t;
		}
	}
	for (size_t i = 0; i < g->reduces.n; i++) {
		struct gen_reduce *r = &g->reduces.v[i];
		uint64_t base = (r->from_end ? st->bp : st->fp) + gen_ns_to_cyc(g, r->offset_ns);
		for (int t = r->tag_first, j = 0; t < r->tag_last; t += 2, j++) {
			uint64_t s = base + gen_ns_to_cyc(g, (uint64_t)j * r->spacing_ns);
			uint64_t e = s + gen_ns_to_cyc(g, r->dur_ns);
			struct gen_rpt a = { (uint64_t)t, r->stream, 0, s }, b = { (uint64_t)t + 1, r->stream, 0, e };
			pt_vec_push(&st->reduce, a);
			pt_vec_push(&st->reduce, b);
			if (e > maxend)
				maxend = e;
		}
	}
	for (size_t i = 0; i < g->aicpu.n; i++) {
		struct gen_aicpu *a = &g->aicpu.v[i];
		uint64_t runs = a->count ? (k == 0 ? a->count : 0) : 1;
		uint64_t t = st->fp + gen_ns_to_cyc(g, a->offset_ns);
		for (uint64_t r = 0; r < runs; r++) {
			struct gen_aicpu_run c = { (int)i, t, t + gen_ns_to_cyc(g, a->dur_ns) };
			pt_vec_push(&st->cpu, c);
			t = c.end + gen_ns_to_cyc(g, 1000);
			if (c.end > maxend)
				maxend = c.end;
		}
	}
	for (size_t i = 0; i < g->aicpumi.n; i++) {
		struct gen_aicpumi *a = &g->aicpumi.v[i];
		uint64_t runs = a->count ? (k == 0 ? a->count : 0) : 1;
		uint64_t t = st->begin + gen_ns_to_cyc(g, a->offset_ns);
		for (uint64_t r = 0; r < runs; r++) {
			struct gen_aicpu_run c = { (int)i, t, t + gen_ns_to_cyc(g, a->dur_ns) };
			pt_vec_push(&st->mi, c);
			t = c.end + gen_ns_to_cyc(g, 1000);
			if (c.end > maxend)
				maxend = c.end;
		}
	}
	if (st->execs.n > 1)
		sort_execs(st);
	st->end = maxend + gen_ns_to_cyc(g, g->tail_ns);
	if (st->end <= st->bp)
		st->end = st->bp + 1;
}

void gen_step_free(struct gen_step *st)
{
	pt_vec_free(&st->execs);
	pt_vec_free(&st->reduce);
	pt_vec_free(&st->cpu);
	pt_vec_free(&st->mi);
}

static uint64_t hwts_recs_per_exec(const struct gen *g)
{
	return 2 + (uint64_t)(g->blocks > 0 ? 2 * g->blocks : 0) + (g->pmu ? 1 : 0);
}

uint64_t gen_nsteps(struct gen *g)
{
	uint64_t per_exec, bytes = 0, k;

	if (!g->scale_hwts_bytes)
		return g->steps ? g->steps : 1;
	per_exec = 64 * hwts_recs_per_exec(g);
	uint64_t unnamed = 0;
	for (size_t i = 0; i < g->unnamed.n; i++)
		unnamed += (uint64_t)(g->unnamed.v[i].stream_last - g->unnamed.v[i].stream_first + 1) *
			   g->unnamed.v[i].count;
	for (k = 0; bytes < g->scale_hwts_bytes; k++) {
		uint64_t n = unnamed;
		for (size_t i = 0; i < g->ops.n; i++)
			if (op_runs(&g->ops.v[i], k))
				n += g->ops.v[i].tasks.n;
		if (!n)
			die("scale: no executions per step");
		bytes += n * per_exec;
	}
	return k;
}

/* ---------------------------------------------------------------------------
 * sinks
 */

void gen_mkdir_p(const char *path)
{
	char *p = pt_xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0777) && errno != EEXIST)
			die("cannot create '%s': %s", p, strerror(errno));
		*s = '/';
	}
	if (mkdir(p, 0777) && errno != EEXIST)
		die("cannot create '%s': %s", p, strerror(errno));
	free(p);
}

static char *file_base(struct gen *g, enum gen_kind k)
{
	struct gen_file_opt *f = &g->files[k];
	const char *dir = f->in_data ? "/data/" : "/";
	const char *vm = g->ge ? "" : "vm.";
	uint32_t d = g->device;

	switch (k) {
	case GK_HWTS:
		return f->newname ? pt_xasprintf("%s%shwts.data.%u", g->outdir, dir, d)
			: pt_xasprintf("%s%shwts.log.data.45.dev.profiler_default_tag.%u", g->outdir, dir, d);
	case GK_STEP_TRACE:
		return pt_xasprintf("%s%straining_trace.46.dev.profiler_default_tag.%u", g->outdir, dir, d);
	case GK_TASK_DESC:
		return g->binary ? pt_xasprintf("%s%sFramework.task_desc_info.%u", g->outdir, dir, d)
			: pt_xasprintf("%s%sFramework.host.%stask_desc_info.%u", g->outdir, dir, vm, d);
	case GK_GRAPH_DESC:
		return pt_xasprintf("%s%sFramework.host.%sgraph_desc_info.%u", g->outdir, dir, vm, d);
	case GK_POINT:
		return pt_xasprintf("%s%sFramework.host.%spoint.%u", g->outdir, dir, vm, d);
	case GK_TENSOR:
		return pt_xasprintf("%s%sFramework.tensor_data_info.%u", g->outdir, dir, d);
	case GK_STEP_INFO:
		return pt_xasprintf("%s%sFramework.step_info.%u", g->outdir, dir, d);
	case GK_HASH_DIC:
		return pt_xasprintf("%s%sFramework.hash_dic.%u", g->outdir, dir, d);
	case GK_HOST_START:
		return pt_xasprintf("%s%shost_start.log.%u", g->outdir, dir, d);
	case GK_DEV_START:
		return pt_xasprintf("%s%sdev_start.log.%u", g->outdir, dir, d);
	case GK_INFO:
		return pt_xasprintf("%s%sinfo.json.%u", g->outdir, dir, d);
	case GK_AICPU:
		return pt_xasprintf("%s%sDATA_PREPROCESS.%sAICPU.%u", g->outdir, dir, f->newname ? "" : "dev.", d);
	case GK_AICPUMI:
		return pt_xasprintf("%s%sDATA_PREPROCESS.%sAICPUMI.%u", g->outdir, dir, f->newname ? "" : "dev.", d);
	case GK_TDT:
		return pt_xasprintf("%s%sDATA_PREPROCESS.dev.TDT.%u", g->outdir, dir, d);
	default:
		abort();
	}
}

static bool kind_sliced(struct gen *g, enum gen_kind k)
{
	if (k == GK_HOST_START || k == GK_DEV_START || k == GK_INFO)
		return false;
	return !g->files[k].no_slice;
}

static char *slice_path(struct gen_sink *s, int i)
{
	if (!kind_sliced(s->g, s->kind))
		return pt_xstrdup(s->base);
	return pt_xasprintf("%s.slice_%d", s->base, i);
}

static FILE *open_out(struct gen_sink *s, int i)
{
	char *p = slice_path(s, i);
	FILE *f = fopen(p, "wb");

	if (!f)
		die("cannot write '%s': %s", p, strerror(errno));
	if (s->g->files[s->kind].done) {
		char *d = pt_xasprintf("%s.done", p);
		FILE *df = fopen(d, "wb");
		if (!df)
			die("cannot write '%s': %s", d, strerror(errno));
		fclose(df);
		free(d);
	}
	free(p);
	return f;
}

static void write_or_die(FILE *f, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, f) != n)
		die("write error: %s", strerror(errno));
}

static void close_or_die(FILE *f)
{
	if (fclose(f))
		die("write error: %s", strerror(errno));
}

struct gen_sink *gen_sink_open(struct gen *g, enum gen_kind kind)
{
	struct gen_file_opt *f = &g->files[kind];
	struct gen_sink *s;

	if (!f->enabled)
		return NULL;
	s = pt_xcalloc(1, sizeof(*s));
	s->g = g;
	s->kind = kind;
	if (f->in_data) {
		char *d = pt_xasprintf("%s/data", g->outdir);
		gen_mkdir_p(d);
		free(d);
	}
	s->base = file_base(g, kind);
	s->buffer_all = f->slices > 1 && !f->slice_bytes;
	s->cap = 1 << 23;
	s->buf = pt_xmalloc(s->cap);
	if (!s->buffer_all) {
		s->f = open_out(s, 0);
		s->slice_left = f->slice_bytes;
	}
	return s;
}

static void sink_flush(struct gen_sink *s)
{
	size_t off = 0;

	if (s->buffer_all || !s->n)
		return;
	while (off < s->n) {
		size_t n = s->n - off;
		if (s->g->files[s->kind].slice_bytes) {
			if (!s->slice_left) {
				close_or_die(s->f);
				s->f = open_out(s, ++s->slice);
				s->slice_left = s->g->files[s->kind].slice_bytes;
			}
			if (n > s->slice_left)
				n = (size_t)s->slice_left;
			s->slice_left -= n;
		}
		write_or_die(s->f, s->buf + off, n);
		off += n;
	}
	s->flushed += s->n;
	s->n = 0;
}

static void sink_reserve(struct gen_sink *s, size_t n)
{
	if (s->n + n <= s->cap)
		return;
	if (!s->buffer_all) {
		sink_flush(s);
		if (n <= s->cap)
			return;
	}
	pt_xgrow((void **)&s->buf, &s->cap, s->n + n, 1);
}

void gen_sink_write(struct gen_sink *s, const void *p, size_t n)
{
	if (!s || s->g->files[s->kind].empty)
		return;
	sink_reserve(s, n);
	memcpy(s->buf + s->n, p, n);
	s->n += n;
	s->total += n;
}

void gen_sink_puts(struct gen_sink *s, const char *str)
{
	gen_sink_write(s, str, strlen(str));
}

void gen_sink_printf(struct gen_sink *s, const char *fmt, ...)
{
	va_list ap;
	char small[512], *p = small;
	int n;

	if (!s)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(small)) {
		p = pt_xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	gen_sink_write(s, p, (size_t)n);
	if (p != small)
		free(p);
}

uint64_t gen_sink_close(struct gen_sink *s)
{
	struct gen *g;
	uint64_t first = 0;

	if (!s)
		return 0;
	g = s->g;
	if (s->buffer_all) {
		int ns = g->files[s->kind].slices;
		uint64_t total = s->n, prev = 0, rng = g->seed ^ (0x51ce5ULL * (s->kind + 1));
		for (int i = 0; i < ns; i++) {
			uint64_t cut;
			if (i == ns - 1) {
				cut = total;
			} else {
				uint64_t base = total * (uint64_t)(i + 1) / (uint64_t)ns;
				uint64_t span = total / (4 * (uint64_t)ns);
				cut = base - span + (span ? gen_splitmix(&rng) % (2 * span + 1) : 0);
				if (cut < prev)
					cut = prev;
				if (cut > total)
					cut = total;
			}
			FILE *f = open_out(s, i);
			write_or_die(f, s->buf + prev, (size_t)(cut - prev));
			close_or_die(f);
			if (i == 0)
				first = cut;
			prev = cut;
		}
	} else {
		sink_flush(s);
		close_or_die(s->f);
		first = g->files[s->kind].slice_bytes && g->files[s->kind].slice_bytes < s->total ?
			g->files[s->kind].slice_bytes : s->total;
	}
	gen_expect(g, "%s.bytes %" PRIu64, gen_kind_name(s->kind), s->total);
	free(s->buf);
	free(s->base);
	free(s);
	return first;
}

/* ---------------------------------------------------------------------------
 * text kinds with the text injections
 */

void gen_text_emit(struct gen *g, enum gen_kind kind, char **lines, size_t n, char sep)
{
	struct gen_sink *s = gen_sink_open(g, kind);
	bool crlf = false, nofinal = false, nlnul = false;
	PT_VEC(char *) out = { 0 };
	PT_VEC(char *) owned = { 0 };

	if (!s)
		return;
	gen_for_inj(g, kind, in) {
		if (in->op == GI_CRLF)
			crlf = true;
		else if (in->op == GI_NO_FINAL_NL)
			nofinal = true;
		else if (in->op == GI_NEWLINE)
			nlnul = true;
	}
	for (size_t i = 0; i <= n; i++) {
		gen_for_inj(g, kind, in)
			if (in->op == GI_INSERT && in->at == i + 1 && i < n) {
				pt_vec_push(&out, in->text);
			}
		if (i == n)
			break;
		char *l = lines[i];
		gen_for_inj(g, kind, in) {
			if (in->op == GI_LINE && in->at == i + 1 && in->text)
				l = in->text;
		}
		gen_for_inj(g, kind, in) {
			if (in->op == GI_SPLIT_LINE && in->at == i + 1) {
				size_t len = strlen(l), cut = in->n < len ? (size_t)in->n : len / 2;
				char *a = pt_xstrndup(l, cut), *b = pt_xstrdup(l + cut);
				pt_vec_push(&owned, a);
				pt_vec_push(&owned, b);
				pt_vec_push(&out, a);
				l = b;
			}
		}
		pt_vec_push(&out, l);
	}
	gen_for_inj(g, kind, in)
		if (in->op == GI_INSERT && (in->at == 0 || in->at > n))
			pt_vec_push(&out, in->text);
	for (size_t i = 0; i < out.n; i++) {
		const char *l = out.v[i];
		/* \x01 in injected text stands for a NUL byte */
		for (const char *p = l; *p; p++)
			if (*p == '\x01')
				gen_sink_write(s, "", 1);
			else
				gen_sink_write(s, p, 1);
		if (i + 1 == out.n && nofinal)
			break;
		if (sep == '\n') {
			gen_sink_puts(s, crlf ? "\r\n" : "\n");
		} else {
			if (nlnul)
				gen_sink_write(s, "\n", 1);
			gen_sink_write(s, "", 1);
		}
	}
	gen_expect(g, "%s.records %zu", gen_kind_name(kind), out.n);
	gen_sink_close(s);
	for (size_t i = 0; i < owned.n; i++)
		free(owned.v[i]);
	pt_vec_free(&owned);
	pt_vec_free(&out);
}

/* ---------------------------------------------------------------------------
 * EXPECT
 */

void gen_expect(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	if (!g->expect)
		return;
	va_start(ap, fmt);
	vfprintf(g->expect, fmt, ap);
	va_end(ap);
	fputc('\n', g->expect);
}

/* ---------------------------------------------------------------------------
 * main
 */

static void gen_init(struct gen *g)
{
	memset(g, 0, sizeof(*g));
	g->freq_khz = 100000;
	g->freq_text = pt_xstrdup("100");
	g->aic_text = pt_xstrdup("1000");
	g->cores = 32;
	g->seed = 1;
	g->start_cycles = 100000000000ULL;
	g->end_tag = 255;
	g->jobtag = 10010;
	g->jobtag_ns = 2000;
	g->fp_ns = 20000;
	g->op_gap_ns = 1000;
	g->tail_ns = 10000;
	g->st_task = 1;
	g->taskdesc_fields = 4;
	g->hwts_enabled = true;
	g->hwts_const = 0x6bd3;
	g->dyn_start = 1;
	g->host_realtime = 1591183963784568740ULL;
	g->host_monoraw = 261003032627ULL;
	g->dev_cntvct = 0;
	g->host_label = -1;
}

static void gen_free(struct gen *g)
{
	for (size_t i = 0; i < g->ops.n; i++)
		op_free(&g->ops.v[i]);
	pt_vec_free(&g->ops);
	for (size_t i = 0; i < g->renames.n; i++)
		free(g->renames.v[i]);
	pt_vec_free(&g->renames);
	pt_hashmap_free(&g->op_index);
	for (size_t i = 0; i < g->aicpu.n; i++)
		free(g->aicpu.v[i].name);
	pt_vec_free(&g->aicpu);
	for (size_t i = 0; i < g->aicpumi.n; i++)
		free(g->aicpumi.v[i].name);
	pt_vec_free(&g->aicpumi);
	for (size_t i = 0; i < g->injs.n; i++)
		free(g->injs.v[i].text);
	pt_vec_free(&g->injs);
	pt_vec_free(&g->unnamed);
	pt_vec_free(&g->reduces);
	for (int i = 0; i < g->npoints; i++)
		free(g->points[i].op);
	free(g->freq_text);
	free(g->aic_text);
}

struct gen_args {
	const char *desc;
	uint64_t hwts_bytes, steps;
	bool have_steps;
};

/* Generate the job described by a->desc into outdir; g is initialised and left for the caller to free. */
static void generate(struct gen *g, const struct gen_args *a, const char *outdir, bool perturbed, FILE *expect)
{
	gen_init(g);
	g->outdir = outdir;
	g->perturbed = perturbed;
	g->desc_path = a->desc;
	parse_desc(g, a->desc);
	if (a->hwts_bytes)
		g->scale_hwts_bytes = a->hwts_bytes;
	if (a->have_steps) {
		g->steps = a->steps;
		g->files[GK_STEP_TRACE].enabled = true;
	}
	finish_desc(g);
	if (g->dev_start && !g->dev_cntvct)
		g->dev_cntvct = g->start_cycles - gen_ns_to_cyc(g, 1000000);
	gen_mkdir_p(outdir);
	g->expect = expect;
	if (expect) {
		gen_expect(g, "# proftool-gen facts for '%s'%s", a->desc, perturbed ? " (perturbed)" : "");
		gen_expect(g, "device %u", g->device);
		gen_expect(g, "era %s", g->binary ? "binary" : g->ge ? "text-ge" : "text-vm");
		gen_expect(g, "freq_khz %" PRIu64, g->freq_khz);
		gen_expect(g, "dynamic_shape %d", g->dynamic ? 1 : 0);
		gen_expect(g, "steps_generated %" PRIu64, gen_nsteps(g));
	}
	gen_clock(g);
	if (g->binary)
		gen_framework_bin(g);
	else
		gen_framework_text(g);
	gen_hwts(g);
	gen_steptrace(g);
	gen_aicpu(g);
	gen_aicpumi(g);
	gen_tdt(g);
	gen_minddata(g);
	gen_memory(g);
	gen_hccl(g);
	gen_aicore(g);
	if (expect && fflush(expect))
		die("write error on EXPECT: %s", strerror(errno));
	pt_hashmap_free(&dyn.next);
}

struct op_fact {
	char *name;
	uint64_t calls, total;
	bool used;
};
typedef PT_VEC(struct op_fact) op_facts;

/* The `op NAME calls N total_ns T` lines of an EXPECT stream. */
static void read_op_facts(FILE *f, op_facts *v)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	rewind(f);
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (strncmp(line, "op ", 3))
			continue;
		char *c = NULL;
		for (char *p = strstr(line, " calls "); p; p = strstr(p + 1, " calls "))
			c = p;
		struct op_fact x = { 0 };
		if (!c || sscanf(c, " calls %" SCNu64 " total_ns %" SCNu64, &x.calls, &x.total) != 2)
			die("EXPECT: bad op line '%s'", line);
		x.name = pt_xstrndup(line + 3, (size_t)(c - line - 3));
		pt_vec_push(v, x);
	}
	free(line);
}

static void copy_stream(FILE *from, const char *path)
{
	FILE *to = fopen(path, "w");
	char buf[65536];
	size_t n;
	if (!to)
		die("cannot write '%s': %s", path, strerror(errno));
	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			die("write error on '%s': %s", path, strerror(errno));
	if (fclose(to))
		die("write error on '%s': %s", path, strerror(errno));
}

/*
 * The base job into outdir (a child process, so that no state of one
 * generation leaks into the other), the perturbed one into pdir, and the
 * true per-op deltas from what each generation's HWTS model counted.
 */
static int perturbed_main(const struct gen_args *a, const char *outdir, const char *pdir, bool expect,
			  const char *delta_path)
{
	FILE *eb = tmpfile(), *et = tmpfile();
	if (!eb || !et)
		die("cannot make a temporary file: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		struct gen g;
		generate(&g, a, outdir, false, eb);
		gen_free(&g);
		exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1; /* the child said why */
	struct gen g;
	generate(&g, a, pdir, true, et);
	if (expect) {
		char *p = pt_xasprintf("%s/EXPECT", outdir);
		copy_stream(eb, p);
		free(p);
		p = pt_xasprintf("%s/EXPECT", pdir);
		copy_stream(et, p);
		free(p);
	}
	op_facts b = { 0 }, t = { 0 };
	read_op_facts(eb, &b);
	read_op_facts(et, &t);
	char *dp = delta_path ? pt_xstrdup(delta_path) : pt_xasprintf("%s/DELTA", pdir);
	FILE *f = fopen(dp, "w");
	if (!f)
		die("cannot write '%s': %s", dp, strerror(errno));
	fprintf(f, "# proftool-gen true per-op deltas of '%s' (base -> perturbed), tab-separated; '-': no such op\n",
		a->desc);
	fprintf(f, "# base_name\ttest_name\tbase_calls\ttest_calls\tbase_total_ns\ttest_total_ns\tdelta_calls\t"
		   "delta_total_ns\n");
	for (size_t i = 0; i < b.n; i++) {
		const char *nm = b.v[i].name;
		for (size_t r = 0; r + 1 < g.renames.n; r += 2)
			if (!strcmp(nm, g.renames.v[r]))
				nm = g.renames.v[r + 1];
		struct op_fact *m = NULL;
		for (size_t j = 0; j < t.n && !m; j++)
			if (!t.v[j].used && !strcmp(t.v[j].name, nm))
				m = &t.v[j];
		if (m)
			m->used = true;
		uint64_t tc = m ? m->calls : 0, tt = m ? m->total : 0;
		fprintf(f, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\n",
			b.v[i].name, m ? m->name : "-", b.v[i].calls, tc, b.v[i].total, tt,
			(int64_t)(tc - b.v[i].calls), (int64_t)(tt - b.v[i].total));
	}
	for (size_t j = 0; j < t.n; j++)
		if (!t.v[j].used)
			fprintf(f, "-\t%s\t0\t%" PRIu64 "\t0\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\n", t.v[j].name,
				t.v[j].calls, t.v[j].total, (int64_t)t.v[j].calls, (int64_t)t.v[j].total);
	if (fclose(f))
		die("write error on '%s': %s", dp, strerror(errno));
	free(dp);
	for (size_t i = 0; i < b.n; i++)
		free(b.v[i].name);
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i].name);
	pt_vec_free(&b);
	pt_vec_free(&t);
	fclose(eb);
	fclose(et);
	gen_free(&g);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "cupti") || !strcmp(argv[1], "cuptidmp")))
		return gen_cupti_main(argc - 1, argv + 1); /* CUPTIDMP back end: gen-cupti.c */
	if (argc > 1 && !strcmp(argv[1], "kineto"))
		return gen_kineto_main(argc - 1, argv + 1); /* Kineto trace back end: gen-kineto.c */
	if (argc > 1 && !strcmp(argv[1], "msgpu"))
		return gen_msgpu_main(argc - 1, argv + 1); /* MindSpore GPU profiler directory: gen-msgpu.c */
	if (argc > 1 && !strcmp(argv[1], "nsys"))
		return gen_nsys_main(argc - 1, argv + 1); /* Nsight Systems SQLite back end: gen-nsys.c */
	if (argc > 1 && !strcmp(argv[1], "perturb-job"))
		return gen_perturb_job_main(argc - 1, argv + 1); /* real job, slower ops: gen-perturb-job.c */
	struct gen_args a = { 0 };
	const char *outdir = NULL, *expect_path = NULL, *pdir = NULL, *delta_path = NULL;
	bool expect = false;

	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(s, "-o") || !strcmp(s, "--out")) {
			if (++i >= argc)
				die("%s needs a directory", s);
			outdir = argv[i];
		} else if (!strcmp(s, "--print-expect")) {
			expect = true;
		} else if (!strncmp(s, "--print-expect=", 15)) {
			expect = true;
			expect_path = s + 15;
		} else if (!strcmp(s, "--perturbed")) {
			if (++i >= argc)
				die("--perturbed needs a directory");
			pdir = argv[i];
		} else if (!strncmp(s, "--print-delta=", 14)) {
			delta_path = s + 14;
		} else if (!strcmp(s, "--hwts-bytes")) {
			if (++i >= argc)
				die("--hwts-bytes needs a size");
			a.hwts_bytes = parse_u64(argv[i], "--hwts-bytes");
		} else if (!strcmp(s, "--steps")) {
			if (++i >= argc)
				die("--steps needs a count");
			a.steps = parse_u64(argv[i], "--steps");
			a.have_steps = true;
		} else if (s[0] == '-' && s[1]) {
			fprintf(stderr, "proftool-gen: error: unknown option '%s'\n%s", s, usage_text);
			return 1;
		} else if (!a.desc) {
			a.desc = s;
		} else {
			fprintf(stderr, "proftool-gen: error: more than one description\n%s", usage_text);
			return 1;
		}
	}
	if (!a.desc || !outdir) {
		fprintf(stderr, "proftool-gen: error: need DESC.txt and -o OUTDIR\n%s", usage_text);
		return 1;
	}
	if (pdir && expect_path)
		die("--perturbed writes EXPECT into both directories: use --print-expect without =FILE");
	if (delta_path && !pdir)
		die("--print-delta needs --perturbed DIR");
	if (pdir)
		return perturbed_main(&a, outdir, pdir, expect, delta_path);
	FILE *ef = NULL;
	if (expect) {
		gen_mkdir_p(outdir);
		char *p = expect_path ? pt_xstrdup(expect_path) : pt_xasprintf("%s/EXPECT", outdir);
		ef = fopen(p, "w");
		if (!ef)
			die("cannot write '%s': %s", p, strerror(errno));
		free(p);
	}
	struct gen g;
	generate(&g, &a, outdir, false, ef);
	if (ef && fclose(ef))
		die("write error on EXPECT: %s", strerror(errno));
	gen_free(&g);
	return 0;
}
