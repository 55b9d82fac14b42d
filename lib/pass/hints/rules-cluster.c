/*
 * The rules across ranks (hints.md §3, MindInsight's parallel proposer):
 * RANK_SPREAD over the rank table, RANK_STEP_GAP, RANK_FLOPS, the pipeline
 * rules PP_RECEIVE, PP_STAGE_COMM, PP_STAGE_FLOPS, and SLOW_LINK over the
 * HCCL links. Each rule also reports the ranks it could not evaluate.
 */
#define _GNU_SOURCE /* qsort_r */
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "support/sort.h"
#include "support/xalloc.h"

static const char *const rt_cols[RT_NCOL] = { "computation", "communication", "overlapped", "comm_not_overlapped",
					      "free", "bubble", "stage", "comm_not_overlapped_excl_receive",
					      "preparing" };

void pt_hr_rank_spread(struct ctx *c, const struct hsite *s)
{
	(void)s;
	const struct pt_hint_knobs *k = c->k;
	char b1[48], b2[48], b3[48];
	if (c->nrt >= 2) {
		for (size_t i = 0; i < c->nrt; i++)
			hx_mark_eval(c, PT_HR_RANK_SPREAD, c->rt[i].rank);
		for (int col = 0; col < RT_NCOL; col++) {
			if (!c->any_rv && col >= 5 && col <= 7)
				continue;
			double mx = -1, mn = 0, sum = 0;
			size_t imx = 0, imn = 0;
			for (size_t i = 0; i < c->nrt; i++) {
				double v = c->rt[i].col[col];
				sum += v;
				if (i == 0 || v > mx)
					mx = v, imx = i;
				if (i == 0 || v < mn)
					mn = v, imn = i;
			}
			double mean = sum / (double)c->nrt;
			if (!(mean > 0))
				continue;
			double sp = (mx - mn) / mean * 100;
			if (!(sp > k->rank_spread_pct))
				continue;
			const char *why = col == 0 ? "rank %lld is slower or has more work" :
					  (col == 4 || col == 8) ? "rank %lld is held up by its host" :
					  (col == 5 || col == 6) ? "pipeline stages are unbalanced" :
					  "a slow link, or ranks waiting for a straggler";
			char tail[96];
			snprintf(tail, sizeof(tail), why, (long long)c->rt[imx].rank);
			struct pt_hint *x = hx_fire(c, PT_HR_RANK_SPREAD, c->rt[imx].rank, "rank", PT_SEV_WARN, "spread_pct",
						    "pct", sp, k->rank_spread_pct);
			x->message = hx_msg("%s differs by " PT_TEXT_FRAC "%% across ranks (max %s on rank %lld, min %s on rank %lld, mean "
					    "%s; threshold " PT_TEXT_FRAC "%%): %s.", rt_cols[col], sp, hx_ftime(c, b1, llround(mx)),
					    (long long)c->rt[imx].rank, hx_ftime(c, b2, llround(mn)), (long long)c->rt[imn].rank,
					    hx_ftime(c, b3, llround(mean)), k->rank_spread_pct, tail);
			pt_hint_ev_str(x, "column", rt_cols[col]);
			for (size_t i = 0; i < c->nrt; i++) {
				char t[48];
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].rank);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "rank", t, true);
				snprintf(t, sizeof(t), "%" PRIu32, c->rt[i].dev);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "device_id", t, true);
				snprintf(t, sizeof(t), "%lld", llround(c->rt[i].col[col]));
				pt_hint_ev_item(x, "ranks", (int)i + 1, "mean_ns", t, true);
			}
			pt_hint_ev_int(x, "min_ns", llround(mn));
			pt_hint_ev_int(x, "max_ns", llround(mx));
			pt_hint_ev_int(x, "mean_ns", llround(mean));
			pt_hint_ev_dbl(x, "spread_pct", sp);
		}
	}
	for (size_t i = 0; i < c->nrk; i++) {
		if (c->nrk < 2)
			hx_not_eval(c, PT_HR_RANK_SPREAD, c->rk[i].rank, "rank", "fewer than 2 ranks");
		else if (c->rk[i].seen && c->rk[i].st[PT_HR_RANK_SPREAD] == ST_NONE)
			/* several ranks, but this one (or the others) lack the rule's input */
			hx_not_eval(c, PT_HR_RANK_SPREAD, c->rk[i].rank, "rank", "%s",
				    c->nrt < 2 ? "fewer than 2 ranks with device activity" : "no device activity");
	}
}

void pt_hr_rank_step_gap(struct ctx *c, const struct hsite *s)
{
	(void)s;
	const struct pt_hint_knobs *k = c->k;
	char b1[48];
	size_t ng = 0;
	double gsum = 0;
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].has_gap)
			ng++, gsum += c->rk[i].mean_gap;
	if (ng >= 2 && gsum > 0) {
		double mean = gsum / (double)ng, best = -1;
		size_t bi = 0;
		for (size_t i = 0; i < c->nrk; i++)
			if (c->rk[i].has_gap) {
				hx_mark_eval(c, PT_HR_RANK_STEP_GAP, c->rk[i].rank);
				double v = c->rk[i].mean_gap / mean - 1;
				if (v > best)
					best = v, bi = i;
			}
		if (best * 100 > k->rank_step_gap_pct) {
			struct pt_hint *x = hx_fire(c, PT_HR_RANK_STEP_GAP, c->rk[bi].rank, "rank", PT_SEV_WARN, "excess_pct",
						    "pct", best * 100, k->rank_step_gap_pct);
			x->message = hx_msg("Rank %lld waits %s between steps, " PT_TEXT_FRAC "%% more than the rank average: check its "
					    "data pipeline.", (long long)c->rk[bi].rank,
					    hx_ftime(c, b1, llround(c->rk[bi].mean_gap)), best * 100);
			int ix = 0;
			for (size_t i = 0; i < c->nrk; i++)
				if (c->rk[i].has_gap) {
					char t[48];
					ix++;
					snprintf(t, sizeof(t), "%lld", (long long)c->rk[i].rank);
					pt_hint_ev_item(x, "ranks", ix, "rank", t, true);
					snprintf(t, sizeof(t), "%lld", llround(c->rk[i].mean_gap));
					pt_hint_ev_item(x, "ranks", ix, "mean_gap_ns", t, true);
				}
			pt_hint_ev_int(x, "mean_ns", llround(mean));
		}
	}
	for (size_t i = 0; i < c->nrk; i++) {
		if (c->nrk < 2) {
			hx_not_eval(c, PT_HR_RANK_STEP_GAP, c->rk[i].rank, "rank", "fewer than 2 ranks");
		} else if (c->rk[i].seen && c->rk[i].st[PT_HR_RANK_STEP_GAP] == ST_NONE) {
			const char *why = !c->rk[i].has_gap ? "no step interval (fewer than 2 steps)" :
					  ng < 2 ? "fewer than 2 ranks with a step interval" :
					  "mean step interval is 0";
			hx_not_eval(c, PT_HR_RANK_STEP_GAP, c->rk[i].rank, "rank", "%s", why);
		}
	}
}

/* RANK_FLOPS: achieved FLOPS per rank (F / B of LOW_FLOPS_UTIL) */
void pt_hr_rank_flops(struct ctx *c, const struct hsite *s)
{
	(void)s;
	const struct pt_hint_knobs *k = c->k;
	size_t nf = 0;
	double fsum = 0;
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].has_flops && c->rk[i].flops_busy > 0)
			nf++, fsum += c->rk[i].flops / ((double)c->rk[i].flops_busy / 1e9);
	bool all_f = nf == c->nrk;
	if (nf >= 2 && all_f && fsum > 0) {
		double mean = fsum / (double)nf, best = -1;
		size_t bi = 0;
		for (size_t i = 0; i < c->nrk; i++) {
			hx_mark_eval(c, PT_HR_RANK_FLOPS, c->rk[i].rank);
			double f = c->rk[i].flops / ((double)c->rk[i].flops_busy / 1e9);
			double v = (mean - f) / mean;
			if (v > best)
				best = v, bi = i;
		}
		if (best * 100 > k->rank_flops_pct) {
			double f = c->rk[bi].flops / ((double)c->rk[bi].flops_busy / 1e9);
			struct pt_hint *x = hx_fire(c, PT_HR_RANK_FLOPS, c->rk[bi].rank, "rank", PT_SEV_WARN, "shortfall_pct",
						    "pct", best * 100, k->rank_flops_pct);
			x->message = hx_msg("Rank %lld reaches " PT_TEXT_FRAC " GFLOPS, " PT_TEXT_FRAC
					    "%% below the rank average: check that device.",
					    (long long)c->rk[bi].rank, f / 1e9, best * 100);
			for (size_t i = 0; i < c->nrk; i++) {
				char t[48];
				snprintf(t, sizeof(t), "%lld", (long long)c->rk[i].rank);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "rank", t, true);
				snprintf(t, sizeof(t), "%.4f", c->rk[i].flops / ((double)c->rk[i].flops_busy / 1e9) / 1e9);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "gflops", t, true);
			}
			pt_hint_ev_dbl(x, "mean_gflops", mean / 1e9);
		}
	}
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].st[PT_HR_RANK_FLOPS] == ST_NONE)
			hx_not_eval(c, PT_HR_RANK_FLOPS, c->rk[i].rank, "rank",
				    c->nrk < 2 ? "fewer than 2 ranks" : "no FLOPs data on every rank");
}

/* PP_RECEIVE: receive time not hidden by computation over all ranks (hints.md §3) */
void pt_hr_pp_receive(struct ctx *c, const struct hsite *s)
{
	(void)s;
	const struct pt_hint_knobs *k = c->k;
	if (c->any_rv) {
		int64_t rv = 0, st = 0;
		for (size_t i = 0; i < c->nrt; i++) {
			rv += c->rt[i].rv_alone;
			st += c->rt[i].step;
			hx_mark_eval(c, PT_HR_PP_RECEIVE, c->rt[i].rank);
		}
		double p = hx_pct(rv, st);
		if (p > k->pp_receive_pct) {
			struct pt_hint *x = hx_fire(c, PT_HR_PP_RECEIVE, c->rt[0].rank, "rank", PT_SEV_WARN, "receive_pct",
						    "pct", p, k->pp_receive_pct);
			x->message = hx_msg("Stage-to-stage receives leave the device idle " PT_TEXT_FRAC "%% of the time (threshold "
					    PT_TEXT_FRAC "%%): look at the timeline for the stage that sends late.", p, k->pp_receive_pct);
			pt_hint_ev_dbl(x, "receive_pct", p);
			pt_hint_ev_int(x, "receive_alone_ns", rv);
			pt_hint_ev_int(x, "step_ns", st);
			for (size_t i = 0; i < c->nrt; i++) {
				char t[48];
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].rank);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "rank", t, true);
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].rv_alone);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "receive_alone_ns", t, true);
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].step);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "step_ns", t, true);
			}
		}
	}
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].st[PT_HR_PP_RECEIVE] == ST_NONE && c->rk[i].seen)
			hx_not_eval(c, PT_HR_PP_RECEIVE, c->rk[i].rank, "rank", "no receive ops");
}

/* Ranks of a pipeline stage, as evidence text: "0,1". */
static void stage_ranks(const int64_t *rk, size_t nr, size_t per, size_t st, char *b, size_t n)
{
	b[0] = 0;
	for (size_t i = st * per; i < (st + 1) * per && i < nr; i++) {
		size_t l = strlen(b);
		snprintf(b + l, n - l, "%s%lld", l ? "," : "", (long long)rk[i]);
	}
}

/*
 * The pipeline stages of PP_STAGE_COMM and PP_STAGE_FLOPS (hints.md §3,
 * MindInsight's parallel proposer): with receive ops present and
 * hints.pp.stages = S, the ranks of the rank table in ascending order, the
 * i-th (from 0) in stage i ÷ (ranks ÷ S) + 1.
 */
struct stages {
	int64_t *rk; /* ranks of the rank table, ascending */
	size_t nr, S, per;
	char why[160]; /* why the stages are unknown, "" when known */
};

static void stages_init(struct ctx *c, struct stages *p)
{
	const struct pt_hint_knobs *k = c->k;
	memset(p, 0, sizeof(*p));
	p->rk = pt_xmalloc((c->nrt + 1) * sizeof(*p->rk));
	for (size_t i = 0; i < c->nrt; i++) {
		bool dup = false;
		for (size_t j = 0; j < p->nr && !dup; j++)
			dup = p->rk[j] == c->rt[i].rank;
		if (!dup)
			p->rk[p->nr++] = c->rt[i].rank;
	}
	pt_sort(p->rk, p->nr, sizeof(*p->rk), hx_cmp_i64);
	size_t S = p->S = (size_t)k->pp_stages, nr = p->nr;
	if (!S)
		snprintf(p->why, sizeof(p->why), "number of pipeline stages unknown (set hints.pp.stages)");
	else if (!c->any_rv)
		snprintf(p->why, sizeof(p->why), "no receive ops");
	else if (S < 2)
		snprintf(p->why, sizeof(p->why), "one pipeline stage");
	else if (nr < S || nr % S)
		snprintf(p->why, sizeof(p->why), "%zu ranks are not a multiple of %zu pipeline stages", nr, S);
	if (!p->why[0] && nr)
		p->per = nr / S;
}

/* The stages unknown (or no rank with device activity): every rank seen is
 * not evaluated. Returns whether it was so. */
static bool stages_unknown(struct ctx *c, const struct stages *p, enum pt_hint_rule rule)
{
	if (!p->why[0] && p->nr)
		return false;
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].seen)
			hx_not_eval(c, rule, c->rk[i].rank, "rank", "%s", p->why[0] ? p->why : "no device activity");
	return true;
}

/* Ranks seen without a covered device. */
static void stages_rest(struct ctx *c, enum pt_hint_rule rule)
{
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].seen && c->rk[i].st[rule] == ST_NONE)
			hx_not_eval(c, rule, c->rk[i].rank, "rank", "no device activity");
}

/* PP_STAGE_COMM: Σ comm_not_overlapped_excl_receive ÷ Σ step time over the stage's ranks */
void pt_hr_pp_stage_comm(struct ctx *c, const struct hsite *s)
{
	(void)s;
	const struct pt_hint_knobs *k = c->k;
	struct stages p;
	stages_init(c, &p);
	if (!stages_unknown(c, &p, PT_HR_PP_STAGE_COMM)) {
		int64_t *rk = p.rk;
		size_t nr = p.nr, S = p.S, per = p.per;
		char t[256];
		int64_t *cn = pt_xcalloc(S, sizeof(*cn)), *st = pt_xcalloc(S, sizeof(*st));
		for (size_t i = 0; i < c->nrt; i++) {
			size_t pos = 0;
			while (rk[pos] != c->rt[i].rank)
				pos++;
			cn[pos / per] += c->rt[i].cnox;
			st[pos / per] += c->rt[i].step;
		}
		size_t worst = 0;
		for (size_t q = 0; q < S; q++)
			if (hx_pct(cn[q], st[q]) > hx_pct(cn[worst], st[worst]))
				worst = q;
		for (size_t i = 0; i < nr; i++)
			hx_mark_eval(c, PT_HR_PP_STAGE_COMM, rk[i]);
		double rate = hx_pct(cn[worst], st[worst]);
		if (rate > k->pp_stage_comm_pct) {
			char scope[32];
			snprintf(scope, sizeof(scope), "stage:%zu", worst + 1);
			struct pt_hint *x = hx_fire(c, PT_HR_PP_STAGE_COMM, rk[worst * per], scope, PT_SEV_WARN, "stage_comm_pct",
						    "pct", rate, k->pp_stage_comm_pct);
			x->message = hx_msg("Communication inside stage %zu is exposed " PT_TEXT_FRAC "%% of the time "
					    "(threshold " PT_TEXT_FRAC "%%): "
					    "revisit the sharding inside the stage.", worst + 1, rate, k->pp_stage_comm_pct);
			pt_hint_ev_dbl(x, "stage_comm_pct", rate);
			pt_hint_ev_int(x, "n_stages", (int64_t)S);
			for (size_t q = 0; q < S; q++) {
				int ix = (int)q + 1;
				snprintf(t, sizeof(t), "%zu", q + 1);
				pt_hint_ev_item(x, "stages", ix, "stage", t, true);
				snprintf(t, sizeof(t), "%" PRId64, cn[q]);
				pt_hint_ev_item(x, "stages", ix, "comm_ns", t, true);
				snprintf(t, sizeof(t), "%" PRId64, st[q]);
				pt_hint_ev_item(x, "stages", ix, "step_ns", t, true);
				snprintf(t, sizeof(t), "%.4f", hx_pct(cn[q], st[q]));
				pt_hint_ev_item(x, "stages", ix, "comm_pct", t, true);
				stage_ranks(rk, nr, per, q, t, sizeof(t));
				pt_hint_ev_item(x, "stages", ix, "ranks", t, false);
			}
		}
		free(cn);
		free(st);
		stages_rest(c, PT_HR_PP_STAGE_COMM);
	}
	free(p.rk);
}

/* PP_STAGE_FLOPS: per rank FLOPs per step, stage = mean over its ranks */
void pt_hr_pp_stage_flops(struct ctx *c, const struct hsite *s)
{
	(void)s;
	const struct pt_hint_knobs *k = c->k;
	struct stages p;
	stages_init(c, &p);
	if (!stages_unknown(c, &p, PT_HR_PP_STAGE_FLOPS)) {
		int64_t *rk = p.rk;
		size_t nr = p.nr, S = p.S, per = p.per;
		char t[256];
		bool all = true;
		for (size_t i = 0; i < nr && all; i++)
			all = hx_rank_of(c, rk[i])->has_flops;
		if (!all) {
			for (size_t i = 0; i < nr; i++)
				hx_not_eval(c, PT_HR_PP_STAGE_FLOPS, rk[i], "rank", "no FLOPs data on every rank");
		} else {
			double *sf = pt_xcalloc(S, sizeof(*sf));
			double mean = 0;
			for (size_t i = 0; i < nr; i++) {
				const struct rk *r = hx_rank_of(c, rk[i]);
				sf[i / per] += r->flops / (double)(r->nsteps ? r->nsteps : 1) / (double)per;
				hx_mark_eval(c, PT_HR_PP_STAGE_FLOPS, rk[i]);
			}
			for (size_t q = 0; q < S; q++)
				mean += sf[q] / (double)S;
			size_t big = 0;
			for (size_t q = 1; q < S; q++)
				if (sf[q] > sf[big])
					big = q;
			double ex = mean > 0 ? (sf[big] / mean - 1) * 100 : 0;
			if (mean > 0 && ex > k->pp_stage_flops_pct) {
				char scope[32];
				snprintf(scope, sizeof(scope), "stage:%zu", big + 1);
				struct pt_hint *x = hx_fire(c, PT_HR_PP_STAGE_FLOPS, rk[big * per], scope, PT_SEV_WARN, "excess_pct",
							    "pct", ex, k->pp_stage_flops_pct);
				x->message = hx_msg("Stage %zu computes " PT_TEXT_FRAC " MFLOPs per device, "
						    PT_TEXT_FRAC "%% above the stage average: "
						    "rebalance layers across stages.", big + 1, sf[big] / 1e6, ex);
				pt_hint_ev_dbl(x, "excess_pct", ex);
				pt_hint_ev_dbl(x, "mean_mflops", mean / 1e6);
				pt_hint_ev_int(x, "n_stages", (int64_t)S);
				for (size_t q = 0; q < S; q++) {
					int ix = (int)q + 1;
					snprintf(t, sizeof(t), "%zu", q + 1);
					pt_hint_ev_item(x, "stages", ix, "stage", t, true);
					snprintf(t, sizeof(t), "%.4f", sf[q] / 1e6);
					pt_hint_ev_item(x, "stages", ix, "mflops", t, true);
					stage_ranks(rk, nr, per, q, t, sizeof(t));
					pt_hint_ev_item(x, "stages", ix, "ranks", t, false);
				}
			}
			free(sf);
		}
		stages_rest(c, PT_HR_PP_STAGE_FLOPS);
	}
	free(p.rk);
}

static int cmp_link(const void *pa, const void *pb, void *arg)
{
	const struct pt_model *m = arg;
	const struct pt_hccl_link *a = pa, *b = pb;
	if (a->type != b->type) {
		int t = strcmp(pt_model_strget(m, a->type), pt_model_strget(m, b->type));
		if (t)
			return t;
	}
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return a->dst < b->dst ? -1 : a->dst > b->dst;
}

/*
 * SLOW_LINK (hints.md §3, MindInsight's parallel proposer): per transport
 * type, over the links with src != dst of every device's HCCL data, the link
 * whose bandwidth falls furthest below the type's mean, when by more than
 * slow_link_pct. One hint per type, on the link's source rank.
 */
void pt_hr_slow_link(struct ctx *c, const struct hsite *s)
{
	(void)s;
	const struct pt_model *m = c->m;
	hx_sort_r(c->links, c->nlinks, sizeof(*c->links), cmp_link, (void *)m);
	for (size_t i = 0; i < c->nrk; i++) {
		if (c->rk[i].has_hccl)
			hx_mark_eval(c, PT_HR_SLOW_LINK, c->rk[i].rank);
		else if (c->rk[i].seen)
			hx_not_eval(c, PT_HR_SLOW_LINK, c->rk[i].rank, "rank", "no HCCL link data");
	}
	for (size_t a = 0, b; a < c->nlinks; a = b) {
		for (b = a; b < c->nlinks && c->links[b].type == c->links[a].type; b++)
			;
		const char *type = pt_model_strget(m, c->links[a].type);
		double sum = 0;
		size_t nl = 0;
		for (size_t i = a; i < b; i++)
			if (c->links[i].src != c->links[i].dst) {
				sum += pt_hccl_link_kb_per_ms(&c->links[i]);
				nl++;
			}
		if (!nl || !(sum > 0))
			continue; /* zero averages skip the rule */
		double mean = sum / (double)nl, worst = -1;
		size_t wi = a;
		for (size_t i = a; i < b; i++) {
			if (c->links[i].src == c->links[i].dst)
				continue;
			double v = (mean - pt_hccl_link_kb_per_ms(&c->links[i])) / mean;
			if (v > worst)
				worst = v, wi = i;
		}
		if (!(worst * 100 > c->k->slow_link_pct))
			continue;
		const struct pt_hccl_link *w = &c->links[wi];
		double bw = pt_hccl_link_kb_per_ms(w);
		char scope[96], t[48];
		snprintf(scope, sizeof(scope), "link:%" PRIu32 "-%" PRIu32 "/%s", w->src, w->dst, type);
		struct pt_hint *x = hx_fire(c, PT_HR_SLOW_LINK, w->src, scope, PT_SEV_WARN, "shortfall_pct", "pct", worst * 100,
					    c->k->slow_link_pct);
		x->message = hx_msg("Link %" PRIu32 "\u2192%" PRIu32 " (%s) moves " PT_TEXT_FRAC " KB/ms, " PT_TEXT_FRAC
				    "%% below the %s average.", w->src, w->dst, type, bw, worst * 100, type);
		pt_hint_ev_dbl(x, "shortfall_pct", worst * 100);
		pt_hint_ev_dbl(x, "kb_per_ms", bw);
		pt_hint_ev_dbl(x, "mean_kb_per_ms", mean);
		pt_hint_ev_str(x, "type", type);
		int ix = 0;
		for (size_t i = a; i < b; i++) {
			const struct pt_hccl_link *l = &c->links[i];
			if (l->src == l->dst)
				continue;
			ix++;
			snprintf(t, sizeof(t), "%" PRIu32, l->src);
			pt_hint_ev_item(x, "links", ix, "src", t, true);
			snprintf(t, sizeof(t), "%" PRIu32, l->dst);
			pt_hint_ev_item(x, "links", ix, "dst", t, true);
			snprintf(t, sizeof(t), "%.4f", pt_hccl_link_kb_per_ms(l));
			pt_hint_ev_item(x, "links", ix, "kb_per_ms", t, true);
			snprintf(t, sizeof(t), "%" PRIu64, l->size);
			pt_hint_ev_item(x, "links", ix, "size_bytes", t, true);
			snprintf(t, sizeof(t), "%" PRId64, l->time_ns);
			pt_hint_ev_item(x, "links", ix, "time_ns", t, true);
		}
	}
}
