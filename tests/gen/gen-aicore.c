/*
 * proftool-gen back end for AI Core PMU data (ascend.md §2.9), written from
 * the spec, not from the importer: `data/aicore.data.<dev>.slice_0`, fixed
 * 128-byte records, task_id (u16) at 6, eight u64 PMU counters at 32,
 * stream_id (u32) at 96, everything else zero.
 *
 *   aicore OPNAME pmu L           one record per execution of the op (every
 *                                 step, every task), counters L
 *   aicore-task STREAM TASK pmu L one record per step for a task of no op
 *   aicore-file [zero N] [tail N] [empty]
 *                                 N all-zero records at the end, a partial
 *                                 record of N bytes after them, or a 0-byte file
 *
 * L is 7 or 8 comma-separated counters: cube_fp16, cube_int8, vec_fp32,
 * vec_fp16_128lane, vec_fp16_64lane, vec_int32, vec_misc[, unused].
 * EXPECT: `aicore.records N` and, per aicore op, `aicore <name> flops F`
 * (one record's cube + vector FLOPs by the spec's formulas).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "support/xalloc.h"

struct ac_rule {
	char *op;            /* NULL: a raw task */
	uint32_t stream, task;
	uint64_t pmu[8];
};

static struct {
	PT_VEC(struct ac_rule) rules;
	bool any, empty;
	uint64_t zero, tail;
	char err[256];
} ac;

static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ac.err, sizeof(ac.err), fmt, ap);
	va_end(ap);
	return -1;
}

const char *gen_aicore_error(void)
{
	return ac.err;
}

static bool num(const char *s, uint64_t *v)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (*end || errno)
		return false;
	*v = x;
	return true;
}

static int parse_pmu(const char *s, uint64_t pmu[8])
{
	char *dup = pt_xstrdup(s), *save = NULL;
	int n = 0;
	memset(pmu, 0, 8 * sizeof(*pmu));
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n >= 8 || !num(t, &pmu[n])) {
			free(dup);
			return -1;
		}
		n++;
	}
	free(dup);
	return n == 7 || n == 8 ? 0 : -1;
}

int gen_aicore_directive(struct gen *g, char **tok, int n)
{
	(void)g;
	const char *d = tok[0];
	if (!strcmp(d, "aicore")) {
		struct ac_rule r = { 0 };
		if (n != 4 || strcmp(tok[2], "pmu") || parse_pmu(tok[3], r.pmu))
			return fail("aicore OPNAME pmu C1,...,C7[,C8]");
		r.op = pt_xstrdup(tok[1]);
		pt_vec_push(&ac.rules, r);
		ac.any = true;
		return 1;
	}
	if (!strcmp(d, "aicore-task")) {
		struct ac_rule r = { 0 };
		uint64_t s, t;
		if (n != 5 || !num(tok[1], &s) || !num(tok[2], &t) || s > UINT32_MAX || t > UINT16_MAX ||
		    strcmp(tok[3], "pmu") || parse_pmu(tok[4], r.pmu))
			return fail("aicore-task STREAM TASK pmu C1,...,C7[,C8]");
		r.stream = (uint32_t)s;
		r.task = (uint32_t)t;
		pt_vec_push(&ac.rules, r);
		ac.any = true;
		return 1;
	}
	if (!strcmp(d, "aicore-file")) {
		for (int i = 1; i < n; i++) {
			if (!strcmp(tok[i], "empty"))
				ac.empty = true;
			else if (!strcmp(tok[i], "zero") && i + 1 < n && num(tok[i + 1], &ac.zero))
				i++;
			else if (!strcmp(tok[i], "tail") && i + 1 < n && num(tok[i + 1], &ac.tail) && ac.tail < 128)
				i++;
			else
				return fail("aicore-file: bad option '%s'", tok[i]);
		}
		ac.any = true;
		return 1;
	}
	return 0;
}

static void record(FILE *f, uint32_t stream, uint32_t task, const uint64_t pmu[8])
{
	unsigned char p[128];
	memset(p, 0, sizeof(p));
	gen_le16(p + 6, (uint16_t)task);
	for (int k = 0; k < 8; k++)
		gen_le64(p + 32 + 8 * k, pmu[k]);
	gen_le32(p + 96, stream);
	fwrite(p, 1, sizeof(p), f);
}

static unsigned __int128 flops_of(const uint64_t p[8])
{
	unsigned __int128 cube = (unsigned __int128)p[0] * 4096 * 2 + (unsigned __int128)p[1] * 16 * 16 * 32 * 2;
	unsigned __int128 vec = (unsigned __int128)p[2] * 32 + (unsigned __int128)p[3] * 128 +
				(unsigned __int128)p[4] * 64 + (unsigned __int128)p[5] * 64 + (unsigned __int128)p[6] * 32;
	return cube + vec;
}

static void fmt_u128(char *buf, unsigned __int128 v)
{
	char t[48];
	int n = 0;
	do {
		t[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		buf[i] = t[n - 1 - i];
	buf[n] = 0;
}

void gen_aicore(struct gen *g)
{
	if (!ac.any)
		return;
	char *dir = pt_xasprintf("%s/data", g->outdir);
	mkdir(dir, 0777);
	char *path = pt_xasprintf("%s/aicore.data.%u.slice_0", dir, g->device);
	FILE *f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "proftool-gen: error: cannot write '%s': %s\n", path, strerror(errno));
		exit(1);
	}
	uint64_t records = 0;
	if (!ac.empty) {
		struct gen_step st = { 0 };
		uint64_t nsteps = gen_nsteps(g);
		gen_dyn_reset(g);
		for (uint64_t k = 0; k < nsteps; k++) {
			gen_step_layout(g, k, &st);
			for (size_t x = 0; x < st.execs.n; x++) {
				int o = st.execs.v[x].op;
				if (o < 0)
					continue;
				for (size_t i = 0; i < ac.rules.n; i++)
					if (ac.rules.v[i].op && !strcmp(ac.rules.v[i].op, g->ops.v[o].name)) {
						record(f, st.execs.v[x].stream, st.execs.v[x].task, ac.rules.v[i].pmu);
						records++;
						break;
					}
			}
			for (size_t i = 0; i < ac.rules.n; i++)
				if (!ac.rules.v[i].op) {
					record(f, ac.rules.v[i].stream, ac.rules.v[i].task, ac.rules.v[i].pmu);
					records++;
				}
		}
		gen_step_free(&st);
		static const unsigned char zero[128];
		for (uint64_t i = 0; i < ac.zero; i++)
			fwrite(zero, 1, sizeof(zero), f);
		if (ac.tail)
			fwrite(zero, 1, (size_t)ac.tail, f);
	}
	if (fclose(f)) {
		fprintf(stderr, "proftool-gen: error: write error on '%s'\n", path);
		exit(1);
	}
	gen_expect(g, "aicore.records %" PRIu64, records);
	for (size_t i = 0; i < ac.rules.n; i++) {
		char b[48];
		fmt_u128(b, flops_of(ac.rules.v[i].pmu));
		if (ac.rules.v[i].op)
			gen_expect(g, "aicore %s flops %s", ac.rules.v[i].op, b);
		else
			gen_expect(g, "aicore-task %u_%u flops %s", ac.rules.v[i].stream, ac.rules.v[i].task, b);
		free(ac.rules.v[i].op);
	}
	pt_vec_free(&ac.rules);
	free(path);
	free(dir);
}
