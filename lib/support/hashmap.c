#include "hashmap.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void pt_hashmap_init(struct pt_hashmap *h)
{
	memset(h, 0, sizeof(*h));
}

void pt_hashmap_free(struct pt_hashmap *h)
{
	free(h->keys);
	free(h->vals);
	free(h->used);
	memset(h, 0, sizeof(*h));
}

static size_t find(const struct pt_hashmap *h, uint64_t key, bool *found)
{
	size_t mask = h->cap - 1, i = pt_hash64(key) & mask;
	while (h->used[i]) {
		if (h->keys[i] == key) {
			*found = true;
			return i;
		}
		i = (i + 1) & mask;
	}
	*found = false;
	return i;
}

uint64_t *pt_hashmap_get(const struct pt_hashmap *h, uint64_t key)
{
	if (!h->n)
		return NULL;
	bool found;
	size_t i = find(h, key, &found);
	return found ? &h->vals[i] : NULL;
}

static void rehash(struct pt_hashmap *h, size_t cap)
{
	struct pt_hashmap o = *h;
	h->cap = cap;
	h->n = 0;
	h->keys = pt_xmalloc(cap * sizeof(*h->keys));
	h->vals = pt_xmalloc(cap * sizeof(*h->vals));
	h->used = pt_xcalloc(cap, 1);
	for (size_t i = 0; i < o.cap; i++) {
		if (!o.used[i])
			continue;
		bool found;
		size_t j = find(h, o.keys[i], &found);
		h->used[j] = 1;
		h->keys[j] = o.keys[i];
		h->vals[j] = o.vals[i];
		h->n++;
	}
	free(o.keys);
	free(o.vals);
	free(o.used);
}

void pt_hashmap_reserve(struct pt_hashmap *h, size_t n)
{
	size_t cap = h->cap ? h->cap : 64;
	while ((n + 1) * 4 >= cap * 3) /* the load put keeps under */
		cap *= 2;
	if (cap != h->cap)
		rehash(h, cap);
}

uint64_t *pt_hashmap_put(struct pt_hashmap *h, uint64_t key, uint64_t init, bool *added)
{
	if ((h->n + 1) * 4 >= h->cap * 3)
		rehash(h, h->cap ? h->cap * 2 : 64);
	bool found;
	size_t i = find(h, key, &found);
	if (added)
		*added = !found;
	if (!found) {
		h->used[i] = 1;
		h->keys[i] = key;
		h->vals[i] = init;
		h->n++;
	}
	return &h->vals[i];
}

bool pt_hashmap_del(struct pt_hashmap *h, uint64_t key)
{
	if (!h->n)
		return false;
	bool found;
	size_t i = find(h, key, &found);
	if (!found)
		return false;
	/* backward-shift deletion keeps probe chains intact */
	size_t mask = h->cap - 1, j = i;
	h->used[i] = 0;
	h->n--;
	for (;;) {
		j = (j + 1) & mask;
		if (!h->used[j])
			break;
		size_t k = pt_hash64(h->keys[j]) & mask;
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			h->keys[i] = h->keys[j];
			h->vals[i] = h->vals[j];
			h->used[i] = 1;
			h->used[j] = 0;
			i = j;
		}
	}
	return true;
}
