/*
 * Output names of recorded names (cupti.md §6.10), shared by every view that
 * prints runtime or driver API names.
 */
#ifndef PT_NAMES_H
#define PT_NAMES_H
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/*
 * Length of the output name of the API name s[0..n): a trailing `_v`
 * followed by four or more digits is dropped (`cudaLaunchKernel_v7000` ->
 * `cudaLaunchKernel`, `cudaLaunchKernel_ptsz_v7000` ->
 * `cudaLaunchKernel_ptsz`); `cuMemAlloc_v2` is kept.
 */
static inline size_t pt_api_name_len(const char *s, size_t n)
{
	size_t k = n;
	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	if (n - k >= 4 && k >= 2 && s[k - 1] == 'v' && s[k - 2] == '_')
		return k - 2;
	return n;
}

/*
 * Does s hold one of the lower-case patterns pats[] (NULL-terminated), in any
 * case? The first letter is compared before strncasecmp(): calling it at every
 * position of every name is most of a summary's CPU otherwise.
 */
static inline bool pt_name_has_any(const char *s, const char *const *pats)
{
	for (size_t i = 0; pats[i]; i++) {
		size_t l = strlen(pats[i]);
		unsigned char c0 = (unsigned char)pats[i][0];
		for (const char *p = s; *p; p++)
			if (tolower((unsigned char)*p) == c0 && !strncasecmp(p, pats[i], l))
				return true;
	}
	return false;
}

#endif
