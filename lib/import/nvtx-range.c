#include "import/nvtx-range.h"

#include <string.h>

static const char *const typed_domains[] = { "ProfileStep", "Forward", "Backward", "Optimization", "Dataloader",
					     "Operator", "OperatorInner", "UserDefined", "Communication", NULL };

static const char *typed(const char *dom)
{
	for (int j = 0; dom && typed_domains[j]; j++)
		if (!strcmp(dom, typed_domains[j]))
			return typed_domains[j];
	return NULL;
}

bool pt_nvtx_typed_domain(const char *dom)
{
	return typed(dom) != NULL;
}

static bool is_step_name(const char *s)
{
	if (strncmp(s, "ProfilerStep#", 13) || !s[13])
		return false;
	for (s += 13; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* PyTorch emit_nvtx operator text: "<op>, seq = ..." etc.; returns the op length or 0. */
static size_t torch_op_len(const char *s)
{
	const char *c = strstr(s, ", ");
	if (!c || c == s)
		return 0;
	if (!strncmp(c, ", seq = ", 8) || !strncmp(c, ", op_id = ", 10) || !strncmp(c, ", sizes = ", 10))
		return (size_t)(c - s);
	return 0;
}

const char *pt_nvtx_range_type(const char *name, const char *dom, size_t *op_len)
{
	*op_len = 0;
	const char *t = typed(dom);
	if (t)
		return t;
	if (is_step_name(name))
		return "ProfileStep";
	if (!dom && (*op_len = torch_op_len(name)))
		return "Operator";
	return "UserRange";
}
