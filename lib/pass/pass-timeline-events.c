/*
 * The timeline trace's events (table/trace.h): the k-way merge of the rows,
 * counters and flows into output order (ts, ph, pid, tid), and each event's
 * category, name and arguments in the viewer or kineto profile
 * (chrome-trace.md §4, §11; cupti.md §7.3, §7.4), read from the model one
 * event at a time.
 */
#include "pass/pass-timeline-trace.h"

#include <demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass/kernel-occupancy.h"
#include "support/fmt.h"
#include "support/names.h"
#include "support/sort.h"
#include "support/xalloc.h"

/* ------------------------------------------------------------------ names */

enum { NF_DONE = 1, NF_SLASH = 2, NF_DEMANGLED = 4, NF_API = 8 };

enum {
	/* viewer */
	C_KERNEL, C_AICPU, C_GETNEXT, C_MEMCPY, C_MEMSET, C_RUNTIME, C_USERRANGE, C_SYNC, C_EVENT, C_STEP, C_UNNAMED,
	C_REDUCE, C_SCOPE, C_OVERLAP, C_FLOW,
	/* kineto */
	K_KERNEL, K_MEMCPY, K_MEMSET, K_DRIVER, K_RUNTIME, K_SYNC, K_USER, K_GPU_USER, K_AC2G, K_CPU_OP, C_N
};
static const char *const cat_names[C_N] = {
	"Kernel",	"AICPU",      "GetNext",     "Memcpy",	     "Memset",	    "Runtime",	       "UserRange",
	"Sync",		"Event",      "Step",	     "UnnamedTask",  "Reduce",	    "Scope",	       "Overlap",
	"flow",		"kernel",     "gpu_memcpy",  "gpu_memset",   "cuda_driver", "cuda_runtime",    "cuda_sync",
	"user_annotation", "gpu_user_annotation", "ac2g", "cpu_op",
};

#define LIT(lit) ((struct pt_trace_str){ (lit), sizeof(lit) - 1, PT_TRACE_PLAIN })

/* The key of (id, mode): a mode's keys one after the other (the writer's table of what it made of each key
 * is then touched in the modes given alone, most strings being given in one). */
static inline uint32_t name_key(const struct tl_trace *c, uint32_t id, int mode)
{
	return (uint32_t)mode * (uint32_t)c->m->strings.n + id + 1;
}

/* name_of's first use of (id, mode): the name made and kept. */
static __attribute__((noinline)) struct pt_trace_str name_make(struct tl_trace *c, uint32_t id, int mode)
{
	if (!c->names[mode])
		c->names[mode] = pt_xcalloc(c->m->strings.n ? c->m->strings.n : 1, sizeof(struct dname));
	struct dname *d = &c->names[mode][id];
	if (!d->s) {
		const char *s = tl_str(c, id);
		size_t n = strlen(s);
		if (mode == NM_DEMANGLE && c->o.demangle && s[0] == '_' && s[1] == 'Z') {
			char *dm = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
			if (dm) {
				if (!c->demangled)
					c->demangled = pt_xcalloc(c->m->strings.n ? c->m->strings.n : 1, sizeof(char *));
				c->demangled[id] = dm;
				s = dm;
				n = strlen(dm);
			}
		} else if (mode == NM_API) {
			n = pt_api_name_len(s, n);
		} else if (mode == NM_LAST) {
			const char *sl = strrchr(s, '/');
			if (sl && sl[1]) {
				n -= (size_t)(sl + 1 - s);
				s = sl + 1;
			}
		}
		d->s = s;
		d->n = (uint32_t)n;
	}
	return (struct pt_trace_str){ d->s, d->n, name_key(c, id, mode) };
}

/* Does string id read otherwise in mode (NM_DEMANGLE, NM_API)? Worked out without making the name where it
 * is plain: a mode's names are made for the strings that read otherwise in it alone (a name made for each
 * string id in each mode held 16 bytes an id and mode, whose ids are mostly the step ranges' names). */
static bool name_differs(struct tl_trace *c, uint32_t id, int mode)
{
	const char *s = tl_str(c, id);
	if (mode == NM_DEMANGLE && !(c->o.demangle && s[0] == '_' && s[1] == 'Z'))
		return false;
	size_t n = strlen(s);
	if (mode == NM_API)
		return pt_api_name_len(s, n) != n;
	struct pt_trace_str a = name_make(c, id, mode);
	return a.n != n || memcmp(a.s, s, n);
}

/* name_flags the first time for id. */
static __attribute__((noinline)) uint8_t name_flags_make(struct tl_trace *c, uint32_t id)
{
	uint8_t f = NF_DONE;
	if (strchr(tl_str(c, id), '/'))
		f |= NF_SLASH;
	if (name_differs(c, id, NM_DEMANGLE))
		f |= NF_DEMANGLED;
	if (name_differs(c, id, NM_API))
		f |= NF_API;
	c->nflags[id] = f;
	return f;
}

/* Facts about a string id, computed once: it holds a '/'; its demangled / API form differs. */
static inline uint8_t name_flags(struct tl_trace *c, uint32_t id)
{
	uint8_t f = c->nflags[id];
	return f ? f : name_flags_make(c, id);
}

/* Name of string id in the given mode (NM_*), made once; its key is unique to (id, mode), and a mode in
 * which the string reads as it is gives its NM_RAW name (one name and one text in the writer, not one a
 * mode). Inline: once per event. */
static inline struct pt_trace_str name_of(struct tl_trace *c, uint32_t id, int mode)
{
	if (mode != NM_RAW) {
		uint8_t f = name_flags(c, id);
		if (!(f & (mode == NM_DEMANGLE ? NF_DEMANGLED : mode == NM_API ? NF_API : NF_SLASH)))
			mode = NM_RAW;
	}
	const struct dname *d = c->names[mode] ? &c->names[mode][id] : NULL;
	if (d && d->s)
		return (struct pt_trace_str){ d->s, d->n, name_key(c, id, mode) };
	return name_make(c, id, mode);
}

static void shapes(struct tl_trace *c, const struct pt_op *op, bool output)
{
	bool first = true;
	for (size_t i = 0; i < op->tensors.n; i++) {
		const struct pt_tensor *t = &op->tensors.v[i];
		if (t->output != output)
			continue;
		if (!first)
			pt_vec_push(&c->shapetext, ';');
		first = false;
		pt_vec_push(&c->shapetext, '[');
		for (uint32_t k = 0; k < t->nshape; k++) {
			char b[24];
			if (k)
				pt_vec_push(&c->shapetext, ',');
			size_t n = (size_t)snprintf(b, sizeof(b), "%lld", (long long)t->shape[k]);
			for (size_t j = 0; j < n; j++)
				pt_vec_push(&c->shapetext, b[j]);
		}
		pt_vec_push(&c->shapetext, ']');
	}
}

/* ------------------------------------------------------------------ arguments */

static inline struct pt_trace_arg *arg(struct pt_trace_ev *ev, struct pt_trace_str k, uint8_t type)
{
	struct pt_trace_arg *a = &ev->a[ev->nargs++];
	a->k = k;
	a->kesc = false;
	a->type = type;
	return a;
}

/* An argument with a plain key, kept in PT_TRACE_KEY_ROOM bytes (table/trace.h) */
#define ARG(ev, lit, type, field, val)                                                                       \
	do {                                                                                                  \
		static const char k_[PT_TRACE_KEY_ROOM] = lit;                                                \
		arg((ev), (struct pt_trace_str){ k_, sizeof(lit) - 1, PT_TRACE_PLAIN }, (type))->v.field = (val); \
	} while (0)
#define ARG_I64(ev, lit, val) ARG(ev, lit, PT_TA_I64, i, (int64_t)(val))
#define ARG_U64(ev, lit, val) ARG(ev, lit, PT_TA_U64, u, (uint64_t)(val))
#define ARG_STR(ev, lit, val) ARG(ev, lit, PT_TA_STR, s, val)

/* The key of op's argument group (after the texts' keys). */
static inline uint32_t op_gkey(const struct tl_trace *c, uint32_t op)
{
	return (uint32_t)(c->m->strings.n * NM_N + 2 * c->m->ops.n) + op + 1;
}

/* "full_name", "op_type", "input_shapes", "output_shapes", "block_dim" of an op */
static __attribute__((noinline)) void op_args_make(struct tl_trace *c, struct pt_trace_ev *ev, uint32_t op)
{
	const struct pt_op *p = &c->m->ops.v[op];
	uint8_t a0 = ev->nargs;
	if (!a0) { /* the same arguments for every event of the op: a group, given once after each rewind */
		ev->gkey = op_gkey(c, op);
		if (c->op_given[op])
			return;
		c->op_given[op] = 1;
	}
	ARG_STR(ev, "full_name", name_of(c, p->name, NM_RAW));
	if (p->type)
		ARG_STR(ev, "op_type", name_of(c, p->type, NM_RAW));
	if (p->tensors.n) {
		struct opshape *sh = &c->opshapes[op];
		if (!sh->made) {
			sh->in_off = (uint32_t)c->shapetext.n;
			shapes(c, p, false);
			sh->in_len = (uint32_t)(c->shapetext.n - sh->in_off);
			sh->out_off = (uint32_t)c->shapetext.n;
			shapes(c, p, true);
			sh->out_len = (uint32_t)(c->shapetext.n - sh->out_off);
			sh->made = true;
		}
		uint32_t k0 = (uint32_t)c->m->strings.n * NM_N + 2 * op + 1;
		const char *t = c->shapetext.v ? c->shapetext.v : "";
		ARG_STR(ev, "input_shapes", ((struct pt_trace_str){ t + sh->in_off, sh->in_len, k0 }));
		ARG_STR(ev, "output_shapes", ((struct pt_trace_str){ t + sh->out_off, sh->out_len, k0 + 1 }));
	}
	if (p->block_dim)
		ARG_U64(ev, "block_dim", p->block_dim);
	if (!a0)
		ev->gn = ev->nargs;
}

/* op_args, inline for the usual case: the group given before (its key alone). */
static inline void op_args(struct tl_trace *c, struct pt_trace_ev *ev, uint32_t op)
{
	if (!ev->nargs && c->op_given[op]) {
		ev->gkey = op_gkey(c, op);
		return;
	}
	op_args_make(c, ev, op);
}

/* Event Sync and Stream Wait Event: what they waited for (cupti.md §6.7, Kineto's keys; -1 unknown). */
static void sync_args(const struct tl_trace *c, struct pt_trace_ev *ev, uint32_t i)
{
	const struct pt_sync_info *si = pt_model_sync_info(c->m, i);
	if (!si || (si->type != 1 && si->type != 2))
		return;
	ARG_I64(ev, "wait_on_stream", si->wait_stream);
	ARG_I64(ev, "wait_on_cuda_event_record_corr_id", si->wait_corr);
	ARG_I64(ev, "wait_on_cuda_event_id", si->cuda_event_id);
}

static struct pt_trace_str built(struct tl_trace *c, int n)
{
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(c->built))
		n = (int)sizeof(c->built) - 1;
	return (struct pt_trace_str){ c->built, (uint32_t)n, PT_TRACE_PLAIN };
}

/* ------------------------------------------------------------------ events */

static int ev_cat(uint8_t k)
{
	switch (k) {
	case PT_EV_TASK:
	case PT_EV_KERNEL:
		return C_KERNEL;
	case PT_EV_AICPU:
		return C_AICPU;
	case PT_EV_GETNEXT:
		return C_GETNEXT;
	case PT_EV_MEMCPY:
		return C_MEMCPY;
	case PT_EV_MEMSET:
		return C_MEMSET;
	case PT_EV_API:
		return C_RUNTIME;
	case PT_EV_RANGE:
		return C_USERRANGE;
	case PT_EV_SYNC:
		return C_SYNC;
	default:
		return C_EVENT;
	}
}

static bool api_is_driver(const char *n)
{
	return (!strncmp(n, "cu", 2) && strncmp(n, "cuda", 4)) || !strncmp(n, "<driver", 7) || !strncmp(n, "<internal", 9);
}

static const char *const copy_kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
static const char *const mem_kinds[] = { "Unknown", "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
					 "Managed Static" };

static const char *mem_kind(uint8_t k)
{
	return k < sizeof(mem_kinds) / sizeof(mem_kinds[0]) ? mem_kinds[k] : "Unrecognized";
}

/* The correlation an Ascend task carries in the kineto profile: its step's (see slice_event). */
static uint32_t task_step_corr(const struct tl_trace *c, const struct row *r, const struct tl_sev *v)
{
	uint32_t st = v->step;
	if (st || !c->step_first[r->dev])
		return st;
	/* outside every step: the nearest one, the first before it starts, else the last */
	const struct pt_tl_device *td = &c->tl->dev[r->dev];
	return v->start < td->steps.s.v[0].start ? c->step_first[r->dev] : c->step_last[r->dev];
}

/* A kernel configuration's per-SM arguments on the device it last ran on (kineto). */
struct tl_ksm {
	uint32_t dev1; /* device index + 1, 0 = not made */
	struct pt_kernel_sm sm;
};

/* The per-SM arguments of kernel configuration k on device d, made once per (configuration, device). */
static const struct pt_kernel_sm *kernel_sm(struct tl_trace *c, uint32_t k, uint32_t d)
{
	const struct pt_model *m = c->m;
	if (!c->ksm)
		c->ksm = pt_xcalloc(m->kernel_configs.n ? m->kernel_configs.n : 1, sizeof(*c->ksm));
	struct tl_ksm *x = &c->ksm[k];
	if (x->dev1 != d + 1) {
		pt_kernel_sm_of(&m->devices.v[d], &m->kernel_configs.v[k], &x->sm);
		x->dev1 = d + 1;
	}
	return &x->sm;
}

/* "grid" and "block": [x, y, z] each (both profiles) */
static void grid_block_args(struct pt_trace_ev *out, const struct pt_kernel_config *kc)
{
	static const char kgrid[PT_TRACE_KEY_ROOM] = "grid", kblock[PT_TRACE_KEY_ROOM] = "block";
	struct pt_trace_arg *a = arg(out, (struct pt_trace_str){ kgrid, 4, PT_TRACE_PLAIN }, PT_TA_I64_3);
	for (int d = 0; d < 3; d++)
		a->v.v3[d] = kc->grid[d];
	a = arg(out, (struct pt_trace_str){ kblock, 5, PT_TRACE_PLAIN }, PT_TA_I64_3);
	for (int d = 0; d < 3; d++)
		a->v.v3[d] = kc->block[d];
}

/*
 * One model event in the kineto dialect (cupti.md §7.3, §7.4): Kineto's
 * categories and names; device events carry "device", "stream" and
 * "correlation", host events no "stream" (HTA tells device rows by it).
 * v: its fields, i its index in the model (its side tables' key: a streamed
 * event's v->ev).
 */
static void track_event_kineto(struct tl_trace *c, const struct row *r, const struct tl_sev *v, uint32_t i,
			       struct pt_trace_ev *out)
{
	const struct pt_model *m = c->m;
	const struct pt_track *tr = &m->tracks.v[r->track];
	uint8_t k = v->kind;
	uint32_t name = v->name;
	bool task = k == PT_EV_TASK || k == PT_EV_AICPU;
	struct pt_copy_info cv;
	const struct pt_copy_info *ci = k != PT_EV_MEMCPY && k != PT_EV_MEMSET ? NULL :
					c->copy_of ? (c->copy_of[i] ? &m->copies.v[c->copy_of[i] - 1] : NULL) :
					c->tl->gstream ? tl_kext_copy_sev(v, &cv) :
							 pt_model_copy_info(m, i);
	switch (k) {
	case PT_EV_TASK:
	case PT_EV_AICPU:
	case PT_EV_KERNEL:
		out->cat = K_KERNEL;
		break;
	case PT_EV_MEMCPY:
		out->cat = K_MEMCPY;
		break;
	case PT_EV_MEMSET:
		out->cat = K_MEMSET;
		break;
	case PT_EV_API:
		out->cat = api_is_driver(tl_str(c, name)) ? K_DRIVER : K_RUNTIME;
		break;
	case PT_EV_SYNC:
		out->cat = K_SYNC;
		break;
	default: /* host ranges: Operator ranges are cpu_op, the others user_annotation (chrome-trace.md §11) */
		out->cat = !r->host ? K_GPU_USER : k == PT_EV_RANGE && tl_kext_cpu_op(c, v, i) ? K_CPU_OP : K_USER;
	}
	{ /* "External id" first (cupti.md §7.4) */
		uint64_t xid;
		if (k == PT_EV_RANGE ? tl_kext_range_id(c, r->dev, v, i, &xid) :
				       !task && tl_kext_external_id_of(c, r->dev, k, v->corr, i, &xid))
			ARG_U64(out, "External id", xid);
	}
	if (task) {
		if (name)
			out->name = name_of(c, name, NM_LAST);
		else
			out->name = built(c, snprintf(c->built, sizeof(c->built), "task %lld_%llu", (long long)tr->stream,
						      (unsigned long long)v->task));
	} else if (k == PT_EV_KERNEL) {
		out->name = name_of(c, name, NM_DEMANGLE);
	} else if (k == PT_EV_API) {
		out->name = name_of(c, name, NM_API);
	} else if (k == PT_EV_MEMCPY) {
		uint8_t ck = ci ? ci->copy_kind : 0;
		out->name = built(c, snprintf(c->built, sizeof(c->built), "Memcpy %s (%s -> %s)",
					      copy_kinds[ck < sizeof(copy_kinds) / sizeof(copy_kinds[0]) ? ck : 0],
					      mem_kind(ci ? ci->src_kind : 0), mem_kind(ci ? ci->dst_kind : 0)));
	} else if (k == PT_EV_MEMSET) {
		out->name = built(c, snprintf(c->built, sizeof(c->built), "Memset (%s)", mem_kind(ci ? ci->dst_kind : 0)));
	} else if (k == PT_EV_RANGE && (v->keep & 2) && strncmp(tl_str(c, name), "ProfilerStep#", 13)) {
		/* HTA finds steps by name */
		out->name = built(c, snprintf(c->built, sizeof(c->built), "ProfilerStep#%u", v->step));
	} else {
		out->name = name_of(c, name, NM_RAW);
	}
	uint64_t corr = task ? task_step_corr(c, r, v) : c->has_corr ? v->corr : 0;
	uint32_t cbid;
	if (k == PT_EV_API && tl_kext_cbid(c, name, &cbid))
		ARG_U64(out, "cbid", cbid);
	if (!r->host) {
		ARG_I64(out, "device", m->devices.v[r->dev].id);
		/* a stream row: its stream id as recorded (CUPTI's invalid stream of a context-wide
		 * sync is 4294967295, as current Kineto prints it, and HTA counts it as GPU work; a
		 * Kineto trace's own -1 stays -1, a host row to HTA, as in that trace); a device row
		 * without a stream id (Ascend AI CPU): the row's tid, so that HTA counts its tasks as
		 * device work */
		ARG_I64(out, "stream", tr->kind != PT_TRACK_STREAM ? (int64_t)r->tid : tr->stream);
		ARG_U64(out, "correlation", corr);
	} else if (corr) {
		ARG_U64(out, "correlation", corr);
	}
	if (task)
		ARG_U64(out, "task_id", v->task);
	if (k == PT_EV_KERNEL && v->kconf && v->kconf <= m->kernel_configs.n) { /* Kineto's launch keys (cupti.md §7.4) */
		const struct pt_kernel_config *kc = &m->kernel_configs.v[v->kconf - 1];
		ARG_U64(out, "registers per thread", kc->registers);
		ARG_I64(out, "shared memory", (int64_t)kc->static_smem + kc->dynamic_smem);
		const struct pt_kernel_sm *sm = kernel_sm(c, v->kconf - 1, r->dev);
		if (sm->per_sm) {
			ARG(out, "blocks per SM", PT_TA_F6, d, (double)sm->blocks_per_sm);
			ARG(out, "warps per SM", PT_TA_F6, d, (double)sm->warps_per_sm);
		}
		grid_block_args(out, kc);
		if (sm->has_occupancy)
			ARG_I64(out, "est. achieved occupancy %", sm->occupancy_pct);
		if (kc->graph_id)
			ARG_U64(out, "graph id", kc->graph_id);
	}
	if (ci && ci->bytes)
		ARG_U64(out, "bytes", ci->bytes);
	if (k == PT_EV_SYNC)
		sync_args(c, out, i);
	if (task && v->op)
		op_args(c, out, v->op - 1);
}

/* The row's group of arguments starts here: true when they are to be given (the first time after a rewind). */
static bool row_group(struct tl_trace *c, const struct row *r, struct pt_trace_ev *out)
{
	uint32_t ri = (uint32_t)(r - c->rows.v);
	out->rkey = (uint32_t)(c->m->strings.n * NM_N + 3 * c->m->ops.n) + ri + 1;
	out->rat = out->nargs;
	if (c->row_given[ri])
		return false;
	c->row_given[ri] = 1;
	return true;
}

/* The configuration (+ 1, 0 none) of kernel event i of a model read whole: m->kernels is in event order. */
static uint32_t kernel_conf(const struct tl_trace *c, uint32_t i)
{
	if (c->kconf_of)
		return c->kconf_of[i];
	const struct pt_model *m = c->m;
	size_t lo = 0, hi = m->kernels.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->kernels.v[mid].event < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->kernels.n || m->kernels.v[lo].event != i || m->kernels.v[lo].config >= m->kernel_configs.n)
		return 0;
	return m->kernels.v[lo].config + 1;
}

/* One model event in the viewer profile: v its fields, i its index (read only for a sync event: never streamed). */
static inline void tl_sev_of(const struct tl_trace *c, uint32_t i, struct tl_sev *v)
{
	const struct pt_events *ev = &c->m->events;
	v->start = ev->start[i];
	v->dur = ev->dur[i];
	v->kind = ev->kind[i];
	v->name = ev->name[i];
	v->op = ev->op[i];
	v->task = ev->task[i];
	v->corr = c->has_corr ? ev->corr[i] : 0;
	v->step = pt_tl_ev_step(c->tl, i);
	v->keep = c->tl->ev_keep[i];
	v->kconf = v->kind == PT_EV_KERNEL ? kernel_conf(c, i) : 0;
	v->kx = 0;
}

static void track_event(struct tl_trace *c, const struct row *r, const struct tl_sev *v, uint32_t i,
			struct pt_trace_ev *out)
{
	const struct pt_model *m = c->m;
	out->ts = v->start + r->off - c->base;
	out->dur = v->dur > 0 ? v->dur : 0;
	uint8_t k = v->kind;
	uint32_t name = v->name;
	bool task = k == PT_EV_TASK || k == PT_EV_AICPU, fullf = false, rawf = false;
	int cat = ev_cat(k);
	if (k == PT_EV_RANGE && (v->keep & 2))
		cat = C_STEP;
	const struct pt_track *tr = &m->tracks.v[r->track];
	if (task) {
		if (!name) {
			cat = C_UNNAMED;
			memcpy(c->built, r->tname, sizeof(r->tname));
			char *p = c->built + r->tname_len;
			p += pt_fmt_i64(p, (int64_t)v->task);
			out->name = built(c, (int)(p - c->built));
		} else {
			out->name = name_of(c, name, NM_LAST);
			fullf = !v->op && (name_flags(c, name) & NF_SLASH);
		}
	} else if (k == PT_EV_KERNEL) {
		out->name = name_of(c, name, NM_DEMANGLE);
		rawf = name_flags(c, name) & NF_DEMANGLED;
	} else if (k == PT_EV_API) {
		out->name = name_of(c, name, NM_API);
		rawf = name_flags(c, name) & NF_API;
	} else if (name || (k != PT_EV_MEMCPY && k != PT_EV_MEMSET)) {
		out->name = name_of(c, name, NM_RAW);
	} else {
		out->name = k == PT_EV_MEMCPY ? LIT("[CUDA memcpy]") : LIT("[CUDA memset]");
	}
	out->cat = (uint16_t)cat;
	if (v->op)
		op_args(c, out, v->op - 1);
	else if (fullf)
		ARG_STR(out, "full_name", name_of(c, name, NM_RAW));
	if (rawf)
		ARG_STR(out, "raw_name", name_of(c, name, NM_RAW));
	if (task) {
		if (k == PT_EV_TASK) {
			if (row_group(c, r, out)) /* the row's stream id */
				ARG_I64(out, "stream_id", tr->stream);
			out->rn = (uint8_t)(out->nargs - out->rat);
			ARG_I64(out, "task_id", (int64_t)v->task);
		}
	} else if (tr->kind == PT_TRACK_STREAM) {
		if (row_group(c, r, out)) { /* the row's device and stream */
			ARG_I64(out, "device", m->devices.v[tr->device].id);
			ARG_I64(out, "stream", tr->stream);
		}
		out->rn = (uint8_t)(out->nargs - out->rat);
	}
	if (c->has_corr && v->corr)
		ARG_U64(out, "correlation", v->corr);
	if (k == PT_EV_KERNEL && v->kconf && v->kconf <= m->kernel_configs.n)
		grid_block_args(out, &m->kernel_configs.v[v->kconf - 1]);
	if (k == PT_EV_SYNC)
		sync_args(c, out, i);
	if (v->step)
		ARG_U64(out, "step", v->step);
}

static void slice_event(struct tl_trace *c, const struct row *r, uint32_t i, struct pt_trace_ev *out)
{
	const struct pt_tl_slice *sl = &r->sl[i];
	out->ts = sl->start + r->off - c->base;
	out->dur = sl->end - sl->start;
	if (r->slkind == SL_KSTEPS) { /* kineto's Ascend steps: host-side ProfilerStep#<n>, correlation = the step (§11) */
		out->cat = K_USER;
		out->name = built(c, snprintf(c->built, sizeof(c->built), "ProfilerStep#%u", sl->step));
		ARG_I64(out, "correlation", sl->step);
		return;
	}
	if (r->slkind == SL_STEPS) {
		out->cat = C_STEP;
		out->name = built(c, snprintf(c->built, sizeof(c->built), "Step %u", sl->step));
		ARG_I64(out, "step", sl->step);
		if (sl->aux) {
			const struct pt_tl_win *w = &c->tl->dev[r->dev].win.v[sl->aux - 1];
			ARG_I64(out, "device_start_ns", w->s);
			ARG_I64(out, "device_end_ns", w->e);
		}
		if (sl->busy >= 0)
			ARG_I64(out, "busy_ns", sl->busy);
		ARG_I64(out, "activities", sl->count);
	} else if (r->slkind == SL_COMM) {
		out->cat = C_REDUCE;
		out->name = sl->name ? name_of(c, sl->name, NM_RAW) : LIT("parallel");
		ARG_I64(out, "stream", sl->count);
		ARG_I64(out, "start_tag", sl->aux);
		ARG_I64(out, "step", sl->step);
	} else {
		const char *full = tl_str(c, sl->name);
		size_t off = 0, len = 0;
		pt_tl_scope_segment(full, r->level, &off, &len);
		out->cat = C_SCOPE;
		out->name = (struct pt_trace_str){ full + off, (uint32_t)len, 0 };
		ARG_STR(out, "scope", ((struct pt_trace_str){ full, (uint32_t)(off + len), 0 }));
		ARG_I64(out, "ops", sl->count);
	}
}

static void iv_event(struct tl_trace *c, const struct row *r, uint32_t i, struct pt_trace_ev *out)
{
	static const struct pt_trace_str nm[] = { LIT("Computation"), LIT("Communication"), LIT("Pure Communication"),
						  LIT("Free") };
	const struct pt_ival *iv = tl_iv_at(r->iv, i);
	out->ts = iv->s + r->off - c->base;
	out->dur = iv->e - iv->s;
	out->cat = C_OVERLAP;
	out->name = nm[r->level];
}

static void counter_event(struct tl_trace *c, uint32_t q, size_t pos, int64_t ts, struct pt_trace_ev *out)
{
	const struct pt_model *m = c->m;
	const struct csrc *cs = &c->counters.v[q];
	uint32_t i = cs->idx[pos];
	out->ph = PT_PH_C;
	out->row = q;
	out->ts = ts;
	out->dur = 0;
	out->nargs = 0;
	out->gn = out->rn = out->rat = 0;
	out->gkey = out->rkey = 0;
	const char *key = cs->queue || cs->grp ? NULL : strchr(cs->name, '#'); /* "GROUP#SERIES" tracks (memory) */
	out->name = (struct pt_trace_str){ cs->name, (uint32_t)(key ? (size_t)(key - cs->name) : strlen(cs->name)), 0 };
	if (cs->grp) { /* all the series of the group */
		const struct pt_gms_group *g = cs->grp;
		for (size_t k = 0; k < g->nseries && k < PT_TRACE_MAX_ARGS; k++) {
			struct pt_trace_arg *a =
				arg(out, (struct pt_trace_str){ g->series[k], (uint32_t)strlen(g->series[k]), 0 }, PT_TA_I64);
			a->kesc = true;
			a->v.i = g->val.v[i * g->nseries + k];
		}
	} else if (cs->queue) {
		ARG_I64(out, "size", m->queues.size[i]);
	} else {
		static const char kvalue[PT_TRACE_KEY_ROOM] = "value";
		struct pt_trace_arg *a = arg(out,
					     key ? (struct pt_trace_str){ key + 1, (uint32_t)strlen(key + 1), 0 } :
						   (struct pt_trace_str){ kvalue, 5, PT_TRACE_PLAIN },
					     PT_TA_NUM);
		a->kesc = key != NULL;
		a->v.d = m->counters.value[i];
	}
}

/* ------------------------------------------------------------------ the merge */

/* inline into advance: once per event */
static inline __attribute__((always_inline)) int64_t src_item_ts(const struct tl_trace *c, const struct src *s,
								   size_t pos)
{
	const struct pt_model *m = c->m;
	switch (s->ph) {
	case PH_X: {
		const struct row *r = &c->rows.v[s->ref];
		int64_t t = r->type == R_TRACK ? (r->idx ? m->events.start[r->idx[pos]] : tl_stream_row_ts(c, r)) :
			    r->type == R_SLICE ? r->sl[r->idx[pos]].start :
						 tl_iv_at(r->iv, pos)->s;
		return t + r->off - c->base;
	}
	case PH_C: {
		const struct csrc *cs = &c->counters.v[s->ref];
		int64_t t = csrc_time(m, cs, pos);
		if (!pos && cs->carry0)
			t = cs->carry_t;
		return t + cs->off - c->base;
	}
	case PH_G:
		return tl_gpu_annotation_ts(c, s->items[pos]);
	case PH_S:
		return tl_arrow_time_at(&c->arrow_ts, s->items[pos], c->arrow_ts.d[s->items[pos]], false);
	default:
		return tl_arrow_time_at(&c->arrow_ts, s->items[pos], c->arrow_ts.d[s->items[pos]], true);
	}
}

static int src_cmp(const void *pa, const void *pb)
{
	const struct src *a = *(const struct src *const *)pa, *b = *(const struct src *const *)pb;
	if (a->ph != b->ph)
		return a->ph < b->ph ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a < b ? -1 : a > b; /* same (ph, pid, tid): counter series of one process, in series order */
}

/* src->key: the merge orders by (ts, ph, pid, tid); (ph, pid, tid) is ranked once here. */
static void rank_sources(struct tl_trace *c)
{
	size_t n = c->srcs.n;
	const struct src **v = pt_xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = &c->srcs.v[i];
	pt_sort(v, n, sizeof(*v), src_cmp);
	for (size_t i = 0; i < n; i++)
		c->srcs.v[v[i] - c->srcs.v].key = (uint32_t)i;
	free(v);
}

/* out = the flow indexes 0 .. nf - 1 grouped by their start row (fin: their end row), in id order within a row:
 * a counting sort (rows are few next to flows), with no scratch beyond a count per row. */
static void flows_by_row(const struct tl_arrow_rt *v, size_t nf, size_t nrows, bool fin, uint32_t *out)
{
	size_t *at = pt_xcalloc(nrows + 1, sizeof(*at));
	for (size_t i = 0; i < nf; i++)
		at[(fin ? v[i].frow : v[i].srow) + 1]++;
	for (size_t r = 0; r < nrows; r++)
		at[r + 1] += at[r];
	for (size_t i = 0; i < nf; i++)
		out[at[fin ? v[i].frow : v[i].srow]++] = (uint32_t)i;
	free(at);
}

/*
 * c->arrows to their rows and packed times (struct tl_arrow_rt, c->arrow_ts's blocks), in place, a block
 * at a time: block b's 16-byte entries end at or before its first arrow's 24 bytes begin (b > 0), and
 * block 0's arrows are read whole before any is written.
 */
static struct tl_arrow_rt *arrow_times_pack(struct tl_trace *c, size_t nf)
{
	struct tl_arrow_times *at = &c->arrow_ts;
	size_t nb = (nf + TL_ATB - 1) / TL_ATB;
	at->base = pt_xmalloc(nb * sizeof(*at->base));
	at->wat = pt_xmalloc(nb * sizeof(*at->wat));
	struct tl_arrow_rt *v = (struct tl_arrow_rt *)(void *)c->arrows;
	struct tl_arrow blk[TL_ATB];
	size_t wcap = 0;
	for (size_t b = 0; b < nb; b++) {
		size_t i0 = b * TL_ATB, n = nf - i0 < TL_ATB ? nf - i0 : TL_ATB;
		bool fits = true;
		memcpy(blk, (const char *)c->arrows + i0 * sizeof(*blk), n * sizeof(*blk));
		int64_t base = blk[0].sts;
		for (size_t k = 0; k < n && fits; k++) {
			int64_t ds, df;
			fits = !__builtin_sub_overflow(blk[k].sts, base, &ds) && ds >= 0 && ds <= (int64_t)UINT32_MAX &&
			       !__builtin_sub_overflow(blk[k].fts, blk[k].sts, &df) && df >= INT32_MIN && df <= INT32_MAX;
		}
		at->base[b] = base;
		at->wat[b] = UINT32_MAX;
		if (!fits) {
			pt_xgrow((void **)&at->wide, &wcap, (at->nwide + 1) * TL_ATB, sizeof(*at->wide));
			for (size_t k = 0; k < n; k++)
				at->wide[at->nwide * TL_ATB + k] = (struct tl_arrow_ts){ blk[k].sts, blk[k].fts };
			at->wat[b] = (uint32_t)at->nwide++;
		}
		for (size_t k = 0; k < n; k++) {
			struct tl_arrow_rt w = { blk[k].srow, blk[k].frow, { 0, 0 } };
			if (fits)
				w.t = (struct tl_arrow_dt){ (uint32_t)(blk[k].sts - base), (int32_t)(blk[k].fts - blk[k].sts) };
			memcpy((char *)v + (i0 + k) * sizeof(w), &w, sizeof(w));
		}
	}
	c->arrows = NULL;
	return pt_xrealloc(v, nf * sizeof(*v));
}

void tl_build_sources(struct tl_trace *c)
{
	c->row_given = pt_xcalloc(c->rows.n ? c->rows.n : 1, 1);
	c->pub.nkeys = (uint32_t)(c->m->strings.n * NM_N + 3 * c->m->ops.n + c->rows.n);
	for (size_t r = 0; r < c->rows.n; r++) {
		struct row *rw = &c->rows.v[r];
		if (rw->type == R_TRACK) {
			char *p = rw->tname;
			memcpy(p, "task ", 5);
			p += 5;
			p += pt_fmt_i64(p, c->m->tracks.v[rw->track].stream);
			*p++ = '_';
			rw->tname_len = (uint8_t)(p - rw->tname);
		}
	}
	for (size_t r = 0; r < c->rows.n; r++) {
		struct src s = { .ph = PH_X, .pid = c->rows.v[r].pid, .tid = c->rows.v[r].tid, .ref = (uint32_t)r,
				 .n = c->rows.v[r].n };
		pt_vec_push(&c->srcs, s);
	}
	for (size_t i = 0; i < c->counters.n; i++) {
		struct src s = { .ph = PH_C, .pid = c->counters.v[i].pid, .tid = c->counters.v[i].tid, .ref = (uint32_t)i,
				 .n = c->counters.v[i].n };
		pt_vec_push(&c->srcs, s);
	}
	tl_gpu_annotation_sources(c);
	size_t nf = c->narrows;
	if (nf) {
		/* the arrows' times packed first (16 bytes an arrow with their rows, not 24, under the row lists) */
		struct tl_arrow_times *at = &c->arrow_ts;
		struct tl_arrow_rt *v = arrow_times_pack(c, nf);
		c->flow_s = pt_xmalloc(nf * sizeof(*c->flow_s));
		c->flow_f = pt_xmalloc(nf * sizeof(*c->flow_f));
		flows_by_row(v, nf, c->rows.n, false, c->flow_s); /* (srow, id): id order is sts order */
		flows_by_row(v, nf, c->rows.n, true, c->flow_f);
		/* (frow, fts, id): each row's run in fts order, where it is not already */
		uint32_t *tmp = NULL;
		size_t tcap = 0;
		for (size_t i = 0; i < nf;) {
			uint32_t row = v[c->flow_f[i]].frow;
			size_t j = i + 1;
			bool sorted = true;
			for (; j < nf && v[c->flow_f[j]].frow == row; j++)
				sorted &= tl_arrow_time_at(at, c->flow_f[j - 1], v[c->flow_f[j - 1]].t, true) <=
					  tl_arrow_time_at(at, c->flow_f[j], v[c->flow_f[j]].t, true);
			if (!sorted) {
				pt_xgrow((void **)&tmp, &tcap, (j - i) / 2 + 1, sizeof(*tmp));
				tl_flow_sort_fts(at, v, c->flow_f + i, j - i, tmp);
			}
			i = j;
		}
		free(tmp);
		for (int pass = 0; pass < 2; pass++) {
			uint32_t *x = pass ? c->flow_f : c->flow_s;
			for (size_t i = 0; i < nf;) {
				const struct tl_arrow_rt *f = &v[x[i]];
				uint32_t row = pass ? f->frow : f->srow;
				size_t j = i;
				while (j < nf && (pass ? v[x[j]].frow : v[x[j]].srow) == row)
					j++;
				struct src s = { .ph = pass ? PH_F : PH_S, .pid = c->rows.v[row].pid, .tid = c->rows.v[row].tid,
						 .ref = row, .n = j - i, .items = x + i };
				pt_vec_push(&c->srcs, s);
				i = j;
			}
		}
		/* the rows are the sources' now: each arrow keeps its packed times, in place, forward (arrow i's 8
		 * bytes end at or before arrow i's 16 began), 16 bytes an arrow less than whole while written */
		struct tl_arrow_dt *d = (struct tl_arrow_dt *)(void *)v;
		for (size_t i = 0; i < nf; i++) {
			struct tl_arrow_rt r;
			memcpy(&r, (const char *)v + i * sizeof(r), sizeof(r));
			memcpy((char *)d + i * sizeof(r.t), &r.t, sizeof(r.t));
		}
		at->d = pt_xrealloc(d, nf * sizeof(*at->d));
	}
	rank_sources(c);
}

static uint32_t tree_build(struct tl_trace *c, size_t node)
{
	if (node >= c->nleaf)
		return (uint32_t)(node - c->nleaf);
	uint32_t l = tree_build(c, 2 * node), r = tree_build(c, 2 * node + 1);
	if (c->narrow ? c->leafn[l] < c->leafn[r] : c->leaf[l] < c->leaf[r]) {
		c->tree[node] = r;
		return l;
	}
	c->tree[node] = l;
	return r;
}

/* Leaf w changed: play it up to the root. */
static inline void tree_replay(struct tl_trace *c, uint32_t w)
{
	const mkey *lf = c->leaf;
	uint32_t *t = c->tree;
	mkey kw = lf[w];
	for (size_t node = (w + c->nleaf) >> 1; node; node >>= 1) {
		uint32_t o = t[node];
		if (lf[o] < kw) {
			t[node] = w;
			w = o;
			kw = lf[o];
		}
	}
	t[0] = w;
}

/* tree_replay over the narrow keys */
static inline void tree_replay_n(struct tl_trace *c, uint32_t w)
{
	const uint64_t *lf = c->leafn;
	uint32_t *t = c->tree;
	uint64_t kw = lf[w];
	for (size_t node = (w + c->nleaf) >> 1; node; node >>= 1) {
		uint32_t o = t[node];
		uint64_t ko = lf[o];
		if (ko < kw) {
			t[node] = w;
			w = o;
			kw = ko;
		}
	}
	t[0] = w;
}

static void tree_init(struct tl_trace *c)
{
	size_t n = c->srcs.n, nl = 1;
	while (nl < n)
		nl *= 2;
	free(c->leaf);
	free(c->leafn);
	free(c->tree);
	c->leaf = NULL;
	c->leafn = NULL;
	/* narrow keys when (span << kbits | key) stays below 2^63, under NKEY_DONE */
	c->kbits = n > 1 ? (unsigned)(64 - __builtin_clzll((unsigned long long)(n - 1))) : 0;
	c->narrow = c->kbits < 32 && !((uint64_t)c->span >> (63 - c->kbits));
	c->nleaf = nl;
	if (c->narrow)
		c->leafn = pt_xmalloc(nl * sizeof(*c->leafn));
	else
		c->leaf = pt_xmalloc(nl * sizeof(*c->leaf));
	c->tree = pt_xcalloc(nl, sizeof(*c->tree));
	for (size_t i = 0; i < nl; i++) {
		struct src *s = i < n ? &c->srcs.v[i] : NULL;
		if (s)
			s->pos = 0;
		int64_t ts = s && s->n ? src_item_ts(c, s, 0) : -1;
		if (c->narrow)
			c->leafn[i] = ts >= 0 ? (uint64_t)ts << c->kbits | s->key : NKEY_DONE;
		else
			c->leaf[i] = ts >= 0 ? mkey_of(ts, s->key) : MKEY_DONE;
	}
	c->tree[0] = tree_build(c, 1);
}

/* ------------------------------------------------------------------ the iterator */

static void item_event(struct tl_trace *c, const struct src *s, int64_t ts, struct pt_trace_ev *out)
{
	out->nargs = 0;
	out->gn = out->rn = out->rat = 0;
	out->gkey = out->rkey = 0;
	switch (s->ph) {
	case PH_X: {
		const struct row *r = &c->rows.v[s->ref];
		uint32_t i = r->type == R_TRACK && !r->idx ? 0 : tl_row_item(r, s->pos);
		out->ph = PT_PH_X;
		out->row = s->ref;
		if (r->type == R_TRACK) {
			if (c->kineto) {
				struct tl_sev v;
				const struct tl_sev *p = r->q ? &r->q[r->qh] : &v;
				if (r->q)
					i = p->ev;
				else
					tl_sev_of(c, i, &v);
				out->ts = p->start + r->off - c->base;
				out->dur = p->dur > 0 ? p->dur : 0;
				track_event_kineto(c, r, p, i, out);
			} else if (r->q) {
				track_event(c, r, &r->q[r->qh], r->q[r->qh].ev, out);
			} else {
				struct tl_sev v;
				tl_sev_of(c, i, &v);
				track_event(c, r, &v, i, out);
			}
		}
		else if (r->type == R_SLICE)
			slice_event(c, r, i, out);
		else
			iv_event(c, r, i, out);
		break;
	}
	case PH_G: {
		struct tl_gann_info a; /* its host range's */
		tl_gpu_annotation_info(c, tl_gpu_annotation_event(c, s->items[s->pos], out), &a);
		out->cat = K_GPU_USER;
		if (a.is_step && strncmp(tl_str(c, a.name), "ProfilerStep#", 13))
			out->name = built(c, snprintf(c->built, sizeof(c->built), "ProfilerStep#%u", a.step));
		else
			out->name = name_of(c, a.name, NM_RAW);
		if (a.has_xid)
			ARG_U64(out, "External id", a.xid);
		break;
	}
	case PH_C:
		counter_event(c, s->ref, s->pos, ts, out);
		break;
	default:
		out->ph = s->ph == PH_S ? PT_PH_S : PT_PH_F;
		out->row = s->ref;
		out->flow = s->items[s->pos];
		out->ts = ts;
		out->dur = 0;
		out->cat = c->kineto ? K_AC2G : C_FLOW;
		out->name = c->kineto ? LIT("ac2g") : LIT("launch");
	}
}

/* The source that delivered the last event moves to its next item. */
static void advance(struct tl_trace *c)
{
	uint32_t w = c->tree[0];
	struct src *s = &c->srcs.v[w];
	s->pos++;
	if (s->ph == PH_X && tl_streamed(c->tl)) {
		struct row *r = &c->rows.v[s->ref];
		if (r->type == R_TRACK && !r->idx)
			tl_stream_row_pop(c, r);
	} else if (s->ph == PH_X && s->pos + 1 < s->n) { /* the item after next: its columns are far apart in memory */
		const struct row *r = &c->rows.v[s->ref];
		if (r->type == R_TRACK && r->idx) {
			uint32_t j = r->idx[s->pos + 1];
			__builtin_prefetch(&c->m->events.start[j]);
			__builtin_prefetch(&c->m->events.dur[j]);
		}
	}
	if (c->narrow) {
		c->leafn[w] = s->pos < s->n ? (uint64_t)src_item_ts(c, s, s->pos) << c->kbits | s->key : NKEY_DONE;
		tree_replay_n(c, w);
	} else {
		c->leaf[w] = s->pos < s->n ? mkey_of(src_item_ts(c, s, s->pos), s->key) : MKEY_DONE;
		tree_replay(c, w);
	}
}

static void it_rewind(struct pt_trace *t)
{
	struct tl_trace *c = (struct tl_trace *)t;
	if (c->tl->stream)
		tl_stream_rewind(c);
	else if (c->tl->gstream)
		tl_gstream_rewind(c);
	tree_init(c);
	c->started = false;
	memset(c->op_given, 0, c->m->ops.n ? c->m->ops.n : 1);
	if (c->row_given)
		memset(c->row_given, 0, c->rows.n ? c->rows.n : 1);
}

static bool it_next(struct pt_trace *t, struct pt_trace_ev *ev)
{
	struct tl_trace *c = (struct tl_trace *)t;
	if (c->started)
		advance(c);
	uint32_t w = c->tree[0];
	/*
	 * A streamed row takes part with a lower bound while its next event is
	 * not read, and keeps that key until it wins: then raise the key to
	 * the bound now known or to its event's start, or read on.
	 */
	while (tl_streamed(c->tl) && tl_stream_live(c, w)) {
		struct src *s = &c->srcs.v[w];
		int64_t cur = c->narrow ? (int64_t)(c->leafn[w] >> c->kbits) : (int64_t)(uint64_t)(c->leaf[w] >> 32);
		int64_t t = src_item_ts(c, s, s->pos);
		if (t == cur) {
			if (tl_stream_has(c, w))
				break;
			if (c->tl->gstream ? tl_gstream_pull(c, s->ref) : tl_stream_pull(c))
				goto done;
			continue;
		}
		if (c->narrow) {
			c->leafn[w] = (uint64_t)t << c->kbits | s->key;
			tree_replay_n(c, w);
		} else {
			c->leaf[w] = mkey_of(t, s->key);
			tree_replay(c, w);
		}
		w = c->tree[0];
	}
	int64_t ts;
	if (c->narrow) {
		uint64_t k = c->leafn[w];
		if (k == NKEY_DONE)
			goto done;
		ts = (int64_t)(k >> c->kbits);
	} else {
		if (c->leaf[w] == MKEY_DONE)
			goto done;
		ts = (int64_t)(uint64_t)(c->leaf[w] >> 32);
	}
	c->started = true;
	item_event(c, &c->srcs.v[w], ts, ev);
	return true;
done:
	c->started = false;
	return false;
}

/* Counters are the sources after the rows, in counter order (tl_build_sources). */
static bool it_counter_last(struct pt_trace *t, uint32_t q, int64_t ts, struct pt_trace_ev *ev)
{
	struct tl_trace *c = (struct tl_trace *)t;
	const struct src *s = &c->srcs.v[c->rows.n + q];
	if (s->ph != PH_C || !s->pos || s->pos > s->n)
		return false;
	counter_event(c, q, s->pos - 1, ts, ev);
	return true;
}

void tl_events_init(struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	c->nflags = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1);
	c->opshapes = pt_xcalloc(m->ops.n ? m->ops.n : 1, sizeof(*c->opshapes));
	c->op_given = pt_xcalloc(m->ops.n ? m->ops.n : 1, 1);
	c->pub.cats = cat_names;
	c->pub.ncats = C_N;
	c->pub.next = it_next;
	c->pub.rewind = it_rewind;
	c->pub.counter_last = it_counter_last;
}

void tl_events_free(struct tl_trace *c)
{
	for (int k = 0; k < NM_N; k++)
		free(c->names[k]);
	if (c->demangled)
		for (size_t i = 0; i < c->m->strings.n; i++)
			free(c->demangled[i]);
	free(c->demangled);
	free(c->nflags);
	free(c->opshapes);
	free(c->op_given);
	free(c->row_given);
	free(c->ksm);
	pt_vec_free(&c->shapetext);
	free(c->leaf);
	free(c->leafn);
	free(c->tree);
}
