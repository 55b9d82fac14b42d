/*
 * bench-chrome: CPU time of each stage of `proftool timeline` over one model,
 * so that the Chrome writer can be timed without the model load.
 *
 *   bench-chrome MODEL.ptm [OUT] [REPS]
 *
 * Loads MODEL once, then REPS times (default 3): a fresh index, the timeline
 * pass (pass/pass-timeline.h) and the writer (export/export-chrome.h) with the
 * options of `proftool timeline --split-mb 0 -o OUT` (default /dev/null).
 * Prints one CSV line per stage: stage,cpu_s (median over the reps; user +
 * sys from getrusage), events (trace events written), model_events, bytes.
 * Stages: load, pass (index + timeline pass), write (pt_chrome_write, which
 * also builds the per-track index), after_load (pass + write).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "export/export-chrome.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "pass/pass-timeline.h"
#include "support/diag.h"
#include "support/err.h"

static double cpu_now(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static int dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), dbl_cmp);
	return v[(n - 1) / 2];
}

static int fail(struct pt_err *e)
{
	char *s = pt_err_str(e);
	fprintf(stderr, "bench-chrome: %s\n", s);
	free(s);
	pt_err_free(e);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: bench-chrome MODEL.ptm [OUT] [REPS]\n");
		return 2;
	}
	const char *out = argc > 2 ? argv[2] : "/dev/null";
	int reps = argc > 3 ? atoi(argv[3]) : 3;
	if (reps < 1 || reps > 100)
		reps = 3;
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	double t0 = cpu_now();
	if (pt_ptm_read(argv[1], &m, &e))
		return fail(e);
	double load = cpu_now() - t0;
	double *pass = calloc((size_t)reps, sizeof(double)), *write = calloc((size_t)reps, sizeof(double));
	double *after = calloc((size_t)reps, sizeof(double));
	struct pt_chrome_stats st;
	memset(&st, 0, sizeof(st));
	for (int r = 0; r < reps; r++) {
		struct pt_diag diag = { 0 };
		double a = cpu_now();
		struct pt_index *x = pt_index_new(m);
		struct pt_tl_opts to = { .overlap = true };
		struct pt_tl *tl = NULL;
		if (pt_pass_timeline(m, x, &to, &tl, &e))
			return fail(e);
		double b = cpu_now();
		struct pt_tl_trace_opts tro = { .trace_name = argv[1], .flows = true, .demangle = true };
		struct pt_trace *t = NULL;
		if (pt_tl_trace_new(m, x, tl, &tro, &diag, &t, &e))
			return fail(e);
		struct pt_chrome_opts co = { .trace_name = argv[1] };
		if (pt_chrome_write(t, &co, out, &st, &e))
			return fail(e);
		double c = cpu_now();
		pt_tl_trace_free(t);
		pt_tl_free(tl);
		pt_index_free(x);
		pt_diag_free(&diag);
		pass[r] = b - a;
		write[r] = c - b;
		after[r] = c - a;
	}
	size_t nev = m->events.n;
	printf("stage,cpu_s,events,model_events,bytes\n");
	printf("load,%.3f,,%zu,\n", load, nev);
	printf("pass,%.3f,,%zu,\n", median(pass, reps), nev);
	printf("write,%.3f,%llu,%zu,%llu\n", median(write, reps), (unsigned long long)st.events, nev,
	       (unsigned long long)st.bytes);
	printf("after_load,%.3f,%llu,%zu,%llu\n", median(after, reps), (unsigned long long)st.events, nev,
	       (unsigned long long)st.bytes);
	free(pass);
	free(write);
	free(after);
	pt_model_free(m);
	return 0;
}
