/*
 * A reusable checker for Chrome trace files (chrome-trace.md §1, §4, §5.3,
 * §6): the text parses as strict JSON (jansson), the first byte is '{',
 * traceEvents is an array of objects with a known ph; every B has its E on
 * the same (pid, tid); X events have ts >= 0 and dur >= 0 and nest on each
 * tid, in integer ns and in the doubles a reader parses (ts + dur added in
 * IEEE doubles, as JavaScript does: no false nesting); every flow start has one end with the same id, cat and name (and
 * the reverse); every pid carries a process_name and every tid a
 * thread_name. Header-only: used by the unit tests and by tests/chrome-check.c
 * (the e2e cases build that).
 */
#ifndef PT_CHROME_CHECK_H
#define PT_CHROME_CHECK_H
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct chrome_check {
	size_t events, m, x, c, s, f, b, e, i;
	size_t pids, tids;
	char err[512];
	json_t *root; /* kept for callers when keep_root; else freed */
};

static int chrome_check_fail(struct chrome_check *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

struct chrome_check_x {
	long long pid, tid, s, e;
	double ds, de; /* the parsed doubles: ts, and ts + dur added in IEEE doubles as JavaScript does */
};

static int chrome_check_xcmp(const void *pa, const void *pb)
{
	const struct chrome_check_x *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return a->e > b->e ? -1 : a->e < b->e;
}

struct chrome_check_key {
	long long a, b;
	const char *s1, *s2;
	int kind;
};

static int chrome_check_kcmp(const void *pa, const void *pb)
{
	const struct chrome_check_key *a = pa, *b = pb;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	int c = strcmp(a->s1 ? a->s1 : "", b->s1 ? b->s1 : "");
	if (c)
		return c;
	c = strcmp(a->s2 ? a->s2 : "", b->s2 ? b->s2 : "");
	if (c)
		return c;
	return a->kind - b->kind;
}

static long long chrome_check_ns(json_t *v)
{
	return llround(json_number_value(v) * 1000.0);
}

/* Check a document; keep_root leaves r->root set (caller json_decref()s it). */
static int chrome_check_text(const char *text, size_t n, struct chrome_check *r, int keep_root)
{
	memset(r, 0, sizeof(*r));
	if (!n || text[0] != '{')
		return chrome_check_fail(r, "first byte is not '{'");
	json_error_t je;
	json_t *root = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return chrome_check_fail(r, "JSON error at line %d column %d: %s", je.line, je.column, je.text);
	int rc = -1;
	json_t *evs = json_object_get(root, "traceEvents");
	struct chrome_check_x *xs = NULL;
	struct chrome_check_key *names = NULL, *used = NULL, *flows = NULL, *be = NULL;
	size_t nx = 0, nn = 0, nu = 0, nf = 0, nbe = 0;
	if (!json_is_array(evs)) {
		chrome_check_fail(r, "no traceEvents array");
		goto out;
	}
	size_t ne = json_array_size(evs);
	xs = calloc(ne + 1, sizeof(*xs));
	names = calloc(ne + 1, sizeof(*names));
	used = calloc(2 * ne + 1, sizeof(*used));
	flows = calloc(ne + 1, sizeof(*flows));
	be = calloc(ne + 1, sizeof(*be));
	for (size_t k = 0; k < ne; k++) {
		json_t *ev = json_array_get(evs, k);
		if (!json_is_object(ev)) {
			chrome_check_fail(r, "event %zu is not an object", k);
			goto out;
		}
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		if (!ph || strlen(ph) != 1 || !strchr("XMCsfBEi", ph[0])) {
			chrome_check_fail(r, "event %zu: bad ph", k);
			goto out;
		}
		json_t *pid = json_object_get(ev, "pid"), *tid = json_object_get(ev, "tid"), *ts = json_object_get(ev, "ts");
		json_t *name = json_object_get(ev, "name");
		r->events++;
		if (!json_is_integer(pid) || json_integer_value(pid) < 0) {
			chrome_check_fail(r, "event %zu: no integer pid", k);
			goto out;
		}
		long long p = json_integer_value(pid), t = json_is_integer(tid) ? json_integer_value(tid) : -1;
		if (ph[0] == 'M') {
			r->m++;
			const char *nm = json_string_value(name);
			json_t *args = json_object_get(ev, "args");
			if (!nm || !json_is_object(args)) {
				chrome_check_fail(r, "event %zu: M without name or args", k);
				goto out;
			}
			if (!strcmp(nm, "process_name"))
				names[nn++] = (struct chrome_check_key){ p, -1, NULL, NULL, 0 };
			else if (!strcmp(nm, "thread_name"))
				names[nn++] = (struct chrome_check_key){ p, t, NULL, NULL, 0 };
			continue;
		}
		if (!json_is_number(ts) || json_number_value(ts) < 0) {
			chrome_check_fail(r, "event %zu: ts missing or negative", k);
			goto out;
		}
		if (t < 0) {
			chrome_check_fail(r, "event %zu: no tid", k);
			goto out;
		}
		used[nu++] = (struct chrome_check_key){ p, -1, NULL, NULL, 0 };
		used[nu++] = (struct chrome_check_key){ p, t, NULL, NULL, 0 };
		switch (ph[0]) {
		case 'X': {
			json_t *dur = json_object_get(ev, "dur");
			if (!json_is_number(dur) || json_number_value(dur) < 0) {
				chrome_check_fail(r, "event %zu: X without dur >= 0", k);
				goto out;
			}
			if (!json_is_string(name)) {
				chrome_check_fail(r, "event %zu: X without name", k);
				goto out;
			}
			long long s = chrome_check_ns(ts);
			volatile double de = json_number_value(ts) + json_number_value(dur); /* one IEEE addition */
			xs[nx++] = (struct chrome_check_x){ p, t, s, s + chrome_check_ns(dur), json_number_value(ts), de };
			r->x++;
			break;
		}
		case 'C':
			if (!json_is_object(json_object_get(ev, "args"))) {
				chrome_check_fail(r, "event %zu: C without args", k);
				goto out;
			}
			r->c++;
			break;
		case 's':
		case 'f': {
			json_t *id = json_object_get(ev, "id");
			if (!json_is_integer(id)) {
				chrome_check_fail(r, "event %zu: flow without integer id", k);
				goto out;
			}
			if (ph[0] == 'f') {
				const char *bp = json_string_value(json_object_get(ev, "bp"));
				if (!bp || strcmp(bp, "e")) {
					chrome_check_fail(r, "event %zu: f without \"bp\": \"e\"", k);
					goto out;
				}
			}
			flows[nf++] = (struct chrome_check_key){ json_integer_value(id), 0,
								 json_string_value(json_object_get(ev, "cat")),
								 json_string_value(name), ph[0] == 's' ? 0 : 1 };
			if (ph[0] == 's')
				r->s++;
			else
				r->f++;
			break;
		}
		case 'B':
		case 'E':
			be[nbe++] = (struct chrome_check_key){ p, t, NULL, NULL, (int)k * 2 + (ph[0] == 'E') };
			if (ph[0] == 'B')
				r->b++;
			else
				r->e++;
			break;
		default:
			r->i++;
		}
	}
	/* names */
	qsort(names, nn, sizeof(*names), chrome_check_kcmp);
	for (size_t k = 0; k < nu; k++) {
		if (!bsearch(&used[k], names, nn, sizeof(*names), chrome_check_kcmp)) {
			chrome_check_fail(r, "%s %lld of pid %lld has no name", used[k].b < 0 ? "pid" : "tid",
					  used[k].b < 0 ? used[k].a : used[k].b, used[k].a);
			goto out;
		}
	}
	for (size_t k = 0; k < nn; k++) {
		if (names[k].b < 0)
			r->pids++;
		else
			r->tids++;
	}
	/* flows: every s has one f with the same (id, cat, name) and the reverse */
	qsort(flows, nf, sizeof(*flows), chrome_check_kcmp);
	for (size_t k = 0; k < nf;) {
		size_t j = k;
		int ns = 0, nfin = 0;
		while (j < nf && flows[j].a == flows[k].a) {
			if (flows[j].kind == 0)
				ns++;
			else
				nfin++;
			j++;
		}
		if (ns != 1 || nfin != 1 || chrome_check_kcmp(&(struct chrome_check_key){ flows[k].a, 0, flows[k].s1, flows[k].s2, 0 },
							       &(struct chrome_check_key){ flows[j - 1].a, 0, flows[j - 1].s1,
											   flows[j - 1].s2, 0 })) {
			chrome_check_fail(r, "flow id %lld: %d starts and %d ends (or cat/name differ)", flows[k].a, ns, nfin);
			goto out;
		}
		k = j;
	}
	/* B/E: per (pid, tid) in file order, depth never below 0 and 0 at the end */
	qsort(be, nbe, sizeof(*be), chrome_check_kcmp);
	for (size_t k = 0; k < nbe;) {
		size_t j = k;
		long depth = 0;
		while (j < nbe && be[j].a == be[k].a && be[j].b == be[k].b) {
			depth += (be[j].kind & 1) ? -1 : 1;
			if (depth < 0) {
				chrome_check_fail(r, "E without B on pid %lld tid %lld", be[k].a, be[k].b);
				goto out;
			}
			j++;
		}
		if (depth) {
			chrome_check_fail(r, "B without E on pid %lld tid %lld", be[k].a, be[k].b);
			goto out;
		}
		k = j;
	}
	/*
	 * X nesting per tid, in integer ns; and no false nesting in doubles: where
	 * the integers say an event ends before the next one starts, or inside its
	 * parent, the parsed doubles (end = ts + dur) say the same.
	 */
	qsort(xs, nx, sizeof(*xs), chrome_check_xcmp);
	{
		size_t *stack = malloc((nx + 1) * sizeof(*stack));
		size_t sp = 0;
		for (size_t k = 0; k < nx; k++) {
			if (k && (xs[k].pid != xs[k - 1].pid || xs[k].tid != xs[k - 1].tid))
				sp = 0;
			while (sp && xs[stack[sp - 1]].e <= xs[k].s) {
				const struct chrome_check_x *a = &xs[stack[sp - 1]];
				if (a->de > xs[k].ds) {
					chrome_check_fail(r, "false nesting in doubles on pid %lld tid %lld: [%lld, %lld) ends at %.17g "
							  "after [%lld, %lld) starts at %.17g",
							  a->pid, a->tid, a->s, a->e, a->de, xs[k].s, xs[k].e, xs[k].ds);
					free(stack);
					goto out;
				}
				sp--;
			}
			if (sp && xs[k].e > xs[stack[sp - 1]].e) {
				chrome_check_fail(r, "X [%lld, %lld) on pid %lld tid %lld overlaps its parent ending at %lld",
						  xs[k].s, xs[k].e, xs[k].pid, xs[k].tid, xs[stack[sp - 1]].e);
				free(stack);
				goto out;
			}
			if (sp && xs[k].de > xs[stack[sp - 1]].de) {
				const struct chrome_check_x *a = &xs[stack[sp - 1]];
				chrome_check_fail(r, "false nesting in doubles on pid %lld tid %lld: [%lld, %lld) ends at %.17g "
						  "after its parent [%lld, %lld) at %.17g",
						  a->pid, a->tid, xs[k].s, xs[k].e, xs[k].de, a->s, a->e, a->de);
				free(stack);
				goto out;
			}
			stack[sp++] = k;
		}
		free(stack);
	}
	rc = 0;
out:
	free(xs);
	free(names);
	free(used);
	free(flows);
	free(be);
	if (rc == 0 && keep_root)
		r->root = root;
	else
		json_decref(root);
	return rc;
}

/* Read a whole file (gzip-compressed or not) and check it. */
static int chrome_check_file(const char *path, struct chrome_check *r, int keep_root)
{
	gzFile g = gzopen(path, "rb");
	if (!g) {
		memset(r, 0, sizeof(*r));
		return chrome_check_fail(r, "cannot open '%s'", path);
	}
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (n == cap)
			buf = realloc(buf, cap *= 2);
		int k = gzread(g, buf + n, (unsigned)(cap - n));
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	gzclose(g);
	int rc = chrome_check_text(buf, n, r, keep_root);
	free(buf);
	return rc;
}

#endif
