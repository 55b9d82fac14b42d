/* Interned strings: each distinct byte string gets a dense id; id 0 is "". */
#ifndef PT_STRTAB_H
#define PT_STRTAB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_strtab {
	char *data;        /* NUL-terminated strings, back to back */
	size_t len, cap;
	uint64_t *off;     /* offset of string id in data */
	uint32_t *slen;    /* length of string id */
	size_t n, ncap;
	uint32_t *slots;   /* hash slots: id + 1, 0 = empty */
	size_t nslots;     /* power of two */
	/* text: every string is cut at its first NUL byte when interned (a
	 * model's names, which C code reads up to one and a model file must not
	 * hold, proftool-model(5)); otherwise strings are byte strings */
	bool text;
};

void pt_strtab_init(struct pt_strtab *t);
void pt_strtab_free(struct pt_strtab *t);
uint32_t pt_strtab_intern(struct pt_strtab *t, const char *s, size_t len);
uint32_t pt_strtab_add(struct pt_strtab *t, const char *s); /* NUL-terminated */
/* Id of s if interned, else UINT32_MAX. */
uint32_t pt_strtab_find(const struct pt_strtab *t, const char *s, size_t len);

static inline const char *pt_strtab_get(const struct pt_strtab *t, uint32_t id)
{
	return id < t->n ? t->data + t->off[id] : "";
}

static inline size_t pt_strtab_len(const struct pt_strtab *t, uint32_t id)
{
	return id < t->n ? t->slen[id] : 0;
}

#endif
