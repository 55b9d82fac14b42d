/*
 * The hint records of `proftool hints` (hints.md §1.2, table/hints.h) as
 * text, CSV, JSON and JSON lines. The evidence is a typed list of pairs, so
 * the records do not fit the generic tables (JSON wants an object with
 * arrays); CSV fields are quoted by export-csv.c and JSON strings written by
 * jsonw.c, as for every other table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/jsonw.h"
#include "support/fmt-text.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/hints.h"

/* Evidence cell: key=value;... with \ escaping ; = \ in values; sep between pairs. */
static char *evidence_cell(const struct pt_hint *h, const char *sep)
{
	size_t cap = 64, n = 0;
	char *s = pt_xmalloc(cap);
	s[0] = 0;
	for (size_t i = 0; i < h->nev; i++) {
		const struct pt_hint_ev *e = &h->ev[i];
		size_t need = n + strlen(sep) + strlen(e->key) + 2 * strlen(e->text) + 4;
		if (need > cap) {
			cap = need * 2;
			s = pt_xrealloc(s, cap);
		}
		if (i)
			n += (size_t)sprintf(s + n, "%s", sep);
		n += (size_t)sprintf(s + n, "%s=", e->key);
		for (const char *p = e->text; *p; p++) {
			if (*p == ';' || *p == '=' || *p == '\\')
				s[n++] = '\\';
			s[n++] = *p;
		}
		s[n] = 0;
	}
	return s;
}

static char *full_message(const struct pt_hint *h)
{
	size_t n = strlen(h->message ? h->message : "") + 1;
	for (size_t i = 0; i < h->nitems; i++)
		n += strlen(h->items[i]) + 1;
	char *s = pt_xmalloc(n);
	strcpy(s, h->message ? h->message : "");
	for (size_t i = 0; i < h->nitems; i++) {
		strcat(s, " ");
		strcat(s, h->items[i]);
	}
	return s;
}

/* Prose: raw text s wrapped at width, its first line `col` columns into a line
 * whose start the caller printed, the next lines indented by `indent`. */
static void prose(struct pt_out *o, const char *s, size_t width, size_t col, size_t indent)
{
	char *x = pt_text_wrap(s, strlen(s), width, col, indent);
	pt_out_puts(o, x);
	pt_out_putc(o, '\n');
	free(x);
}

static void write_text(struct pt_out *o, const struct pt_hints *h, bool sup, size_t width)
{
	size_t shown = 0, suppressed = 0;
	pt_out_puts(o, "Hints\n");
	for (size_t i = 0; i < h->n; i++) {
		const struct pt_hint *x = &h->v[i];
		suppressed += x->status == PT_HS_SUPPRESSED;
		if (x->status != PT_HS_SHOWN)
			continue;
		pt_out_putc(o, '\n');
		shown++;
		char head[256];
		snprintf(head, sizeof(head), "[%s] %s  rank %lld%s", pt_hint_sev_name(x->sev), x->id,
			 (long long)x->rank, strcmp(x->scope, "rank") ? "  " : "");
		pt_out_puts(o, head);
		if (strcmp(x->scope, "rank"))
			pt_out_text(o, x->scope, strlen(x->scope));
		pt_out_puts(o, "\n  ");
		prose(o, x->message ? x->message : "", width, 2, 2);
		for (size_t j = 0; j < x->nitems; j++) {
			pt_out_puts(o, "    ");
			prose(o, x->items[j], width, 4, 6);
		}
		char *ev = evidence_cell(x, "; ");
		char *line = pt_xmalloc(strlen(ev) + 16);
		sprintf(line, "evidence: %s", ev);
		pt_out_puts(o, "  ");
		prose(o, line, width, 2, 4);
		free(line);
		free(ev);
		if (x->knobs && *x->knobs) {
			char *k = pt_xmalloc(2 * strlen(x->knobs) + 16);
			size_t n = (size_t)sprintf(k, "knob: ");
			for (const char *p = x->knobs; *p; p++) {
				if (*p == ' ')
					k[n++] = ',';
				k[n++] = *p;
			}
			k[n] = 0;
			pt_out_puts(o, "  ");
			prose(o, k, width, 2, 4);
			free(k);
		}
	}
	if (!shown)
		pt_out_puts(o, "\nNo hints to show.\n");
	char tally[256];
	snprintf(tally, sizeof(tally), "Hints: %zu shown, %zu suppressed; rules: %zu evaluated, %zu not evaluated, %zu disabled.",
		 shown, suppressed, h->evaluated, h->not_evaluated, h->disabled);
	pt_out_putc(o, '\n');
	prose(o, tally, width, 0, 2);
	if (!sup)
		return;
	pt_out_puts(o, "\nNot shown\n");
	size_t ns = 0;
	for (size_t i = 0; i < h->n; i++) {
		const struct pt_hint *x = &h->v[i];
		if (x->status == PT_HS_SHOWN)
			continue;
		ns++;
		size_t len = strlen(x->id) + strlen(x->scope) + strlen(x->reason ? x->reason : "") + 96;
		char *line = pt_xmalloc(len);
		snprintf(line, len, "[%s] %s  rank %lld  %s  %s", pt_hint_status_name(x->status), x->id,
			 (long long)x->rank, x->scope, x->reason ? x->reason : "");
		prose(o, line, width, 0, 4);
		free(line);
	}
	if (!ns)
		pt_out_puts(o, "Nothing was left out.\n");
}

static void csv_field(struct pt_out *o, const char *s)
{
	pt_export_csv_field(o, s, strlen(s));
}

static void write_csv(struct pt_out *o, const struct pt_hints *h, bool sup)
{
	if (sup)
		goto suppressed;
	pt_out_puts(o, "rank,scope,rule_id,severity,metric,value,threshold,unit,message,evidence\n");
	for (size_t i = 0; i < h->n; i++) {
		const struct pt_hint *x = &h->v[i];
		if (x->status != PT_HS_SHOWN)
			continue;
		char v[512], t[512]; /* %.4f of any double fits */
		pt_hint_fmt_value(v, sizeof(v), x->unit, x->value);
		pt_hint_fmt_value(t, sizeof(t), x->unit, x->threshold);
		pt_out_printf(o, "%lld,", (long long)x->rank);
		csv_field(o, x->scope);
		pt_out_printf(o, ",%s,%s,", x->id, pt_hint_sev_name(x->sev));
		csv_field(o, x->metric);
		pt_out_printf(o, ",%s,%s,", v, t);
		csv_field(o, x->unit);
		pt_out_putc(o, ',');
		char *m = full_message(x), *ev = evidence_cell(x, ";");
		csv_field(o, m);
		pt_out_putc(o, ',');
		csv_field(o, ev);
		pt_out_putc(o, '\n');
		free(m);
		free(ev);
	}
	return;
suppressed:
	pt_out_puts(o, "rank,scope,rule_id,status,reason,severity,evidence\n");
	for (size_t i = 0; i < h->n; i++) {
		const struct pt_hint *x = &h->v[i];
		if (x->status == PT_HS_SHOWN)
			continue;
		pt_out_printf(o, "%lld,", (long long)x->rank);
		csv_field(o, x->scope);
		pt_out_printf(o, ",%s,%s,", x->id, pt_hint_status_name(x->status));
		csv_field(o, x->reason ? x->reason : "");
		pt_out_putc(o, ',');
		if (x->status == PT_HS_SUPPRESSED) {
			char *ev = evidence_cell(x, ";");
			pt_out_puts(o, pt_hint_sev_name(x->sev));
			pt_out_putc(o, ',');
			csv_field(o, ev);
			free(ev);
		} else {
			pt_out_putc(o, ',');
		}
		pt_out_putc(o, '\n');
	}
}

static void jstr(struct pt_out *o, const char *s)
{
	pt_jsonw_str(o, s, strlen(s));
}

static void jval(struct pt_out *o, const struct pt_hint_ev *e)
{
	if (e->num)
		pt_out_puts(o, e->text);
	else
		jstr(o, e->text);
}

static void json_evidence(struct pt_out *o, const struct pt_hint *x)
{
	pt_out_putc(o, '{');
	bool first = true;
	for (size_t i = 0; i < x->nev;) {
		const struct pt_hint_ev *e = &x->ev[i];
		if (!first)
			pt_out_putc(o, ',');
		first = false;
		if (!e->list) {
			jstr(o, e->key);
			pt_out_putc(o, ':');
			jval(o, e);
			i++;
			continue;
		}
		/* a list: its items, consecutive pairs with the same list name */
		const char *list = e->list;
		jstr(o, list);
		pt_out_puts(o, ":[");
		int idx = -1;
		while (i < x->nev && x->ev[i].list && !strcmp(x->ev[i].list, list)) {
			const struct pt_hint_ev *f = &x->ev[i];
			if (f->idx != idx) {
				if (idx != -1)
					pt_out_puts(o, "},");
				pt_out_putc(o, '{');
				idx = f->idx;
			} else {
				pt_out_putc(o, ',');
			}
			jstr(o, f->field);
			pt_out_putc(o, ':');
			jval(o, f);
			i++;
		}
		pt_out_puts(o, "}]");
	}
	pt_out_putc(o, '}');
}

static void json_row(struct pt_out *o, const struct pt_hint *x, bool view)
{
	pt_out_putc(o, '{');
	if (view)
		pt_out_puts(o, x->status == PT_HS_SHOWN ? "\"view\":\"hints\"," : "\"view\":\"hints_suppressed\",");
	pt_out_printf(o, "\"rank\":%lld,\"scope\":", (long long)x->rank);
	jstr(o, x->scope);
	pt_out_puts(o, ",\"rule_id\":");
	jstr(o, x->id);
	if (x->status == PT_HS_SHOWN) {
		char v[512], t[512]; /* %.4f of any double fits */
		pt_hint_fmt_value(v, sizeof(v), x->unit, x->value);
		pt_hint_fmt_value(t, sizeof(t), x->unit, x->threshold);
		pt_out_printf(o, ",\"severity\":\"%s\",\"metric\":", pt_hint_sev_name(x->sev));
		jstr(o, x->metric);
		pt_out_printf(o, ",\"value\":%s,\"threshold\":%s,\"unit\":", v, t);
		jstr(o, x->unit);
		pt_out_puts(o, ",\"message\":");
		char *m = full_message(x);
		jstr(o, m);
		free(m);
		pt_out_puts(o, ",\"evidence\":");
		json_evidence(o, x);
	} else {
		pt_out_printf(o, ",\"status\":\"%s\",\"reason\":", pt_hint_status_name(x->status));
		jstr(o, x->reason ? x->reason : "");
		if (x->status == PT_HS_SUPPRESSED) {
			pt_out_printf(o, ",\"severity\":\"%s\",\"evidence\":", pt_hint_sev_name(x->sev));
			json_evidence(o, x);
		} else {
			pt_out_puts(o, ",\"severity\":null,\"evidence\":null");
		}
	}
	pt_out_putc(o, '}');
}

static void write_json(struct pt_out *o, const struct pt_hints *h, bool sup, bool lines)
{
	if (lines) {
		for (int pass = 0; pass < (sup ? 2 : 1); pass++)
			for (size_t i = 0; i < h->n; i++)
				if ((h->v[i].status == PT_HS_SHOWN) == (pass == 0)) {
					json_row(o, &h->v[i], true);
					pt_out_putc(o, '\n');
				}
		return;
	}
	pt_out_puts(o, "{\"proftool\":\"" PT_VERSION "\",\"views\":[");
	for (int pass = 0; pass < (sup ? 2 : 1); pass++) {
		if (pass)
			pt_out_puts(o, ",\n{\"name\":\"hints_suppressed\",\"unit\":\"ns\",\"columns\":[\"rank\",\"scope\","
				       "\"rule_id\",\"status\",\"reason\",\"severity\",\"evidence\"],\"rows\":[");
		else
			pt_out_puts(o, "\n{\"name\":\"hints\",\"unit\":\"ns\",\"columns\":[\"rank\",\"scope\",\"rule_id\","
				       "\"severity\",\"metric\",\"value\",\"threshold\",\"unit\",\"message\",\"evidence\"],"
				       "\"rows\":[");
		size_t n = 0;
		for (size_t i = 0; i < h->n; i++)
			if ((h->v[i].status == PT_HS_SHOWN) == (pass == 0)) {
				if (n++)
					pt_out_putc(o, ',');
				pt_out_putc(o, '\n');
				json_row(o, &h->v[i], false);
			}
		pt_out_puts(o, "]}");
	}
	pt_out_puts(o, "\n]}\n");
}

void pt_export_hints(struct pt_out *o, const struct pt_hints *h, enum pt_format f, bool show_suppressed,
		     size_t width)
{
	switch (f) {
	case PT_FMT_TABLE:
		write_text(o, h, show_suppressed, width ? width : 100);
		break;
	case PT_FMT_CSV:
		write_csv(o, h, false);
		break;
	case PT_FMT_JSON:
		write_json(o, h, show_suppressed, false);
		break;
	case PT_FMT_JSONL:
		write_json(o, h, show_suppressed, true);
		break;
	}
}

void pt_export_hints_csv(struct pt_out *o, const struct pt_hints *h, bool suppressed)
{
	write_csv(o, h, suppressed);
}
