/* proftool memory: peak, curve and what holds memory (Ascend memory_usage, CUPTI MEMORY2/MEMORY_POOL). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/model.h"
#include "pass/pass-memory.h"
#include "table/table.h"

enum { OPT_BY = 100 };

static const char *const by_values[] = { "pool", "op", "time", NULL };

static const struct pt_opt memory_opts[] = {
	{ "by", 0, "VIEW", OPT_BY,
	  "pool: peaks, what holds memory at the peak, pools (default); op: per node / per launching call; "
	  "time: the memory curve / allocation timeline",
	  by_values },
	{ 0 },
};

static const struct pt_opt *const groups[] = { memory_opts, pt_output_opts, pt_rawpath_opts, NULL };

static enum pt_mem_by by;

static int own(struct pt_common *c, int id, const char *arg)
{
	(void)c;
	if (id != OPT_BY)
		return 0;
	by = !strcmp(arg, "op") ? PT_MEM_BY_OP : !strcmp(arg, "time") ? PT_MEM_BY_TIME : PT_MEM_BY_POOL;
	return 0;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	by = PT_MEM_BY_POOL;
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	int rc = pt_common_load(&c, argv[first], &m, &e);
	if (!rc) {
		struct pt_table **t = NULL;
		size_t n = 0;
		rc = pt_pass_memory(m, by, c.imp.ascend.device, &t, &n, &e);
		if (!rc)
			rc = pt_common_emit(&c, t, n, &e);
		for (size_t i = 0; i < n; i++)
			pt_table_free(t[i]);
		free(t);
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_memory = {
	.name = "memory",
	.summary = "memory usage: peak, curve and what holds memory",
	.usage = "[options] MODEL|PATH",
	.description = "Ascend (MindSpore memory_usage_<d>.pb): per graph capacity, static memory, peak and the tensors\n"
		       "holding memory at the peak (--by pool), per node usage (--by op), the curve over execution\n"
		       "order (--by time). GPU (CUPTI MEMORY2/MEMORY_POOL): peak per device and memory group with the\n"
		       "allocations outstanding at the peak and their launching host call, pools, growths and trims\n"
		       "(--by pool), allocations per launching call (--by op), the allocation timeline (--by time).\n"
		       "See proftool-memory(1).",
	.groups = groups,
	.run = run,
};
