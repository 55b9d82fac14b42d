/* Writing the .ptm model file's side tables (see ptm-writer.h): samples, MindData, CUPTI, memory, HCCL, AI Core. */
#include "model/ptm-writer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu-mem-pack.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/xalloc.h"

void pt_ptm_write_samples(struct writer *w, const struct pt_model *m)
{
	const struct pt_queue_samples *q = &m->queues;
	for (size_t b = 0; b < q->n; b += PT_PTM_EVENT_BATCH) {
		size_t n = q->n - b < PT_PTM_EVENT_BATCH ? q->n - b : PT_PTM_EVENT_BATCH;
		Proftool__QueueBatch pq = PROFTOOL__QUEUE_BATCH__INIT;
		pq.n_track = pq.n_time = pq.n_size = pq.n_capacity = n;
		pq.track = q->track + b;
		pq.time = q->time + b;
		pq.size = q->size + b;
		pq.capacity = q->capacity + b;
		CHUNK(queues, QUEUES, &pq);
	}
	const struct pt_counter_samples *c = &m->counters;
	for (size_t b = 0; b < c->n; b += PT_PTM_EVENT_BATCH) {
		size_t n = c->n - b < PT_PTM_EVENT_BATCH ? c->n - b : PT_PTM_EVENT_BATCH;
		Proftool__CounterBatch pc = PROFTOOL__COUNTER_BATCH__INIT;
		pc.n_track = pc.n_time = pc.n_value = n;
		pc.track = c->track + b;
		pc.time = c->time + b;
		pc.value = c->value + b;
		CHUNK(counters, COUNTERS, &pc);
	}
}

/* MindData ops and per-batch records (chunks 30, 31). */
void pt_ptm_write_minddata(struct writer *w, const struct pt_model *m)
{
	for (size_t i = 0; i < m->md_ops.n; i++) {
		const struct pt_md_op *op = &m->md_ops.v[i];
		Proftool__MdOp po = PROFTOOL__MD_OP__INIT;
		po.device = op->device;
		po.op_id = op->op_id;
		po.type = op->type;
		po.num_workers = op->num_workers;
		po.sampling_interval_ns = op->sampling_interval_ns;
		po.has_queue = op->has_queue;
		po.queue_capacity = op->queue_capacity;
		po.queue_track = op->queue_track == PT_NONE ? 0 : op->queue_track + 1;
		po.order = op->order;
		po.n_children = op->children.n;
		po.children = op->children.v;
		CHUNK(md_op, MD_OP, &po);
	}
	const struct pt_md_record *r = m->md_records.v;
	size_t nr = m->md_records.n;
	uint32_t dev[PT_PTM_EVENT_BATCH], file[PT_PTM_EVENT_BATCH], type[PT_PTM_EVENT_BATCH];
	int64_t extra[PT_PTM_EVENT_BATCH], batch[PT_PTM_EVENT_BATCH], value[PT_PTM_EVENT_BATCH],
		time[PT_PTM_EVENT_BATCH];
	for (size_t b = 0; b < nr; b += PT_PTM_EVENT_BATCH) {
		size_t n = nr - b < PT_PTM_EVENT_BATCH ? nr - b : PT_PTM_EVENT_BATCH;
		for (size_t i = 0; i < n; i++) {
			dev[i] = r[b + i].device;
			file[i] = r[b + i].file;
			type[i] = r[b + i].type;
			extra[i] = r[b + i].extra;
			batch[i] = r[b + i].batch;
			value[i] = r[b + i].value;
			time[i] = r[b + i].time;
		}
		Proftool__MdRecordBatch pb = PROFTOOL__MD_RECORD_BATCH__INIT;
		pb.n_device = pb.n_file = pb.n_type = pb.n_extra = pb.n_batch = pb.n_value = pb.n_time = n;
		pb.device = dev;
		pb.file = file;
		pb.type = type;
		pb.extra = extra;
		pb.batch = batch;
		pb.value = value;
		pb.time = time;
		CHUNK(md_records, MD_RECORDS, &pb);
	}
}

/* CUPTI side tables (chunks 20-24), after the events they index. */
void pt_ptm_write_cupti(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH };
	uint32_t u[4][B];
	int32_t i32[9][B];
	uint64_t u64[2][B];
	int64_t d[3][B];
	for (size_t b = 0; b < m->kernels.n; b += B) {
		size_t n = m->kernels.n - b < B ? m->kernels.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_kernel_config *k = pt_model_kernel_config(m, b + i);
			u[0][i] = m->kernels.v[b + i].event;
			u[1][i] = k->registers;
			u[2][i] = k->graph_id;
			for (int j = 0; j < 3; j++) {
				i32[j][i] = k->grid[j];
				i32[3 + j][i] = k->block[j];
			}
			i32[6][i] = k->static_smem;
			i32[7][i] = k->dynamic_smem;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = {
			{ 2, COL_S32, i32[0], n }, { 3, COL_S32, i32[1], n }, { 4, COL_S32, i32[2], n },
			{ 5, COL_S32, i32[3], n }, { 6, COL_S32, i32[4], n }, { 7, COL_S32, i32[5], n },
			{ 8, COL_U32, u[1], n },   { 9, COL_S32, i32[6], n }, { 10, COL_S32, i32[7], n },
			{ 11, COL_U32, u[2], n },  { 12, COL_S64, d[0], n },
		};
		pt_ptm_put_columns(w, PROFTOOL__CHUNK__BODY_KERNELS, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t b = 0; b < m->copies.n; b += B) {
		size_t n = m->copies.n - b < B ? m->copies.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_copy_info *c = &m->copies.v[b + i];
			u[0][i] = c->event;
			u[1][i] = c->copy_kind;
			u[2][i] = c->src_kind;
			u[3][i] = c->dst_kind;
			u64[0][i] = c->bytes;
			i32[0][i] = c->src_device;
			i32[1][i] = c->dst_device;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = {
			{ 2, COL_U32, u[1], n },   { 3, COL_U32, u[2], n },   { 4, COL_U32, u[3], n },
			{ 5, COL_U64, u64[0], n }, { 6, COL_S32, i32[0], n }, { 7, COL_S32, i32[1], n },
			{ 8, COL_S64, d[0], n },
		};
		pt_ptm_put_columns(w, PROFTOOL__CHUNK__BODY_COPIES, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t b = 0; b < m->links.n; b += B) {
		size_t n = m->links.n - b < B ? m->links.n - b : B;
		for (size_t i = 0; i < n; i++) {
			u[0][i] = m->links.v[b + i].event;
			u[1][i] = m->links.v[b + i].api;
			u[2][i] = m->links.v[b + i].range;
		}
		for (int j = 0; j < 3; j++)
			deltas32(u[j], n, d[j]);
		const struct col cols[] = { { 4, COL_S64, d[0], n }, { 5, COL_S64, d[1], n }, { 6, COL_S64, d[2], n } };
		pt_ptm_put_columns(w, PROFTOOL__CHUNK__BODY_LINKS, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t b = 0; b < m->ext_corr.n; b += B) {
		size_t n = m->ext_corr.n - b < B ? m->ext_corr.n - b : B;
		for (size_t i = 0; i < n; i++) {
			u[0][i] = m->ext_corr.v[b + i].device;
			u[1][i] = m->ext_corr.v[b + i].kind;
			u64[0][i] = m->ext_corr.v[b + i].corr;
			u64[1][i] = m->ext_corr.v[b + i].id;
		}
		Proftool__ExtCorrBatch pb = PROFTOOL__EXT_CORR_BATCH__INIT;
		pb.n_device = pb.n_kind = pb.n_corr = pb.n_id = n;
		pb.device = u[0];
		pb.kind = u[1];
		pb.corr = u64[0];
		pb.id = u64[1];
		CHUNK(ext_corr, EXT_CORR, &pb);
	}
	for (size_t b = 0; b < m->api_cbids.n; b += B) {
		size_t n = m->api_cbids.n - b < B ? m->api_cbids.n - b : B;
		for (size_t i = 0; i < n; i++) {
			u[0][i] = m->api_cbids.v[b + i].name;
			u[1][i] = m->api_cbids.v[b + i].cbid;
		}
		Proftool__ApiCbidBatch pb = PROFTOOL__API_CBID_BATCH__INIT;
		pb.n_name = pb.n_cbid = n;
		pb.name = u[0];
		pb.cbid = u[1];
		CHUNK(api_cbids, API_CBIDS, &pb);
	}
	for (size_t b = 0; b < m->syncs.n; b += B) {
		size_t n = m->syncs.n - b < B ? m->syncs.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_sync_info *s = &m->syncs.v[b + i];
			u[0][i] = s->event;
			u[1][i] = s->type;
			d[1][i] = s->cuda_event_id;
			d[2][i] = s->wait_stream;
			u64[0][i] = (uint64_t)s->wait_corr;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = {
			{ 1, COL_S64, d[0], n }, { 2, COL_U32, u[1], n }, { 3, COL_S64, d[1], n },
			{ 4, COL_S64, d[2], n }, { 5, COL_S64, u64[0], n },
		};
		pt_ptm_put_columns(w, PROFTOOL__CHUNK__BODY_SYNCS, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t i = 0; i < m->ranges.n; i++) {
		const struct pt_range_info *r = &m->ranges.v[i];
		Proftool__RangeInfo pr = PROFTOOL__RANGE_INFO__INIT;
		pr.event = r->event;
		pr.type = r->type;
		pr.label = r->label;
		pr.domain = r->domain;
		pr.parent = r->parent;
		pr.id = r->id;
		pr.flags = r->flags;
		CHUNK(range, RANGE, &pr);
	}
	for (size_t b = 0; b < m->event_args.n; b += B) {
		size_t n = m->event_args.n - b < B ? m->event_args.n - b : B;
		for (size_t i = 0; i < n; i++) {
			u[0][i] = m->event_args.v[b + i].event;
			u[1][i] = m->event_args.v[b + i].key;
			u[2][i] = m->event_args.v[b + i].value;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = { { 1, COL_S64, d[0], n }, { 2, COL_U32, u[1], n }, { 3, COL_U32, u[2], n } };
		pt_ptm_put_columns(w, PROFTOOL__CHUNK__BODY_EVENT_ARGS, cols, sizeof(cols) / sizeof(cols[0]));
	}
}

/* Memory tables (chunks 60-64): Ascend graphs, nodes, tensors; CUPTI MEMORY2 and MEMORY_POOL. */
void pt_ptm_write_memory(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH, NU = 7, NU64 = 10, NS = 2 };
	size_t ngmem = pt_model_gpu_mem_n(m);
	if (!m->mem_graphs.n && !ngmem && !m->gpu_pools.n)
		return;
	uint32_t(*u)[B] = pt_xmalloc(NU * sizeof(*u));
	uint64_t(*q)[B] = pt_xmalloc(NU64 * sizeof(*q));
	int64_t(*t)[B] = pt_xmalloc(NS * sizeof(*t));
	protobuf_c_boolean *bo = pt_xmalloc(B * sizeof(*bo));
	for (size_t i = 0; i < m->mem_graphs.n; i++) {
		const struct pt_mem_graph *g = &m->mem_graphs.v[i];
		Proftool__MemGraph pg = PROFTOOL__MEM_GRAPH__INIT;
		pg.device = g->device;
		pg.graph_id = g->graph_id;
		pg.static_mem = g->static_mem;
		pg.total_mem = g->total_mem;
		pg.fp_start = g->fp_start;
		pg.bp_end = g->bp_end;
		CHUNK(mem_graph, MEM_GRAPH, &pg);
	}
	PT_VEC(uint64_t) ids = { 0 };
	for (size_t b = 0; b < m->mem_nodes.n; b += B) {
		size_t n = m->mem_nodes.n - b < B ? m->mem_nodes.n - b : B;
		ids.n = 0;
		for (size_t i = 0; i < n; i++) {
			const struct pt_mem_node *nd = &m->mem_nodes.v[b + i];
			u[0][i] = nd->graph;
			u[1][i] = nd->name;
			q[0][i] = nd->node_id;
			u[2][i] = nd->nout;
			u[3][i] = nd->nws;
			for (uint32_t k = 0; k < nd->nout; k++)
				pt_vec_push(&ids, m->mem_ids.v[nd->out0 + k]);
			for (uint32_t k = 0; k < nd->nws; k++)
				pt_vec_push(&ids, m->mem_ids.v[nd->ws0 + k]);
		}
		Proftool__MemNodeBatch pb = PROFTOOL__MEM_NODE_BATCH__INIT;
		pb.n_graph = pb.n_name = pb.n_node_id = pb.n_n_out = pb.n_n_ws = n;
		pb.graph = u[0];
		pb.name = u[1];
		pb.node_id = q[0];
		pb.n_out = u[2];
		pb.n_ws = u[3];
		pb.n_ids = ids.n;
		pb.ids = ids.v;
		CHUNK(mem_nodes, MEM_NODES, &pb);
	}
	pt_vec_free(&ids);
	for (size_t b = 0; b < m->mem_tensors.n; b += B) {
		size_t n = m->mem_tensors.n - b < B ? m->mem_tensors.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_mem_tensor *x = &m->mem_tensors.v[b + i];
			u[0][i] = x->graph;
			q[0][i] = x->id;
			q[1][i] = x->size;
			u[1][i] = x->type;
			q[2][i] = x->life_start;
			q[3][i] = x->life_end;
			u[2][i] = x->life_long;
		}
		Proftool__MemTensorBatch pb = PROFTOOL__MEM_TENSOR_BATCH__INIT;
		pb.n_graph = pb.n_id = pb.n_size = pb.n_type = pb.n_life_start = pb.n_life_end = pb.n_life_long = n;
		pb.graph = u[0];
		pb.id = q[0];
		pb.size = q[1];
		pb.type = u[1];
		pb.life_start = q[2];
		pb.life_end = q[3];
		pb.life_long = u[2];
		CHUNK(mem_tensors, MEM_TENSORS, &pb);
	}
	struct pt_gpu_mem_cursor cur;
	pt_gpu_mem_cursor_init(&cur, m->gpu_mem_pack);
	for (size_t b = 0; b < ngmem; b += B) {
		size_t n = ngmem - b < B ? ngmem - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_gpu_mem *r = pt_model_gpu_mem(m, &cur, b + i);
			u[0][i] = r->device;
			u[1][i] = r->op;
			u[2][i] = r->mem_kind;
			u[3][i] = r->pool_type;
			u[4][i] = r->corr;
			u[5][i] = r->pid;
			u[6][i] = r->stream;
			t[0][i] = r->time;
			q[0][i] = r->address;
			q[1][i] = r->bytes;
			q[2][i] = r->pc;
			q[3][i] = r->pool_address;
			q[4][i] = r->pool_threshold;
			q[5][i] = r->pool_size;
			q[6][i] = r->pool_utilized;
			q[7][i] = r->name;
			q[8][i] = r->source;
		}
		uint32_t *nm = pt_xmalloc(2 * n * sizeof(*nm) + 1);
		for (size_t i = 0; i < n; i++) {
			nm[i] = (uint32_t)q[7][i];
			nm[n + i] = (uint32_t)q[8][i];
		}
		Proftool__GpuMemBatch pb = PROFTOOL__GPU_MEM_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_mem_kind = pb.n_pool_type = pb.n_corr = pb.n_pid = pb.n_stream =
			pb.n_time = pb.n_address = pb.n_bytes = pb.n_pc = pb.n_pool_address = pb.n_pool_threshold =
				pb.n_pool_size = pb.n_pool_utilized = pb.n_name = pb.n_source = n;
		pb.device = u[0];
		pb.op = u[1];
		pb.mem_kind = u[2];
		pb.pool_type = u[3];
		pb.corr = u[4];
		pb.pid = u[5];
		pb.stream = u[6];
		pb.time = t[0];
		pb.address = q[0];
		pb.bytes = q[1];
		pb.pc = q[2];
		pb.pool_address = q[3];
		pb.pool_threshold = q[4];
		pb.pool_size = q[5];
		pb.pool_utilized = q[6];
		pb.name = nm;
		pb.source = nm + n;
		CHUNK(gpu_mem, GPU_MEM, &pb);
		free(nm);
	}
	for (size_t b = 0; b < m->gpu_pools.n; b += B) {
		size_t n = m->gpu_pools.n - b < B ? m->gpu_pools.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_gpu_pool *p = &m->gpu_pools.v[b + i];
			u[0][i] = p->device;
			u[1][i] = p->op;
			u[2][i] = p->pool_type;
			bo[i] = p->managed;
			u[3][i] = p->corr;
			u[4][i] = p->pid;
			t[0][i] = p->time;
			q[0][i] = p->address;
			q[1][i] = p->size;
			q[2][i] = p->utilized;
			q[3][i] = p->min_keep;
			q[4][i] = p->threshold;
		}
		Proftool__GpuPoolBatch pb = PROFTOOL__GPU_POOL_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_pool_type = pb.n_managed = pb.n_corr = pb.n_pid = pb.n_time =
			pb.n_address = pb.n_size = pb.n_utilized = pb.n_min_keep = pb.n_threshold = n;
		pb.device = u[0];
		pb.op = u[1];
		pb.pool_type = u[2];
		pb.managed = bo;
		pb.corr = u[3];
		pb.pid = u[4];
		pb.time = t[0];
		pb.address = q[0];
		pb.size = q[1];
		pb.utilized = q[2];
		pb.min_keep = q[3];
		pb.threshold = q[4];
		CHUNK(gpu_pools, GPU_POOLS, &pb);
	}
	free(u);
	free(q);
	free(t);
	free(bo);
}

/* HCCL trace events (chunk 70). */
void pt_ptm_write_hccl(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH };
	if (!m->hccl.n)
		return;
	uint32_t(*u)[B] = pt_xmalloc(8 * sizeof(*u));
	int64_t(*t)[B] = pt_xmalloc(2 * sizeof(*t));
	uint64_t *q = pt_xmalloc(B * sizeof(*q));
	for (size_t b = 0; b < m->hccl.n; b += B) {
		size_t n = m->hccl.n - b < B ? m->hccl.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_hccl_task *h = &m->hccl.v[b + i];
			u[0][i] = h->device;
			u[1][i] = h->op;
			u[2][i] = h->exec;
			u[3][i] = h->tid;
			t[0][i] = h->ts;
			t[1][i] = h->dur;
			u[4][i] = h->src;
			u[5][i] = h->dst;
			u[6][i] = h->transport;
			u[7][i] = h->task_type;
			q[i] = h->size;
		}
		Proftool__HcclBatch pb = PROFTOOL__HCCL_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_exec = pb.n_tid = pb.n_ts = pb.n_dur = pb.n_src = pb.n_dst = pb.n_transport =
			pb.n_task_type = pb.n_size = n;
		pb.device = u[0];
		pb.op = u[1];
		pb.exec = u[2];
		pb.tid = u[3];
		pb.ts = t[0];
		pb.dur = t[1];
		pb.src = u[4];
		pb.dst = u[5];
		pb.transport = u[6];
		pb.task_type = u[7];
		pb.size = q;
		CHUNK(hccl, HCCL, &pb);
	}
	free(u);
	free(t);
	free(q);
}

/* AI Core PMU records (chunk 50), after the ops they index. */
void pt_ptm_write_aicore(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH };
	if (!m->aicore.n)
		return;
	uint32_t(*u)[B] = pt_xmalloc(4 * sizeof(*u));
	uint64_t *pmu = pt_xmalloc(B * PT_AICORE_NPMU * sizeof(*pmu));
	for (size_t b = 0; b < m->aicore.n; b += B) {
		size_t n = m->aicore.n - b < B ? m->aicore.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_aicore *a = &m->aicore.v[b + i];
			u[0][i] = a->device;
			u[1][i] = a->op;
			u[2][i] = a->stream;
			u[3][i] = a->task;
			for (int k = 0; k < PT_AICORE_NPMU; k++)
				pmu[i * PT_AICORE_NPMU + (size_t)k] = a->pmu[k];
		}
		Proftool__AicoreBatch pb = PROFTOOL__AICORE_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_stream = pb.n_task = n;
		pb.n_pmu = n * PT_AICORE_NPMU;
		pb.device = u[0];
		pb.op = u[1];
		pb.stream = u[2];
		pb.task = u[3];
		pb.pmu = pmu;
		CHUNK(aicore, AICORE, &pb);
	}
	free(u);
	free(pmu);
}
