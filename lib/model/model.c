#include "model/model.h"
#include "model/gpu-mem-pack.h"
#include "model/ptm.h"

#include <stdlib.h>
#include <string.h>

#include "support/hashmap.h"

struct pt_model *pt_model_new(void)
{
	struct pt_model *m = pt_xcalloc(1, sizeof(*m));
	pt_strtab_init(&m->strings);
	m->strings.text = true; /* no name holds a NUL byte (proftool-model(5)) */
	return m;
}

static void free_op(struct pt_op *op)
{
	for (size_t i = 0; i < op->tensors.n; i++)
		free(op->tensors.v[i].shape);
	pt_vec_free(&op->tensors);
	for (size_t i = 0; i < op->task_keys.n; i++)
		free(op->task_keys.v[i]);
	pt_vec_free(&op->task_keys);
}

void pt_model_free(struct pt_model *m)
{
	if (!m)
		return;
	pt_strtab_free(&m->strings);
	for (size_t i = 0; i < m->sources.n; i++) {
		free(m->sources.v[i].path);
		free(m->sources.v[i].importer);
		free(m->sources.v[i].importer_version);
	}
	pt_vec_free(&m->sources);
	for (size_t i = 0; i < m->devices.n; i++) {
		struct pt_device *d = &m->devices.v[i];
		free(d->name);
		free(d->clock);
		for (size_t j = 0; j < d->offsets.n; j++) {
			free(d->offsets.v[j].from);
			free(d->offsets.v[j].to);
		}
		pt_vec_free(&d->offsets);
		free(d->framework_era);
		free(d->framework_backend);
		free(d->comm_backend);
		free(d->host);
		free(d->dtype_table);
		free(d->dtype_table_origin);
	}
	pt_vec_free(&m->devices);
	pt_vec_free(&m->tracks);
	free(m->track_index.slot);
	pt_vec_free(&m->track_events);
	for (size_t i = 0; i < m->ops.n; i++)
		free_op(&m->ops.v[i]);
	pt_vec_free(&m->ops);
	for (size_t i = 0; i < m->steps.n; i++)
		pt_vec_free(&m->steps.v[i].comm);
	pt_vec_free(&m->steps);
	for (size_t i = 0; i < m->stats.n; i++)
		free(m->stats.v[i].key);
	pt_vec_free(&m->stats);
	pt_vec_free(&m->aicpu);
	pt_vec_free(&m->kernels);
	pt_vec_free(&m->kernel_configs);
	free(m->kernel_config_index.slot);
	pt_vec_free(&m->copies);
	pt_vec_free(&m->links);
	pt_vec_free(&m->ext_corr);
	pt_vec_free(&m->api_cbids);
	pt_vec_free(&m->ranges);
	pt_vec_free(&m->event_args);
	pt_vec_free(&m->syncs);
	pt_vec_free(&m->aicore);
	pt_vec_free(&m->mem_graphs);
	pt_vec_free(&m->mem_nodes);
	pt_vec_free(&m->mem_tensors);
	pt_vec_free(&m->mem_ids);
	pt_vec_free(&m->gpu_mem);
	if (m->gpu_mem_pack)
		pt_gpu_mem_pack_free(m->gpu_mem_pack);
	free(m->gpu_mem_pack);
	pt_vec_free(&m->gpu_pools);
	pt_vec_free(&m->hccl);
	pt_events_free_columns(&m->events);
	pt_ptm_spill_free(m->events.spill);
	free(m->queues.track);
	free(m->queues.time);
	free(m->queues.size);
	free(m->queues.capacity);
	free(m->counters.track);
	free(m->counters.time);
	free(m->counters.value);
	for (size_t i = 0; i < m->md_ops.n; i++)
		pt_vec_free(&m->md_ops.v[i].children);
	pt_vec_free(&m->md_ops);
	pt_vec_free(&m->md_records);
	free(m->producer);
	free(m);
}

uint32_t pt_model_host_of_pid(const struct pt_model *m, uint32_t pid)
{
	for (uint32_t i = 0; pid && i < m->devices.n; i++)
		if (m->devices.v[i].kind == PT_DEV_CPU && m->devices.v[i].pid == pid)
			return i;
	return PT_NONE;
}

uint32_t pt_model_only_device(const struct pt_model *m, enum pt_device_kind kind)
{
	uint32_t found = PT_NONE;
	for (size_t i = 0; i < m->devices.n; i++) {
		if (m->devices.v[i].kind != kind)
			continue;
		if (found != PT_NONE)
			return PT_NONE;
		found = (uint32_t)i;
	}
	return found;
}

uint32_t pt_model_find_device(const struct pt_model *m, enum pt_device_kind kind, uint32_t id)
{
	for (size_t i = 0; i < m->devices.n; i++)
		if (m->devices.v[i].kind == kind && m->devices.v[i].id == id)
			return (uint32_t)i;
	return PT_NONE;
}

uint32_t pt_model_device(struct pt_model *m, enum pt_device_kind kind, uint32_t id)
{
	uint32_t i = pt_model_find_device(m, kind, id);
	if (i != PT_NONE)
		return i;
	struct pt_device d;
	memset(&d, 0, sizeof(d));
	d.id = id;
	d.kind = kind;
	pt_vec_push(&m->devices, d);
	return (uint32_t)(m->devices.n - 1);
}

static size_t track_hash(uint32_t device, enum pt_track_kind kind, int64_t stream)
{
	return (size_t)pt_hash64((uint64_t)stream * 0x9E3779B97F4A7C15ULL ^ (uint64_t)device << 8 ^ (uint64_t)kind);
}

/* Index m->tracks[x->n, m->tracks.n), keeping the first of equal tracks. */
static void track_index_sync(struct pt_model *m)
{
	struct pt_track_index *x = &m->track_index;
	if (x->n > m->tracks.n) /* tracks are only appended: never, but stay exact */
		x->n = 0, x->cap = 0;
	if (x->n == m->tracks.n)
		return;
	if (m->tracks.n * 2 > x->cap || !x->n) {
		size_t cap = 64;
		while (cap < m->tracks.n * 2 + 2)
			cap *= 2;
		free(x->slot);
		x->slot = pt_xcalloc(cap, sizeof(*x->slot));
		x->cap = cap;
		x->n = 0;
	}
	size_t mask = x->cap - 1;
	for (; x->n < m->tracks.n; x->n++) {
		const struct pt_track *t = &m->tracks.v[x->n];
		size_t i = track_hash(t->device, t->kind, t->stream) & mask;
		for (; x->slot[i]; i = (i + 1) & mask) {
			const struct pt_track *o = &m->tracks.v[x->slot[i] - 1];
			if (o->device == t->device && o->kind == t->kind && o->stream == t->stream)
				break;
		}
		if (!x->slot[i])
			x->slot[i] = (uint32_t)x->n + 1;
	}
}

uint32_t pt_model_track(struct pt_model *m, uint32_t device, enum pt_track_kind kind, int64_t stream,
			const char *name)
{
	track_index_sync(m);
	struct pt_track_index *x = &m->track_index;
	if (x->cap) {
		size_t mask = x->cap - 1;
		for (size_t i = track_hash(device, kind, stream) & mask; x->slot[i]; i = (i + 1) & mask) {
			const struct pt_track *t = &m->tracks.v[x->slot[i] - 1];
			if (t->device == device && t->kind == kind && t->stream == stream)
				return x->slot[i] - 1;
		}
	}
	struct pt_track t = { device, kind, stream, pt_model_str(m, name ? name : "") };
	pt_vec_push(&m->tracks, t);
	return (uint32_t)(m->tracks.n - 1);
}

void pt_model_add_source(struct pt_model *m, const char *path, uint64_t size, const char *importer,
			 int32_t device)
{
	struct pt_source s = { pt_xstrdup(path), size, pt_xstrdup(importer), pt_xstrdup(PT_IMPORTER_VERSION),
			       device };
	pt_vec_push(&m->sources, s);
}

void pt_model_add_clock_offset(struct pt_model *m, uint32_t device, const char *from, const char *to,
			       int64_t offset_ns)
{
	struct pt_clock_offset o = { pt_xstrdup(from), pt_xstrdup(to), offset_ns };
	pt_vec_push(&m->devices.v[device].offsets, o);
}

uint32_t pt_model_add_op(struct pt_model *m, struct pt_op *op)
{
	pt_vec_push(&m->ops, *op);
	memset(&op->tensors, 0, sizeof(op->tensors));
	memset(&op->task_keys, 0, sizeof(op->task_keys));
	return (uint32_t)(m->ops.n - 1);
}

void pt_op_add_tensor(struct pt_op *op, bool output, uint32_t index, uint32_t format, int32_t dtype_code,
		      uint32_t dtype, const int64_t *shape, uint32_t nshape)
{
	struct pt_tensor t = { output, index, format, dtype_code, dtype, NULL, nshape };
	if (nshape) {
		t.shape = pt_xmalloc(nshape * sizeof(*shape));
		memcpy(t.shape, shape, nshape * sizeof(*shape));
	}
	pt_vec_push(&op->tensors, t);
}

void pt_op_add_task_key(struct pt_op *op, const char *key)
{
	for (size_t i = 0; i < op->task_keys.n; i++)
		if (!strcmp(op->task_keys.v[i], key))
			return;
	pt_vec_push(&op->task_keys, pt_xstrdup(key));
}

void pt_model_add_step(struct pt_model *m, struct pt_step *s)
{
	pt_vec_push(&m->steps, *s);
	memset(&s->comm, 0, sizeof(s->comm));
}

/* Grow one event column of ev from ev->cap to cap entries of size bytes. A
 * sparse column (model.h) that still holds only zeros is replaced by fresh
 * zero memory instead of being copied, so its pages are never touched; once
 * dense it grows like the other columns (entries past n are never read
 * before pt_model_add_event stores them). The columns are big blocks
 * (support/xalloc.h): large ones grow without copies. */
static void *column_grow(void *p, const struct pt_events *ev, size_t cap, size_t size, bool keep)
{
	return pt_xbig_grow(p, ev->cap * size, cap * size, keep);
}

void pt_events_free_columns(struct pt_events *ev)
{
	pt_xbig_free(ev->track, ev->cap * sizeof(*ev->track));
	pt_xbig_free(ev->name, ev->cap * sizeof(*ev->name));
	pt_xbig_free(ev->kind, ev->cap * sizeof(*ev->kind));
	pt_xbig_free(ev->start, ev->cap * sizeof(*ev->start));
	pt_xbig_free(ev->dur, ev->cap * sizeof(*ev->dur));
	pt_xbig_free(ev->corr, ev->cap * sizeof(*ev->corr));
	pt_xbig_free(ev->op, ev->cap * sizeof(*ev->op));
	pt_xbig_free(ev->task, ev->cap * sizeof(*ev->task));
}

void pt_events_grow(struct pt_events *ev, size_t need)
{
	if (ev->spill) {
		/* a streaming import: encode the whole batches held, keep the rest */
		need -= pt_ptm_spill_flush(ev);
		if (need <= ev->cap)
			return;
	}
	size_t cap = ev->cap ? ev->cap : 1024;
	while (cap < need)
		cap += cap / 2;
	if (ev->expect >= need && ev->expect / 16 <= need)
		cap = ev->expect; /* no slack past the last event */
	ev->track = column_grow(ev->track, ev, cap, sizeof(*ev->track), true);
	ev->name = column_grow(ev->name, ev, cap, sizeof(*ev->name), true);
	ev->kind = column_grow(ev->kind, ev, cap, sizeof(*ev->kind), true);
	ev->start = column_grow(ev->start, ev, cap, sizeof(*ev->start), true);
	ev->dur = column_grow(ev->dur, ev, cap, sizeof(*ev->dur), true);
	ev->corr = column_grow(ev->corr, ev, cap, sizeof(*ev->corr), ev->dense & PT_EVCOL_CORR);
	ev->op = column_grow(ev->op, ev, cap, sizeof(*ev->op), ev->dense & PT_EVCOL_OP);
	ev->task = column_grow(ev->task, ev, cap, sizeof(*ev->task), ev->dense & PT_EVCOL_TASK);
	ev->cap = cap;
}

void pt_model_add_queue_sample(struct pt_model *m, uint32_t track, int64_t time, int64_t size, int64_t capacity)
{
	struct pt_queue_samples *q = &m->queues;
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		q->track = pt_xrealloc(q->track, cap * sizeof(*q->track));
		q->time = pt_xrealloc(q->time, cap * sizeof(*q->time));
		q->size = pt_xrealloc(q->size, cap * sizeof(*q->size));
		q->capacity = pt_xrealloc(q->capacity, cap * sizeof(*q->capacity));
		q->cap = cap;
	}
	q->track[q->n] = track;
	q->time[q->n] = time;
	q->size[q->n] = size;
	q->capacity[q->n] = capacity;
	q->n++;
}

void pt_model_add_counter_sample(struct pt_model *m, uint32_t track, int64_t time, double value)
{
	struct pt_counter_samples *c = &m->counters;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		c->track = pt_xrealloc(c->track, cap * sizeof(*c->track));
		c->time = pt_xrealloc(c->time, cap * sizeof(*c->time));
		c->value = pt_xrealloc(c->value, cap * sizeof(*c->value));
		c->cap = cap;
	}
	c->track[c->n] = track;
	c->time[c->n] = time;
	c->value[c->n] = value;
	c->n++;
}

void pt_model_add_aicpu(struct pt_model *m, const struct pt_aicpu *a)
{
	pt_vec_push(&m->aicpu, *a);
}

void pt_model_add_md_op(struct pt_model *m, struct pt_md_op *op)
{
	pt_vec_push(&m->md_ops, *op);
	memset(&op->children, 0, sizeof(op->children));
}

void pt_model_add_md_record(struct pt_model *m, const struct pt_md_record *r)
{
	pt_vec_push(&m->md_records, *r);
}

uint32_t pt_model_new_device(struct pt_model *m, struct pt_device *d)
{
	pt_vec_push(&m->devices, *d);
	memset(d, 0, sizeof(*d));
	return (uint32_t)(m->devices.n - 1);
}

uint32_t pt_model_new_track(struct pt_model *m, uint32_t device, enum pt_track_kind kind, int64_t stream,
			    uint32_t name)
{
	struct pt_track t = { device, kind, stream, name };
	pt_vec_push(&m->tracks, t);
	return (uint32_t)(m->tracks.n - 1);
}

struct pt_gpu_link *pt_model_reserve_links(struct pt_model *m, size_t n, void **spare)
{
	if (!m->links.n && !m->links.cap && spare && *spare) {
		m->links.v = pt_xrealloc(*spare, (n ? n : 1) * sizeof(*m->links.v));
		*spare = NULL;
		m->links.cap = n ? n : 1;
	} else {
		pt_vec_reserve(&m->links, m->links.n + (n ? n : 1)); /* never a NULL vector to offset */
	}
	return m->links.v + m->links.n;
}

uint32_t pt_model_add_mem_graph(struct pt_model *m, const struct pt_mem_graph *g)
{
	pt_vec_push(&m->mem_graphs, *g);
	return (uint32_t)(m->mem_graphs.n - 1);
}

uint32_t pt_model_add_mem_node(struct pt_model *m, const struct pt_mem_node *n)
{
	pt_vec_push(&m->mem_nodes, *n);
	return (uint32_t)(m->mem_nodes.n - 1);
}

uint32_t pt_model_add_mem_id(struct pt_model *m, uint64_t id)
{
	pt_vec_push(&m->mem_ids, id);
	return (uint32_t)(m->mem_ids.n - 1);
}

uint32_t pt_model_add_mem_tensor(struct pt_model *m, const struct pt_mem_tensor *t)
{
	pt_vec_push(&m->mem_tensors, *t);
	return (uint32_t)(m->mem_tensors.n - 1);
}

static struct pt_stat *find_stat(const struct pt_model *m, int32_t device, const char *key)
{
	for (size_t i = 0; i < m->stats.n; i++)
		if (m->stats.v[i].device == device && !strcmp(m->stats.v[i].key, key))
			return &m->stats.v[i];
	return NULL;
}

void pt_model_stat_add(struct pt_model *m, int32_t device, const char *key, int64_t delta)
{
	struct pt_stat *s = find_stat(m, device, key);
	if (s) {
		s->value += delta;
		return;
	}
	struct pt_stat n = { device, pt_xstrdup(key), delta };
	pt_vec_push(&m->stats, n);
}

void pt_model_stat_set(struct pt_model *m, int32_t device, const char *key, int64_t value)
{
	struct pt_stat *s = find_stat(m, device, key);
	if (s)
		s->value = value;
	else
		pt_model_stat_add(m, device, key, value);
}

int64_t pt_model_stat_get(const struct pt_model *m, int32_t device, const char *key, int64_t dflt)
{
	struct pt_stat *s = find_stat(m, device, key);
	return s ? s->value : dflt;
}

const char *pt_device_kind_name(enum pt_device_kind k)
{
	static const char *n[] = { "unknown", "npu", "gpu", "cpu" };
	return (unsigned)k < 4 ? n[k] : "unknown";
}

const char *pt_freq_origin_name(enum pt_freq_origin o)
{
	static const char *n[] = { "none", "default", "info.json", "option" };
	return (unsigned)o < 4 ? n[o] : "none";
}

const char *pt_track_kind_name(enum pt_track_kind k)
{
	static const char *n[] = { "unknown", "stream", "aicpu", "host-thread", "queue", "counter" };
	return (unsigned)k < 6 ? n[k] : "unknown";
}

const char *pt_event_kind_name(enum pt_event_kind k)
{
	static const char *n[] = { "unknown", "task", "aicpu", "getnext", "kernel",
				   "memcpy", "memset", "api", "range", "sync" };
	return (unsigned)k < 10 ? n[k] : "unknown";
}

static uint64_t kernel_config_hash(const struct pt_kernel_config *c)
{
	uint32_t w[10];
	_Static_assert(sizeof(*c) == sizeof(w), "struct pt_kernel_config has no padding");
	memcpy(w, c, sizeof(w));
	uint64_t h = 0;
	for (int i = 0; i < 10; i += 2) /* one multiply per word, one full mix at the end */
		h = (h ^ ((uint64_t)w[i] << 32 | w[i + 1])) * 0x9e3779b97f4a7c15ULL;
	return pt_hash64(h);
}

/* Index of c in m->kernel_configs, added when new: open addressing over index + 1, load <= 1/2. */
static uint32_t kernel_config(struct pt_model *m, const struct pt_kernel_config *c)
{
	struct pt_kernel_config *v = m->kernel_configs.v;
	struct pt_kernel_config_index *x = &m->kernel_config_index;
	if (m->kernel_configs.n) { /* kernels often repeat, or alternate */
		if (!memcmp(&v[x->last], c, sizeof(*c)))
			return x->last;
		if (!memcmp(&v[x->prev], c, sizeof(*c))) {
			uint32_t t = x->prev;
			x->prev = x->last;
			return x->last = t;
		}
	}
	if (2 * (m->kernel_configs.n + 1) > x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 64;
		uint32_t *slot = pt_xcalloc(cap, sizeof(*slot));
		for (size_t i = 0; i < m->kernel_configs.n; i++) {
			size_t j = kernel_config_hash(&v[i]) & (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = (uint32_t)i + 1;
		}
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	}
	size_t j = kernel_config_hash(c) & (x->cap - 1);
	for (; x->slot[j]; j = (j + 1) & (x->cap - 1))
		if (!memcmp(&v[x->slot[j] - 1], c, sizeof(*c)))
			break;
	if (!x->slot[j]) {
		pt_vec_push(&m->kernel_configs, *c);
		x->slot[j] = (uint32_t)m->kernel_configs.n;
	}
	x->prev = x->last;
	return x->last = x->slot[j] - 1;
}

void pt_model_add_kernel(struct pt_model *m, uint32_t event, const struct pt_kernel_config *c)
{
	struct pt_kernel_info k = { event, kernel_config(m, c) };
	pt_vec_push(&m->kernels, k);
}

/* The row of a side table in event order (rows of `size` bytes, each starting with its
 * uint32_t event) whose event is `event`, or NULL. */
static const void *row_of_event(const void *v, size_t n, size_t size, uint32_t event)
{
	const char *b = v;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (*(const uint32_t *)(const void *)(b + mid * size) < event)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && *(const uint32_t *)(const void *)(b + lo * size) == event ? b + lo * size : NULL;
}

const struct pt_sync_info *pt_model_sync_info(const struct pt_model *m, uint32_t event)
{
	return row_of_event(m->syncs.v, m->syncs.n, sizeof(*m->syncs.v), event);
}

const struct pt_copy_info *pt_model_copy_info(const struct pt_model *m, uint32_t event)
{
	return row_of_event(m->copies.v, m->copies.n, sizeof(*m->copies.v), event);
}

const struct pt_range_info *pt_model_range_info(const struct pt_model *m, uint32_t event)
{
	return row_of_event(m->ranges.v, m->ranges.n, sizeof(*m->ranges.v), event);
}

const void *pt_model_row_of_event(const void *v, size_t n, size_t size, uint32_t event)
{
	return row_of_event(v, n, size, event);
}

size_t pt_events_corr_range(const struct pt_events *ev, int kind, uint64_t *lo, uint64_t *hi)
{
	size_t n = 0;
	*lo = UINT64_MAX;
	*hi = 0;
	if (!(ev->dense & PT_EVCOL_CORR))
		return 0;
	for (size_t i = 0; i < ev->n; i++) {
		uint64_t c = ev->corr[i];
		if (ev->kind[i] != kind || !c)
			continue;
		n++;
		if (c < *lo)
			*lo = c;
		if (c > *hi)
			*hi = c;
	}
	return n;
}

uint32_t pt_model_event_arg(const struct pt_model *m, uint32_t event, uint32_t key)
{
	size_t lo = 0, hi = m->event_args.n;
	while (lo < hi) { /* the first argument of event */
		size_t mid = lo + (hi - lo) / 2;
		if (m->event_args.v[mid].event < event)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->event_args.n && m->event_args.v[lo].event == event; lo++)
		if (m->event_args.v[lo].key == key)
			return m->event_args.v[lo].value;
	return UINT32_MAX;
}
