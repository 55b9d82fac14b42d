/* Hint records (hints.md §1.2): builders and number digits. */
#include "table/hints.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

const char *pt_hint_sev_name(enum pt_hint_sev s)
{
	return s == PT_SEV_CRIT ? "crit" : s == PT_SEV_WARN ? "warn" : "info";
}

const char *pt_hint_status_name(enum pt_hint_status s)
{
	switch (s) {
	case PT_HS_SUPPRESSED:
		return "suppressed";
	case PT_HS_NOT_EVALUATED:
		return "not_evaluated";
	case PT_HS_DISABLED:
		return "disabled";
	default:
		return "shown";
	}
}

struct pt_hint *pt_hint_new(struct pt_hints *h, int rule, const char *id, const char *knobs, int64_t rank,
			    const char *scope)
{
	pt_xgrow((void **)&h->v, &h->cap, h->n + 1, sizeof(*h->v));
	struct pt_hint *x = &h->v[h->n++];
	memset(x, 0, sizeof(*x));
	x->rule = rule;
	x->id = id;
	x->rank = rank;
	x->scope = pt_xstrdup(scope);
	x->knobs = knobs;
	return x;
}

static struct pt_hint_ev *ev_new(struct pt_hint *h)
{
	pt_xgrow((void **)&h->ev, &h->capev, h->nev + 1, sizeof(*h->ev));
	struct pt_hint_ev *e = &h->ev[h->nev++];
	memset(e, 0, sizeof(*e));
	return e;
}

void pt_hint_ev_int(struct pt_hint *h, const char *key, int64_t v)
{
	struct pt_hint_ev *e = ev_new(h);
	e->key = pt_xstrdup(key);
	e->text = pt_xasprintf("%lld", (long long)v);
	e->num = true;
}

void pt_hint_ev_dbl(struct pt_hint *h, const char *key, double v)
{
	struct pt_hint_ev *e = ev_new(h);
	e->key = pt_xstrdup(key);
	char b[512]; /* %.4f of any double fits */
	pt_hint_fmt_frac(b, sizeof(b), v);
	e->text = pt_xstrdup(b);
	e->num = true;
}

void pt_hint_ev_num(struct pt_hint *h, const char *key, const char *text)
{
	struct pt_hint_ev *e = ev_new(h);
	e->key = pt_xstrdup(key);
	e->text = pt_xstrdup(text);
	e->num = true;
}

void pt_hint_ev_str(struct pt_hint *h, const char *key, const char *v)
{
	struct pt_hint_ev *e = ev_new(h);
	e->key = pt_xstrdup(key);
	e->text = pt_xstrdup(v);
}

void pt_hint_ev_item(struct pt_hint *h, const char *list, int idx, const char *field, const char *text, bool num)
{
	struct pt_hint_ev *e = ev_new(h);
	e->key = pt_xasprintf("%s_%d_%s", list, idx, field);
	e->list = pt_xstrdup(list);
	e->idx = idx;
	e->field = pt_xstrdup(field);
	e->text = pt_xstrdup(text);
	e->num = num;
}

void pt_hint_item(struct pt_hint *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	h->items = pt_xrealloc(h->items, (h->nitems + 1) * sizeof(*h->items));
	h->items[h->nitems++] = s;
}

static void hint_free(struct pt_hint *x)
{
	free(x->scope);
	free(x->reason);
	free(x->metric);
	free(x->unit);
	free(x->message);
	for (size_t i = 0; i < x->nitems; i++)
		free(x->items[i]);
	free(x->items);
	for (size_t i = 0; i < x->nev; i++) {
		free(x->ev[i].key);
		free(x->ev[i].list);
		free(x->ev[i].field);
		free(x->ev[i].text);
	}
	free(x->ev);
}

void pt_hints_free(struct pt_hints *h)
{
	for (size_t i = 0; i < h->n; i++)
		hint_free(&h->v[i]);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

int pt_hints_max_sev(const struct pt_hints *h)
{
	int m = -1;
	for (size_t i = 0; i < h->n; i++)
		if (h->v[i].status == PT_HS_SHOWN && (int)h->v[i].sev > m)
			m = (int)h->v[i].sev;
	return m;
}

bool pt_hint_unit_is_int(const char *unit)
{
	return unit && (!strcmp(unit, "ns") || !strcmp(unit, "count"));
}

void pt_hint_fmt_value(char *buf, size_t n, const char *unit, double v)
{
	if (pt_hint_unit_is_int(unit))
		snprintf(buf, n, "%lld", (long long)llround(v));
	else
		pt_hint_fmt_frac(buf, n, v);
}

void pt_hint_fmt_frac(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.4f", v);
}
