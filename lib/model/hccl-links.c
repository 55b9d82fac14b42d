#include "model/hccl-links.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "support/interval.h"
#include "support/sort.h"
#include "support/xalloc.h"

#define LOCAL_RANK 0xffffffffu

static uint32_t sid(const struct pt_model *m, const char *s)
{
	return pt_strtab_find(&m->strings, s, strlen(s));
}

static struct pt_hccl_link *link_get(struct pt_hccl_link **v, size_t *n, size_t *cap, uint32_t src, uint32_t dst,
				     uint32_t type)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].src == src && (*v)[i].dst == dst && (*v)[i].type == type)
			return &(*v)[i];
	pt_xgrow((void **)v, cap, *n + 1, sizeof(**v));
	struct pt_hccl_link *l = &(*v)[(*n)++];
	memset(l, 0, sizeof(*l));
	l->src = src;
	l->dst = dst;
	l->type = type;
	return l;
}

/* An RDMA-side event of one execution: its link key, tid and position. */
struct rev {
	uint64_t key;
	uint32_t tid;
	size_t i;
};

static int cmp_rev(const void *pa, const void *pb)
{
	const struct rev *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static bool has_key(const uint64_t *v, size_t n, uint64_t k)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == k;
}

void pt_hccl_links_add(const struct pt_model *m, uint32_t dev, const struct pt_ivset *W, struct pt_hccl_link **v,
		       size_t *n, size_t *cap)
{
	uint32_t s_rdma = sid(m, "RDMA"), s_local = sid(m, "LOCAL"), s_send = sid(m, "RDMASend"),
		 s_wait = sid(m, "Notify Wait"), s_reduce = sid(m, "Reduce Inline"), s_memcpy = sid(m, "Memcpy");
	const struct pt_hccl_task *h = m->hccl.v;
	size_t nh = m->hccl.n;
	uint64_t *key = pt_xmalloc((nh ? nh : 1) * sizeof(*key));
	struct rev *rv = pt_xmalloc((nh ? nh : 1) * sizeof(*rv));
	uint64_t *rk = pt_xmalloc((nh ? nh : 1) * sizeof(*rk));
	for (size_t a = 0; a < nh;) {
		if (h[a].device != dev) {
			a++;
			continue;
		}
		/* one execution: a run of events of the same (device, op, exec) */
		size_t b = a;
		while (b < nh && h[b].device == dev && h[b].op == h[a].op && h[b].exec == h[a].exec)
			b++;
		if (W && !pt_ivset_contains(W, h[a].ts)) {
			a = b;
			continue;
		}
		for (size_t i = a; i < b; i++) {
			uint32_t s = h[i].src, d = h[i].dst;
			if (s == LOCAL_RANK)
				s = d;
			if (d == LOCAL_RANK)
				d = s;
			if (h[i].transport == s_local) {
				uint32_t t = s;
				s = d;
				d = t;
			}
			key[i] = (uint64_t)s << 32 | d;
		}
		/* links with RDMA events in this execution (sorted keys) */
		size_t nk = 0;
		for (size_t i = a; i < b; i++)
			if (h[i].transport == s_rdma)
				rk[nk++] = key[i];
		pt_sort(rk, nk, sizeof(*rk), pt_u64_cmp);
		size_t nr = 0;
		for (size_t i = a; i < b; i++) {
			bool rdma = h[i].transport == s_rdma || (h[i].transport == s_local && has_key(rk, nk, key[i]));
			if (rdma)
				rv[nr++] = (struct rev){ key[i], h[i].tid, i };
			else if (h[i].transport != s_local && (h[i].task_type == s_reduce || h[i].task_type == s_memcpy)) {
				struct pt_hccl_link *l =
					link_get(v, n, cap, (uint32_t)(key[i] >> 32), (uint32_t)key[i], h[i].transport);
				l->time_ns += h[i].dur;
				l->size += h[i].size;
				l->count++;
			}
		}
		/* RDMA: consecutive (RDMASend, RDMASend, Notify Wait) per link and tid */
		pt_sort(rv, nr, sizeof(*rv), cmp_rev);
		for (size_t i = 0; i < nr;) {
			size_t j = i;
			while (j < nr && rv[j].key == rv[i].key && rv[j].tid == rv[i].tid)
				j++;
			for (size_t k = i; k + 2 < j;) {
				const struct pt_hccl_task *x = &h[rv[k].i], *y = &h[rv[k + 1].i], *z = &h[rv[k + 2].i];
				if (x->task_type == s_send && y->task_type == s_send && z->task_type == s_wait) {
					struct pt_hccl_link *l = link_get(v, n, cap, (uint32_t)(rv[k].key >> 32),
									  (uint32_t)rv[k].key, s_rdma);
					l->time_ns += x->dur + y->dur + z->dur;
					l->wait_ns += z->dur;
					l->size += x->size + y->size;
					l->count++;
					k += 3;
				} else {
					k++;
				}
			}
			i = j;
		}
		a = b;
	}
	free(key);
	free(rv);
	free(rk);
}

double pt_hccl_link_kb_per_ms(const struct pt_hccl_link *l)
{
	if (!l->size || l->time_ns <= 0)
		return 0;
	return (double)l->size / 1e3 / ((double)l->time_ns / 1e6);
}
