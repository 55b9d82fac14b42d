#include "strtab.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a; s may be NULL when n is 0 */
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h ^ (h >> 29);
}

void pt_strtab_init(struct pt_strtab *t)
{
	memset(t, 0, sizeof(*t));
	pt_strtab_intern(t, "", 0);
}

void pt_strtab_free(struct pt_strtab *t)
{
	free(t->data);
	free(t->off);
	free(t->slen);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static void rehash(struct pt_strtab *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 256;
	free(t->slots);
	t->slots = pt_xcalloc(ns, sizeof(*t->slots));
	t->nslots = ns;
	for (size_t id = 0; id < t->n; id++) {
		size_t i = hash_bytes(t->data + t->off[id], t->slen[id]) & (ns - 1);
		while (t->slots[i])
			i = (i + 1) & (ns - 1);
		t->slots[i] = (uint32_t)id + 1;
	}
}

uint32_t pt_strtab_find(const struct pt_strtab *t, const char *s, size_t len)
{
	if (!t->nslots)
		return UINT32_MAX;
	size_t mask = t->nslots - 1, i = hash_bytes(s, len) & mask;
	while (t->slots[i]) {
		uint32_t id = t->slots[i] - 1;
		if (t->slen[id] == len && (!len || !memcmp(t->data + t->off[id], s, len)))
			return id;
		i = (i + 1) & mask;
	}
	return UINT32_MAX;
}

uint32_t pt_strtab_intern(struct pt_strtab *t, const char *s, size_t len)
{
	const char *nul = t->text && len ? memchr(s, 0, len) : NULL;
	if (nul) /* only a malformed input has one */
		len = (size_t)(nul - s);
	uint32_t id = pt_strtab_find(t, s, len);
	if (id != UINT32_MAX)
		return id;
	if ((t->n + 1) * 2 >= t->nslots)
		rehash(t);
	/* s may point into our own data (a string got from this table): keep it valid across the grow */
	bool inside = t->data && s >= t->data && s < t->data + t->len;
	size_t s_off = inside ? (size_t)(s - t->data) : 0;
	pt_xgrow((void **)&t->data, &t->cap, t->len + len + 1, 1);
	if (inside)
		s = t->data + s_off;
	if (len)
		memcpy(t->data + t->len, s, len);
	t->data[t->len + len] = 0;
	pt_xgrow((void **)&t->off, &t->ncap, t->n + 1, sizeof(*t->off));
	t->slen = pt_xrealloc(t->slen, t->ncap * sizeof(*t->slen));
	id = (uint32_t)t->n++;
	t->off[id] = t->len;
	t->slen[id] = (uint32_t)len;
	t->len += len + 1;
	size_t mask = t->nslots - 1, i = hash_bytes(s, len) & mask;
	while (t->slots[i])
		i = (i + 1) & mask;
	t->slots[i] = id + 1;
	return id;
}

uint32_t pt_strtab_add(struct pt_strtab *t, const char *s)
{
	return pt_strtab_intern(t, s, strlen(s));
}
