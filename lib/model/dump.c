/*
 * `proftool dump`: every table of the model, one record per line, in model
 * order, strings quoted with C escapes. Byte-identical for identical models.
 */
#include "model/dump.h"

#include <inttypes.h>
#include <string.h>

#include "model/gpu-mem-pack.h"
#include "model/model.h"
#include "support/out.h"

static void q(struct pt_out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	pt_out_putc(o, '"');
	size_t run = 0; /* s[run..i) needs no escape: written in one piece */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != '"' && c != '\\' && c >= 0x20 && c < 0x7f)
			continue;
		pt_out_write(o, s + run, i - run);
		run = i + 1;
		if (c == '"' || c == '\\') {
			pt_out_putc(o, '\\');
			pt_out_putc(o, (char)c);
		} else {
			char b[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
			pt_out_write(o, b, 4);
		}
	}
	pt_out_write(o, s + run, n - run);
	pt_out_putc(o, '"');
}

static void qs(struct pt_out *o, const struct pt_model *m, uint32_t id)
{
	q(o, pt_strtab_get(&m->strings, id), pt_strtab_len(&m->strings, id));
}

static void qc(struct pt_out *o, const char *s)
{
	q(o, s ? s : "", s ? strlen(s) : 0);
}

static void kv(struct pt_out *o, const char *k, int64_t v)
{
	pt_out_putc(o, ' ');
	pt_out_puts(o, k);
	pt_out_putc(o, '=');
	pt_out_i64(o, v);
}

static void kvs(struct pt_out *o, const char *k, const char *v)
{
	pt_out_putc(o, ' ');
	pt_out_puts(o, k);
	pt_out_putc(o, '=');
	qc(o, v);
}

static void kvt(struct pt_out *o, const struct pt_model *m, const char *k, uint32_t id)
{
	pt_out_putc(o, ' ');
	pt_out_puts(o, k);
	pt_out_putc(o, '=');
	qs(o, m, id);
}

static void step_point(struct pt_out *o, const char *k, const struct pt_step *s, uint32_t bit, int64_t v)
{
	if (s->has & bit)
		kv(o, k, v);
	else
		pt_out_printf(o, " %s=-", k);
}

/* CUPTI side tables (printed only when present), one at a time in dump order. */
void pt_model_dump_side(const struct pt_model *m, enum pt_dump_side t, struct pt_out *o)
{
	switch (t) {
	case PT_DUMP_KERNELS:
		for (size_t i = 0; i < m->kernels.n; i++) {
			const struct pt_kernel_config *k = pt_model_kernel_config(m, i);
			pt_out_puts(o, "kernel-info");
			kv(o, "event", m->kernels.v[i].event);
			pt_out_printf(o, " grid=%d,%d,%d block=%d,%d,%d", k->grid[0], k->grid[1], k->grid[2], k->block[0],
				      k->block[1], k->block[2]);
			kv(o, "registers", k->registers);
			kv(o, "static_smem", k->static_smem);
			kv(o, "dynamic_smem", k->dynamic_smem);
			kv(o, "graph_id", k->graph_id);
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_COPIES:
		for (size_t i = 0; i < m->copies.n; i++) {
			const struct pt_copy_info *c = &m->copies.v[i];
			pt_out_puts(o, "copy-info");
			kv(o, "event", c->event);
			kv(o, "copy_kind", c->copy_kind);
			kv(o, "src_kind", c->src_kind);
			kv(o, "dst_kind", c->dst_kind);
			kv(o, "bytes", (int64_t)c->bytes);
			kv(o, "src_device", c->src_device);
			kv(o, "dst_device", c->dst_device);
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_LINKS:
		for (size_t i = 0; i < m->links.n; i++) {
			const struct pt_gpu_link *l = &m->links.v[i];
			pt_out_puts(o, "gpu-link");
			kv(o, "event", l->event);
			kv(o, "api", l->api);
			pt_out_puts(o, " range=");
			if (l->range)
				pt_out_u64(o, l->range - 1);
			else
				pt_out_putc(o, '-');
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_SYNCS:
		for (size_t i = 0; i < m->syncs.n; i++) {
			const struct pt_sync_info *s = &m->syncs.v[i];
			pt_out_puts(o, "sync-info");
			kv(o, "event", s->event);
			kv(o, "type", s->type);
			kv(o, "cuda_event_id", s->cuda_event_id);
			kv(o, "wait_on_stream", s->wait_stream);
			kv(o, "wait_corr", s->wait_corr);
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_EXT_CORR:
		for (size_t i = 0; i < m->ext_corr.n; i++) {
			const struct pt_ext_corr *x = &m->ext_corr.v[i];
			pt_out_puts(o, "ext-corr");
			kv(o, "device", x->device);
			kv(o, "kind", x->kind);
			kv(o, "corr", (int64_t)x->corr);
			kv(o, "id", (int64_t)x->id);
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_API_CBIDS:
		for (size_t i = 0; i < m->api_cbids.n; i++) {
			pt_out_puts(o, "api-cbid");
			kvs(o, "name", pt_model_strget(m, m->api_cbids.v[i].name));
			kv(o, "cbid", m->api_cbids.v[i].cbid);
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_RANGES:
		for (size_t i = 0; i < m->ranges.n; i++) {
			const struct pt_range_info *r = &m->ranges.v[i];
			pt_out_puts(o, "range-info");
			kv(o, "event", r->event);
			kvt(o, m, "type", r->type);
			kvt(o, m, "label", r->label);
			kvt(o, m, "domain", r->domain);
			pt_out_puts(o, " parent=");
			if (r->parent)
				pt_out_u64(o, r->parent - 1);
			else
				pt_out_putc(o, '-');
			kv(o, "id", (int64_t)r->id);
			kv(o, "flags", r->flags);
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_ARGS:
		for (size_t i = 0; i < m->event_args.n; i++) {
			const struct pt_event_arg *a = &m->event_args.v[i];
			pt_out_puts(o, "event-arg");
			kv(o, "event", a->event);
			kvt(o, m, "key", a->key);
			kvt(o, m, "value", a->value);
			pt_out_putc(o, '\n');
		}
		break;
	case PT_DUMP_NSIDE:
		break;
	}
}

static void dump_cupti(const struct pt_model *m, struct pt_out *o)
{
	for (int t = 0; t < PT_DUMP_NSIDE; t++)
		pt_model_dump_side(m, (enum pt_dump_side)t, o);
}

static void kvu(struct pt_out *o, const char *k, uint64_t v)
{
	pt_out_putc(o, ' ');
	pt_out_puts(o, k);
	pt_out_putc(o, '=');
	pt_out_u64(o, v);
}

static void ids_list(struct pt_out *o, const char *k, const struct pt_model *m, uint32_t first, uint32_t n)
{
	pt_out_printf(o, " %s=[", k);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			pt_out_putc(o, ',');
		pt_out_u64(o, m->mem_ids.v[first + i]);
	}
	pt_out_putc(o, ']');
}

/* Memory tables (printed only when present). */
static void dump_memory(const struct pt_model *m, struct pt_out *o)
{
	for (size_t i = 0; i < m->mem_graphs.n; i++) {
		const struct pt_mem_graph *g = &m->mem_graphs.v[i];
		pt_out_puts(o, "mem-graph");
		kv(o, "index", (int64_t)i);
		kv(o, "device", g->device);
		kv(o, "graph_id", g->graph_id);
		kv(o, "static", g->static_mem);
		kvu(o, "total", g->total_mem);
		kvt(o, m, "fp_start", g->fp_start);
		kvt(o, m, "bp_end", g->bp_end);
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->mem_nodes.n; i++) {
		const struct pt_mem_node *nd = &m->mem_nodes.v[i];
		pt_out_puts(o, "mem-node");
		kv(o, "graph", nd->graph);
		kvt(o, m, "name", nd->name);
		kvu(o, "node_id", nd->node_id);
		ids_list(o, "out", m, nd->out0, nd->nout);
		ids_list(o, "ws", m, nd->ws0, nd->nws);
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->mem_tensors.n; i++) {
		const struct pt_mem_tensor *x = &m->mem_tensors.v[i];
		pt_out_puts(o, "mem-tensor");
		kv(o, "graph", x->graph);
		kvu(o, "id", x->id);
		kvu(o, "size", x->size);
		kvt(o, m, "type", x->type);
		kvu(o, "life_start", x->life_start);
		kvu(o, "life_end", x->life_end);
		kvt(o, m, "life_long", x->life_long);
		pt_out_putc(o, '\n');
	}
	struct pt_gpu_mem_cursor cur; /* packed in a streamed dump (gpu-mem-pack.h) */
	pt_gpu_mem_cursor_init(&cur, m->gpu_mem_pack);
	for (size_t i = 0, n = pt_model_gpu_mem_n(m); i < n; i++) {
		const struct pt_gpu_mem *r = pt_model_gpu_mem(m, &cur, i);
		pt_out_puts(o, "gpu-mem");
		kv(o, "device", r->device);
		kv(o, "op", r->op);
		kv(o, "kind", r->mem_kind);
		kv(o, "time", r->time);
		pt_out_printf(o, " address=0x%" PRIx64, r->address);
		kvu(o, "bytes", r->bytes);
		kv(o, "corr", r->corr);
		kv(o, "pid", r->pid);
		kv(o, "stream", r->stream);
		kv(o, "pool_type", r->pool_type);
		pt_out_printf(o, " pool=0x%" PRIx64, r->pool_address);
		kvu(o, "pool_threshold", r->pool_threshold);
		kvu(o, "pool_size", r->pool_size);
		kvu(o, "pool_utilized", r->pool_utilized);
		pt_out_printf(o, " pc=0x%" PRIx64, r->pc);
		kvt(o, m, "name", r->name);
		kvt(o, m, "source", r->source);
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->hccl.n; i++) {
		const struct pt_hccl_task *h = &m->hccl.v[i];
		pt_out_puts(o, "hccl");
		kv(o, "device", h->device);
		kvt(o, m, "op", h->op);
		kv(o, "exec", h->exec);
		kv(o, "tid", h->tid);
		kv(o, "ts", h->ts);
		kv(o, "dur", h->dur);
		kv(o, "src", h->src);
		kv(o, "dst", h->dst);
		kvt(o, m, "transport", h->transport);
		kvt(o, m, "task", h->task_type);
		kvu(o, "size", h->size);
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->gpu_pools.n; i++) {
		const struct pt_gpu_pool *p = &m->gpu_pools.v[i];
		pt_out_puts(o, "gpu-pool");
		kv(o, "device", p->device);
		kv(o, "op", p->op);
		kv(o, "type", p->pool_type);
		kv(o, "managed", p->managed);
		kv(o, "time", p->time);
		pt_out_printf(o, " address=0x%" PRIx64, p->address);
		kvu(o, "size", p->size);
		kvu(o, "utilized", p->utilized);
		kvu(o, "min_keep", p->min_keep);
		kvu(o, "threshold", p->threshold);
		kv(o, "corr", p->corr);
		kv(o, "pid", p->pid);
		pt_out_putc(o, '\n');
	}
}

void pt_model_dump_head(const struct pt_model *m, struct pt_out *o)
{
	pt_out_puts(o, "proftool-dump 1\n");
	for (size_t i = 0; i < m->sources.n; i++) {
		const struct pt_source *s = &m->sources.v[i];
		pt_out_puts(o, "source");
		kvs(o, "path", s->path);
		kv(o, "size", (int64_t)s->size);
		kvs(o, "importer", s->importer);
		kv(o, "device", s->device);
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->devices.n; i++) {
		const struct pt_device *d = &m->devices.v[i];
		pt_out_printf(o, "device %zu", i);
		kv(o, "id", d->id);
		pt_out_printf(o, " kind=%s", pt_device_kind_name(d->kind));
		kvs(o, "name", d->name);
		kv(o, "freq_khz", (int64_t)d->freq_khz);
		pt_out_printf(o, " freq_origin=%s", pt_freq_origin_name(d->freq_origin));
		kvs(o, "clock", d->clock);
		kv(o, "ai_core_num", d->ai_core_num);
		kv(o, "aic_freq_khz", (int64_t)d->aic_freq_khz);
		pt_out_printf(o, " peak_flops=%.17g", d->peak_flops);
		kvs(o, "era", d->framework_era);
		kvs(o, "backend", d->framework_backend);
		kvs(o, "dtype_table", d->dtype_table);
		kvs(o, "dtype_table_origin", d->dtype_table_origin);
		kv(o, "dynamic_shape", d->dynamic_shape);
		kv(o, "step_end_tag", d->step_end_tag);
		if (d->pid) {
			kv(o, "pid", d->pid);
			kv(o, "rank", d->rank);
			kv(o, "sm_count", d->sm_count);
			kv(o, "mem_bytes", (int64_t)d->mem_bytes);
			pt_out_printf(o, " cc=%u.%u", d->cc_major, d->cc_minor);
			kv(o, "mem_bandwidth_kbs", (int64_t)d->mem_bandwidth_kbs);
			if (d->comm_backend)
				kvs(o, "comm_backend", d->comm_backend);
			if (d->world_size)
				kv(o, "world_size", d->world_size);
			if (d->host)
				kvs(o, "host", d->host);
			const struct pt_gpu_limits *l = &d->lim;
			if (l->max_threads_per_block || l->max_threads_per_sm || l->warp_size || l->regs_per_block ||
			    l->regs_per_sm || l->smem_per_block || l->smem_per_sm || l->smem_per_block_optin)
				pt_out_printf(o, " limits=%u/%u/%u/%u/%u/%llu/%llu/%llu", l->max_threads_per_block,
					      l->max_threads_per_sm, l->warp_size, l->regs_per_block, l->regs_per_sm,
					      (unsigned long long)l->smem_per_block, (unsigned long long)l->smem_per_sm,
					      (unsigned long long)l->smem_per_block_optin);
			if (d->has_cpu_process)
				pt_out_printf(o, " cpu_process=%.15g", d->cpu_process);
			if (d->has_cpu_system)
				pt_out_printf(o, " cpu_system=%.15g", d->cpu_system);
		}
		pt_out_putc(o, '\n');
		for (size_t j = 0; j < d->offsets.n; j++) {
			pt_out_puts(o, "  clock-offset");
			kvs(o, "from", d->offsets.v[j].from);
			kvs(o, "to", d->offsets.v[j].to);
			kv(o, "offset_ns", d->offsets.v[j].offset_ns);
			pt_out_putc(o, '\n');
		}
	}
	for (size_t i = 0; i < m->tracks.n; i++) {
		const struct pt_track *t = &m->tracks.v[i];
		pt_out_printf(o, "track %zu", i);
		kv(o, "device", t->device);
		pt_out_printf(o, " kind=%s", pt_track_kind_name(t->kind));
		kv(o, "stream", t->stream);
		kvt(o, m, "name", t->name);
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->ops.n; i++) {
		const struct pt_op *op = &m->ops.v[i];
		pt_out_printf(o, "op %zu", i);
		kv(o, "device", op->device);
		kvt(o, m, "name", op->name);
		kvt(o, m, "short", op->short_name);
		kvt(o, m, "type", op->type);
		kv(o, "block_dim", op->block_dim);
		kv(o, "task_type", op->task_type);
		kv(o, "graph", op->has_graph);
		pt_out_puts(o, " keys=");
		for (size_t j = 0; j < op->task_keys.n; j++) {
			if (j)
				pt_out_putc(o, ',');
			pt_out_puts(o, op->task_keys.v[j]);
		}
		pt_out_putc(o, '\n');
		for (size_t j = 0; j < op->tensors.n; j++) {
			const struct pt_tensor *t = &op->tensors.v[j];
			pt_out_printf(o, "  %s %" PRIu32, t->output ? "out" : "in", t->index);
			kvt(o, m, "format", t->format);
			kvt(o, m, "dtype", t->dtype);
			kv(o, "dtype_code", t->dtype_code);
			pt_out_puts(o, " shape=[");
			for (uint32_t k = 0; k < t->nshape; k++) {
				if (k)
					pt_out_putc(o, ',');
				pt_out_i64(o, t->shape[k]);
			}
			pt_out_puts(o, "]\n");
		}
	}
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *s = &m->steps.v[i];
		pt_out_puts(o, "step");
		kv(o, "device", s->device);
		kv(o, "step", s->step);
		step_point(o, "start", s, PT_STEP_HAS_START, s->start);
		step_point(o, "start_tag", s, PT_STEP_HAS_START_TAG, s->start_tag);
		step_point(o, "fp", s, PT_STEP_HAS_FP, s->fp);
		step_point(o, "bp", s, PT_STEP_HAS_BP, s->bp);
		step_point(o, "end", s, PT_STEP_HAS_END, s->end);
		pt_out_putc(o, '\n');
		for (size_t j = 0; j < s->comm.n; j++) {
			const struct pt_comm *c = &s->comm.v[j];
			pt_out_puts(o, "  comm");
			kv(o, "stream", c->stream);
			kv(o, "tag", c->tag);
			kv(o, "start", c->start);
			kv(o, "end", c->end);
			kvt(o, m, "name", c->name);
			kvt(o, m, "type", c->type);
			pt_out_putc(o, '\n');
		}
	}
	for (size_t i = 0; i < m->aicpu.n; i++) {
		const struct pt_aicpu *a = &m->aicpu.v[i];
		pt_out_puts(o, "aicpu");
		kv(o, "device", a->device);
		kv(o, "serial", a->serial);
		kvt(o, m, "name", a->name);
		kv(o, "has", a->has);
		kv(o, "start", a->start);
		kv(o, "end", a->end);
		kv(o, "total_ns", a->total_ns);
		kv(o, "dispatch_ns", a->dispatch_ns);
		kv(o, "event", a->event);
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->stats.n; i++) {
		const struct pt_stat *s = &m->stats.v[i];
		pt_out_puts(o, "stat");
		kv(o, "device", s->device);
		pt_out_printf(o, " %s=", s->key);
		pt_out_i64(o, s->value);
		pt_out_putc(o, '\n');
	}
}

void pt_model_dump_events(const struct pt_model *m, const struct pt_events *ev, struct pt_out *o)
{
	for (size_t i = 0; i < ev->n; i++) {
		pt_out_puts(o, "event");
		kv(o, "track", ev->track[i]);
		pt_out_puts(o, " kind=");
		pt_out_puts(o, pt_event_kind_name((enum pt_event_kind)ev->kind[i]));
		kv(o, "start", ev->start[i]);
		kv(o, "dur", ev->dur[i]);
		kv(o, "task", (int64_t)ev->task[i]);
		kv(o, "corr", (int64_t)ev->corr[i]);
		pt_out_puts(o, " op=");
		if (ev->op[i])
			pt_out_u64(o, ev->op[i] - 1);
		else
			pt_out_putc(o, '-');
		kvt(o, m, "name", ev->name[i]);
		pt_out_putc(o, '\n');
	}
}

void pt_model_dump_tail(const struct pt_model *m, struct pt_out *o)
{
	dump_cupti(m, o);
	dump_memory(m, o);
	const struct pt_queue_samples *qs_ = &m->queues;
	for (size_t i = 0; i < qs_->n; i++) {
		pt_out_puts(o, "queue");
		kv(o, "track", qs_->track[i]);
		kv(o, "time", qs_->time[i]);
		kv(o, "size", qs_->size[i]);
		kv(o, "capacity", qs_->capacity[i]);
		pt_out_putc(o, '\n');
	}
	const struct pt_counter_samples *cs = &m->counters;
	for (size_t i = 0; i < cs->n; i++) {
		pt_out_puts(o, "counter");
		kv(o, "track", cs->track[i]);
		kv(o, "time", cs->time[i]);
		pt_out_printf(o, " value=%.17g\n", cs->value[i]);
	}
	for (size_t i = 0; i < m->md_ops.n; i++) {
		const struct pt_md_op *op = &m->md_ops.v[i];
		pt_out_puts(o, "md-op");
		kv(o, "device", op->device);
		kv(o, "op_id", op->op_id);
		kvt(o, m, "type", op->type);
		kv(o, "workers", op->num_workers);
		kv(o, "interval_ns", op->sampling_interval_ns);
		kv(o, "order", op->order);
		pt_out_puts(o, " queue_track=");
		if (op->has_queue)
			pt_out_u64(o, op->queue_track);
		else
			pt_out_putc(o, '-');
		kv(o, "capacity", op->queue_capacity);
		pt_out_puts(o, " children=[");
		for (size_t j = 0; j < op->children.n; j++) {
			if (j)
				pt_out_putc(o, ',');
			pt_out_i64(o, op->children.v[j]);
		}
		pt_out_puts(o, "]\n");
	}
	for (size_t i = 0; i < m->aicore.n; i++) {
		const struct pt_aicore *a = &m->aicore.v[i];
		pt_out_puts(o, "aicore");
		kv(o, "device", a->device);
		pt_out_puts(o, " op=");
		if (a->op)
			pt_out_u64(o, a->op - 1);
		else
			pt_out_putc(o, '-');
		kv(o, "stream", a->stream);
		kv(o, "task", a->task);
		pt_out_puts(o, " pmu=");
		for (int k = 0; k < PT_AICORE_NPMU; k++) {
			if (k)
				pt_out_putc(o, ',');
			pt_out_u64(o, a->pmu[k]);
		}
		pt_out_putc(o, '\n');
	}
	for (size_t i = 0; i < m->md_records.n; i++) {
		const struct pt_md_record *r = &m->md_records.v[i];
		pt_out_puts(o, "md-record");
		kv(o, "device", r->device);
		pt_out_printf(o, " file=%s", r->file == PT_MD_DEVICE_QUEUE ? "device_queue" : "dataset_iterator");
		kv(o, "type", r->type);
		kv(o, "extra", r->extra);
		kv(o, "batch", r->batch);
		kv(o, "value", r->value);
		kv(o, "time", r->time);
		pt_out_putc(o, '\n');
	}
}

void pt_model_dump(const struct pt_model *m, struct pt_out *o)
{
	pt_model_dump_head(m, o);
	pt_model_dump_events(m, &m->events, o);
	pt_model_dump_tail(m, o);
}
