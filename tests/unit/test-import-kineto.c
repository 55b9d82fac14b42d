/* Unit tests of lib/import/import-kineto.c: exact µs text to ns, the content sniff, and the
 * records one small trace gives (joins, ranges, steps, devices, the base in either place). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "import/import-kineto.h"
#include "import/kineto-json.h"
#include "import/registry.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"

static int64_t us(const char *s)
{
	int64_t v = -1;
	assert_true(pt_kineto_decimal(s, strlen(s), 3, &v));
	return v;
}

static void test_decimal(void **state)
{
	(void)state;
	assert_int_equal(us("0"), 0);
	assert_int_equal(us("1"), 1000);
	assert_int_equal(us("0.001"), 1);
	assert_int_equal(us("1694039959123.456"), INT64_C(1694039959123456));
	assert_int_equal(us("1694039968955744"), INT64_C(1694039968955744000));
	assert_int_equal(us("2413669097444.592"), INT64_C(2413669097444592));
	assert_int_equal(us("-2.5"), -2500);
	assert_int_equal(us("1.5e3"), 1500000);
	assert_int_equal(us("15E-1"), 1500);
	assert_int_equal(us("0.0004"), 0);  /* below the ns: rounded */
	assert_int_equal(us("0.0005"), 1);  /* half away from zero */
	assert_int_equal(us("-0.0005"), -1);
	assert_int_equal(us("12.3456789"), 12346);
	int64_t v;
	const char *bad[] = { "", "-", "1.", ".5", "1e", "1e+", "01x", "1.2.3", "abc", "4611686018427388", "1e300" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(pt_kineto_decimal(bad[i], strlen(bad[i]), 3, &v));
	/* every three-decimal value of a range agrees with integer arithmetic on its parts */
	uint64_t x = 88172645463325252ULL;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int64_t whole = (int64_t)(x % 4000000000000000ULL), frac = (int64_t)((x >> 20) % 1000);
		char b[64];
		snprintf(b, sizeof(b), "%lld.%03lld", (long long)whole, (long long)frac);
		assert_int_equal(us(b), whole * 1000 + frac);
	}
	/* the short path (integers, up to three decimals) agrees with the general one, which an
	 * exponent forces: every length of whole and fraction, both signs, scales 0 and 3 */
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int nw = 1 + (int)(x % 15), nf = (int)((x >> 8) % 5);
		char b[64], g[72];
		size_t o = 0;
		if (x >> 63)
			b[o++] = '-';
		for (int d = 0; d < nw; d++)
			b[o++] = (char)('0' + (x >> (12 + d * 3)) % 10);
		if (nf) {
			b[o++] = '.';
			for (int d = 0; d < nf; d++)
				b[o++] = (char)('0' + (x >> (5 + d * 4)) % 10);
		}
		b[o] = 0;
		snprintf(g, sizeof(g), "%se0", b);
		for (int scale = 0; scale <= 3; scale += 3) {
			int64_t fast = -7, slow = -7;
			bool okf = pt_kineto_decimal(b, o, scale, &fast), oks = pt_kineto_decimal(g, strlen(g), scale, &slow);
			assert_int_equal(okf, oks);
			assert_int_equal(fast, slow);
		}
	}
	/* scale 0: integers as they are */
	assert_true(pt_kineto_decimal("1790857026000000000", 19, 0, &v));
	assert_int_equal(v, INT64_C(1790857026000000000));
}

static void test_sniff(void **state)
{
	(void)state;
	const char *yes[] = {
		"{\"schemaVersion\": 1, \"traceEvents\": []}",
		"\n  {\"distributedInfo\": {\"rank\": 1}, \"traceEvents\": [{\"cat\": \"cpu_op\"}]}",
		"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"Operator\"}]}",
	};
	const char *no[] = {
		"",
		"[{\"cat\": \"cpu_op\"}]",
		"{\"schemaVersion\": 1}",
		"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"hccl\"}]}",
		"{\"proftool\": {\"profile\": \"viewer\"}, \"distributedInfo\": {}, \"traceEvents\": []}",
	};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(pt_kineto_sniff(yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(pt_kineto_sniff(no[i], strlen(no[i])));
}

/* A trace in the current dialect, the base before or after the events, plain or gzipped. */
static const char *trace(bool base_first)
{
	static char b[4096];
	const char *base = "\"baseTimeNanoseconds\": 1700000000000000000";
	snprintf(b, sizeof(b),
		 "{\"schemaVersion\": 1,\n"
		 "\"deviceProperties\": [{\"id\": 0, \"name\": \"GPU X\", \"totalGlobalMem\": 1000, \"numSms\": 108,"
		 " \"computeMajor\": 8, \"computeMinor\": 0}],\n"
		 "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8},\n"
		 "%s%s"
		 "\"traceEvents\": [\n"
		 "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#7\", \"pid\": 42, \"tid\": 43,"
		 " \"ts\": 10.000, \"dur\": 100.000, \"args\": {}},\n"
		 "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 42, \"tid\": 43,"
		 " \"ts\": 20.000, \"dur\": 30.000, \"args\": {\"External id\": 9, \"Input Dims\": [[2, 3], [2, 3]]}},\n"
		 "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 42, \"tid\": 43,"
		 " \"ts\": 25.500, \"dur\": 4.250, \"args\": {\"External id\": 9, \"cbid\": 211, \"correlation\": 77}},\n"
		 "{\"ph\": \"s\", \"id\": 77, \"pid\": 42, \"tid\": 43, \"ts\": 25.500, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
		 "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"add_kernel\", \"pid\": 0, \"tid\": 7,"
		 " \"ts\": 40.125, \"dur\": 2.001, \"args\": {\"External id\": 9, \"queued\": 0, \"device\": 0, \"context\": 1,"
		 " \"stream\": 7, \"correlation\": 77, \"registers per thread\": 32, \"shared memory\": 16,"
		 " \"grid\": [4, 2, 1], \"block\": [128, 1, 1]}},\n"
		 "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pinned -> Device)\", \"pid\": 0, \"tid\": 7,"
		 " \"ts\": 50, \"dur\": 1, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 78, \"bytes\": 4096}},\n"
		 "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"f\", \"pid\": 42, \"tid\": 43, \"ts\": 1, \"dur\": 1},\n"
		 "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 1, \"pid\": 42, \"tid\": 43, \"args\": {\"name\": \"main\"}},\n"
		 "{\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 1, \"pid\": 42, \"tid\": 0, \"args\": {\"name\": \"python3\"}}\n"
		 "],\n"
		 "\"traceName\": \"t.json\"%s%s\n}\n",
		 base_first ? base : "", base_first ? ",\n" : "", base_first ? "" : ",\n", base_first ? "" : base);
	return b;
}

static struct pt_model *import_text(const char *text, bool gz, const char *name)
{
	char dir[] = "/tmp/pt-kineto-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (gz) {
		gzFile g = gzopen(path, "wb");
		assert_non_null(g);
		assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
		gzclose(g);
	} else {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	struct pt_model *m = pt_model_new();
	struct pt_import_opts o;
	pt_import_opts_init(&o);
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	const char *paths[1] = { path };
	int rc = pt_import(m, paths, 1, &o, &d, &e);
	if (rc) {
		char *s = pt_err_str(e);
		fail_msg("import failed: %s", s);
	}
	pt_diag_free(&d);
	unlink(path);
	rmdir(dir);
	return m;
}

static size_t find_event(const struct pt_model *m, int kind)
{
	for (size_t i = 0; i < m->events.n; i++)
		if (m->events.kind[i] == kind)
			return i;
	fail_msg("no event of kind %d", kind);
	return 0;
}

static void check_model(struct pt_model *m)
{
	const int64_t base = INT64_C(1700000000000000000);
	assert_int_equal(m->devices.n, 2);
	const struct pt_device *cpu = &m->devices.v[0], *gpu = &m->devices.v[1];
	assert_int_equal(cpu->kind, PT_DEV_CPU);
	assert_string_equal(cpu->name, "python3");
	assert_int_equal(cpu->pid, 42);
	assert_int_equal(cpu->rank, 3);
	assert_int_equal(gpu->kind, PT_DEV_GPU);
	assert_string_equal(gpu->name, "GPU X");
	assert_int_equal(gpu->pid, 42);
	assert_int_equal(gpu->rank, 3);
	assert_int_equal(gpu->sm_count, 108);
	assert_int_equal(gpu->cc_major, 8);
	/* 5 events: the step, the op, the call, the kernel, the copy (flows, python, metadata skipped) */
	assert_int_equal(m->events.n, 5);
	size_t k = find_event(m, PT_EV_KERNEL), a = find_event(m, PT_EV_API), c = find_event(m, PT_EV_MEMCPY);
	assert_int_equal(m->events.start[k], base + 40125);
	assert_int_equal(m->events.dur[k], 2001);
	assert_int_equal(m->events.start[a], base + 25500);
	assert_int_equal(m->events.dur[a], 4250);
	assert_int_equal(m->events.corr[k], 77);
	assert_string_equal(pt_model_strget(m, m->events.name[k]), "add_kernel");
	assert_string_equal(pt_model_strget(m, m->tracks.v[m->events.track[k]].name), "stream 7");
	assert_string_equal(pt_model_strget(m, m->tracks.v[m->events.track[a]].name), "main");
	assert_int_equal(m->kernels.n, 1);
	const struct pt_kernel_config *kc = pt_model_kernel_config(m, 0);
	assert_int_equal(kc->grid[0], 4);
	assert_int_equal(kc->grid[1], 2);
	assert_int_equal(kc->block[0], 128);
	assert_int_equal(kc->registers, 32);
	assert_int_equal(kc->static_smem, 16);
	assert_int_equal(m->copies.n, 1);
	assert_int_equal(m->copies.v[0].event, c);
	assert_int_equal(m->copies.v[0].copy_kind, 1);
	assert_int_equal(m->copies.v[0].src_kind, 2);
	assert_int_equal(m->copies.v[0].dst_kind, 3);
	assert_int_equal(m->copies.v[0].bytes, 4096);
	/* the kernel joins its call, and the call's innermost range is aten::add */
	assert_int_equal(m->links.n, 1);
	assert_int_equal(m->links.v[0].event, k);
	assert_int_equal(m->links.v[0].api, a);
	assert_true(m->links.v[0].range != 0);
	assert_string_equal(pt_model_strget(m, m->events.name[m->links.v[0].range - 1]), "aten::add");
	/* ranges: a step and an operator */
	assert_int_equal(m->ranges.n, 2);
	for (size_t i = 0; i < 2; i++) {
		const char *nm = pt_model_strget(m, m->events.name[m->ranges.v[i].event]);
		const char *ty = pt_model_strget(m, m->ranges.v[i].type);
		assert_string_equal(ty, !strcmp(nm, "ProfilerStep#7") ? "ProfileStep" : "Operator");
	}
	assert_int_equal(m->ext_corr.n, 1);
	assert_int_equal(m->ext_corr.v[0].id, 9);
	assert_int_equal(pt_model_stat_get(m, 0, "kineto.python_functions_skipped", -1), 1);
	assert_int_equal(pt_model_stat_get(m, 0, "kineto.flow_events", -1), 1);
	assert_int_equal(pt_model_stat_get(m, 0, "kineto.world_size", -1), 8);
	pt_model_free(m);
}

static void test_import(void **state)
{
	(void)state;
	check_model(import_text(trace(true), false, "a.json"));
	check_model(import_text(trace(false), false, "b.pt.trace.json"));
	check_model(import_text(trace(true), true, "c.json.gz"));
	check_model(import_text(trace(false), true, "d.json.gz")); /* the base found at the end of the gzip stream */
}

/* An old trace: integer absolute µs, no base, "cat": "Kernel"/"Runtime", "tid": "stream 7". */
static void test_old_dialect(void **state)
{
	(void)state;
	const char *t = "{\"traceEvents\": [\n"
			"{\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 5, \"tid\": 6,"
			" \"ts\": 1600000000000001, \"dur\": 3, \"args\": {\"correlation\": 1}},\n"
			"{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": \"stream 7\","
			" \"ts\": 1600000000000005, \"dur\": 2, \"args\": {\"device\": 0, \"correlation\": 1}}\n"
			"]}";
	struct pt_model *m = import_text(t, false, "old.json");
	size_t k = find_event(m, PT_EV_KERNEL);
	assert_int_equal(m->events.start[k], INT64_C(1600000000000005000));
	assert_int_equal(m->events.dur[k], 2000);
	assert_int_equal(m->tracks.v[m->events.track[k]].stream, 7);
	assert_int_equal(m->links.n, 1);
	pt_model_free(m);
}

/* Events that ph and cat rule out are counted as such, whatever their other fields hold (they
 * are not read), in either key order; ph M and kept categories are read whole. */
static void test_dropped(void **state)
{
	(void)state;
	const char *t = "{\"traceEvents\": [\n"
			"{\"ph\": \"s\", \"ts\": \"bad\", \"pid\": [1], \"args\": {\"correlation\": {\"x\": [1, 2]}}, \"cat\": \"kernel\"},\n"
			"{\"ph\": \"f\", \"id\": 1, \"ts\": 1, \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"not a kernel\"},\n"
			"{\"cat\": \"ac2g\", \"ph\": \"t\", \"ts\": null},\n"
			"{\"cat\": \"ac2g\", \"ph\": \"M\", \"name\": \"process_name\", \"pid\": 5, \"args\": {\"name\": \"p5\"}},\n"
			"{\"ph\": \"X\", \"cat\": \"hccl\", \"ts\": \"bad\", \"dur\": {}},\n"
			"{\"ph\": \"i\", \"cat\": \"cpu_op\", \"ts\": \"bad\"},\n"
			"{\"ph\": \"X\", \"cat\": \"python_function\", \"ts\": \"bad\"},\n"
			"{\"cat\": \"gpu_user_annotation\", \"ph\": \"X\", \"ts\": \"bad\"},\n"
			"{\"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 5, \"tid\": 6, \"ts\": 1,"
			" \"dur\": 3, \"args\": {\"correlation\": 1}, \"ph\": \"X\"},\n"
			"{\"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 2, \"dur\": 2,"
			" \"args\": {\"device\": 0, \"correlation\": 1}, \"ph\": \"X\"}\n"
			"]}";
	struct pt_model *m = import_text(t, false, "drop.json");
	assert_int_equal(m->events.n, 2);
	size_t k = find_event(m, PT_EV_KERNEL);
	assert_string_equal(pt_model_strget(m, m->events.name[k]), "k");
	assert_int_equal(m->events.dur[k], 2000);
	assert_int_equal(m->links.n, 1);
	assert_string_equal(m->devices.v[0].name, "p5");
	int32_t sd = 0;
	assert_int_equal(pt_model_stat_get(m, sd, "kineto.events", -1), 10);
	assert_int_equal(pt_model_stat_get(m, sd, "kineto.flow_events", -1), 3);
	assert_int_equal(pt_model_stat_get(m, sd, "kineto.metadata_events", -1), 1);
	assert_int_equal(pt_model_stat_get(m, sd, "kineto.ignored_events", -1), 2);
	assert_int_equal(pt_model_stat_get(m, sd, "kineto.python_functions_skipped", -1), 1);
	assert_int_equal(pt_model_stat_get(m, sd, "kineto.gpu_user_annotations_skipped", -1), 1);
	pt_model_free(m);
}

/* The parser's own checks: JSON numbers, the first byte of bad UTF-8, a piece's values and offsets. */
static int n_vals;
static uint64_t at_pos, *pos_p;
static char seen[256];
static int v_null(void *c) { (void)c; n_vals++; strcat(seen, "n "); return 1; }
static int v_bool(void *c, int b) { (void)c; n_vals++; strcat(seen, b ? "T " : "F "); return 1; }
static char digits[256]; /* each number's digits as the check read them: -mant/nfrac, or "x" when not plain */
static int v_num(void *c, const char *s, size_t n, const struct pt_kt_json_num *d)
{
	(void)c;
	n_vals++;
	strncat(seen, s, n);
	strcat(seen, " ");
	at_pos = *pos_p;
	size_t l = strlen(digits);
	if (d->plain)
		snprintf(digits + l, sizeof(digits) - l, "%s%" PRIu64 "/%u ", d->neg ? "-" : "", d->mant, d->nfrac);
	else
		snprintf(digits + l, sizeof(digits) - l, "x ");
	return 1;
}
static int v_str(void *c, const unsigned char *s, size_t n) { (void)c; n_vals++; strcat(seen, "'"); strncat(seen, (const char *)s, n); strcat(seen, "' "); return 1; }
static int v_sm(void *c) { (void)c; strcat(seen, "{ "); return 1; }
static int skip_next; /* v_key saw "skip": v_wanted declines the next value; "rest": it and the rest */
static int v_key(void *c, const unsigned char *s, size_t n)
{
	(void)c;
	strncat(seen, (const char *)s, n);
	strcat(seen, ": ");
	skip_next = n == 4 && !memcmp(s, "skip", 4) ? 1 : n == 4 && !memcmp(s, "rest", 4) ? 2 : 0;
	return 1;
}
static int v_wanted(void *c)
{
	(void)c;
	int w = skip_next == 2 ? -1 : !skip_next;
	skip_next = 0;
	return w;
}
static int v_em(void *c) { (void)c; strcat(seen, "} "); return 1; }
static int v_sa(void *c) { (void)c; strcat(seen, "[ "); return 1; }
static int v_ea(void *c) { (void)c; strcat(seen, "] "); return 1; }

static int parse_cb(enum pt_kt_json_kind kind, const char *text, size_t *items, char *msg, uint64_t *pos,
		    bool wanted)
{
	static const struct pt_kt_json_cb all = { v_null, v_bool, v_num, v_str, v_sm, v_key, v_em, v_sa, v_ea, NULL };
	static const struct pt_kt_json_cb some = { v_null, v_bool, v_num, v_str, v_sm, v_key, v_em, v_sa, v_ea, v_wanted };
	const struct pt_kt_json_cb cb = wanted ? some : all;
	skip_next = 0;
	struct pt_kt_json *p = pt_kt_json_new();
	size_t n = strlen(text), cap = n + pt_kt_json_padding();
	char *b = calloc(1, cap);
	memcpy(b, text, n);
	n_vals = 0;
	seen[0] = digits[0] = 0;
	pos_p = pos;
	int rc = pt_kt_json_parse(p, kind, b, n, cap, &cb, NULL, 1000, pos, items, msg, 128);
	free(b);
	pt_kt_json_free(p);
	return rc;
}

static int parse(enum pt_kt_json_kind kind, const char *text, size_t *items, char *msg, uint64_t *pos)
{
	return parse_cb(kind, text, items, msg, pos, false);
}

static void test_json(void **state)
{
	(void)state;
	static const char *const good[] = { "0", "-0", "12", "1.5", "-1.25e-3", "2E+10", "1e5", "0.001", NULL };
	static const char *const bad[] = { "", "-", "01", "1.", ".5", "1e", "1e+", "0x1", "4.2.5", "+1", "1 ", "--1", NULL };
	for (int i = 0; good[i]; i++)
		assert_true(pt_kt_json_number(good[i], strlen(good[i])));
	for (int i = 0; bad[i]; i++)
		assert_false(pt_kt_json_number(bad[i], strlen(bad[i])));
	assert_int_equal(pt_kt_json_bad_utf8((const unsigned char *)"ab\xc3\xa9z", 5), 5);
	assert_int_equal(pt_kt_json_bad_utf8((const unsigned char *)"ab\xffz", 4), 2);
	assert_int_equal(pt_kt_json_bad_utf8((const unsigned char *)"a\xc0\x80", 3), 1);     /* overlong */
	assert_int_equal(pt_kt_json_bad_utf8((const unsigned char *)"a\xed\xa0\x80", 4), 1); /* a surrogate */
	assert_int_equal(pt_kt_json_bad_utf8((const unsigned char *)"a\xe2\x82", 3), 1);     /* cut short */

	size_t items;
	char msg[128];
	uint64_t pos;
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[{\"a\": [1, true], \"b\\u0041\": \"x\\ny\"}, null, 7]", &items, msg, &pos), 0);
	assert_int_equal(items, 3);
	assert_string_equal(seen, "{ a: [ 1 T ] bA: 'x\ny' } n 7 ");
	assert_int_equal(at_pos, 1000 + 44); /* the offset of the last value, 7 */
	assert_int_equal(parse(PT_KT_JSON_MEMBER, "{\"k\": {\"x\": -2.5}}", &items, msg, &pos), 0);
	assert_int_equal(items, 1);
	assert_string_equal(seen, "k: { x: -2.5 } ");
	/* errors: their reason and the file offset of the offending token */
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[{\"a\": 1.2.3}]", &items, msg, &pos), -1);
	assert_string_equal(msg, "invalid number '1.2.3'");
	assert_int_equal(pos, 1007);
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[{\"a\": 1 \"b\": 2}]", &items, msg, &pos), -1);
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[1, 2,]", &items, msg, &pos), -1);
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[\"a\xff\"]", &items, msg, &pos), -1);
	assert_string_equal(msg, "invalid UTF-8");
	assert_int_equal(pos, 1003);
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[nul]", &items, msg, &pos), -1);
	assert_string_equal(msg, "invalid literal");
	/* numbers' digits for the callbacks: plain ones (no exponent, ≤ 15 + 3 digits) as one integer */
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[2413669097444.592, -0, 0.25, 7, 1e3, 1.2345, 1234567890123456, 0.0]",
			       &items, msg, &pos), 0);
	assert_string_equal(digits, "2413669097444592/3 -0/0 25/2 7/0 x x x 0/1 ");
	/* keys: read in place without escapes, unescaped (and checked) with them */
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[{\"a\\\"b\": 1, \"0123456789abcdefXY\": 2}]", &items, msg, &pos), 0);
	assert_string_equal(seen, "{ a\"b: 1 0123456789abcdefXY: 2 } ");
	assert_int_equal(parse(PT_KT_JSON_ELEMENTS, "[{\"ok\": 1, \"a\\qb\": 1}]", &items, msg, &pos), -1);
	assert_string_equal(msg, "invalid string escape");
	/* values that wanted() declines are checked, never handed over (not even as null) */
	assert_int_equal(parse_cb(PT_KT_JSON_ELEMENTS, "[{\"skip\": {\"a\": [1, \"x\"]}, \"b\": 2, \"skip\": null}, 3]", &items,
				  msg, &pos, true), 0);
	assert_string_equal(seen, "{ skip: b: 2 skip: } 3 ");
	assert_int_equal(n_vals, 2);
	assert_int_equal(parse_cb(PT_KT_JSON_ELEMENTS, "[{\"skip\": [1, 02], \"b\": 2}]", &items, msg, &pos, true), -1);
	assert_string_equal(msg, "invalid number '02'");
	assert_int_equal(pos, 1014);
	assert_int_equal(parse_cb(PT_KT_JSON_ELEMENTS, "[{\"skip\": \"a\\qb\", \"b\": 2}]", &items, msg, &pos, true), -1);
	assert_string_equal(msg, "invalid string escape");
	/* -1: the rest of the object is checked, not handed over; its end and what follows are */
	assert_int_equal(parse_cb(PT_KT_JSON_ELEMENTS, "[{\"a\": 1, \"rest\": 2, \"b\": {\"c\": 3}, \"d\": 4}, [5]]", &items, msg,
				  &pos, true), 0);
	assert_string_equal(seen, "{ a: 1 rest: } [ 5 ] ");
	assert_int_equal(parse_cb(PT_KT_JSON_ELEMENTS, "[{\"rest\": 2, \"b\": 1e}]", &items, msg, &pos, true), -1);
	assert_string_equal(msg, "invalid number '1e'");
	assert_int_equal(parse_cb(PT_KT_JSON_ELEMENTS, "[{\"rest\": 2, \"b\\x\": 1}]", &items, msg, &pos, true), -1);
	assert_string_equal(msg, "invalid string escape");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_old_dialect),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
