/*
 * Typed result tables: what passes produce and exporters print. A column has
 * a name, a type and a role; a time column holds integer ns and its name is
 * given without unit suffix ("start"): exporters add "_ns" or the unit asked
 * for. Cells may be null (a value that does not exist).
 */
#ifndef PT_TABLE_H
#define PT_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pt_col_type {
	PT_COL_INT,    /* int64 */
	PT_COL_TIME,   /* int64 ns, printed in the chosen time unit */
	PT_COL_DOUBLE, /* printed with the column's decimals */
	PT_COL_STR,
};

enum pt_col_role { PT_ROLE_KEY, PT_ROLE_VALUE, PT_ROLE_LABEL };

/*
 * The decimals rule of text (proftool(1) OUTPUT, "Text"): times with 3
 * decimals in the table's unit (integers in ns), every other fractional
 * number (percentages, ratios, rates) with 2. CSV and JSON keep exact values.
 */
#define PT_TEXT_TIME_DECIMALS 3
#define PT_TEXT_DECIMALS 2
/*
 * The same rule in prose (hint messages, notes, warnings): the printf
 * conversion of a fraction other than a time ("12.35" for 12.345), to splice
 * into a format ("idle " PT_TEXT_FRAC "%% of the window"), and a time through
 * pt_time_text().
 */
#define PT_TEXT_STR_(x) #x
#define PT_TEXT_STR(x) PT_TEXT_STR_(x)
#define PT_TEXT_FRAC "%." PT_TEXT_STR(PT_TEXT_DECIMALS) "f"

/* Time units of printed times (PT_TU_DEFAULT, `--time-unit auto`: each text
 * table picks its own, pt_time_unit_pick(); ns in CSV/JSON). */
enum pt_time_unit { PT_TU_DEFAULT = 0, PT_TU_NS, PT_TU_US, PT_TU_MS, PT_TU_S };
/* A unit's name ("ms") and ns per unit (PT_TU_DEFAULT: those of ns). */
const char *pt_time_unit_name(enum pt_time_unit u);
int64_t pt_time_unit_div(enum pt_time_unit u);
/*
 * The unit that shows the typical value of n times (ns; v is reordered) with
 * at least three significant digits at three decimals, in the fewest
 * columns: the largest of s, ms, us in which the median of the non-zero
 * values (their magnitudes) is at least 0.100, else ns; ms when no value is
 * non-zero. The one rule of the auto unit, for tables and for the summary's
 * text cells alike.
 */
enum pt_time_unit pt_time_unit_pick(int64_t *v, size_t n);
/*
 * A time in prose, ns in unit u with its name ("12.346 ms"), by the decimals
 * rule of text (PT_TEXT_TIME_DECIMALS decimals, none in ns); u PT_TU_DEFAULT
 * (auto) takes the unit pt_time_unit_pick() takes for this one value. Into b
 * (at least PT_TIME_TEXT_MAX bytes); returns b.
 */
#define PT_TIME_TEXT_MAX 48
const char *pt_time_text(char *b, int64_t ns, enum pt_time_unit u);
/* pt_time_unit_pick() over the time cells of a table (its first 100000
 * rows); points in time (pt_col_is_instant) count only in a table with no
 * other time column, so that a table of events takes the unit of their
 * durations, not of their start times. */
struct pt_table;
struct pt_col;
enum pt_time_unit pt_table_pick_unit(const struct pt_table *t);
/* A time column that holds points in time: named start, end, first, last,
 * ts, or *_start, *_end. */
bool pt_col_is_instant(const struct pt_col *c);

struct pt_col {
	char *name;
	enum pt_col_type type;
	enum pt_col_role role;
	int decimals; /* PT_COL_DOUBLE */
	/* boxed tables: minimum width, right-aligned, cut to its width unless --wide */
	size_t minw;
	bool right, cut;
	/* text: a detail column, printed only with --wide (CSV/JSON print every column) */
	bool detail;
};

/*
 * How a table prints as text: plain (export-text.c) or boxed (export-boxed.c),
 * both in the one text style (title, unit line, header, rule, rows, notes). A
 * boxed table holds text cells made by its pass (group title lines between
 * rows, per-column alignment); the data formats print its cells as they are.
 * A boxed table marked paddle prints in the layout of summary.md §5 instead
 * (title centred in dashes, rules around the header), for `summary --layout
 * paddle`.
 */
enum pt_table_style { PT_STYLE_PLAIN, PT_STYLE_BOXED };

/* A line before row `row` of a boxed table: a title centred in dashes, or (NULL) a rule. */
struct pt_table_group {
	size_t row;
	char *title;
};

enum pt_cell_kind { PT_CELL_NULL = 0, PT_CELL_INT, PT_CELL_DOUBLE, PT_CELL_STR };

struct pt_cell {
	uint8_t kind;
	uint32_t len; /* string length */
	union {
		int64_t i;
		double d;
		const char *s; /* not owned: model strings or the table's arena */
	} u;
};

/* Fills the ncols cells of row r (all null on entry) of a table whose rows
 * are made when read (pt_table_set_rows); strings must live as long as arg. */
typedef void (*pt_table_row_fn)(void *arg, size_t r, struct pt_cell *cells);
struct pt_table_rows; /* table.c */

struct pt_table {
	char *name;   /* view name, snake_case */
	char *title;  /* text tables: title line */
	struct pt_col *cols;
	size_t ncols;
	struct pt_cell *cells; /* nrows * ncols; NULL when rows are made when read */
	size_t nrows, cap_rows;
	char **owned;          /* strings the table owns */
	size_t nowned, cap_owned;
	struct pt_table_rows *rows; /* rows made when read, or NULL */
	/* presentation (boxed tables) */
	enum pt_table_style style;
	char *unit;                 /* the "Time unit:" line's unit, or NULL for none */
	bool paddle;                /* boxed: summary.md §5's layout */
	struct pt_table_group *groups; /* in row order */
	size_t ngroups, cap_groups;
	char **notes;               /* lines under the rows */
	size_t nnotes, cap_notes;
	bool rows_apart;            /* JSON: the closing "]}" of the rows starts a line */
	char *empty;                /* text: why the table has no rows, "(no rows: <empty>)"; NULL: "none" */
};

struct pt_table *pt_table_new(const char *name, const char *title);
void pt_table_free(struct pt_table *t);
void pt_table_add_col(struct pt_table *t, const char *name, enum pt_col_type type, enum pt_col_role role,
		      int decimals);
/* Start a new row (all cells null); returns its index. */
size_t pt_table_add_row(struct pt_table *t);
static inline struct pt_cell *pt_table_cell(struct pt_table *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}
void pt_table_set_int(struct pt_table *t, size_t row, size_t col, int64_t v);
void pt_table_set_double(struct pt_table *t, size_t row, size_t col, double v);
/* String not copied: it must outlive the table. */
void pt_table_set_str(struct pt_table *t, size_t row, size_t col, const char *s, size_t len);
/* String copied into the table. */
void pt_table_set_strdup(struct pt_table *t, size_t row, size_t col, const char *s, size_t len);
/* Index of a column by name, or -1. */
int pt_table_col(const struct pt_table *t, const char *name);

/* A boxed table (PT_STYLE_BOXED); unit NULL: no "Time unit:" line. */
struct pt_table *pt_table_new_boxed(const char *name, const char *title, const char *unit);
/* A text column of a boxed table: header, minimum width, right-aligned?, cut unless --wide? */
void pt_table_add_text_col(struct pt_table *t, const char *head, size_t minw, bool right, bool cut);
/* A row of ncols text cells (copied; NULL: a null cell, printed "-"). */
void pt_table_add_text_row(struct pt_table *t, const char *const *cells);
/* A group title line before the next row; NULL: a rule. */
void pt_table_add_group(struct pt_table *t, const char *title);
/* A note line under the rows. */
void pt_table_add_note(struct pt_table *t, const char *line);
/* Why the table has no rows, printed in text as "(no rows: <reason>)" (copied). */
void pt_table_set_empty(struct pt_table *t, const char *reason);
/* Mark column col a detail column: text prints it only with --wide. */
void pt_table_set_detail(struct pt_table *t, size_t col);
/* The columns text prints without --wide: those named in names (NULL-ended;
 * a name the table lacks is passed over); every other column becomes a
 * detail column. */
void pt_table_set_default_cols(struct pt_table *t, const char *const *names);

/*
 * A table of nrows rows made one at a time when read, for tables as large as
 * the model's events (raw exports): fn makes row r from arg, which the table
 * owns from here on (free_arg, may be NULL, frees it with the table). The
 * columns must be added first; the table gets no cells.
 */
void pt_table_set_rows(struct pt_table *t, size_t nrows, pt_table_row_fn fn, void *arg, void (*free_arg)(void *));
/* The ncols cells of row r, for reading: valid until the next call for another
 * row of the same table (rows read in order are made once each). */
const struct pt_cell *pt_table_row(const struct pt_table *t, size_t r);

#endif
