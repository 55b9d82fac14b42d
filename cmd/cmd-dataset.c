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

const struct pt_cmd pt_cmd_dataset = {
	.name = "dataset",
	.summary = "dataset pipeline queues and the input bottleneck",
	.usage = "[options] MODEL|PATH",
	.run = run,
};
