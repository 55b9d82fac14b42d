#include "export/export-chrome-int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/err.h"
#include "support/out.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* ------------------------------------------------------------------ planner */

struct plan_unit {
	uint64_t first;     /* ordinal of its first event */
	uint64_t bytes;     /* all its events */
	uint64_t last;      /* bytes of its last piece (after forced cuts) */
	size_t cut0, ncut;  /* its forced cuts in p->forced */
};

struct pt_chrome_planner {
	uint64_t header, limit, room, ord, acc;
	bool have;
	uint32_t unit;
	PT_VEC(struct plan_unit) units;
	PT_VEC(uint64_t) forced;
	PT_VEC(uint64_t) cuts;
};

struct pt_chrome_planner *pt_chrome_planner_new(uint64_t header, uint64_t limit)
{
	struct pt_chrome_planner *p = pt_xcalloc(1, sizeof(*p));
	p->header = header;
	p->limit = limit;
	p->room = limit > header ? limit - header : 1;
	return p;
}

void pt_chrome_planner_event(struct pt_chrome_planner *p, uint32_t unit, uint64_t bytes)
{
	if (!p->have || unit != p->unit) {
		struct plan_unit u = { p->ord, 0, 0, p->forced.n, 0 };
		pt_vec_push(&p->units, u);
		p->unit = unit;
		p->have = true;
		p->acc = 0;
	}
	struct plan_unit *u = &p->units.v[p->units.n - 1];
	/* cut between events at the first one whose inclusion would exceed L (counted from a fresh part) */
	if (p->acc && p->acc + bytes > p->room) {
		pt_vec_push(&p->forced, p->ord);
		u->ncut++;
		p->acc = 0;
	}
	p->acc += bytes;
	u->bytes += bytes;
	u->last = p->acc;
	p->ord++;
}

size_t pt_chrome_planner_finish(struct pt_chrome_planner *p, const uint64_t **cuts)
{
	uint64_t cur = 0;
	bool open = false;
	p->cuts.n = 0;
	for (size_t i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];
		if (!u->ncut) {
			if (open && cur + u->bytes <= p->room) {
				cur += u->bytes;
				continue;
			}
			if (open)
				pt_vec_push(&p->cuts, u->first);
			open = true;
			cur = u->bytes;
			continue;
		}
		if (open)
			pt_vec_push(&p->cuts, u->first);
		for (size_t k = 0; k < u->ncut; k++)
			pt_vec_push(&p->cuts, p->forced.v[u->cut0 + k]);
		open = true;
		cur = u->last;
	}
	*cuts = p->cuts.v;
	return p->cuts.n + 1;
}

void pt_chrome_planner_free(struct pt_chrome_planner *p)
{
	if (!p)
		return;
	pt_vec_free(&p->units);
	pt_vec_free(&p->forced);
	pt_vec_free(&p->cuts);
	free(p);
}

/* ------------------------------------------------------------------ parts */

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static char *path_stem(const char *path)
{
	size_t n = strlen(path);
	if (ends_with(path, ".json.gz"))
		n -= 8;
	else if (ends_with(path, ".json"))
		n -= 5;
	else if (ends_with(path, ".gz"))
		n -= 3;
	return pt_xstrndup(path, n);
}

/*
 * Parts are committed together (issue 29.10): each part and the manifest are
 * written through pt_out to a staging name "<final>.tmp.<pid>" beside their
 * final name; only when all of them are written are they renamed into place,
 * parts first and the manifest last. On any failure every staged file (and
 * any part already renamed) is removed, so a failed run leaves no part. After
 * a commit, parts of the same stem that the run did not write (an earlier,
 * longer run's, or its other compression) are removed.
 */
struct parts_state {
	const char *path;
	char *stem;
	struct pt_out out;
	bool open;
	struct sink sk;
	struct pt_err **e;
	size_t nparts;
	struct pt_chrome_stats *st;
	PT_VEC(char *) staged; /* staging names; their final names: part files, then the manifest */
	PT_VEC(char *) finals;
};

static char *stage_name(const char *final)
{
	return pt_xasprintf("%s.tmp.%ld", final, (long)getpid());
}

static int stage_open(struct parts_state *ps, struct pt_out *o, const char *final)
{
	char *st = stage_name(final);
	if (pt_out_open(o, st, ps->e)) {
		free(st);
		return -1;
	}
	free(o->name); /* messages name the file the user asked for */
	o->name = pt_xstrdup(final);
	pt_vec_push(&ps->staged, st);
	pt_vec_push(&ps->finals, pt_xstrdup(final));
	return 0;
}

/* Remove every staged file and n already committed ones. */
static void stage_abort(struct parts_state *ps, size_t committed)
{
	for (size_t i = 0; i < ps->staged.n; i++)
		unlink(i < committed ? ps->finals.v[i] : ps->staged.v[i]);
}

static bool is_part_name(const char *name, const char *base, size_t bl)
{
	if (strncmp(name, base, bl) || strncmp(name + bl, ".part", 5))
		return false;
	const char *q = name + bl + 5;
	size_t nd = 0;
	while (q[nd] >= '0' && q[nd] <= '9')
		nd++;
	return nd >= 3 && (!strcmp(q + nd, ".json") || !strcmp(q + nd, ".json.gz"));
}

/* Remove "<stem>.partNNN.json[.gz]" files that are not among this run's parts. */
static void remove_stale_parts(struct parts_state *ps)
{
	const char *slash = strrchr(ps->stem, '/');
	char *dir = slash ? pt_xstrndup(ps->stem, (size_t)(slash - ps->stem) + (slash == ps->stem)) : pt_xstrdup(".");
	const char *base = slash ? slash + 1 : ps->stem;
	size_t bl = strlen(base);
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!is_part_name(de->d_name, base, bl))
				continue;
			char *full = slash ? pt_xasprintf("%s/%s", dir, de->d_name) : pt_xstrdup(de->d_name);
			bool ours = false;
			for (size_t i = 0; i < ps->finals.n && !ours; i++)
				ours = !strcmp(ps->finals.v[i], full);
			if (!ours)
				unlink(full);
			free(full);
		}
		closedir(d);
	}
	free(dir);
}

static int stage_commit(struct parts_state *ps)
{
	for (size_t i = 0; i < ps->staged.n; i++)
		if (rename(ps->staged.v[i], ps->finals.v[i]) < 0) {
			int er = errno;
			stage_abort(ps, i);
			return pt_err_errno(ps->e, er, "cannot put '%s' in place (no part written)", ps->finals.v[i]);
		}
	remove_stale_parts(ps);
	return 0;
}

static void stage_free(struct parts_state *ps)
{
	for (size_t i = 0; i < ps->staged.n; i++) {
		free(ps->staged.v[i]);
		free(ps->finals.v[i]);
	}
	pt_vec_free(&ps->staged);
	pt_vec_free(&ps->finals);
}

static int close_part(struct wctx *c, struct loop *L)
{
	struct parts_state *ps = L->user;
	if (!ps->open)
		return 0;
	emit_footer(c, &ps->sk);
	sink_finish(&ps->sk);
	struct part_info *p = &L->pi[L->part];
	p->bytes = ps->sk.total;
	p->gzip_bytes = ps->sk.zbytes;
	ps->st->bytes += ps->sk.total;
	bool zerr = ps->sk.zerr;
	sink_free(&ps->sk);
	ps->open = false;
	if (zerr) {
		pt_out_abort(&ps->out);
		return pt_err(ps->e, "cannot compress '%s'", p->file);
	}
	return pt_out_commit(&ps->out, ps->e); /* to its staging name */
}

static int open_part(struct wctx *c, struct loop *L, size_t k)
{
	struct parts_state *ps = L->user;
	struct part_info *p = &L->pi[k];
	p->file = pt_xasprintf("%s.part%03zu.json%s", ps->stem, k + 1, c->o->gzip ? ".gz" : "");
	if (stage_open(ps, &ps->out, p->file))
		return -1;
	ps->open = true;
	sink_init(&ps->sk, &ps->out, c->o->gzip, c->o->gzip_level, c->o->gzip_threads);
	L->sk = &ps->sk;
	L->part = k;
	struct hdr h = { k + 1, ps->nparts, p->dropped };
	emit_header(c, &ps->sk, &h);
	return 0;
}

static int next_part(struct wctx *c, struct loop *L, int64_t ts)
{
	(void)ts;
	if (close_part(c, L))
		return -1;
	return open_part(c, L, L->part + 1);
}

static size_t part_of(const struct wctx *c, uint64_t ord)
{
	size_t lo = 0, hi = c->ncuts;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->cuts[mid] <= ord)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int write_manifest(struct wctx *c, struct parts_state *ps, struct part_info *pi, size_t n, struct pt_err **e)
{
	char *mp = pt_xasprintf("%s.parts.json", ps->stem);
	struct pt_out o;
	if (stage_open(ps, &o, mp)) {
		free(mp);
		return -1;
	}
	struct sink sk;
	sink_init(&sk, &o, false, 0, 1);
	sink_puts(&sk, "{\"base_time_ns\": ");
	sink_i64(&sk, c->t->base_ns);
	sink_puts(&sk, ", \"max_part_bytes\": ");
	sink_i64(&sk, (int64_t)c->limit);
	sink_puts(&sk, ", \"parts\": [\n");
	for (size_t k = 0; k < n; k++) {
		const struct part_info *p = &pi[k];
		const char *base = strrchr(p->file, '/');
		base = base ? base + 1 : p->file;
		sink_puts(&sk, k ? ",\n{\"file\": " : "{\"file\": ");
		sink_jstr(&sk, &c->tmp, base, strlen(base));
		sink_puts(&sk, ", \"first_ts_ns\": ");
		sink_i64(&sk, c->t->base_ns + p->first_ts);
		sink_puts(&sk, ", \"end_ts_ns\": ");
		sink_i64(&sk, c->t->base_ns + p->end_ts);
		sink_puts(&sk, ", \"steps\": ");
		uint32_t lo = p->unit_lo ? p->unit_lo : 1, hi = p->unit_hi;
		if (!c->t->nbounds || !hi) {
			sink_puts(&sk, "null");
		} else {
			sink_puts(&sk, "[");
			sink_i64(&sk, c->t->bound_step[lo - 1]);
			sink_puts(&sk, ", ");
			sink_i64(&sk, c->t->bound_step[hi - 1]);
			sink_puts(&sk, "]");
		}
		sink_puts(&sk, ", \"bytes\": ");
		sink_i64(&sk, (int64_t)p->bytes);
		sink_puts(&sk, ", \"gzip_bytes\": ");
		if (c->o->gzip)
			sink_i64(&sk, (int64_t)p->gzip_bytes);
		else
			sink_puts(&sk, "null");
		sink_puts(&sk, ", \"events\": ");
		sink_i64(&sk, (int64_t)p->events);
		sink_puts(&sk, ", \"dropped_flows\": ");
		sink_i64(&sk, (int64_t)p->dropped);
		sink_puts(&sk, "}");
	}
	sink_puts(&sk, "\n]}\n");
	sink_finish(&sk);
	sink_free(&sk);
	free(mp);
	return pt_out_commit(&o, e);
}

int write_parts(struct wctx *c, const char *path, struct pt_chrome_stats *st, struct pt_err **e)
{
	/* pass 1: plan */
	struct sink cnt;
	sink_init(&cnt, NULL, false, 0, 1);
	struct hdr h = { 99999, 99999, 999999999 };
	emit_header(c, &cnt, &h);
	emit_footer(c, &cnt);
	uint64_t header = sink_pos(&cnt);
	sink_free(&cnt);
	sink_init(&cnt, NULL, false, 0, 1);
	struct pt_chrome_planner *pl = pt_chrome_planner_new(header, c->limit);
	c->flow_ord = pt_xcalloc(2 * (c->t->nflows ? c->t->nflows : 1), sizeof(*c->flow_ord));
	c->record_flow_ord = true;
	struct loop L1 = { .mode = 1, .sk = &cnt, .pl = pl };
	c->first_event = false;
	int failed = run_loop(c, &L1);
	c->record_flow_ord = false;
	sink_free(&cnt);
	if (failed < 0) {
		pt_chrome_planner_free(pl);
		return -1;
	}
	size_t nparts = pt_chrome_planner_finish(pl, &c->cuts);
	c->ncuts = nparts - 1;
	/* flows crossing parts are dropped */
	struct part_info *pi = pt_xcalloc(nparts, sizeof(*pi));
	c->flow_drop = pt_xcalloc(c->t->nflows ? c->t->nflows : 1, 1);
	for (size_t f = 0; f < c->t->nflows; f++) {
		size_t a = part_of(c, c->flow_ord[2 * f]), b = part_of(c, c->flow_ord[2 * f + 1]);
		if (a != b) {
			c->flow_drop[f] = 1;
			pi[a].dropped++;
			pi[b].dropped++;
			c->dropped++;
		}
	}
	/* pass 2: write */
	struct parts_state ps = { .path = path, .stem = path_stem(path), .e = e, .nparts = nparts, .st = st };
	struct loop L2 = { .mode = 2, .next_part = next_part, .pi = pi, .user = &ps };
	int rc = open_part(c, &L2, 0);
	if (!rc)
		rc = run_loop(c, &L2);
	if (!rc)
		rc = close_part(c, &L2);
	else if (ps.open) {
		sink_free(&ps.sk);
		pt_out_abort(&ps.out);
	}
	if (!rc)
		rc = write_manifest(c, &ps, pi, nparts, e);
	if (!rc)
		rc = stage_commit(&ps);
	else
		stage_abort(&ps, 0);
	stage_free(&ps);
	st->parts = nparts;
	st->dropped_flows = c->dropped;
	for (size_t k = 0; k < nparts; k++) {
		st->events += pi[k].events;
		if (pi[k].events > st->max_part_events)
			st->max_part_events = pi[k].events;
		free(pi[k].file);
	}
	st->flows = 0;
	for (size_t f = 0; f < c->t->nflows; f++)
		st->flows += !c->flow_drop[f];
	free(pi);
	free(ps.stem);
	pt_chrome_planner_free(pl);
	c->cuts = NULL;
	return rc;
}

