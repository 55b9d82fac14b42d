/* CUPTI MEMORY2 / MEMORY_POOL record decoding (see import-cupti-memory.h). */
#include "import/import-cupti-memory.h"

#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

#include "cupti/cdump.h"
#include "cupti/cupti-layouts.h"
#include "model/gpu-mem-pack.h"
#include "model/gpu-memory.h"

enum {
	M_OP, M_KIND, M_CORR, M_ADDR, M_BYTES, M_TS, M_PC, M_PID, M_DEV, M_STREAM, M_NAME, M_PTYPE, M_PADDR,
	M_PTHRESH, M_PSIZE, M_PUTIL, M_SOURCE, M__N
};
static const char *const mem_fields[M__N] = {
	"memoryOperationType", "memoryKind", "correlationId", "address", "bytes", "timestamp", "PC", "processId",
	"deviceId", "streamId", "name", "memoryPoolType", "poolAddress", "releaseThreshold", "pool",
	"utilizedSize", "source",
};

enum {
	P_OP, P_TYPE, P_CORR, P_PID, P_DEV, P_MINKEEP, P_ADDR, P_SIZE, P_THRESH, P_TS, P_UTIL, P_MANAGED, P__N
};
static const char *const pool_fields[P__N] = {
	"memoryPoolOperationType", "memoryPoolType", "correlationId", "processId", "deviceId", "minBytesToKeep",
	"address", "size", "releaseThreshold", "timestamp", "utilizedSize", "isManagedPool",
};

static uint64_t get(uint32_t kind, const char *name, const struct pt_cl_layout *lay, int range, const uint8_t *r)
{
	const struct pt_cl_field *f = pt_cl_field(kind, name);
	if (!f || !pt_cl_field_in(f, lay->size, range))
		return 0; /* absent in this struct version: the documented default 0 */
	const uint8_t *p = r + f->off;
	switch (f->size) {
	case 1: return p[0];
	case 2: return pt_le16(p);
	case 4: return pt_le32(p);
	case 8: return pt_le64(p);
	default: return 0;
	}
}

void pt_cupti_mem_decode(uint32_t kind, const struct pt_cl_layout *lay, int range, const uint8_t *r,
			 struct pt_cupti_mem *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t v[32];
	if (kind == PT_CK_MEMORY2) {
		for (int i = 0; i < M__N; i++)
			v[i] = get(kind, mem_fields[i], lay, range, r);
		struct pt_gpu_mem *g = &out->mem;
		g->op = (uint8_t)(v[M_OP] > 255 ? 255 : v[M_OP]);
		g->mem_kind = (uint8_t)(v[M_KIND] > 255 ? 255 : v[M_KIND]);
		g->pool_type = (uint8_t)(v[M_PTYPE] > 255 ? 255 : v[M_PTYPE]);
		g->corr = (uint32_t)v[M_CORR];
		g->pid = (uint32_t)v[M_PID];
		g->stream = (uint32_t)v[M_STREAM];
		g->address = v[M_ADDR];
		g->bytes = v[M_BYTES];
		g->pc = v[M_PC];
		g->pool_address = v[M_PADDR];
		g->pool_threshold = v[M_PTHRESH];
		g->pool_size = v[M_PSIZE];
		g->pool_utilized = v[M_PUTIL];
		out->cuda_device = (uint32_t)v[M_DEV];
		out->ts = v[M_TS];
		out->name_id = v[M_NAME];
		out->source_id = v[M_SOURCE];
	} else {
		for (int i = 0; i < P__N; i++)
			v[i] = get(kind, pool_fields[i], lay, range, r);
		struct pt_gpu_pool *p = &out->pool;
		p->op = (uint8_t)(v[P_OP] > 255 ? 255 : v[P_OP]);
		p->pool_type = (uint8_t)(v[P_TYPE] > 255 ? 255 : v[P_TYPE]);
		p->managed = v[P_MANAGED] != 0;
		p->corr = (uint32_t)v[P_CORR];
		p->pid = (uint32_t)v[P_PID];
		p->address = v[P_ADDR];
		p->size = v[P_SIZE];
		p->utilized = v[P_UTIL];
		p->min_keep = v[P_MINKEEP];
		p->threshold = v[P_THRESH];
		out->cuda_device = (uint32_t)v[P_DEV];
		out->ts = v[P_TS];
	}
}

struct cctx {
	struct pt_model *m;
	uint32_t dev;
	uint32_t track[PT_GMEM__N], rtrack;
	int64_t last[PT_GMEM__N], rlast;
	bool have[PT_GMEM__N], rhave;
};

static const char *const counter_names[PT_GMEM__N] = { "Memory#allocated_bytes", "Managed memory#allocated_bytes",
							"Pinned memory#allocated_bytes", NULL };

static void sample(struct cctx *c, uint32_t *track, int64_t stream, const char *name, int64_t t, int64_t v)
{
	if (*track == PT_NONE)
		*track = pt_model_track(c->m, c->dev, PT_TRACK_COUNTER, stream, name);
	pt_model_add_counter_sample(c->m, *track, t, (double)v);
}

static void on_point(void *ctx, const struct pt_gmem_point *p)
{
	struct cctx *c = ctx;
	int g = p->group;
	if (counter_names[g] && (!c->have[g] || c->last[g] != p->allocated)) {
		sample(c, &c->track[g], -20 - g, counter_names[g], p->time, p->allocated);
		c->have[g] = true;
		c->last[g] = p->allocated;
	}
	if (p->reserved >= 0 && (!c->rhave || c->rlast != p->reserved)) {
		sample(c, &c->rtrack, -30, "Memory#reserved_bytes", p->time, p->reserved);
		c->rhave = true;
		c->rlast = p->reserved;
	}
}

void pt_cupti_mem_counters(struct pt_model *m)
{
	size_t nd = m->devices.n;
	bool *has = pt_xcalloc(nd + 1, sizeof(*has));
	for (size_t i = 0; i < m->gpu_mem.n; i++)
		has[m->gpu_mem.v[i].device] = true;
	struct pt_gpu_mem_heads h;
	struct pt_gpu_mem_head x;
	pt_gpu_mem_heads_init(&h, m->gpu_mem_pack);
	while (pt_gpu_mem_heads_next(&h, &x))
		has[x.device] = true;
	for (size_t t = 0; t < m->tracks.n; t++)
		if (m->tracks.v[t].kind == PT_TRACK_COUNTER && m->tracks.v[t].stream <= -20 &&
		    m->tracks.v[t].stream >= -30)
			has[m->tracks.v[t].device] = false; /* done by an earlier run */
	for (size_t d = 0; d < nd; d++) {
		if (!has[d])
			continue;
		struct cctx c = { .m = m, .dev = (uint32_t)d, .rtrack = PT_NONE };
		for (int g = 0; g < PT_GMEM__N; g++)
			c.track[g] = PT_NONE;
		pt_gmem_replay(m, (uint32_t)d, on_point, &c);
	}
	free(has);
}
