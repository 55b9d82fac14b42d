/*
 * The Kineto importer's second half (see import-kineto.c for the dialect): one
 * complete traceEvents element onto the model records the CUPTI importer
 * produces (devices and tracks made as first used, GPU work, API calls and host
 * ranges with the correlation join's records, the event arguments kept), and,
 * after the parse, the file's joins, names, device properties, ranks and stats.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/kineto-internal.h"
#include "support/sort.h"
#include "support/xalloc.h"

/* The model's key of each kept argument (EventArgBatch of proftool-model(5)): Kineto's own. */
static const char *const arg_keys[AK__N] = {
	[AK_DIMS] = "Input Dims",
	[AK_COLL] = "Collective name",
	[AK_DTYPE] = "dtype",
	[AK_IN_NELEMS] = "In msg nelems",
	[AK_OUT_NELEMS] = "Out msg nelems",
	[AK_GROUP_SIZE] = "Group size",
	[AK_PG_NAME] = "Process Group Name",
	[AK_PG_DESC] = "Process Group Description",
	[AK_PG_RANKS] = "Process Group Ranks",
	[AK_IN_SPLIT] = "In split size",
	[AK_OUT_SPLIT] = "Out split size",
	[AK_SEQ] = "Seq",
};

/* ---- model helpers ---------------------------------------------------------------------- */

static uint32_t new_device(struct kt *k, enum pt_device_kind kind, uint32_t id, const char *name)
{
	struct pt_device d;
	memset(&d, 0, sizeof(d));
	d.id = id;
	d.kind = kind;
	d.name = pt_xstrdup(name);
	d.clock = pt_xstrdup("unix");
	d.rank = -1;
	uint32_t di = pt_model_new_device(k->m, &d);
	pt_vec_push(&k->devs, di);
	return di;
}

static uint32_t cpu_device(struct kt *k, int64_t pid)
{
	bool added;
	uint64_t *v = pt_hashmap_put(&k->cpu, (uint64_t)pid, 0, &added);
	if (added) {
		char b[48];
		snprintf(b, sizeof(b), "process %" PRId64, pid);
		*v = new_device(k, PT_DEV_CPU, (uint32_t)pid, b);
		k->m->devices.v[*v].pid = (uint32_t)pid;
		if (k->first_cpu == PT_NONE)
			k->first_cpu = (uint32_t)*v;
	}
	return (uint32_t)*v;
}

static uint32_t gpu_device(struct kt *k, int64_t dev)
{
	bool added;
	uint64_t *v = pt_hashmap_put(&k->gpu, (uint64_t)dev, 0, &added);
	if (added) {
		char b[48];
		snprintf(b, sizeof(b), "GPU %" PRId64, dev);
		*v = new_device(k, PT_DEV_GPU, (uint32_t)dev, b);
	}
	return (uint32_t)*v;
}

static uint32_t track(struct kt *k, uint32_t dev, enum pt_track_kind kind, int64_t stream)
{
	uint64_t key = (uint64_t)dev << 40 | (uint64_t)kind << 36 | ((uint64_t)stream & 0xfffffffffULL);
	int c = kind == PT_TRACK_STREAM; /* host and GPU events interleave: a cache of each */
	if (key == k->last_key[c])
		return k->last_track[c];
	bool added;
	uint64_t *v = pt_hashmap_put(&k->tracks, key, 0, &added);
	if (added) {
		char name[64];
		if (kind == PT_TRACK_STREAM)
			snprintf(name, sizeof(name), stream < 0 ? "device" : "stream %" PRId64, stream);
		else
			snprintf(name, sizeof(name), "thread %" PRId64, stream);
		*v = pt_model_new_track(k->m, dev, kind, stream, pt_model_str(k->m, name));
		if (kind == PT_TRACK_HOST_THREAD)
			pt_vec_push(&k->host_tracks, (uint32_t)*v);
	}
	k->last_key[c] = key;
	k->last_track[c] = (uint32_t)*v;
	return (uint32_t)*v;
}

/* The model string of the event's name; the last name per slot of the hash is remembered (a
 * name that is not, a collision or a slot overwritten, is interned: the same id). */
static uint32_t ev_name(struct kt *k)
{
	/* eight bytes at a time (kernel names run to hundreds of bytes) */
	uint64_t hsh = 1469598103934665603ULL ^ k->ev.nlen;
	size_t i = 0;
	for (; i + 8 <= k->ev.nlen; i += 8) {
		uint64_t w;
		memcpy(&w, k->ev.name + i, 8);
		hsh = (hsh ^ w) * 0x9e3779b97f4a7c15ULL;
		hsh ^= hsh >> 29;
	}
	for (; i < k->ev.nlen; i++)
		hsh = (hsh ^ (unsigned char)k->ev.name[i]) * 1099511628211ULL;
	struct kt_name *slot = &k->names[(hsh ^ hsh >> 32) & (KT_NAME_SLOTS - 1)];
	if (slot->id1 && slot->hash == hsh) {
		uint32_t id = slot->id1 - 1;
		if (pt_strtab_len(&k->m->strings, id) == k->ev.nlen &&
		    !memcmp(pt_model_strget(k->m, id), k->ev.name, k->ev.nlen))
			return id;
	}
	uint32_t id = pt_strtab_intern(&k->m->strings, k->ev.name, k->ev.nlen);
	slot->hash = hsh;
	slot->id1 = id + 1;
	return id;
}

static const char *const copy_kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
static const char *const mem_kinds[] = { "Unknown", "Pageable", "Pinned", "Device",
					 "Array",   "Managed",  "Device Static", "Managed Static" };

static uint8_t find_kind(const char *const *tab, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(tab[i]) == len && !memcmp(tab[i], s, len))
			return (uint8_t)i;
	return 0;
}

/* "Memcpy HtoD (Pageable -> Device)" / "Memset (Device)": CUPTI's kinds back from Kineto's names. */
static void copy_kinds_of(const char *name, bool set, struct pt_copy_info *ci)
{
	const char *p = name + (set ? 6 : 6);
	if (strncmp(name, set ? "Memset" : "Memcpy", 6))
		return;
	while (*p == ' ')
		p++;
	if (!set) {
		const char *sp = strchr(p, ' ');
		size_t l = sp ? (size_t)(sp - p) : strlen(p);
		ci->copy_kind = find_kind(copy_kinds, 11, p, l);
		p += l;
		while (*p == ' ')
			p++;
	}
	if (*p != '(')
		return;
	p++;
	const char *close = strchr(p, ')');
	if (!close)
		return;
	if (set) {
		ci->dst_kind = find_kind(mem_kinds, 8, p, (size_t)(close - p));
		return;
	}
	const char *arrow = strstr(p, " -> ");
	if (!arrow || arrow > close)
		return;
	ci->src_kind = find_kind(mem_kinds, 8, p, (size_t)(arrow - p));
	ci->dst_kind = find_kind(mem_kinds, 8, arrow + 4, (size_t)(close - arrow - 4));
}

static bool is_step_name(const char *s)
{
	if (strncmp(s, "ProfilerStep#", 13) || !s[13])
		return false;
	for (s += 13; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* ---- one event ------------------------------------------------------------------------------ */

static int check_time(struct kt *k, const char *what, enum tstate st)
{
	if (st == T_ABSENT)
		return pt_kt_fail(k, "event %zu: no '%s' at byte %" PRIu64, k->nev, what, k->ev.off);
	if (st == T_BAD)
		return pt_kt_fail(k, "event %zu: '%s' is not a number at byte %" PRIu64, k->nev, what, k->ev.off);
	return pt_kt_fail(k, "event %zu: '%s' out of range at byte %" PRIu64, k->nev, what, k->ev.off);
}

static void metadata(struct kt *k)
{
	struct kev *ev = &k->ev;
	k->n_meta++;
	if (!ev->pid_num || !ev->aname || !ev->alen)
		return;
	uint32_t sid = pt_strtab_intern(&k->m->strings, ev->aname, ev->alen) + 1;
	if (!strcmp(ev->name, "process_name"))
		*pt_hashmap_put(&k->pnames, (uint64_t)ev->pid, 0, NULL) = sid;
	else if (!strcmp(ev->name, "thread_name") && ev->tid_num)
		*pt_hashmap_put(&k->tnames, (uint64_t)ev->pid << 32 ^ (uint32_t)ev->tid, 0, NULL) = sid;
}

/* A call of the first process gave correlation id corr (< 2^28) an External id: its bit, the set grown by doubling. */
static void api_ext_mark(struct kt *k, uint64_t corr)
{
	size_t w = (size_t)(corr / 64);
	if (w >= k->api_ext_words) {
		size_t n = k->api_ext_words ? k->api_ext_words : 64;
		while (n <= w)
			n *= 2;
		k->api_ext = pt_xrealloc(k->api_ext, n * sizeof(*k->api_ext));
		memset(k->api_ext + k->api_ext_words, 0, (n - k->api_ext_words) * sizeof(*k->api_ext));
		k->api_ext_words = n;
	}
	k->api_ext[w] |= (uint64_t)1 << (corr % 64);
}

/* The "cbid" of a runtime or driver call named `name`: into m->api_cbids once (a model of several files: once). */
static void api_cbid(struct kt *k, uint32_t name, uint32_t cbid)
{
	bool added;
	pt_hashmap_put(&k->cbids, (uint64_t)name << 32 | cbid, 1, &added);
	if (!added)
		return;
	struct pt_model *m = k->m;
	for (size_t i = 0; i < m->api_cbids.n; i++)
		if (m->api_cbids.v[i].name == name && m->api_cbids.v[i].cbid == cbid)
			return;
	pt_model_add_api_cbid(m, name, cbid);
}

static void add_arg(struct kt *k, uint32_t evi, enum argkey key, const char *s, size_t n)
{
	if (!k->key_ids[key])
		k->key_ids[key] = pt_model_str(k->m, arg_keys[key]) + 1;
	struct pt_event_arg a = { evi, k->key_ids[key] - 1, pt_strtab_intern(&k->m->strings, s, n) };
	pt_model_add_event_arg(k->m, &a);
	k->n_args++;
}

/* The event's Input Dims (inputs that Input type says are no tensors as []) and collective arguments. */
static void keep_args(struct kt *k, uint32_t evi)
{
	struct kargs *a = &k->ka;
	if (a->has_dims) {
		uint64_t nt = a->has_types ? a->nontensor : 0;
		uint32_t n = a->ndims < KT_MAX_INPUTS ? a->ndims : KT_MAX_INPUTS;
		for (uint32_t i = 0; i < n && nt; i++) {
			if (!(nt >> i & 1) || a->dend[i] - a->dstart[i] == 2)
				continue;
			/* "[2, 3]" of a scalar list: [], as PyTorch's NVTX text writes it */
			size_t cut = a->dend[i] - a->dstart[i] - 2;
			memmove(a->dims + a->dstart[i] + 1, a->dims + a->dend[i] - 1, a->dlen - a->dend[i] + 2);
			a->dlen -= cut;
			for (uint32_t j = i; j < n; j++) {
				a->dstart[j] -= j > i ? (uint32_t)cut : 0;
				a->dend[j] -= (uint32_t)cut;
			}
		}
		add_arg(k, evi, AK_DIMS, a->dims, a->dlen);
	}
	for (uint32_t i = 0; i < a->ncv; i++)
		add_arg(k, evi, (enum argkey)a->cv[i].key, a->text + a->cv[i].off, a->cv[i].len);
}

int pt_kt_event_done(struct kt *k)
{
	struct kev *ev = &k->ev;
	if (ev->name)
		ev->name[ev->nlen] = 0;
	else
		ev->name = pt_xcalloc(1, (ev->ncap = 16));
	if (ev->ph == 'M') {
		metadata(k);
		return 1;
	}
	if (ev->ph == 's' || ev->ph == 'f' || ev->ph == 't' || ev->cat == C_FLOW) {
		k->n_flows++;
		return 1;
	}
	enum cat c = ev->cat;
	if (ev->ph != 'X' || c == C_NONE || c == C_OTHER) {
		k->n_ignored++;
		return 1;
	}
	if (c == C_PYFUNC && !k->pyfunc) {
		k->n_pyfunc++;
		return 1;
	}
	if (c == C_GPU_USER_ANN) {
		k->n_gpu_ann++;
		return 1;
	}
	if (ev->ts_st != T_OK)
		return check_time(k, "ts", ev->ts_st);
	if (ev->dur_st != T_OK)
		return check_time(k, "dur", ev->dur_st);
	int64_t start = ev->ts + k->base, dur = ev->dur;
	if (start > PT_TIME_LIMIT || start < -PT_TIME_LIMIT || start + dur > PT_TIME_LIMIT)
		return pt_kt_fail(k, "event %zu: 'ts' out of range at byte %" PRIu64, k->nev, ev->off);
	if (dur < 0) {
		k->n_neg_dur++;
		pt_diag_warn(k->diag, k->path, "skipped events with a negative 'dur'", PT_POS_OFFSET, ev->off);
		return 1;
	}
	struct pt_model *m = k->m;
	uint32_t evi = (uint32_t)pt_events_total(&m->events);
	uint64_t corr = ev->has[AK_CORR] ? (uint64_t)ev->a[AK_CORR] : 0;
	if (c == C_KERNEL || c == C_MEMCPY || c == C_MEMSET || c == C_SYNC) {
		int64_t dev = ev->has[AK_DEVICE] ? ev->a[AK_DEVICE] : ev->pid_num ? ev->pid : -1;
		if (dev < 0 || dev > UINT32_MAX) {
			k->n_no_device++;
			return 1;
		}
		int64_t stream = ev->has[AK_STREAM] ? ev->a[AK_STREAM] : ev->tid_num ? ev->tid : -1;
		uint32_t gd = gpu_device(k, dev);
		uint32_t t = track(k, gd, PT_TRACK_STREAM, stream);
		uint32_t name = ev_name(k);
		if (c == C_KERNEL) {
			pt_model_add_event(m, t, name, PT_EV_KERNEL, start, dur, corr, PT_NONE, 0);
			struct pt_kernel_config kc;
			memset(&kc, 0, sizeof(kc));
			for (int i = 0; i < 3; i++) {
				kc.grid[i] = i < (int)ev->ngrid ? ev->grid[i] : 0;
				kc.block[i] = i < (int)ev->nblock ? ev->block[i] : 0;
			}
			kc.registers = ev->has[AK_REGS] ? (uint32_t)ev->a[AK_REGS] : 0;
			kc.static_smem = ev->has[AK_SMEM] ? (int32_t)ev->a[AK_SMEM] : 0;
			pt_model_add_kernel(m, evi, &kc);
			pt_cjoin_activity(k->join, evi, start, (uint32_t)corr, 0, true);
		} else if (c == C_SYNC) {
			pt_model_add_event(m, t, name, PT_EV_SYNC, start, dur, corr, PT_NONE, 0);
			static const char *const names[] = { "Unknown Sync", "Event Sync", "Stream Wait Event",
							     "Stream Sync", "Context Sync" };
			uint32_t ty = 0;
			const char *kind = ev->aname && ev->alen ? ev->aname : ev->name;
			for (uint32_t i = 0; i < 5; i++)
				if (!strcmp(kind, names[i]))
					ty = i;
			struct pt_sync_info si = { evi, ty, ev->has[AK_WAIT_EVENT] ? ev->a[AK_WAIT_EVENT] : -1,
						   ev->has[AK_WAIT_STREAM] ? ev->a[AK_WAIT_STREAM] : -1,
						   ev->has[AK_WAIT_CORR] ? ev->a[AK_WAIT_CORR] : -1 };
			pt_model_add_sync(m, &si);
			pt_cjoin_activity(k->join, evi, start, (uint32_t)corr, 0, false);
		} else {
			bool set = c == C_MEMSET;
			struct pt_copy_info ci = { evi, 0, 0, 0, ev->has[AK_BYTES] ? (uint64_t)ev->a[AK_BYTES] : 0, -1, -1 };
			copy_kinds_of(ev->name, set, &ci);
			if (ev->has[AK_FROMDEV])
				ci.src_device = (int32_t)ev->a[AK_FROMDEV];
			if (ev->has[AK_TODEV])
				ci.dst_device = (int32_t)ev->a[AK_TODEV];
			pt_model_add_event(m, t, name, set ? PT_EV_MEMSET : PT_EV_MEMCPY, start, dur, corr, PT_NONE, 0);
			pt_model_add_copy(m, &ci);
			pt_cjoin_activity(k->join, evi, start, (uint32_t)corr, 0, false);
		}
		/* an External id that no earlier call gave its correlation id (kept until finish, which drops those
		 * that a later call gives) */
		if (ev->has[AK_EXTID] && corr && !(corr < (uint64_t)k->api_ext_words * 64 &&
						   (k->api_ext[corr / 64] >> (corr % 64) & 1))) {
			struct kt_gext x = { corr, (uint64_t)ev->a[AK_EXTID] };
			pt_vec_push(&k->gpu_ext, x);
		}
		if (k->ka.has_dims || k->ka.ncv)
			keep_args(k, evi);
		k->n_imported++;
		return 1;
	}
	/* host events */
	if (!ev->pid_num || !ev->tid_num) {
		k->n_no_pid++;
		return 1;
	}
	uint32_t cd = cpu_device(k, ev->pid);
	uint32_t t = track(k, cd, PT_TRACK_HOST_THREAD, ev->tid);
	uint32_t name = ev_name(k);
	/* the GPU devices belong to the first process (finish); another process's calls and
	 * ranges are kept but never joined to GPU work, which a model's links may not cross */
	bool joins = cd == k->first_cpu;
	k->n_unjoined += !joins;
	if (c == C_RUNTIME || c == C_DRIVER) {
		pt_model_add_event(m, t, name, PT_EV_API, start, dur, corr, PT_NONE, 0);
		if (joins)
			pt_cjoin_call(k->join, c == C_DRIVER, (uint32_t)corr, evi, t, start);
		if (ev->has[AK_EXTID] && corr) {
			struct pt_ext_corr x = { cd, 3, corr, (uint64_t)ev->a[AK_EXTID] };
			pt_model_add_ext_corr(m, &x);
			if (joins && corr < ((uint64_t)1 << 28))
				api_ext_mark(k, corr);
		}
		if (ev->has[AK_CBID] && ev->a[AK_CBID] >= 0 && ev->a[AK_CBID] <= UINT32_MAX)
			api_cbid(k, name, (uint32_t)ev->a[AK_CBID]);
	} else { /* cpu_op, user_annotation, python_function */
		pt_model_add_event(m, t, name, PT_EV_RANGE, start, dur, 0, PT_NONE, 0);
		bool coll = false; /* a collective call (record_param_comms, nccl:all_reduce, ...) */
		for (uint32_t i = 0; i < k->ka.ncv; i++)
			coll |= k->ka.cv[i].key == AK_COLL;
		static const char *const types[KT_NTYPES] = { "PythonOp", "Communication", "Operator", "ProfileStep",
							      "UserRange" };
		int ty = c == C_PYFUNC ? 0 : coll ? 1 : c == C_CPU_OP ? 2 : is_step_name(ev->name) ? 3 : 4;
		if (!k->type_ids[ty]) /* interned once a file */
			k->type_ids[ty] = pt_model_str(m, types[ty]) + 1;
		struct pt_range_info ri = { evi, k->type_ids[ty] - 1, 0, 0, 0,
					    ev->has[AK_EXTID] ? (uint64_t)ev->a[AK_EXTID] : 0, 0 };
		pt_model_add_range(m, &ri);
		/* Python functions enclose the operators that launch GPU work: GPU work joins the
		 * operators and annotations alone, with or without them */
		struct pt_cjoin_range r = { start, start + dur, t, evi, true, false };
		if (joins && c != C_PYFUNC)
			pt_vec_push(&k->ranges, r);
	}
	if (k->ka.has_dims || k->ka.ncv)
		keep_args(k, evi);
	k->n_imported++;
	return 1;
}

/* ---- the end of a file ---------------------------------------------------------------------------- */

static int cmp_range(const void *a, const void *b)
{
	const struct pt_cjoin_range *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* longer first: the shorter one is inner */
	return x->event < y->event ? -1 : x->event > y->event;
}

/* Whether the ranges are in cmp_range's order already (a trace written in time order: a sort
 * there costs as much as on any other order). */
static bool ranges_sorted(const struct pt_cjoin_range *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (cmp_range(&v[i - 1], &v[i]) > 0)
			return false;
	return true;
}

/*
 * The External ids of GPU events whose correlation id no call of this file gave one (a trace without those
 * calls): external correlations of the first process, as its calls' are, so that the GPU events keep them.
 */
static void gpu_external_ids(struct kt *k)
{
	struct pt_model *m = k->m;
	if (!k->gpu_ext.n || k->first_cpu == PT_NONE) {
		pt_vec_free(&k->gpu_ext);
		free(k->api_ext);
		k->api_ext = NULL;
		k->api_ext_words = 0;
		return;
	}
	/* the GPU events' correlation ids (the first entry of each), then those a call of the file gave an id */
	struct pt_hashmap want;
	pt_hashmap_init(&want);
	pt_hashmap_reserve(&want, k->gpu_ext.n);
	for (size_t i = 0; i < k->gpu_ext.n; i++) {
		bool added;
		pt_hashmap_put(&want, k->gpu_ext.v[i].corr, i + 1, &added);
	}
	for (size_t i = k->ext0; i < m->ext_corr.n; i++)
		if (m->ext_corr.v[i].device == k->first_cpu && m->ext_corr.v[i].kind == 3) {
			uint64_t *v = pt_hashmap_get(&want, m->ext_corr.v[i].corr);
			if (v)
				*v = 0;
		}
	for (size_t i = 0; i < k->gpu_ext.n; i++) {
		uint64_t *v = pt_hashmap_get(&want, k->gpu_ext.v[i].corr);
		if (!v || *v != i + 1)
			continue;
		struct pt_ext_corr x = { k->first_cpu, 3, k->gpu_ext.v[i].corr, k->gpu_ext.v[i].id };
		pt_model_add_ext_corr(m, &x);
	}
	pt_hashmap_free(&want);
	pt_vec_free(&k->gpu_ext);
	free(k->api_ext);
	k->api_ext = NULL;
	k->api_ext_words = 0;
}

const char *const pt_kt_lim_keys[KT_NLIM] = { "maxThreadsPerBlock", "maxThreadsPerMultiprocessor", "warpSize",
					       "regsPerBlock", "regsPerMultiprocessor", "sharedMemPerBlock",
					       "sharedMemPerMultiprocessor", "sharedMemPerBlockOptin" };

/* A deviceProperties entry's GPU limits (pt_kt_lim_keys order); a value out of range is unknown (0). */
static void kt_limits(const struct prop *p, struct pt_gpu_limits *l)
{
	uint32_t *u32[5] = { &l->max_threads_per_block, &l->max_threads_per_sm, &l->warp_size, &l->regs_per_block,
			     &l->regs_per_sm };
	uint64_t *u64[3] = { &l->smem_per_block, &l->smem_per_sm, &l->smem_per_block_optin };
	for (int i = 0; i < 5; i++)
		*u32[i] = p->lim[i] > 0 && p->lim[i] <= UINT32_MAX ? (uint32_t)p->lim[i] : 0;
	for (int i = 0; i < 3; i++)
		*u64[i] = p->lim[5 + i] > 0 ? (uint64_t)p->lim[5 + i] : 0;
}

void pt_kt_finish(struct kt *k, uint64_t size)
{
	struct pt_model *m = k->m;
	if (!ranges_sorted(k->ranges.v, k->ranges.n))
		pt_sort(k->ranges.v, k->ranges.n, sizeof(*k->ranges.v), cmp_range);
	struct pt_cjoin_stats js;
	pt_cjoin_finish(k->join, k->ranges.v, k->ranges.n, &js);
	/* names of threads and processes */
	for (size_t i = 0; i < k->host_tracks.n; i++) {
		struct pt_track *t = &m->tracks.v[k->host_tracks.v[i]];
		uint32_t pid = m->devices.v[t->device].pid;
		uint64_t *v = pt_hashmap_get(&k->tnames, (uint64_t)pid << 32 ^ (uint32_t)t->stream);
		if (v)
			t->name = (uint32_t)(*v - 1);
	}
	uint32_t host_pid = k->first_cpu != PT_NONE ? m->devices.v[k->first_cpu].pid : 0;
	for (size_t i = 0; i < k->devs.n; i++) {
		struct pt_device *d = &m->devices.v[k->devs.v[i]];
		d->rank = k->rank >= 0 && k->rank <= INT32_MAX ? (int32_t)k->rank : -1;
		if (k->backend && *k->backend) {
			free(d->comm_backend);
			d->comm_backend = pt_xstrdup(k->backend);
		}
		if (k->world > 0 && k->world <= INT32_MAX)
			d->world_size = (int32_t)k->world;
		if (d->kind == PT_DEV_CPU) {
			uint64_t *v = pt_hashmap_get(&k->pnames, d->pid);
			if (v) {
				free(d->name);
				d->name = pt_xstrdup(pt_model_strget(m, (uint32_t)(*v - 1)));
			}
			continue;
		}
		d->pid = host_pid;
		for (size_t j = 0; j < k->props.n; j++) {
			const struct prop *p = &k->props.v[j];
			if (p->id != (int64_t)d->id)
				continue;
			if (p->name) {
				free(d->name);
				d->name = pt_xstrdup(p->name);
			}
			d->mem_bytes = p->mem > 0 ? (uint64_t)p->mem : 0;
			d->sm_count = p->sms > 0 && p->sms <= UINT32_MAX ? (uint32_t)p->sms : 0;
			d->cc_major = p->ccmaj > 0 && p->ccmaj <= UINT32_MAX ? (uint32_t)p->ccmaj : 0;
			d->cc_minor = p->ccmin > 0 && p->ccmin <= UINT32_MAX ? (uint32_t)p->ccmin : 0;
			kt_limits(p, &d->lim);
		}
	}
	int32_t sd = k->first_cpu != PT_NONE ? (int32_t)k->first_cpu : -1;
	gpu_external_ids(k);
	pt_model_add_source(m, k->path, size, "kineto", sd);
	const struct { const char *key; uint64_t v; } s[] = {
		{ "kineto.events", k->nev },
		{ "kineto.imported_events", k->n_imported },
		{ "kineto.metadata_events", k->n_meta },
		{ "kineto.flow_events", k->n_flows },
		{ "kineto.event_args", k->n_args },
		{ "kineto.ignored_events", k->n_ignored },
		{ "kineto.python_functions_skipped", k->n_pyfunc },
		{ "kineto.gpu_user_annotations_skipped", k->n_gpu_ann },
		{ "kineto.negative_durations", k->n_neg_dur },
		{ "kineto.host_events_without_pid", k->n_no_pid },
		{ "kineto.host_events_of_other_processes_not_joined", k->n_unjoined },
		{ "kineto.gpu_events_without_device", k->n_no_device },
		{ "kineto.gpu_before_api", js.gpu_before_api },
		{ "kineto.gpu_without_api", js.gpu_without_api },
		{ "kineto.kernels_without_launch", js.kernels_without_launch },
		{ "kineto.correlation_duplicates", js.corr_dup },
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i].v || i < 2)
			pt_model_stat_set(m, sd, s[i].key, (int64_t)s[i].v);
	if (k->world > 0)
		pt_model_stat_set(m, sd, "kineto.world_size", k->world);
}
