#include "options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

#define ID_HELP (-1000)

static const struct pt_opt help_opt[] = {
	{ "help", 'h', NULL, ID_HELP, "show this help and exit", NULL },
	{ 0 },
};

int pt_usage_error(const struct pt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "proftool %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'proftool %s -h' for more information.\n", cmd->name);
	return -1;
}

static void values_list(const struct pt_opt *o, char *buf, size_t n)
{
	buf[0] = 0;
	for (size_t i = 0; o->values[i]; i++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", o->values[i]);
}

void pt_opts_help(const struct pt_cmd *cmd, FILE *f)
{
	fprintf(f, "Usage: proftool %s %s\n", cmd->name, cmd->usage);
	fprintf(f, "%s\n", cmd->summary);
	if (cmd->description)
		fprintf(f, "\n%s\n", cmd->description);
	fprintf(f, "\nOptions:\n");
	size_t ng = 0;
	while (cmd->groups && cmd->groups[ng])
		ng++;
	for (size_t gi = 0; gi <= ng; gi++) {
		const struct pt_opt *t = gi < ng ? cmd->groups[gi] : help_opt;
		for (const struct pt_opt *o = t; o->name; o++) {
			char left[96];
			int n = 0;
			if (o->short_name)
				n = snprintf(left, sizeof(left), "  -%c, --%s", o->short_name, o->name);
			else
				n = snprintf(left, sizeof(left), "      --%s", o->name);
			if (o->arg)
				snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->arg);
			fprintf(f, "%-30s %s", left, o->help);
			if (o->values) {
				char vl[256];
				values_list(o, vl, sizeof(vl));
				fprintf(f, " (%s)", vl);
			}
			fputc('\n', f);
		}
	}
}

int pt_opts_parse(const struct pt_cmd *cmd, int argc, char **argv, pt_opt_fn fn, void *ctx)
{
	/* gather the tables, the help option last */
	const struct pt_opt **all = NULL;
	size_t n = 0;
	for (const struct pt_opt *const *g = cmd->groups; g && *g; g++)
		for (const struct pt_opt *o = *g; o->name; o++) {
			all = pt_xrealloc(all, (n + 1) * sizeof(*all));
			all[n++] = o;
		}
	all = pt_xrealloc(all, (n + 1) * sizeof(*all));
	all[n++] = &help_opt[0];

	struct option *lo = pt_xcalloc(n + 1, sizeof(*lo));
	char *shorts = pt_xmalloc(3 * n + 2);
	size_t k = 0;
	shorts[k++] = ':'; /* report a missing argument as ':' */
	for (size_t i = 0; i < n; i++) {
		lo[i].name = all[i]->name;
		lo[i].has_arg = all[i]->arg ? required_argument : no_argument;
		lo[i].flag = NULL;
		lo[i].val = 256 + (int)i;
		if (all[i]->short_name) {
			shorts[k++] = all[i]->short_name;
			if (all[i]->arg)
				shorts[k++] = ':';
		}
	}
	shorts[k] = 0;

	int rc = 0;
	optind = 1;
	opterr = 0;
	for (;;) {
		int li = -1;
		int c = getopt_long(argc, argv, shorts, lo, &li);
		if (c == -1)
			break;
		const struct pt_opt *o = NULL;
		if (c >= 256) {
			o = all[c - 256];
		} else if (c == '?' || c == ':') {
			const char *bad = argv[optind - 1];
			if (c == ':')
				rc = pt_usage_error(cmd, "option '%s' needs an argument", bad);
			else if (optopt)
				rc = pt_usage_error(cmd, "unknown option '-%c'", optopt);
			else
				rc = pt_usage_error(cmd, "unknown option '%s'", bad);
			break;
		} else {
			for (size_t i = 0; i < n; i++)
				if (all[i]->short_name == c)
					o = all[i];
		}
		if (!o)
			continue;
		if (o->id == ID_HELP) {
			pt_opts_help(cmd, stdout);
			rc = -2;
			break;
		}
		if (o->values) {
			bool ok = false;
			for (size_t i = 0; o->values[i]; i++)
				ok |= !strcmp(o->values[i], optarg);
			if (!ok) {
				char vl[256];
				values_list(o, vl, sizeof(vl));
				rc = pt_usage_error(cmd, "invalid value '%s' for --%s (accepted: %s)", optarg, o->name, vl);
				break;
			}
		}
		if (fn(ctx, o->id, o->arg ? optarg : NULL)) {
			rc = -1;
			break;
		}
	}
	free(all);
	free(lo);
	free(shorts);
	return rc ? rc : optind;
}
