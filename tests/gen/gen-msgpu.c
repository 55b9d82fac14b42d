/*
 * proftool-gen's MindSpore GPU back end: `proftool-gen msgpu DESC OUTDIR`
 * writes the profiler directory a MindSpore GPU run leaves (language in
 * tests/gen/README.md, "MindSpore GPU profiler directories"):
 * activity_execute_timestamp_<d>.txt, gpu_op_execute_timestamp_<d>.txt,
 * gpu_op_detail_info_<d>.csv, gpu_op_type_info_<d>.csv,
 * gpu_activity_data_<d>.csv, step_trace_profiling_<d>.txt (graph-mode or
 * MindRT layout) and start_time_<d>.txt.
 * Written from MindSpore's writer as it behaves (profiler/device/gpu/
 * gpu_data_saver.cc, profiler/device/data_saver.cc): float microseconds
 * printed as a C++ ostream prints a float (%g of a float), kernels grouped
 * by name, graph-mode step-trace points in units of 10 ns; never from
 * proftool's importer, so importer bugs show. Same description, same bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/xalloc.h"

struct mkernel {
	char *name;
	int64_t stream, dur;
};

struct mop {
	char *name;
	int64_t host; /* ns of the launch (the op's recorded duration) */
	bool fp, bp, comm;
	PT_VEC(struct mkernel) k;
};

struct exec { /* one kernel execution */
	size_t op, kern;
	int64_t start, dur;
};

struct opx { /* one op execution */
	int64_t start;
	float dur_us;
};

struct mg {
	const char *file;
	uint32_t device;
	uint64_t seed;
	int64_t steps, jitter, gap, cupti0, host0;
	bool mindrt;
	PT_VEC(struct mop) ops;
};

static void die(const struct mg *g, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (g && line)
		fprintf(stderr, "proftool-gen: error: '%s' line %d: ", g->file, line);
	else
		fputs("proftool-gen: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* Blank-separated tokens, "..." quoting, # comments. */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			break;
		if (n == max)
			return -1;
		if (*s == '"') {
			char *e = strchr(++s, '"');
			if (!e)
				return -1;
			*e = 0;
			tok[n++] = s;
			s = e + 1;
		} else {
			tok[n++] = s;
			while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
				s++;
			if (*s)
				*s++ = 0;
		}
	}
	return n;
}

static int64_t num(const struct mg *g, int line, const char *s)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < 0)
		die(g, line, "'%s' is not a non-negative integer", s);
	return v;
}

static int64_t dur(const struct mg *g, int line, const char *s)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || v < 0)
		die(g, line, "'%s' is not a duration", s);
	int64_t m = !*end || !strcmp(end, "ns") ? 1 : !strcmp(end, "us") ? 1000 : !strcmp(end, "ms") ? 1000000 : 0;
	if (!m)
		die(g, line, "'%s': unknown duration unit (ns, us, ms)", s);
	return v * m;
}

static void parse(struct mg *g, FILE *in)
{
	char buf[4096];
	int line = 0;
	while (fgets(buf, sizeof(buf), in)) {
		line++;
		char *t[64];
		int n = tokenize(buf, t, 64);
		if (n < 0)
			die(g, line, "too many tokens or an unterminated quote");
		if (!n)
			continue;
		if (!strcmp(t[0], "device") && n == 2) {
			g->device = (uint32_t)num(g, line, t[1]);
		} else if (!strcmp(t[0], "seed") && n == 2) {
			g->seed = (uint64_t)num(g, line, t[1]);
		} else if (!strcmp(t[0], "steps") && n == 2) {
			g->steps = num(g, line, t[1]);
		} else if (!strcmp(t[0], "jitter") && n == 2) {
			g->jitter = dur(g, line, t[1]);
		} else if (!strcmp(t[0], "step-gap") && n == 2) {
			g->gap = dur(g, line, t[1]);
		} else if (!strcmp(t[0], "cupti-start") && n == 2) {
			g->cupti0 = num(g, line, t[1]);
		} else if (!strcmp(t[0], "host-start") && n == 2) {
			g->host0 = num(g, line, t[1]);
		} else if (!strcmp(t[0], "mode") && n == 2 && (!strcmp(t[1], "graph") || !strcmp(t[1], "mindrt"))) {
			g->mindrt = !strcmp(t[1], "mindrt");
		} else if (!strcmp(t[0], "op") && n >= 2) {
			struct mop op;
			memset(&op, 0, sizeof(op));
			op.name = pt_xstrdup(t[1]);
			op.host = 5000;
			for (int i = 2; i < n; i++) {
				if (!strcmp(t[i], "host") && i + 1 < n) {
					op.host = dur(g, line, t[++i]);
				} else if (!strcmp(t[i], "fp")) {
					op.fp = true;
				} else if (!strcmp(t[i], "bp")) {
					op.bp = true;
				} else if (!strcmp(t[i], "comm")) {
					op.comm = true;
				} else if (!strcmp(t[i], "kernel") && i + 3 < n) {
					struct mkernel k = { pt_xstrdup(t[i + 1]), num(g, line, t[i + 2]),
							     dur(g, line, t[i + 3]) };
					pt_vec_push(&op.k, k);
					i += 3;
				} else {
					die(g, line, "unknown op option '%s'", t[i]);
				}
			}
			pt_vec_push(&g->ops, op);
		} else {
			die(g, line, "unknown directive '%s' (or wrong number of values)", t[0]);
		}
	}
	if (!g->ops.n)
		die(g, 0, "'%s' describes no op", g->file);
	int nfp = 0, nbp = 0;
	for (size_t i = 0; i < g->ops.n; i++)
		nfp += g->ops.v[i].fp, nbp += g->ops.v[i].bp;
	if (nfp != 1 || nbp != 1)
		die(g, 0, "'%s': exactly one op must be fp and one bp", g->file);
}

static FILE *out(const char *dir, const char *base, uint32_t d, const char *ext)
{
	char *p = pt_xasprintf("%s/%s%" PRIu32 "%s", dir, base, d, ext);
	FILE *f = fopen(p, "w");
	if (!f)
		die(NULL, 0, "cannot write '%s': %s", p, strerror(errno));
	free(p);
	return f;
}

static void done(FILE *f)
{
	if (ferror(f) || fclose(f))
		die(NULL, 0, "write error");
}

/* The writer's float microseconds of ns, and that float back in whole ns as its step trace takes it. */
static float us_of(int64_t ns)
{
	return (float)ns / 1000.0f;
}
static int64_t ns_back(float us)
{
	return (int64_t)(uint64_t)(us * 1000.0f);
}

int gen_msgpu_main(int argc, char **argv)
{
	static const char usage[] = "usage: proftool-gen msgpu DESC OUTDIR\n";
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc != 3) {
		fputs(usage, stderr);
		return 2;
	}
	struct mg g;
	memset(&g, 0, sizeof(g));
	g.file = argv[1];
	g.seed = 1;
	g.steps = 3;
	g.gap = 100000;
	g.cupti0 = INT64_C(1600000000000000000);
	g.host0 = INT64_C(5000000000);
	FILE *in = fopen(g.file, "r");
	if (!in)
		die(NULL, 0, "cannot open '%s'", g.file);
	parse(&g, in);
	fclose(in);
	const char *dir = argv[2];
	gen_mkdir_p(dir);

	/* the timeline: per step the ops launch one after the other on the host;
	 * each kernel starts 2 µs after its launch began, or when its stream is free */
	size_t nops = g.ops.n;
	PT_VEC(struct exec) ex = { 0 };
	struct opx *ox = pt_xcalloc((size_t)g.steps * nops + 1, sizeof(*ox)); /* [step][op] */
	PT_VEC(int64_t) sfree = { 0 }; /* stream -> free from */
	uint64_t rng = g.seed;
	int64_t t = g.cupti0 + 1000000;
	for (int64_t s = 0; s < g.steps; s++) {
		int64_t last = t;
		for (size_t o = 0; o < nops; o++) {
			struct mop *op = &g.ops.v[o];
			ox[s * (int64_t)nops + (int64_t)o] = (struct opx){ t, us_of(op->host) };
			for (size_t k = 0; k < op->k.n; k++) {
				struct mkernel *kn = &op->k.v[k];
				while ((int64_t)sfree.n <= kn->stream)
					pt_vec_push(&sfree, 0);
				int64_t ks = t + 2000 > sfree.v[kn->stream] ? t + 2000 : sfree.v[kn->stream];
				int64_t kd = kn->dur + (g.jitter ? (int64_t)(gen_splitmix(&rng) % (uint64_t)(g.jitter + 1)) : 0);
				/* the duration the writer keeps: float µs, printed with 6 significant digits */
				struct exec e = { o, k, ks, kd };
				pt_vec_push(&ex, e);
				sfree.v[kn->stream] = ks + kd;
				if (ks + kd > last)
					last = ks + kd;
			}
			t += op->host;
		}
		t = (last > t ? last : t) + g.gap;
	}

	/* activity_execute_timestamp and gpu_activity_data: kernels grouped by name, first-seen order */
	FILE *fa = out(dir, "activity_execute_timestamp_", g.device, ".txt");
	FILE *fd = out(dir, "gpu_activity_data_", g.device, ".csv");
	fputs("name,type,op_full_name,stream_id,block_dim,grid_dim,occurrences,total_duration(us),avg_duration(us),"
	      "max_duration(us),min_duration(us)\n",
	      fd);
	bool *seen = pt_xcalloc(ex.n + 1, 1);
	for (size_t i = 0; i < ex.n; i++) {
		if (seen[i])
			continue;
		const struct mkernel *k0 = &g.ops.v[ex.v[i].op].k.v[ex.v[i].kern];
		float tot = 0, mx = 0, mn = 0;
		int cnt = 0;
		for (size_t j = i; j < ex.n; j++) {
			const struct mkernel *kj = &g.ops.v[ex.v[j].op].k.v[ex.v[j].kern];
			if (seen[j] || strcmp(kj->name, k0->name))
				continue;
			seen[j] = true;
			float d = us_of(ex.v[j].dur);
			fprintf(fa, "%s;%" PRId64 ";%" PRId64 ";%g\n", kj->name, kj->stream, ex.v[j].start, (double)d);
			tot += d;
			mx = !cnt || d > mx ? d : mx;
			mn = !cnt || d < mn ? d : mn;
			cnt++;
		}
		fprintf(fd, "\"%s\",cuLaunchKernel,%s,%" PRId64 ",\"256,1,1\",\"%zu,1,1\",%d,%g,%g,%g,%g\n", k0->name,
			g.ops.v[ex.v[i].op].name, k0->stream, 1 + i % 64, cnt, (double)tot, (double)(tot / (float)cnt),
			(double)mx, (double)mn);
	}
	free(seen);
	done(fa);
	done(fd);

	/* ops: gpu_op_execute_timestamp, gpu_op_detail_info, gpu_op_type_info */
	FILE *fo = out(dir, "gpu_op_execute_timestamp_", g.device, ".txt");
	FILE *fdet = out(dir, "gpu_op_detail_info_", g.device, ".csv");
	fputs("op_side,op_type,op_name,op_full_name,op_occurrences,op_total_time(us),op_avg_time(us),"
	      "total_proportion,cuda_activity_cost_time(us),cuda_activity_call_count\n",
	      fdet);
	float all = 0;
	for (size_t o = 0; o < nops; o++)
		all += us_of(g.ops.v[o].host) * (float)g.steps;
	char **types = pt_xcalloc(nops + 1, sizeof(*types));
	float *ttot = pt_xcalloc(nops + 1, sizeof(*ttot));
	int *tcnt = pt_xcalloc(nops + 1, sizeof(*tcnt));
	size_t ntypes = 0;
	for (size_t o = 0; o < nops; o++) {
		const struct mop *op = &g.ops.v[o];
		fprintf(fo, "%s;GpuOps;", op->name);
		float tot = 0;
		for (int64_t s = 0; s < g.steps; s++) {
			const struct opx *x = &ox[s * (int64_t)nops + (int64_t)o];
			fprintf(fo, "%" PRId64 ",%g ", x->start, (double)x->dur_us);
			tot += x->dur_us;
		}
		fputc('\n', fo);
		const char *sl = strrchr(op->name, '/');
		const char *base = sl ? sl + 1 : op->name;
		const char *dash = strrchr(base, '-');
		char *type = pt_xstrndup(base, dash ? (size_t)(dash - base) : strlen(base));
		float kt = 0;
		int kc = 0;
		for (size_t i = 0; i < ex.n; i++)
			if (ex.v[i].op == o)
				kt += us_of(ex.v[i].dur), kc++;
		fprintf(fdet, "Device,%s,%s,%s,%" PRId64 ",%g,%g,%g,%g,%d\n", type, base, op->name, g.steps, (double)tot,
			(double)(tot / (float)g.steps), (double)(tot / all), (double)kt, kc);
		size_t ti = 0;
		while (ti < ntypes && strcmp(types[ti], type))
			ti++;
		if (ti == ntypes)
			types[ntypes++] = type;
		else
			free(type);
		ttot[ti] += tot;
		tcnt[ti] += (int)g.steps;
	}
	done(fo);
	done(fdet);
	FILE *ft = out(dir, "gpu_op_type_info_", g.device, ".csv");
	fputs("op_type,type_occurrences,total_time(us),total_proportion,avg_time(us)\n", ft);
	for (size_t i = 0; i < ntypes; i++) {
		fprintf(ft, "%s,%d,%g,%g,%g\n", types[i], tcnt[i], (double)ttot[i], (double)(ttot[i] / all),
			(double)(ttot[i] / (float)tcnt[i]));
		free(types[i]);
	}
	done(ft);
	free(types);
	free(ttot);
	free(tcnt);

	/* step trace */
	size_t fp = 0, bp = 0, end = nops - 1;
	for (size_t o = 0; o < nops; o++) {
		if (g.ops.v[o].fp)
			fp = o;
		if (g.ops.v[o].bp)
			bp = o;
	}
	FILE *fs = out(dir, "step_trace_profiling_", g.device, ".txt");
	if (g.mindrt) {
		for (int64_t s = 0; s < g.steps; s++) {
			const struct opx *x = &ox[s * (int64_t)nops];
			fprintf(fs, "%s,%" PRId64 " %s,%" PRId64 " %s,%" PRId64 " %s,%" PRId64, g.ops.v[0].name, x[0].start,
				g.ops.v[fp].name, x[fp].start, g.ops.v[bp].name, x[bp].start, g.ops.v[end].name,
				x[end].start + ns_back(x[end].dur_us));
			for (size_t o = 0; o < nops; o++)
				if (g.ops.v[o].comm)
					fprintf(fs, " %s,%" PRId64 ",%" PRId64, g.ops.v[o].name, x[o].start,
						x[o].start + ns_back(x[o].dur_us));
			fputc('\n', fs);
		}
	} else {
		size_t order[64];
		size_t no = 0;
		order[no++] = fp;
		order[no++] = bp;
		order[no++] = end;
		for (size_t o = 0; o < nops && no < 64; o++)
			if (g.ops.v[o].comm)
				order[no++] = o;
		for (size_t i = 0; i < no; i++) {
			fprintf(fs, "%s ", g.ops.v[order[i]].name);
			for (int64_t s = 0; s < g.steps; s++) {
				const struct opx *x = &ox[s * (int64_t)nops + (int64_t)order[i]];
				fprintf(fs, "%" PRId64 ",%" PRId64 " ", x->start / 10, (x->start + ns_back(x->dur_us)) / 10);
			}
			fputc('\n', fs);
		}
	}
	done(fs);
	FILE *fst = out(dir, "start_time_", g.device, ".txt");
	fprintf(fst, "host_monotonic_raw_time(ns): %" PRId64 "\ngpu_start_time(ns): %" PRId64 "\n", g.host0, g.cupti0);
	done(fst);

	for (size_t o = 0; o < nops; o++) {
		for (size_t k = 0; k < g.ops.v[o].k.n; k++)
			free(g.ops.v[o].k.v[k].name);
		pt_vec_free(&g.ops.v[o].k);
		free(g.ops.v[o].name);
	}
	pt_vec_free(&g.ops);
	pt_vec_free(&ex);
	pt_vec_free(&sfree);
	free(ox);
	return 0;
}
