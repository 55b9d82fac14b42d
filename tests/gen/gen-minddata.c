/*
 * proftool-gen back end for the MindData files (ascend.md §2.11), written
 * from the spec, not from the importer:
 *
 *   md-pipeline [interval MS] [number N]          pipeline_profiling_<N>.json
 *   md-op ID TYPE [workers W] [children A,B,..] [queue CAP] [sizes S1,S2,..]
 *         [no-metrics]                            one op_info entry (file order)
 *   md-devq TYPE EXTRA BATCH VALUE [TS]           a line of device_queue_profiling_<N>.txt
 *   md-iter TYPE EXTRA BATCH VALUE [TS]           a line of dataset_iterator_profiling_<N>.txt
 *   md-cpu [interval MS] [stamps L] [device-user L] [device-sys L] [device-io L]
 *          [device-idle L] [device-runable L] [device-ctx L] [process-user L]
 *          [process-sys L]                        minddata_cpu_utilization_<N>.json
 *                                                 (runable_processes and
 *                                                 context_switch_count only when given)
 *   md-cpu-op ID [user L] [sys L]                 an op_info entry of the CPU file
 *   md-raw pipeline|devq|iter|cpu "TEXT"          write TEXT verbatim as that file
 *                                                 (malformed inputs; \n in quotes)
 *
 * L is a comma-separated list of numbers. N defaults to the description's
 * `device`. Files go directly into the output directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/xalloc.h"

struct md_op {
	char *type, *children, *sizes;
	long long id, workers, cap;
	bool metrics;
};

static struct {
	bool pipeline, cpu;
	long long interval, number, cpu_interval;
	bool number_set;
	PT_VEC(struct md_op) ops;
	PT_VEC(char *) devq, iter, cpu_ops;
	char *cpu_lists[9]; /* stamps, device user/sys/io/idle, process user/sys, device runable/ctx */
	char *raw[4];
} md = { .interval = 10, .cpu_interval = 100 };

static const char *const cpu_keys[9] = { "stamps",       "device-user", "device-sys",
					 "device-io",    "device-idle", "process-user",
					 "process-sys",  "device-runable", "device-ctx" };

static char *err_msg;

static int fail(const char *fmt, const char *a)
{
	free(err_msg);
	err_msg = pt_xasprintf(fmt, a);
	return -1;
}

static bool num(const char *s, long long *v)
{
	char *end;
	*v = strtoll(s, &end, 10);
	return *s && !*end;
}

static bool list_ok(const char *s)
{
	for (const char *p = s; *p; p++)
		if (!strchr("0123456789.,-e", *p))
			return false;
	return true;
}

const char *gen_minddata_error(void)
{
	return err_msg ? err_msg : "";
}

/* 1 handled, 0 not a MindData directive, -1 error (gen_minddata_error()). */
int gen_minddata_directive(struct gen *g, char **tok, int n)
{
	const char *d = tok[0];
	(void)g;
	if (strncmp(d, "md-", 3))
		return 0;
	if (!strcmp(d, "md-pipeline")) {
		md.pipeline = true;
		for (int i = 1; i < n; i++) {
			if (i + 1 >= n)
				return fail("md-pipeline: '%s' needs a value", tok[i]);
			if (!strcmp(tok[i], "interval") && num(tok[i + 1], &md.interval))
				i++;
			else if (!strcmp(tok[i], "number") && num(tok[i + 1], &md.number)) {
				md.number_set = true;
				i++;
			} else
				return fail("md-pipeline: bad option '%s'", tok[i]);
		}
		return 1;
	}
	if (!strcmp(d, "md-op")) {
		struct md_op o = { NULL, NULL, NULL, 0, 1, 64, true };
		if (n < 3 || !num(tok[1], &o.id))
			return fail("%s ID TYPE [options]", d);
		md.pipeline = true;
		o.type = pt_xstrdup(tok[2]);
		for (int i = 3; i < n; i++) {
			const char *k = tok[i];
			if (!strcmp(k, "no-metrics")) {
				o.metrics = false;
				continue;
			}
			if (i + 1 >= n)
				return fail("md-op: '%s' needs a value", k);
			const char *v = tok[++i];
			if (!strcmp(k, "workers") && num(v, &o.workers))
				;
			else if (!strcmp(k, "queue") && num(v, &o.cap))
				;
			else if (!strcmp(k, "children") && list_ok(v))
				o.children = pt_xstrdup(v);
			else if (!strcmp(k, "sizes") && list_ok(v))
				o.sizes = pt_xstrdup(v);
			else
				return fail("md-op: bad option '%s'", k);
		}
		pt_vec_push(&md.ops, o);
		return 1;
	}
	if (!strcmp(d, "md-devq") || !strcmp(d, "md-iter")) {
		long long v;
		if (n != 5 && n != 6)
			return fail("%s TYPE EXTRA BATCH VALUE [TIMESTAMP]", d);
		for (int i = 1; i < n; i++)
			if (!num(tok[i], &v))
				return fail("%s: fields are integers", d);
		char *line = pt_xasprintf("%s %s %s %s%s%s", tok[1], tok[2], tok[3], tok[4], n == 6 ? " " : "",
					  n == 6 ? tok[5] : "");
		if (d[3] == 'd')
			pt_vec_push(&md.devq, line);
		else
			pt_vec_push(&md.iter, line);
		return 1;
	}
	if (!strcmp(d, "md-cpu")) {
		md.cpu = true;
		for (int i = 1; i < n; i++) {
			if (i + 1 >= n)
				return fail("md-cpu: '%s' needs a value", tok[i]);
			int k = -1;
			for (int j = 0; j < 9; j++)
				if (!strcmp(tok[i], cpu_keys[j]))
					k = j;
			if (!strcmp(tok[i], "interval") && num(tok[i + 1], &md.cpu_interval)) {
				i++;
				continue;
			}
			if (k < 0 || !list_ok(tok[i + 1]))
				return fail("md-cpu: bad option '%s'", tok[i]);
			free(md.cpu_lists[k]);
			md.cpu_lists[k] = pt_xstrdup(tok[++i]);
		}
		return 1;
	}
	if (!strcmp(d, "md-cpu-op")) {
		long long id;
		const char *user = "", *sys = "";
		if (n < 2 || !num(tok[1], &id))
			return fail("%s ID [user L] [sys L]", d);
		for (int i = 2; i + 1 < n; i += 2) {
			if (!list_ok(tok[i + 1]))
				return fail("md-cpu-op: bad list '%s'", tok[i + 1]);
			if (!strcmp(tok[i], "user"))
				user = tok[i + 1];
			else if (!strcmp(tok[i], "sys"))
				sys = tok[i + 1];
			else
				return fail("md-cpu-op: bad option '%s'", tok[i]);
		}
		md.cpu = true;
		pt_vec_push(&md.cpu_ops, pt_xasprintf("{\"op_id\": %lld, \"metrics\": {\"user_utilization\": [%s], "
						      "\"sys_utilization\": [%s]}}", id, user, sys));
		return 1;
	}
	if (!strcmp(d, "md-raw")) {
		static const char *const kinds[4] = { "pipeline", "devq", "iter", "cpu" };
		if (n != 3)
			return fail("%s KIND \"TEXT\"", d);
		for (int k = 0; k < 4; k++) {
			if (strcmp(tok[1], kinds[k]))
				continue;
			free(md.raw[k]);
			md.raw[k] = pt_xstrdup(tok[2]);
			return 1;
		}
		return fail("md-raw: KIND is pipeline, devq, iter or cpu, not '%s'", tok[1]);
	}
	return fail("unknown MindData directive '%s'", d);
}

static FILE *open_out(struct gen *g, const char *fmt)
{
	long long nr = md.number_set ? md.number : (long long)g->device;
	char name[128];
	snprintf(name, sizeof(name), fmt, nr);
	char *p = pt_xasprintf("%s/%s", g->outdir, name);
	FILE *f = fopen(p, "w");
	if (!f) {
		fprintf(stderr, "proftool-gen: error: cannot write '%s'\n", p);
		exit(1);
	}
	gen_expect(g, "minddata.file %s", name);
	free(p);
	return f;
}

static void close_out(FILE *f)
{
	if (fclose(f)) {
		fprintf(stderr, "proftool-gen: error: write error on a MindData file\n");
		exit(1);
	}
}

static void lines(struct gen *g, const char *fmt, char **v, size_t n, const char *raw)
{
	if (!n && !raw)
		return;
	FILE *f = open_out(g, fmt);
	if (raw)
		fputs(raw, f);
	for (size_t i = 0; !raw && i < n; i++)
		fprintf(f, "%s\n", v[i]);
	close_out(f);
}

void gen_minddata(struct gen *g)
{
	if (md.raw[0] || md.pipeline) {
		FILE *f = open_out(g, "pipeline_profiling_%lld.json");
		if (md.raw[0]) {
			fputs(md.raw[0], f);
		} else {
			fprintf(f, "{\"sampling_interval\": %lld, \"op_info\": [", md.interval);
			for (size_t i = 0; i < md.ops.n; i++) {
				struct md_op *o = &md.ops.v[i];
				fprintf(f, "%s\n  {\"op_id\": %lld, \"op_type\": \"%s\", \"num_workers\": %lld, ",
					i ? "," : "", o->id, o->type, o->workers);
				if (o->metrics)
					fprintf(f, "\"metrics\": {\"output_queue\": {\"size\": [%s], \"length\": %lld}}",
						o->sizes ? o->sizes : "", o->cap);
				else
					fprintf(f, "\"metrics\": null");
				if (o->children)
					fprintf(f, ", \"children\": [%s]}", o->children);
				else
					fprintf(f, ", \"children\": null}");
			}
			fprintf(f, "\n]}\n");
		}
		close_out(f);
	}
	lines(g, "device_queue_profiling_%lld.txt", md.devq.v, md.devq.n, md.raw[1]);
	lines(g, "dataset_iterator_profiling_%lld.txt", md.iter.v, md.iter.n, md.raw[2]);
	if (md.raw[3] || md.cpu) {
		FILE *f = open_out(g, "minddata_cpu_utilization_%lld.json");
		if (md.raw[3]) {
			fputs(md.raw[3], f);
		} else {
			const char *L[9];
			for (int k = 0; k < 9; k++)
				L[k] = md.cpu_lists[k] ? md.cpu_lists[k] : "";
			fprintf(f, "{\"sampling_interval\": %lld, \"cpu_processor_num\": 8, \"time_stamp\": [%s],\n",
				md.cpu_interval, L[0]);
			fprintf(f, " \"device_info\": {\"user_utilization\": [%s], \"sys_utilization\": [%s], "
				   "\"io_utilization\": [%s], \"idle_utilization\": [%s]", L[1], L[2], L[3], L[4]);
			/* written only when given, so older descriptions make the same file */
			if (md.cpu_lists[7])
				fprintf(f, ", \"runable_processes\": [%s]", L[7]);
			if (md.cpu_lists[8])
				fprintf(f, ", \"context_switch_count\": [%s]", L[8]);
			fprintf(f, "},\n");
			fprintf(f, " \"process_info\": {\"user_utilization\": [%s], \"sys_utilization\": [%s]},\n",
				L[5], L[6]);
			fprintf(f, " \"op_info\": [");
			for (size_t i = 0; i < md.cpu_ops.n; i++)
				fprintf(f, "%s\n  %s", i ? "," : "", md.cpu_ops.v[i]);
			fprintf(f, "\n]}\n");
		}
		close_out(f);
	}
}
