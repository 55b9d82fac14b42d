/*
 * The rules of one rank (hints.md §3): STEP_GAP (its measure is the
 * driver's, shared with RANK_STEP_GAP), MEMORY_NEAR_CAPACITY,
 * TENSOR_CORES_UNUSED, USE_DDP, DDP_WITHOUT_NCCL, TRUNCATED_LAST_STEP.
 */
#define _GNU_SOURCE /* memmem, qsort_r */
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/ascend-memory.h"
#include "model/gpu-memory.h"
#include "model/model.h"
#include "support/sort.h"
#include "support/xalloc.h"

void pt_hr_step_gap(struct ctx *c, const struct hsite *s)
{
	const struct rankdata *rd = s->rd;
	const struct gapfig *g = &rd->gap;
	int64_t rank = rd->r->rank;
	if (g->status == GAP_FEW_STEPS) {
		hx_not_eval(c, PT_HR_STEP_GAP, rank, "rank", "fewer than 2 steps");
		return;
	}
	if (g->status == GAP_NONE) {
		hx_not_eval(c, PT_HR_STEP_GAP, rank, "rank", "no step interval can be measured");
		return;
	}
	hx_mark_eval(c, PT_HR_STEP_GAP, rank);
	double mean = (double)g->sum / (double)g->gaps;
	double thr = c->k->step_gap_ms * 1e6;
	if (!(mean > thr))
		return;
	int64_t mr = hx_mean_round(g->sum, g->gaps);
	struct pt_hint *x = hx_fire(c, PT_HR_STEP_GAP, rank, "rank", PT_SEV_WARN, "mean_gap", "ns", (double)mr,
				    round(thr));
	char b1[48], b2[48];
	x->message = hx_msg("Devices wait %s on average between the end of one step and the start of the next "
			    "(threshold %s): time spent bringing the next batch to the device. See the MindData hints; "
			    "with graph mode, dataset sink mode removes most of this gap.",
			    hx_ftime(c, b1, mr), hx_ftime(c, b2, (int64_t)round(thr)));
	pt_hint_ev_int(x, "mean_gap_ns", mr);
	pt_hint_ev_int(x, "max_gap_ns", g->maxg);
	pt_hint_ev_int(x, "max_gap_step", g->maxstep);
	pt_hint_ev_int(x, "gaps", g->gaps);
	pt_hint_ev_int(x, "steps", (int64_t)g->kept);
}

static void mem_point(void *ctx, const struct pt_gmem_point *p)
{
	struct hx_mempeak *mp = ctx;
	if (p->group != PT_GMEM_DEVICE)
		return;
	if (!mp->any || p->allocated > mp->peak) {
		mp->peak = p->allocated;
		mp->time = p->time;
	}
	mp->any = true;
}

static void memory_hint(struct ctx *c, int64_t rank, const char *scope, uint32_t did, int64_t peak, uint64_t cap)
{
	double p = 100.0 * (double)peak / (double)cap;
	if (!(p > c->k->memory_peak_pct))
		return;
	struct pt_hint *x = hx_fire(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, PT_SEV_WARN, "peak_pct", "pct", p,
				    c->k->memory_peak_pct);
	double gib = 1024.0 * 1024.0 * 1024.0;
	x->message = hx_msg("Device %" PRIu32 " peaked at " PT_TEXT_FRAC " GiB, " PT_TEXT_FRAC "%% of its "
			    PT_TEXT_FRAC " GiB (threshold " PT_TEXT_FRAC "%%). "
			    "Activation checkpointing or mixed precision frees memory for larger batches; this "
			    "close to capacity, allocator retries and out-of-memory failures become likely.",
			    did, (double)peak / gib, p, (double)cap / gib, c->k->memory_peak_pct);
	pt_hint_ev_dbl(x, "peak_pct", p);
	pt_hint_ev_int(x, "peak_bytes", peak);
	char t[32];
	snprintf(t, sizeof(t), "%" PRIu64, cap);
	pt_hint_ev_num(x, "capacity_bytes", t);
}

/*
 * MEMORY_NEAR_CAPACITY on an Ascend device (ascend.md §3.13): the largest
 * graph peak of its memory_usage file against the file's total_mem (the
 * device memory available to the framework); the time of the peak is the
 * first execution of the peak node, when one ran.
 */
static void memory_npu(struct ctx *c, int64_t rank, uint32_t dev)
{
	const struct pt_model *m = c->m;
	uint32_t did = m->devices.v[dev].id;
	char scope[48];
	snprintf(scope, sizeof(scope), "device:%" PRIu32, did);
	struct pt_amem_peak best;
	uint32_t bg;
	uint64_t cap;
	if (!pt_amem_device_peak(m, dev, &best, &bg, &cap)) {
		hx_not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no memory records");
		return;
	}
	if (!cap) {
		hx_not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no device memory size (total_mem 0)");
		return;
	}
	hx_mark_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank);
	size_t before = c->h->n;
	memory_hint(c, rank, scope, did, best.peak, cap);
	if (c->h->n == before)
		return;
	struct pt_hint *x = &c->h->v[c->h->n - 1];
	const char *node = best.node != UINT32_MAX ? pt_model_strget(m, m->mem_nodes.v[best.node].name) : NULL;
	int64_t t = 0;
	bool at = false;
	if (node && c->amem) { /* streamed (stream.c): found in the second read */
		at = c->amem[dev].found;
		t = c->amem[dev].t;
	} else if (node) {
		at = pt_amem_node_start(m, dev, node, &t);
	}
	if (at)
		pt_hint_ev_int(x, "peak_ns", t);
	pt_hint_ev_int(x, "graph_id", m->mem_graphs.v[bg].graph_id);
	if (node) {
		pt_hint_ev_int(x, "peak_node_index", best.peak_node);
		pt_hint_ev_str(x, "peak_node", node);
	}
}

void hx_gmem_measure(const struct pt_model *m, struct hx_mempeak *out)
{
	struct pt_model_gpu_mem_heads hd; /* the records may be packed (gpu-mem-pack.h) */
	struct pt_gpu_mem_head h;
	pt_model_gpu_mem_heads_init(&hd, m);
	while (pt_model_gpu_mem_heads_next(&hd, &h))
		if (h.device < m->devices.n)
			out[h.device].recs = true;
	for (uint32_t dev = 0; dev < m->devices.n; dev++)
		if (out[dev].recs && m->devices.v[dev].kind == PT_DEV_GPU && m->devices.v[dev].mem_bytes)
			pt_gmem_replay(m, dev, mem_point, &out[dev]);
}

/* MEMORY_NEAR_CAPACITY per device of the rank: on a GPU the peak allocated
 * device memory (the MEMORY2 replay of cupti.md §6.11) against
 * totalGlobalMem; on Ascend memory_npu(). */
static void rule_memory(struct ctx *c, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	bool any = false;
	for (size_t j = 0; j < r->ndevs; j++) {
		uint32_t dev = r->devs[j];
		const struct pt_device *dv = &m->devices.v[dev];
		char scope[48];
		snprintf(scope, sizeof(scope), "device:%" PRIu32, dv->id);
		if (dv->kind == PT_DEV_NPU) {
			memory_npu(c, rank, dev);
			any = true;
			continue;
		}
		if (dv->kind != PT_DEV_GPU)
			continue;
		struct hx_mempeak mp = { 0, 0, false, false };
		if (c->gmem) /* streamed (gstream.c): measured after the first read */
			mp = c->gmem[dev];
		else
			for (size_t i = 0; i < m->gpu_mem.n && !mp.recs; i++)
				mp.recs = m->gpu_mem.v[i].device == dev;
		if (!mp.recs) {
			hx_not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no memory records");
			any = true;
			continue;
		}
		if (!dv->mem_bytes) {
			hx_not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no device memory size");
			any = true;
			continue;
		}
		if (!c->gmem)
			pt_gmem_replay(m, dev, mem_point, &mp);
		any = true;
		hx_mark_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank);
		size_t before = c->h->n;
		if (mp.any)
			memory_hint(c, rank, scope, dv->id, mp.peak, dv->mem_bytes);
		if (c->h->n > before)
			pt_hint_ev_int(&c->h->v[c->h->n - 1], "peak_ns", mp.time);
	}
	if (!any)
		hx_not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, "rank", "no memory records");
}

/* MEMORY_NEAR_CAPACITY: per device of the rank (HS_RANK); then (HS_CLUSTER)
 * Ascend devices with a memory file and nothing else (no steps, no tasks). */
void pt_hr_memory_near_capacity(struct ctx *c, const struct hsite *s)
{
	if (s->stage == HS_RANK) {
		rule_memory(c, s->rd);
		return;
	}
	const struct pt_model *m = c->m;
	const struct pt_steps_info *si = c->si;
	for (uint32_t dev = 0; dev < m->devices.n; dev++) {
		const struct pt_device *dv = &m->devices.v[dev];
		if (dv->kind != PT_DEV_NPU || (c->sel_device >= 0 && dv->id != (uint64_t)c->sel_device))
			continue;
		bool graphs = false, ranked = false;
		for (size_t g = 0; g < m->mem_graphs.n && !graphs; g++)
			graphs = m->mem_graphs.v[g].device == dev;
		for (size_t i = 0; i < si->n && !ranked; i++)
			for (size_t j = 0; j < si->r[i].ndevs && !ranked; j++)
				ranked = si->r[i].devs[j] == dev;
		if (graphs && !ranked)
			memory_npu(c, dv->id, dev);
	}
}

/* ---- rank rules -------------------------------------------------------------------- */

/* The TensorBoard plugin's lists (tensor_core.py), used when the knobs are left empty. */
static const char tc_kernels_dflt[] = "h884,s884,h1688,s1688,hmma,i8816,16816,dgrad_1x1_stride_2x2,"
				      "first_layer_wgrad_kernel,conv1x1,conv2d_c1_k1,direct_group,xmma_implicit_gemm,"
				      "xmma_sparse_conv,xmma_warp_specialized_implicit_gemm,xmma_gemm,xmma_sparse_gemm,"
				      "c1688";
static const char tc_ops_dflt[] =
	"aten::_convolution,aten::_convolution_nogroup,aten::conv1d,aten::conv2d,aten::conv3d,aten::conv_tbc,"
	"aten::conv_transpose1d,aten::conv_transpose2d,aten::conv_transpose3d,aten::convolution,"
	"aten::cudnn_convolution,aten::cudnn_convolution_transpose,aten::prelu,aten::addmm,aten::addmv,aten::addr,"
	"aten::matmul,aten::mm,aten::mv,aten::linear,aten::addbmm,aten::baddbmm,aten::bmm,aten::chain_matmul,"
	"aten::linalg_multi_dot,aten::_thnn_fused_lstm_cell,aten::_thnn_fused_gru_cell,aten::lstm_cell,"
	"aten::gru_cell,aten::rnn_tanh_cell,aten::rnn_relu_cell,CudnnConvolutionBackward,BmmBackward0,"
	"aten::cudnn_convolution_transpose_backward,CudnnConvolutionTransposeBackward,MmBackward,"
	"aten::cudnn_convolution_backward_weight,aten::addmm_,AddmvBackward,MvBackward,"
	"aten::cudnn_convolution_transpose_backward_weight,aten::cudnn_convolution_transpose_backward_input,"
	"AddmmBackward,aten::cudnn_convolution_backward_input,AddbmmBackward,aten::cudnn_convolution_backward";

/* Does s contain one of the comma-separated patterns? */
static bool has_pattern(const char *list, const char *s)
{
	for (const char *p = list; *p;) {
		const char *q = strchr(p, ',');
		size_t l = q ? (size_t)(q - p) : strlen(p);
		if (l && memmem(s, strlen(s), p, l))
			return true;
		if (!q)
			break;
		p = q + 1;
	}
	return false;
}

bool hx_tc_kernel_name(const struct pt_hint_knobs *k, const char *name)
{
	return has_pattern(k->tc_kernel_patterns && *k->tc_kernel_patterns ? k->tc_kernel_patterns : tc_kernels_dflt, name);
}

bool hx_tc_op_name(const struct pt_hint_knobs *k, const char *name)
{
	return hx_in_list(k->tc_op_names && *k->tc_op_names ? k->tc_op_names : tc_ops_dflt, name, strlen(name));
}

/* The display name of an Operator range (its op), or NULL for another range. */
static const char *operator_name(const struct pt_model *m, size_t re)
{
	const struct pt_range_info *ri = hx_range_of(m, re);
	if (!ri || strcmp(pt_model_strget(m, ri->type), "Operator"))
		return NULL;
	return pt_model_strget(m, ri->label ? ri->label : m->events.name[re]);
}

/* A member kernel on one of the rank's devices (TENSOR_CORES_UNUSED)? */
static bool tc_kernel(const struct pt_model *m, const struct rankdata *rd, size_t i)
{
	const struct pt_events *ev = &m->events;
	if (ev->kind[i] != PT_EV_KERNEL || !hx_member(rd, m, i))
		return false;
	uint32_t dev = m->tracks.v[ev->track[i]].device;
	for (size_t j = 0; j < rd->r->ndevs; j++)
		if (rd->r->devs[j] == dev)
			return true;
	return false;
}

/* TENSOR_CORES_UNUSED's figures of a rank whose events are in the model. */
static void tc_measure(struct ctx *c, const struct rankdata *rd, int64_t *all_out, int64_t *tc_out, int64_t *by_op_out,
		       int64_t *elig_out, bool *ops_out)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_rank_steps *r = rd->r;
	const struct pt_hint_knobs *k = c->k;
	const char *kp = k->tc_kernel_patterns && *k->tc_kernel_patterns ? k->tc_kernel_patterns : tc_kernels_dflt;
	const char *on = k->tc_op_names && *k->tc_op_names ? k->tc_op_names : tc_ops_dflt;
	/* eligible Operator ranges, and which of them have an eligible descendant */
	struct hx_nest *er = NULL;
	size_t ner = 0, cer = 0;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != r->host)
			continue;
		const char *nm = operator_name(m, i);
		if (!nm || !hx_in_list(on, nm, strlen(nm)))
			continue;
		pt_xgrow((void **)&er, &cer, ner + 1, sizeof(*er));
		er[ner++] = (struct hx_nest){ ev->track[i], (uint32_t)i, ev->start[i], ev->start[i] + ev->dur[i] };
	}
	pt_sort(er, ner, sizeof(*er), hx_nest_cmp);
	size_t nw = ev->n / 64 + 1;
	uint64_t *leaf = pt_xcalloc(nw, sizeof(*leaf)); /* bits: eligible with no eligible descendant */
	for (size_t i = 0; i < ner; i++)
		if (!(i + 1 < ner && er[i + 1].track == er[i].track && er[i + 1].s < er[i].e))
			leaf[er[i].id / 64] |= 1ULL << (er[i].id % 64);
	free(er);
	/* kernels of the rank: their time, and that of Tensor Core kernels (a name's verdict once) */
	uint8_t *pat = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1); /* 0 not yet, 1 no, 2 yes */
	uint64_t *kern = pt_xcalloc(nw, sizeof(*kern));                  /* bits: those kernels */
	int64_t all = 0, tc = 0, by_op = 0, elig = 0;
	bool ops = false;
	for (size_t i = 0; i < ev->n; i++) {
		if (!tc_kernel(m, rd, i))
			continue;
		kern[i / 64] |= 1ULL << (i % 64);
		all += ev->dur[i];
		uint32_t nm = ev->name[i];
		if (nm < m->strings.n && !pat[nm])
			pat[nm] = has_pattern(kp, pt_model_strget(m, nm)) ? 2 : 1;
		if (nm < m->strings.n ? pat[nm] == 2 : has_pattern(kp, pt_model_strget(m, nm)))
			tc += ev->dur[i];
	}
	free(pat);
	/* the innermost host range of each kernel's launch: its last link (read backwards, the first seen) */
	uint64_t *seen = pt_xcalloc(nw, sizeof(*seen));
	for (size_t l = m->links.n; l-- > 0;) {
		size_t i = m->links.v[l].event;
		if (i >= ev->n || (seen[i / 64] >> (i % 64) & 1))
			continue;
		seen[i / 64] |= 1ULL << (i % 64);
		uint32_t lr = m->links.v[l].range;
		if (!lr || !(kern[i / 64] >> (i % 64) & 1) || !operator_name(m, lr - 1))
			continue;
		ops = true;
		by_op += ev->dur[i];
		if (leaf[(lr - 1) / 64] >> ((lr - 1) % 64) & 1)
			elig += ev->dur[i];
	}
	free(seen);
	free(kern);
	free(leaf);
	*all_out = all, *tc_out = tc, *by_op_out = by_op, *elig_out = elig, *ops_out = ops;
}

/* TENSOR_CORES_UNUSED (hints.md §3, the TensorBoard plugin's tensor_cores rule) for one rank. */
void pt_hr_tensor_cores_unused(struct ctx *c, const struct hsite *s)
{
	const struct pt_model *m = c->m;
	const struct rankdata *rd = s->rd;
	const struct pt_rank_steps *r = rd->r;
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = r->rank;
	if (r->ascend || !r->ndevs) {
		hx_not_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", "not a CUDA device");
		return;
	}
	int64_t all = 0, tc = 0, by_op = 0, elig = 0;
	bool ops = false;
	const struct hx_srank *sr = hx_srank_of(c, r);
	if (sr) { /* streamed (gstream.c): summed as the member kernels passed */
		all = sr->kern, tc = sr->tc, by_op = sr->by_op, elig = sr->elig, ops = sr->ops;
	} else {
		tc_measure(c, rd, &all, &tc, &by_op, &elig, &ops);
	}
	const struct pt_device *d0 = &m->devices.v[r->devs[0]];
	if (!all) {
		hx_not_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", "no kernels");
		return;
	}
	if (!ops) {
		hx_not_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", "no operator ranges");
		return;
	}
	hx_mark_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank);
	double tcp = hx_pct(tc, all), ep = hx_pct(elig, by_op);
	if ((int64_t)d0->cc_major >= k->tc_min_cc && tc == 0 && elig > 0) {
		struct pt_hint *x = hx_fire(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", PT_SEV_INFO, "eligible_pct", "pct", ep,
					    0);
		x->message = hx_msg("Operators that could use Tensor Cores launch " PT_TEXT_FRAC "%% of operator kernel time, yet no "
				    "Tensor Core kernel ran (compute capability %u.%u). Mixed precision (FP16/BF16) would let "
				    "them.", ep, d0->cc_major, d0->cc_minor);
		pt_hint_ev_dbl(x, "eligible_pct", ep);
		pt_hint_ev_dbl(x, "tc_used_pct", tcp);
		char t[24];
		snprintf(t, sizeof(t), "%u.%u", d0->cc_major, d0->cc_minor);
		pt_hint_ev_str(x, "cc", t);
		pt_hint_ev_int(x, "eligible_ns", elig);
		pt_hint_ev_int(x, "operator_kernel_ns", by_op);
	}
}

void pt_hr_use_ddp(struct ctx *c, const struct hsite *s)
{
	struct rankdata *rd = s->rd;
	int64_t rank = rd->r->rank;
	if (rd->r->host == PT_NONE) {
		hx_not_eval(c, PT_HR_USE_DDP, rank, "rank", "no host ranges");
		return;
	}
	const struct ddpfig *f = hx_ddp(c, rd);
	int64_t dp = f->dp, active = f->active;
	hx_mark_eval(c, PT_HR_USE_DDP, rank);
	if (dp && active > 1) {
		struct pt_hint *x = hx_fire(c, PT_HR_USE_DDP, rank, "rank", PT_SEV_INFO, "devices", "count",
					    (double)active, 1);
		x->message = hx_msg("The model runs single-process DataParallel on %" PRId64 " devices; one "
				    "process per device (DistributedDataParallel) avoids the per-step scatter and "
				    "gather and the Python contention.", active);
		pt_hint_ev_int(x, "devices", active);
	}
}

void pt_hr_ddp_without_nccl(struct ctx *c, const struct hsite *s)
{
	struct rankdata *rd = s->rd;
	int64_t rank = rd->r->rank;
	if (rd->r->host == PT_NONE) {
		hx_not_eval(c, PT_HR_DDP_WITHOUT_NCCL, rank, "rank", "no host ranges");
		return;
	}
	const struct ddpfig *f = hx_ddp(c, rd);
	int64_t ddp = f->ddp;
	bool nccl = f->nccl;
	uint32_t cc = f->cc;
	hx_mark_eval(c, PT_HR_DDP_WITHOUT_NCCL, rank);
	if (ddp && !nccl && cc >= 35) {
		struct pt_hint *x = hx_fire(c, PT_HR_DDP_WITHOUT_NCCL, rank, "rank", PT_SEV_INFO, "calls", "count",
					    (double)ddp, 1);
		x->message = hx_msg("DistributedDataParallel runs without NCCL collectives on NCCL-capable GPUs; "
				    "the NCCL backend is normally the fastest choice for GPU training.");
		pt_hint_ev_int(x, "calls", ddp);
		char t[16];
		snprintf(t, sizeof(t), "%u.%u", cc / 10, cc % 10);
		pt_hint_ev_str(x, "cc", t);
	}
}

void pt_hr_truncated_last_step(struct ctx *c, const struct hsite *s)
{
	struct rankdata *rd = s->rd;
	int64_t rank = s->rd->r->rank;
	if (!rd->steps || rd->nwin < 2) {
		hx_not_eval(c, PT_HR_TRUNCATED_LAST_STEP, rank, "rank", "fewer than 2 steps");
	} else {
		hx_mark_eval(c, PT_HR_TRUNCATED_LAST_STEP, rank);
		size_t nw = rd->nwin;
		const int64_t *cnt = rd->last2; /* counted with the devices' member activities (driver.c) */
		if ((double)cnt[1] < c->k->truncated_ratio * (double)cnt[0]) {
			struct pt_hint *x = hx_fire(c, PT_HR_TRUNCATED_LAST_STEP, rank, "rank", PT_SEV_INFO, "ratio",
						    "ratio", cnt[0] ? (double)cnt[1] / (double)cnt[0] : 0,
						    c->k->truncated_ratio);
			x->message = hx_msg("The last step has %" PRId64 " device activities against %" PRId64 " in the "
					    "step before: its device work was probably cut off when tracing stopped; "
					    "exclude it with `--steps`.", cnt[1], cnt[0]);
			pt_hint_ev_int(x, "n_last", cnt[1]);
			pt_hint_ev_int(x, "n_prev", cnt[0]);
			pt_hint_ev_int(x, "last_step", rd->winnum[nw - 1]);
		}
	}
}
