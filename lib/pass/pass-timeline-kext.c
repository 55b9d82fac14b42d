/*
 * What the kineto profile's events carry beyond their times and launch keys
 * (cupti.md §7.4, chrome-trace.md §11): the "External id" of every event that
 * has one, the "cbid" of runtime and driver calls, and Kineto's category of
 * a host range (Operator ranges are cpu_op). Made once per trace from the
 * model's side tables:
 *  - a GPU activity or an API call: the external id of kind CUSTOM0
 *    (PyTorch's op id) that the call's process recorded for its correlation
 *    id (ExtCorrBatch; the first one when several);
 *  - a host range: the id a Kineto input recorded for it (RangeInfo.id of a
 *    range on a CPU device that a Kineto source imported; on other sources
 *    that field is an NVTX range id, no external id);
 *  - an API call's cbid: the row of m->api_cbids for its name.
 */
#include "pass/pass-timeline-trace.h"
#include "pass/pass-timeline-krange.h"
#include "pass/pass-timeline-kxmap.h"

#include <string.h>

#include "support/hashmap.h"
#include "support/sort.h"
#include "support/xalloc.h"

struct tl_kext {
	struct tl_kxmap *ext;   /* per CPU device index: correlation id -> external id (NULL: none at all) */
	bool ext_lent;          /* ext is a streamed model's (tl_gstream_ext) */
	uint32_t *cpu_of;       /* per device: the CPU device index of its process, PT_NONE none */
	uint8_t *kineto_src;    /* per device: a Kineto input imported it (its ranges' ids are external ids) */
	struct pt_hashmap cbid; /* API name string id -> cbid (the first row of the name) */
	uint32_t op_type;       /* string id of "Operator", UINT32_MAX: none */
};

void tl_kext_init(struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	struct tl_kext *k = pt_xcalloc(1, sizeof(*k));
	size_t nd = m->devices.n ? m->devices.n : 1;
	k->cpu_of = pt_xmalloc(nd * sizeof(*k->cpu_of));
	k->kineto_src = pt_xcalloc(nd, 1);
	for (size_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		k->cpu_of[d] = PT_NONE;
		if (dv->kind == PT_DEV_CPU) {
			k->cpu_of[d] = (uint32_t)d;
			continue;
		}
		for (size_t j = 0; j < m->devices.n && dv->pid; j++)
			if (m->devices.v[j].kind == PT_DEV_CPU && m->devices.v[j].pid == dv->pid &&
			    m->devices.v[j].rank == dv->rank) {
				k->cpu_of[d] = (uint32_t)j;
				break;
			}
	}
	for (size_t i = 0; i < m->sources.n; i++) {
		const struct pt_source *s = &m->sources.v[i];
		if (s->device >= 0 && (size_t)s->device < m->devices.n && s->importer && !strcmp(s->importer, "kineto"))
			k->kineto_src[s->device] = 1;
	}
	if (c->tl->gstream) {
		k->ext = tl_gstream_ext(c->tl->gstream);
	} else {
		struct tl_kxpack x = { 0 };
		tl_kxpack_add(&x, m);
		k->ext = tl_kxmap_build(&x, m->devices.n);
	}
	k->ext_lent = c->tl->gstream != NULL;
	pt_hashmap_init(&k->cbid);
	for (size_t i = 0; i < m->api_cbids.n; i++) {
		bool added;
		pt_hashmap_put(&k->cbid, m->api_cbids.v[i].name, m->api_cbids.v[i].cbid, &added);
	}
	k->op_type = pt_strtab_find(&m->strings, "Operator", 8);
	c->kext = k;
}

void tl_kext_free(struct tl_trace *c)
{
	struct tl_kext *k = c->kext;
	if (!k)
		return;
	if (!k->ext_lent)
		tl_kxmap_free(k->ext);
	free(k->cpu_of);
	free(k->kineto_src);
	pt_hashmap_free(&k->cbid);
	free(k);
	c->kext = NULL;
}

bool tl_kext_external_id_of(const struct tl_trace *c, uint32_t dev, uint8_t kind, uint64_t corr, uint32_t i,
			    uint64_t *id)
{
	const struct tl_kext *k = c->kext;
	const struct pt_model *m = c->m;
	if (kind == PT_EV_RANGE) {
		if (!k->kineto_src[dev])
			return false;
		const struct pt_range_info *ri = pt_model_range_info(m, i);
		if (!ri || !ri->id)
			return false;
		*id = ri->id;
		return true;
	}
	if (!k->ext || !c->has_corr || kind == PT_EV_TASK || kind == PT_EV_AICPU || kind == PT_EV_GETNEXT)
		return false;
	uint32_t cd = k->cpu_of[dev];
	if (cd == PT_NONE || !corr)
		return false;
	return tl_kxmap_get(k->ext, cd, corr, id);
}

bool tl_kext_external_id(const struct tl_trace *c, uint32_t i, uint64_t *id)
{
	const struct pt_model *m = c->m;
	return tl_kext_external_id_of(c, m->tracks.v[m->events.track[i]].device, m->events.kind[i],
				      c->has_corr ? m->events.corr[i] : 0, i, id);
}

bool tl_kext_cbid(const struct tl_trace *c, uint32_t name, uint32_t *cbid)
{
	const uint64_t *v = pt_hashmap_get(&c->kext->cbid, name);
	if (!v)
		return false;
	*cbid = (uint32_t)*v;
	return true;
}

/* A host range's External id: a streamed GPU model's from its event (tl_sev.kx, .task), else its range info's. */
bool tl_kext_range_id(const struct tl_trace *c, uint32_t dev, const struct tl_sev *v, uint32_t i, uint64_t *id)
{
	if (!c->tl->gstream)
		return tl_kext_external_id_of(c, dev, PT_EV_RANGE, 0, i, id);
	if (!c->kext->kineto_src[dev] || !(v->kx & TL_KX_INFO) || !v->task)
		return false;
	*id = v->task;
	return true;
}

bool tl_kext_cpu_op(const struct tl_trace *c, const struct tl_sev *v, uint32_t i)
{
	const struct tl_kext *k = c->kext;
	if (c->tl->gstream)
		return v->kx & TL_KX_OP;
	if (k->op_type == UINT32_MAX)
		return false;
	const struct pt_range_info *ri = pt_model_range_info(c->m, i);
	return ri && ri->type == k->op_type;
}

const struct pt_copy_info *tl_kext_copy_sev(const struct tl_sev *v, struct pt_copy_info *tmp)
{
	if (!(v->kx & TL_KX_COPY))
		return NULL;
	*tmp = (struct pt_copy_info){ .event = v->ev, .copy_kind = (uint8_t)v->kconf, .src_kind = (uint8_t)(v->kconf >> 8),
				      .dst_kind = (uint8_t)(v->kconf >> 16), .bytes = v->task, .src_device = -1,
				      .dst_device = -1 };
	return tmp;
}

static const struct pt_copy_info *sort_ci;
static int copy_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	if (sort_ci[a].event != sort_ci[b].event)
		return sort_ci[a].event < sort_ci[b].event ? -1 : 1;
	return a < b ? -1 : a > b;
}

/*
 * A streamed model's copies in event order for pt_model_copy_info, each
 * event's last row where a file has several (as the whole load's per-event
 * table keeps the last).
 */
void tl_kext_copies_in_order(struct pt_model *m)
{
	size_t n = m->copies.n, k = 0;
	bool sorted = true;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = m->copies.v[i].event > m->copies.v[i - 1].event;
	if (sorted)
		return;
	uint32_t *ix = pt_xmalloc(n * sizeof(*ix));
	for (size_t i = 0; i < n; i++)
		ix[i] = (uint32_t)i;
	sort_ci = m->copies.v;
	pt_sort(ix, n, sizeof(*ix), copy_cmp);
	sort_ci = NULL;
	struct pt_copy_info *v = pt_xmalloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		if (k && v[k - 1].event == m->copies.v[ix[i]].event)
			k--;
		v[k++] = m->copies.v[ix[i]];
	}
	free(ix);
	free(m->copies.v);
	m->copies.v = v;
	m->copies.n = k;
	m->copies.cap = n;
}
