#include "support/steppat.h"

#include <stdlib.h>

#include "support/xalloc.h"

int pt_step_pattern_compile(regex_t *re, const char *pattern, char *msg, size_t n)
{
	char *full = pt_xasprintf("^(%s)$", pattern ? pattern : PT_STEP_PATTERN_DEFAULT);
	int rc = regcomp(re, full, REG_EXTENDED | REG_NOSUB);
	free(full);
	if (rc) {
		if (msg && n)
			regerror(rc, re, msg, n);
		regfree(re);
	}
	return rc;
}
