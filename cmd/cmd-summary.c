/* PLACEHOLDER: replaced by the real command. */
#include <stdio.h>

#include "commands.h"

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "proftool %s: not implemented yet\n", cmd->name);
	return 1;
}

const struct pt_cmd pt_cmd_summary = {
	.name = "summary",
	.summary = "operator, kernel and overview tables",
	.usage = "[options] MODEL|PATH",
	.run = run,
};
