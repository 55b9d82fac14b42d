/* The subcommands; main.c dispatches on their names. */
#ifndef PT_CMD_COMMANDS_H
#define PT_CMD_COMMANDS_H
#include "options.h"

extern const struct pt_cmd pt_cmd_import;
extern const struct pt_cmd pt_cmd_info;
extern const struct pt_cmd pt_cmd_dump;
extern const struct pt_cmd pt_cmd_export;

extern const struct pt_cmd pt_cmd_steps;
extern const struct pt_cmd pt_cmd_perf;
extern const struct pt_cmd pt_cmd_summary;
extern const struct pt_cmd pt_cmd_dataset;
extern const struct pt_cmd pt_cmd_timeline;
extern const struct pt_cmd pt_cmd_flops;
extern const struct pt_cmd pt_cmd_hints;
extern const struct pt_cmd pt_cmd_memory;
extern const struct pt_cmd pt_cmd_diff;

#endif
