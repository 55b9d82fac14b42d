#include "support/idmap.h"

#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

void pt_idmap_init(struct pt_idmap *m, uint64_t lo, uint64_t hi, size_t n)
{
	memset(m, 0, sizeof(*m));
	pt_hashmap_init(&m->h);
	if (!n || hi < lo || hi - lo >= (uint64_t)4 * n + 4096)
		return;
	m->lo = lo;
	m->span = (size_t)(hi - lo) + 1;
	m->val = pt_xmalloc(m->span * sizeof(*m->val));
	m->bits = pt_xcalloc((m->span + 63) / 64, sizeof(*m->bits));
}

void pt_idmap_free(struct pt_idmap *m)
{
	free(m->val);
	free(m->bits);
	free(m->filter);
	pt_hashmap_free(&m->h);
	memset(m, 0, sizeof(*m));
}

void pt_idmap_filter(struct pt_idmap *m, uint64_t lo, uint64_t hi, uint64_t most)
{
	if (m->span || m->filter || hi < lo || hi - lo >= most)
		return;
	m->flo = lo;
	m->fspan = hi - lo + 1;
	m->filter = pt_xcalloc((size_t)(m->fspan / 64 + 1), sizeof(*m->filter));
}

uint64_t *pt_idmap_get(const struct pt_idmap *m, uint64_t key)
{
	uint64_t k = key - m->lo; /* wraps for key < lo: out of range */
	if (k < m->span)
		return m->bits[k / 64] >> (k % 64) & 1 ? &m->val[k] : NULL;
	if (m->filter) {
		uint64_t f = key - m->flo;
		if (f >= m->fspan || !(m->filter[f / 64] >> (f % 64) & 1))
			return NULL;
	}
	return pt_hashmap_get(&m->h, key);
}

uint64_t *pt_idmap_put(struct pt_idmap *m, uint64_t key, uint64_t init, bool *added)
{
	uint64_t k = key - m->lo;
	if (k >= m->span) {
		if (m->filter) {
			uint64_t f = key - m->flo;
			if (f < m->fspan) {
				m->filter[f / 64] |= (uint64_t)1 << (f % 64);
			} else { /* an id outside the filter's range: no filter from now on */
				free(m->filter);
				m->filter = NULL;
			}
		}
		return pt_hashmap_put(&m->h, key, init, added);
	}
	bool here = m->bits[k / 64] >> (k % 64) & 1;
	if (!here) {
		m->bits[k / 64] |= (uint64_t)1 << (k % 64);
		m->val[k] = init;
	}
	if (added)
		*added = !here;
	return &m->val[k];
}
