/* What the analysis commands share: common options, model loading, output. */
#ifndef PT_CMD_COMMON_H
#define PT_CMD_COMMON_H
#include <stdbool.h>
#include <stdint.h>

#include "export/export.h"
#include "import/registry.h"
#include "options.h"
#include "pass/select.h"
#include "support/diag.h"
#include "support/err.h"

struct pt_model;
struct pt_table;

/* Option ids of the shared tables (commands use ids >= 100). */
enum {
	OPT_FORMAT = 1,
	OPT_OUTPUT,
	OPT_TIME_UNIT,
	OPT_WIDE,
	OPT_DEVICE,
	OPT_HWTS_FREQ,
	OPT_DTYPE_TABLE,
	OPT_IMPORT_FORMAT,
	OPT_TABLES,
};

struct pt_common {
	const struct pt_cmd *cmd;
	struct pt_export_opts ex;
	bool format_given;
	const char *output;          /* -o, NULL = standard output */
	const char *tables;          /* --table T[,T...], NULL = not given */
	struct pt_import_opts imp;   /* used when PATH is a raw dump */
	struct pt_sel sel;           /* --device, --steps, --time-window, --step-pattern */
	struct pt_diag diag;
	const char *path;            /* MODEL or PATH as given, once loaded (missing-data errors name it) */
	bool sel_checked;            /* pt_common_check_sel() ran */
};

extern const struct pt_opt pt_output_opts[];   /* --format, -o, --time-unit, --wide */
extern const struct pt_opt pt_rawpath_opts[];  /* --device, --hwts-freq, --dtype-table */
extern const struct pt_opt pt_table_opts[];    /* --table, for commands with several tables */

void pt_common_init(struct pt_common *c, const struct pt_cmd *cmd, enum pt_format dflt);
/* Handle a shared option (the filters among them, into c->sel): 0 handled, -1 bad value (printed), 1 not a shared option. */
int pt_common_opt(struct pt_common *c, int id, const char *arg);
/* Is path a regular file holding a model (.ptm magic, or named *.ptm)? Such a file can be read twice.
 * "-" (standard input, always a model) is made readable again first (model/ptm-source.h,
 * pt_ptm_stdin_spool: a pipe copied to an unlinked file of $TMPDIR, else /tmp): true unless no
 * file can be made there; a failed copy prints its error and exits 1. A raw PATH (anything else)
 * is imported, the first time, as `proftool import` imports it into an unnamed model file of
 * $TMPDIR (else /tmp) that its reads then read, named path (model/ptm-source.h, stand-ins): true,
 * its import's warnings in the command's (the command initialised last, pt_common_init); false
 * where no file can be made there or the import fails (pt_common_load() then imports it in memory,
 * as before, and says why it fails). */
bool pt_common_is_model_file(const char *path);
/* Is path a raw PATH to import (not "-", not named *.ptm, no model's magic; false once it has a stand-in)? */
bool pt_common_is_raw(const char *path);
/* A raw PATH loaded by pt_common_load_spilled() whose events the command cannot take as they are
 * replayed: its model (*m, freed and set to NULL) written to a temporary model file of $TMPDIR (else
 * /tmp) that path's reads then read (pt_common_is_model_file() true of it). False, *m kept, where no
 * file can be made there or the model cannot be written to it. */
bool pt_common_raw_standin_from(struct pt_common *c, const char *path, struct pt_model **m);
/* A raw PATH used a second time (diff's two sides): its import's warnings counted again, as a second
 * load that imports it again counts them. */
void pt_common_raw_again(struct pt_common *c, const char *path);
/* Load MODEL (a .ptm, "-" for standard input) or import a raw PATH in memory. */
int pt_common_load(struct pt_common *c, const char *path, struct pt_model **m, struct pt_err **e);
/* The same, but a raw PATH is imported streaming (pt_ptm_spill_start): for
 * pt_summary_stream_import(), else pt_ptm_spill_undo() before other use. */
/* Can one CSV table go where -o says a row at a time (CSV, to one file or a stream, not -o DIR/)? */
bool pt_common_csv_stream_ok(const struct pt_common *c);
int pt_common_load_spilled(struct pt_common *c, const char *path, struct pt_model **m, struct pt_err **e);
/* A model file or standard input read as a stream keeping only the events
 * pick takes (model/ptm-picked.h; selection checked as pt_common_load() does);
 * a raw PATH is loaded by pt_common_load(). */
struct pt_ptm_pick;
int pt_common_load_picked(struct pt_common *c, const char *path, const struct pt_ptm_pick *pick, struct pt_model **m,
			  struct pt_err **e);
/* Warn (in c->diag) about a selection that selects nothing of m, once;
 * pt_common_load() does it, a command that loads otherwise calls it. */
void pt_common_check_sel(struct pt_common *c, const struct pt_model *m);
/*
 * Export tables to -o or standard output (OUTPUT in proftool(1)): those
 * --table names (all when not given); tables[0] is the command's main table.
 */
int pt_common_emit(struct pt_common *c, struct pt_table *const *tables, size_t n, struct pt_err **e);
/* The same with tables[main] the main table. */
int pt_common_emit_main(struct pt_common *c, struct pt_table *const *tables, size_t n, size_t main, struct pt_err **e);
/*
 * The output contract under pt_common_emit, for commands that choose their
 * tables themselves (summary's --view): tables are those to print, `chosen`
 * says the user named them (with the option `selector`), tables[main] is the
 * one CSV to a stream holds when they were not. CSV to a stream is one table:
 * several chosen are an error that suggests -o DIR/; several not chosen give
 * the main one and a note naming the others. -o DIR/ (a name ending in '/'
 * or an existing directory) writes DIR/<table>.csv for each, CSV only.
 */
int pt_common_emit_chosen(struct pt_common *c, struct pt_table *const *tables, size_t n, size_t main, bool chosen,
			  const char *selector, struct pt_err **e);
/* -o DIR/ given: 1 when the format is CSV (DIR made if missing), -1 with *e
 * set when not; 0: -o is not a directory. */
int pt_common_csv_dir(struct pt_common *c, struct pt_err **e);
/* The same error for several tables chosen with CSV to a stream, before any
 * work is done: 0 fine, -1 with *e set. */
int pt_common_check_csv_choice(struct pt_common *c, size_t nchosen, const char *selector, struct pt_err **e);
/* Print warnings, then the error (if rc != 0); returns the exit status (0, 1). */
int pt_common_finish(struct pt_common *c, int rc, struct pt_err *e);
/* Parse argv with the command's tables and the shared handler; returns the
 * first operand index, or -1 usage error, -2 help shown. `own` handles
 * command-specific ids (may be NULL). */
int pt_common_parse(struct pt_common *c, int argc, char **argv, int (*own)(struct pt_common *, int, const char *));

/* Print "proftool: error: ..." for an error chain. */
void pt_print_error(struct pt_err *e);

/*
 * Step and time filters shared by the analysis commands (DESIGN.md §3):
 * --steps A-B, --time-window START:END, --step-pattern REGEX. A command that
 * lists pt_filter_opts in its groups finds them, with --device, in c->sel
 * (struct pt_sel, pass/select.h) after pt_common_parse(); its passes take
 * that selection as it is.
 */
enum { OPT_STEPS = 60, OPT_TIME_WINDOW = 61, OPT_STEP_PATTERN = 62 };

extern const struct pt_opt pt_filter_opts[]; /* --steps, --time-window, --step-pattern */

/* Handle a filter option: 0 handled, -1 bad value (usage error printed), 1 not a filter option. */
int pt_filter_opt(const struct pt_cmd *cmd, struct pt_sel *f, int id, const char *arg);
/* Parse "A-B", "A", "A-" or "-B" (step numbers >= 0); false when malformed. */
bool pt_filter_parse_steps(const char *s, int64_t *a, int64_t *b);
/* Parse one time: integer ns or a decimal number with a suffix ns, us, ms or s
 * that is a whole number of ns; false when malformed. */
bool pt_filter_parse_time(const char *s, size_t n, int64_t *ns);

#endif
