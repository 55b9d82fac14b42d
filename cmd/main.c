/*
 * proftool: turn deep-learning profiler dumps into answers.
 * main: dispatch to the subcommand; exit status 0 success, 1 failure,
 * 2 usage error (3 is reserved for `hints --fail-on` and `diff --fail-on-regression`).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "progress.h"
#include "support/out.h"

static const struct pt_cmd *const commands[] = {
	&pt_cmd_import,
	&pt_cmd_info,
	&pt_cmd_dump,
	&pt_cmd_summary,
	&pt_cmd_steps,
	&pt_cmd_perf,
	&pt_cmd_dataset,
	&pt_cmd_timeline,
	&pt_cmd_flops,
	&pt_cmd_hints,
	&pt_cmd_memory,
	&pt_cmd_diff,
	&pt_cmd_export,
	NULL,
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: proftool COMMAND [options] [MODEL|PATH...]\n"
		   "       proftool help [COMMAND] | --version | --list-cmds\n\n"
		   "Turn deep-learning profiler dumps into answers: Huawei Ascend NPU raw dumps\n"
		   "(task logs, step traces, framework and AI CPU files), NVIDIA GPU CUPTI dumps\n"
		   "(written by proftool's collector), PyTorch profiler (Kineto) traces and\n"
		   "MindData dataset-pipeline files.\n"
		   "Every command that takes a MODEL (.ptm) also takes a raw dump PATH and imports it in memory.\n\n"
		   "Commands:\n");
	for (size_t i = 0; commands[i]; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\nRun 'proftool COMMAND -h' for a command's options; 'man proftool' for more.\n");
}

static const struct pt_cmd *find(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/* The reader closed the pipe: it took what it wanted (`proftool ... | head -1`). End at once,
 * with no message and exit status 0, so that `set -o pipefail` scripts go on; the temporaries
 * of files being written are removed, so nothing partial is left. */
static void reader_gone(void)
{
	pt_out_remove_temporaries();
	_exit(0);
}

/* fflush(stdout) of the help and version texts, with the same rule for a closed pipe. */
static int flush_stdout(void)
{
	if (!fflush(stdout))
		return 0;
	return errno == EPIPE ? 0 : 1;
}

int main(int argc, char **argv)
{
	/* a closed pipe is EPIPE, not a signal: reader_gone() ends quietly, other outputs keep
	 * reporting write errors (a full disk is exit 1 with a message) */
	signal(SIGPIPE, SIG_IGN);
	pt_out_on_broken_pipe(reader_gone);
	/* SIGINT, SIGTERM, SIGHUP...: remove the temporaries of outputs being written, then die of the signal */
	pt_out_cleanup_on_signals();
	pt_cmd_progress_install();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *verb = argv[1];
	if (!strcmp(verb, "--version") || !strcmp(verb, "-V")) {
		printf("proftool %s\n", PT_VERSION);
		return flush_stdout();
	}
	if (!strcmp(verb, "--list-cmds")) {
		for (size_t i = 0; commands[i]; i++)
			printf("%s\n", commands[i]->name);
		return flush_stdout();
	}
	if (!strcmp(verb, "-h") || !strcmp(verb, "--help") || !strcmp(verb, "help")) {
		if (!strcmp(verb, "help") && argc > 2) {
			const struct pt_cmd *c = find(argv[2]);
			if (!c) {
				fprintf(stderr, "proftool: unknown command '%s'; see 'proftool help'\n", argv[2]);
				return 2;
			}
			pt_opts_help(c, stdout);
		} else {
			usage(stdout);
		}
		return flush_stdout();
	}
	const struct pt_cmd *c = find(verb);
	if (!c) {
		fprintf(stderr, "proftool: unknown command '%s'; see 'proftool help'\n", verb);
		return 2;
	}
	return c->run(c, argc - 1, argv + 1);
}
