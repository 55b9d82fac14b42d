/*
 * Hint records (hints.md §1.2): what the hints pass makes and the hints
 * exporter (export-hints.c) prints. A record is a typed row whose evidence is
 * a list of pairs, some of them items of named lists; the table layer keeps
 * the record, its builders and the digits of its numbers, so that the pass
 * and the exporter share them without including each other.
 */
#ifndef PT_TABLE_HINTS_H
#define PT_TABLE_HINTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pt_hint_sev { PT_SEV_INFO = 0, PT_SEV_WARN = 1, PT_SEV_CRIT = 2 };
const char *pt_hint_sev_name(enum pt_hint_sev s);

enum pt_hint_status { PT_HS_SHOWN, PT_HS_SUPPRESSED, PT_HS_NOT_EVALUATED, PT_HS_DISABLED };
/* "shown", "suppressed", "not_evaluated", "disabled". */
const char *pt_hint_status_name(enum pt_hint_status s);

/* One evidence pair; list items carry list/idx/field and key = list_idx_field. */
struct pt_hint_ev {
	char *key;
	char *list;   /* NULL for a plain pair */
	int idx;
	char *field;
	char *text;   /* as printed in CSV */
	bool num;     /* JSON number (else string) */
};

struct pt_hint {
	int rule;              /* the pass's rule number (enum pt_hint_rule): the output order */
	const char *id;        /* its id, "STEP_GAP" (static) */
	int64_t rank;
	char *scope;
	enum pt_hint_sev sev;
	enum pt_hint_status status;
	char *reason;          /* suppressed / not evaluated / disabled */
	char *metric, *unit;   /* unit: ns, pct, fraction, ratio, count */
	double value, threshold;
	char *message;         /* one line */
	char **items;          /* further lines (MD_PIPELINE, TOP_OPS) */
	size_t nitems;
	struct pt_hint_ev *ev;
	size_t nev, capev;
	const char *knobs;     /* keys of the thresholds used, " "-separated (static) */
};

struct pt_hints {
	struct pt_hint *v;
	size_t n, cap;
	size_t evaluated, not_evaluated, disabled; /* over (rule, rank) pairs */
};

/* A new record at the end of h (status shown, severity info). */
struct pt_hint *pt_hint_new(struct pt_hints *h, int rule, const char *id, const char *knobs, int64_t rank,
			    const char *scope);
void pt_hint_ev_int(struct pt_hint *h, const char *key, int64_t v);
void pt_hint_ev_dbl(struct pt_hint *h, const char *key, double v);
void pt_hint_ev_str(struct pt_hint *h, const char *key, const char *v);
/* A number already formatted (integers beyond int64, e.g. FLOPs). */
void pt_hint_ev_num(struct pt_hint *h, const char *key, const char *text);
/* List item field: key list_<idx>_field. */
void pt_hint_ev_item(struct pt_hint *h, const char *list, int idx, const char *field, const char *text, bool num);
void pt_hint_item(struct pt_hint *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pt_hints_free(struct pt_hints *h);

/* Highest severity among shown hints, -1 when none. */
int pt_hints_max_sev(const struct pt_hints *h);

/* Is unit one whose values are integers (`ns`, `count`)? */
bool pt_hint_unit_is_int(const char *unit);
/* `value` or `threshold` of a record: an integer for units ns and count,
 * otherwise (pct, fraction, ratio) four decimals, printf %.4f. */
void pt_hint_fmt_value(char *buf, size_t n, const char *unit, double v);
/* A fractional evidence value: four decimals, printf %.4f. */
void pt_hint_fmt_frac(char *buf, size_t n, double v);

#endif
