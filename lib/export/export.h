/*
 * Exporters: print typed tables as aligned text, CSV, JSON or JSON lines.
 * They know tables, never passes.
 */
#ifndef PT_EXPORT_H
#define PT_EXPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table/table.h"

struct pt_err;
struct pt_hints;
struct pt_out;

enum pt_format { PT_FMT_TABLE, PT_FMT_CSV, PT_FMT_JSON, PT_FMT_JSONL };

/* Text tables fit this many columns when they can (long names shortened). */
#define PT_TEXT_FIT 120

struct pt_export_opts {
	enum pt_format format;
	enum pt_time_unit unit; /* default (auto): each text table picks its own; ns for CSV/JSON */
	bool wide;              /* text: never shorten names */
	size_t width;           /* text: prose wraps at this width (0: 100) */
};

void pt_export(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts);

void pt_export_text(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts);
void pt_export_csv(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts);
/* CSV a row at a time, for rows that a pass makes as it streams (the table holds the columns,
 * not the rows): the header line, then each row's line, as pt_export_csv() writes them. */
struct pt_csv_writer {
	struct pt_out *o;
	const struct pt_table *t;
	enum pt_time_unit u;
	char *qbuf;
	size_t qcap;
};
void pt_export_csv_begin(struct pt_csv_writer *w, struct pt_out *o, const struct pt_table *t,
			 const struct pt_export_opts *opts);
void pt_export_csv_row(struct pt_csv_writer *w, const struct pt_cell *cells);
void pt_export_csv_end(struct pt_csv_writer *w);
void pt_export_json(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts);

/*
 * Tables chosen by name (--table/--view): names is "a,b,..." of table names.
 * sel[i] is set for each table named; an unknown or empty name is an error
 * that lists the tables there are. Returns how many were chosen, -1 on error.
 */
int pt_export_pick(struct pt_table *const *tables, size_t n, const char *names, bool *sel, struct pt_err **e);
/* The names of the tables not `skip` (n: none), comma-separated (malloc'd). */
char *pt_export_names(struct pt_table *const *tables, size_t n, size_t skip);

/* One CSV field: quoted (libcsv) only when it needs it. */
void pt_export_csv_field(struct pt_out *o, const char *s, size_t n);

/* Hint records (table/hints.h) in hints.md §1.2's layouts; show_suppressed
 * adds the records not shown (a second view; not in CSV); text prose wraps at width (0: 100). */
void pt_export_hints(struct pt_out *o, const struct pt_hints *h, enum pt_format f, bool show_suppressed,
		     size_t width);
/* CSV is one table: the hints shown, or (suppressed) those not shown;
 * pt_export_hints() writes the first. */
void pt_export_hints_csv(struct pt_out *o, const struct pt_hints *h, bool suppressed);

/* The `perf` table (pass-perf.h) as text, one block per rank, times in unit
 * (PT_TU_DEFAULT: each block picks its own, pt_time_unit_pick). */
void pt_export_perf_text(struct pt_out *o, const struct pt_table *t, enum pt_time_unit unit);

/* Effective unit for a format (its name and ns per unit: table/table.h);
 * PT_TU_DEFAULT for text without --time-unit (auto: pt_export_table_unit). */
enum pt_time_unit pt_export_unit(const struct pt_export_opts *opts);
/* The unit a table's times print in: the one asked for, or the table's pick. */
enum pt_time_unit pt_export_table_unit(const struct pt_table *t, const struct pt_export_opts *opts);
/* A boxed table (PT_STYLE_BOXED) as text (export-boxed.c); notes wrap at width. */
void pt_export_boxed(struct pt_out *o, const struct pt_table *t, bool wide, size_t width);
/* Column name as printed in CSV/JSON: time columns get "_<unit>". buf >= 128. */
const char *pt_export_col_name(const struct pt_table *t, size_t col, enum pt_time_unit u, char *buf);
/* A non-string cell's text (numbers; "" for null). buf >= 64. Returns length. */
size_t pt_export_cell_num(const struct pt_table *t, size_t row, size_t col, enum pt_time_unit u, bool text,
			  char *buf);
/* The same for a cell of column col of t given as it is (a row not held by the table). */
size_t pt_export_num(const struct pt_table *t, const struct pt_cell *c, size_t col, enum pt_time_unit u, bool text,
		     char *buf);

#endif
