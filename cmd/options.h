/*
 * Option tables. Each command declares its options once; the getopt_long
 * arrays, the short-option string and the -h text are generated from them,
 * so they cannot drift apart.
 */
#ifndef PT_CMD_OPTIONS_H
#define PT_CMD_OPTIONS_H
#include <stdbool.h>
#include <stdio.h>

struct pt_opt {
	const char *name;           /* long name, NULL ends a table */
	char short_name;            /* 0 = none */
	const char *arg;            /* argument name for -h, NULL = flag */
	int id;                     /* handed to the command's callback */
	const char *help;
	const char *const *values;  /* accepted values (NULL-terminated), NULL = any */
};

struct pt_cmd;
typedef int (*pt_opt_fn)(void *ctx, int id, const char *arg);

struct pt_cmd {
	const char *name;
	const char *summary;        /* one line for `proftool help` */
	const char *usage;          /* e.g. "[options] PATH..." */
	const char *description;    /* a paragraph for -h, may be NULL */
	const struct pt_opt *const *groups; /* NULL-terminated list of option tables */
	int (*run)(const struct pt_cmd *cmd, int argc, char **argv);
};

/*
 * Parse argv[1..] (argv[0] is the command name) against cmd's tables, calling
 * fn for each option. Returns the index of the first operand, or -1 after a
 * usage error (message printed, caller exits 2), or -2 after -h (help
 * printed, caller exits 0). fn returns 0, or -1 for a bad value (it printed
 * the message).
 */
int pt_opts_parse(const struct pt_cmd *cmd, int argc, char **argv, pt_opt_fn fn, void *ctx);
void pt_opts_help(const struct pt_cmd *cmd, FILE *f);
/* Print a usage error: "proftool CMD: MSG" and the hint to use -h. Returns -1. */
int pt_usage_error(const struct pt_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
