/*
 * Output names of recorded names (cupti.md §6.10), shared by every view that
 * prints runtime or driver API names.
 */
#ifndef PT_NAMES_H
#define PT_NAMES_H
#include <stddef.h>

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

#endif
