/*
 * `timeline` over a .ptm file of GPU data without holding its events
 * (pass-timeline.h, pt_tl_gstream_new; proftool-timeline(1) MEMORY): the
 * model's tables are read, its events four times or more, and per event
 * nothing is kept.
 *
 * First read: every chunk but the events and the launch tables (links and
 * copy infos: checked, not applied, PT_PTM_SKIP_LAUNCH_TABLES; the kineto
 * profile keeps the copies and leaves the memory records and the links,
 * PT_PTM_TABLES_NO_MEM_LINKS) is applied to the model; each event batch is
 * scanned: the earliest start and latest end (the model's origin, the
 * selection's notes), per track the lag of its starts
 * (support/lag.h), per device the lag of its kernels' starts, the host
 * ranges that match the step pattern (the step windows, in model order), and
 * the correlation ids of the activities (the launch join's keys,
 * launch-join.h); with --steps or --time-window, what their notes count of
 * the steps (pass-timeline-gsel.h); with the unions, the host ranges and launch
 * links that make a kernel communication by where it was launched
 * (pass-timeline-gcomm.h: marked by the second read, looked up by the third;
 * a range that only its range info makes communication, or launch links read
 * before the first such range, are taken by one more read before the second).
 * Ascend work, a device other than a CPU or a GPU stops the read: the model is
 * read whole (PT_TL_NOSTREAM). In the kineto profile of several ranks, whose
 * launch join is keyed by rank, kernels that join their calls by correlation
 * id under a communication range (no launch link, --extra-tracks) join the
 * first call of their id in the file, of any rank, as the whole load's index
 * does (a join by the id alone, gj), and with step windows a device activity's
 * step is that of the first call of its id in the file, of any rank, as the
 * whole load anchors it (a join by the id alone with the calls' starts, aj).
 * The kineto profile's first read
 * also packs the range infos (External id, cpu_op, user annotation), the
 * launch links that name a host range where a process gets GPU user
 * annotations (krange_annotated: nested by a read of their own before the
 * second, pass-timeline-gpuann.c) and, once it ends, the
 * copy infos (pass-timeline-krange.h; range infos and links out of event
 * order are held, then packed as the whole load finds them:
 * pass-timeline-korder.h), handed to the events as later reads
 * meet them in file order: one cursor per process over each pack (struct
 * gcur), since the writing reads of several processes interleave. A model
 * of several processes (struct gproc) holds each one's events after the
 * other's: the stragglers, lags and bounds below are each process's own, in
 * its file order, and the kineto profile of several ranks
 * keys the launch join by rank too (jkey: each rank's file links its own
 * calls alone).
 *
 * Second read: the runtime calls: the first call of each wanted id gives its
 * start to the join (a device activity's step is its launch's, as the
 * in-memory pass anchors it) and, with flows, the kept call on a row that
 * the launch arrow starts from (the earliest, then the first in the file);
 * with --steps and a host without step ranges, the kernels' launches (several
 * processes: one process at a time, pass-timeline-gsel.h).
 *
 * Third read: each event goes through the pass (tl_pass_event_at: its step
 * and membership, the Steps rows' spans), each kernel into its device's
 * computation or communication union (packed: support/ivpack.h) through a
 * queue released in start order below the device's kernels' lag, and each
 * kept event into its track's queue, released in the rows' order (start,
 * then longer first, then by name, then file order: the layout's order of a
 * track whose starts tie or fall back) below the track's lag: the layout's
 * scan (count, span, nesting lanes), and, with flows, each arrow's two ends
 * (row and time).
 *
 * Writing (a fourth read, again for each rewind of the writer): a read in a
 * second thread fills the rows (pass-timeline-stream.c's queues) through the
 * same track queues, one batch at a time, while the trace's merge waits for
 * a row whose next event is not read yet; a row's lower bound is its track's
 * release bound. A model of several processes has one such read per process
 * (struct gcur, each in a thread of its own, one running at a time), each
 * routing its process's events alone: the merge pulls the read of the row
 * that waits, so that no process's events are held while another's are
 * read (the trace interleaves them in time). What grows with the input: the launch join (the activities'
 * ids and their calls' starts, 16 bytes each; aj's too in the kineto profile of several ranks with step
 * windows), the launch arrows (one struct
 * flow of 32 bytes a join slot from the second read to the end of the third,
 * a graph's further activities apart; then 24 bytes each while the trace
 * orders them, tl_flows_order, and 24 bytes while it is written: their two
 * times and an index in each end's row, tl_build_sources): the trace numbers
 * them in the order of their starts before writing any; the events of a
 * track within its lag, the kernels of a device within its lag. Without step
 * windows the join's call starts go before the third read and the join
 * after it (no event's step is then its launch's).
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/gpu-mem-pack.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-turns.h"
#include "pass/launch-join.h"
#include "pass/pass-timeline-gcomm.h"
#include "pass/pass-timeline-gsel.h"
#include "pass/pass-timeline-gstrag.h"
#include "pass/pass-timeline-korder.h"
#include "pass/pass-timeline-krange.h"
#include "pass/pass-timeline-kxmap.h"
#include "pass/pass-timeline-trace.h"
#include "support/diag.h"
#include "support/bits.h"
#include "support/err.h"
#include "support/lag.h"
#include "support/xalloc.h"

#define AGAIN 3
#define STOPPED 5
#define OWN_DONE 6
#define G_SKIP (1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_PACK_GPU_MEM)

/* A track's kept events not yet released, in the rows' order from h. */
struct tq {
	struct tl_sev *v;
	size_t h, n, cap;
};

struct gtrk {
	struct pt_lag lag; /* its events' starts but the stragglers', first read (no lag: a straggler is one that has) */
	bool seen;         /* third read and writing: its latest start so far */
	int64_t top;
	struct tq q;
	uint32_t *sl;      /* its kept stragglers (indexes into sg) in the rows' order, released from sh */
	size_t sn, sh;
};

/* A device's kernels not yet in its unions, in start order from h. */
struct kq {
	struct kiv {
		int64_t s, e;
		uint8_t cls;
	} *v;
	size_t h, n, cap;
	bool seen;
	int64_t top;
};

/*
 * The launch arrows while the reads gather them: one struct flow per join
 * slot (fs), its call (api: its event index + 1, 0 none; srow: the call's track, then with
 * FL_PLACED and its lane in the top byte once the third read puts it on a
 * row; sts: its start while the second read picks the earliest, then its
 * midpoint) and its first activity (act: the same; frow: its track and
 * lane; fts: its midpoint); a slot's further activities (a graph's kernels)
 * in xf, api the slot until the end of the third read. A track index fits
 * in FL_TRACK (a model with more tracks is read whole). With 0 for none, a
 * slot that no read writes (its call or activity not kept: --steps,
 * --time-window) leaves its page of the zeroed mapping untouched.
 */
#define FL_TRACK 0x7fffffu
#define FL_PLACED 0x800000u
#define FL_LANE(r) ((r) >> 24)

/*
 * A traced process (the devices of one pid; of a pid that several dumps
 * record, each dump's: dsec): a model of several holds each
 * one's events after the other's, so its order in the file is its own: the
 * stragglers are those that start far before its latest start (atop), the
 * bound of its tracks is its events' lag in file order (glag, second read)
 * below its latest start read (gtop), and the writing read is one per
 * process (struct gcur), each routing its own events alone.
 */
struct gproc {
	uint32_t pid;
	uint32_t host; /* of a pid of several hosts (CPU devices): the devices from its host-th on (dsec) */
	struct pt_lag glag;
	bool gseen;     /* third read, writing: gtop is set */
	int64_t gtop;
	bool atop_seen; /* first and second reads: atop is set */
	int64_t atop;
};

/* A read's place in the file; the writing reads' one per process (proc), whose events alone it routes. */
struct gcur {
	struct pt_tl_gstream *s;
	uint32_t proc;
	uint64_t base;   /* model index of the batch's first event */
	size_t sgi;      /* the next straggler */
	size_t kord, kcur; /* the kernel infos' cursor (kconf_next) */
	bool eof_told;   /* the read's end was answered once (its last events came with it) */
	struct pt_ptm_turns rd; /* proc > 0: its writing read (proc 0's is b.rd) */
	uint64_t nown, total; /* a writing read: its process's events read, and in the file (UINT64_MAX: unknown) */
	struct tl_kcopy kc; /* the kineto profile: its cursor in the copy infos (the pack is s->kc's) */
	struct tl_krange kr; /* and in the range infos (the pack is s->kr's) */
};

struct pt_tl_gstream {
	char *path;
	struct pt_model *m;
	const struct pt_tl_opts *o;
	size_t nt, nd;
	struct gtrk *t;
	struct pt_lag *klag; /* per device: its kernels' starts in file order */
	struct gproc *P;     /* per traced process (np of them; one for a model of one) */
	uint32_t *dproc;     /* per device: its process (P, cu) */
	uint32_t *dpid;      /* per device: its pid's place in pids (the arrows' join is keyed by pid: fkey) */
	PT_VEC(uint32_t) pids; /* the devices' pids, in device order */
	size_t np;
	struct gcur *cu;     /* per process: the writing reads' places (cu[0]: the earlier reads' too) */
	struct gcur *at;     /* the read running */
	bool rd_init;        /* cu[1..np)'s reads made */
	bool kranks;         /* the kineto profile of several ranks: a trace per rank, each with its launch arrows */
	uint8_t dense;       /* the model's events.dense after the third read (a writing read's batches change it) */
	/* the events that start before an earlier one of their process in the file (CUPTI writes NVTX ranges and
	 * a stream's syncs apart from its calls and kernels), held from the second read on, in file order
	 * (pass-timeline-gstrag.h); nlate: their count, from the first read */
	struct tl_strags sg;
	uint64_t nlate;
	uint64_t hist[65];   /* first read: events by how far they start before the latest start so far (log2) */
	uint64_t late;       /* a straggler starts more than this before atop */
	uint64_t nev_all;
	struct kq *kq;
	bool again, has_ev, has_corr, want_flows;
	bool no_sets;        /* the kineto profile without its extra rows: no computation and communication unions */
	int64_t evmin, evmax;
	bool has_re;
	regex_t re;
	struct pt_sel_found rf;
	struct tl_gsel *sel; /* --steps, --time-window: the steps their notes count (pass-timeline-gsel.h) */
	PT_VEC(struct tl_hrange) hr;
	uint8_t *rstep;     /* per string: 0 not known yet, 1 no step name, 2 a step name */
	size_t nrstep;
	uint8_t *kcls;      /* per string: a kernel's class, 0 not known yet, 1 computation, 2 communication */
	struct tl_gcomm gc; /* the kernels communication by where they were launched (pass-timeline-gcomm.h) */
	struct pt_ljoin j;
	/* the kineto profile of several ranks, once the first read ends: j's keys dense (jkey), each rank's ids
	 * from its least (jlo) up (jspan of them), the ranks one after the other in rank order (jbase), plus one,
	 * so that the join holds presence bits instead of an 8-byte key a slot (NULL: the keys as read) */
	uint64_t *jlo, *jspan, *jbase;
	/* once the second read ends, with step windows: j's calls' starts packed (anchors_pack; aj's where ajon),
	 * j.start gone */
	struct anchors {
		int64_t *base;  /* per block of AN_B slots: its least start */
		uint32_t *d;    /* per slot: its start after base, AN_NONE none */
		int64_t *wide;  /* the starts whole of a block that does not fit (AN_B each; wat: its place) */
		uint32_t *wat;
	} an;
	/* the kineto profile of several ranks with its extra rows and no launch link: the kernels that join the
	 * first call of their correlation id for the unions join it by the id alone, as the whole load's index
	 * does (j is keyed by rank too: each rank's arrows are its own); gseen: per slot, its first call came */
	struct pt_ljoin gj;
	bool gjon;
	uint64_t *gseen;
	size_t ngseen;
	/* the kineto profile of several ranks with step windows: per id of an activity (the id alone) the first
	 * call of that id in the file, of any rank, whose start anchors the activity's step as the whole load's
	 * does (pass-timeline.c: the first call of its id in the model), where j's is its own rank's; its starts
	 * are what an packs once the second read ends */
	struct pt_ljoin aj;
	bool ajon;
	/* the viewer profile of several processes: the arrows' join, keyed by (process, correlation id) (fkey),
	 * its slots' ids alone (the calls' starts are j's); fbig: an activity's id does not fit the key. Its
	 * keys, once the first read ends: each process's ids from its least (flo) up (fspan of them), the
	 * processes one after the other (fbase), plus one, so that they are dense enough for presence bits. */
	struct pt_ljoin fj;
	bool fkeyed, fbig;
	uint64_t *flo, *fspan, *fbase;
	struct flow *fs;    /* per join slot (fj's when fkeyed), with flows (FL_*) */
	/* a slot's further activities: a block of pt_xbig_grow (its spare room untouched, grown without a copy:
	 * the ranks of a model of several processes share their ids, three in four activities here for four) */
	struct flowvec {
		struct flow *v;
		size_t n, cap;
	} xf;
	/* the launch arrows once the third read ends (tracks and lanes as in fs); rows and the export clock when
	 * the trace takes them. Their calls on one device (packed): ordered as the trace orders them (its clock
	 * moves every call's time by that device's offset alike) and packed to struct tl_arrow in place, 8
	 * bytes an arrow less from the third read's end on (fl.v holds tl_arrows then) */
	PT_VEC(struct flow) fl;
	bool packed;
	size_t *cur;        /* per track: a window cursor (second read, writing) */
	/* third read */
	struct tl_pass pass;
	struct tl_tscan *scan;
	uint64_t *nev;
	struct pt_ivpack *C, *M;
	/*
	 * The kernels' launch configurations, for their "grid" and "block" (from the first read's kernel
	 * infos, which follow the events in the file): per kernel info in event order its
	 * m->kernel_configs index + 1 in kw bytes (1, 2 or 4; 0: none), and, unless the infos follow the
	 * file's kernel events one for one (kev NULL), their events. A read counts the kernel events
	 * (kord) or walks the infos (kcur) as it goes.
	 */
	uint8_t kw;
	void *kcode;
	uint32_t *kev;
	size_t nk;
	uint64_t nkev;       /* the first read's kernel events */
	/*
	 * The kineto profile of one process with host ranges: their range infos (pass-timeline-krange.h),
	 * per device whether it has host ranges and whether a launch link names one (first read: GPU
	 * annotations, read whole where that process gets them), a kept host step range (third read: the
	 * profile's Steps rows are then the host's).
	 */
	struct tl_krange kr;
	struct tl_kro kro; /* the range infos while out of event order (pass-timeline-korder.h) */
	struct tl_krange kn; /* the GPU user annotations' nesting read: every range info, where kr has not all */
	struct tl_kcopy kc; /* the kineto profile's copy infos, packed after the first read */
	struct tl_gast *ga; /* the kineto profile: its GPU user annotations (pass-timeline-gpuann.c), NULL none */
	uint8_t *rdev;
	bool link_range, host_steps;
	/* the kineto profile: per device its correlation ids' external ids, packed as the first read's batches
	 * come (PT_PTM_EXT_CORR_BATCHWISE: m->ext_corr emptied), the map after it (pass-timeline-kxmap.h) */
	struct tl_kxpack xp;
	struct tl_kxmap *ext;
	/* writing (head: per track its release bound) */
	struct tl_rowbind b;
};

static bool is_device_activity(uint8_t k)
{
	return k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET || k == PT_EV_SYNC;
}

/* The process of pid's host-th host on (dsec), added when new (with its read's place; s->at is cu[0] again:
 * the first read's). */
static uint32_t proc_of_pid(struct pt_tl_gstream *s, uint32_t pid, uint32_t host)
{
	for (size_t p = 0; p < s->np; p++)
		if (s->P[p].pid == pid && s->P[p].host == host)
			return (uint32_t)p;
	if (s->np) { /* (the first is there from the start) */
		s->P = pt_xrealloc(s->P, (s->np + 1) * sizeof(*s->P));
		s->cu = pt_xrealloc(s->cu, (s->np + 1) * sizeof(*s->cu));
		memset(&s->P[s->np], 0, sizeof(*s->P));
		memset(&s->cu[s->np], 0, sizeof(*s->cu));
	}
	s->P[s->np].pid = pid;
	s->P[s->np].host = host;
	s->cu[s->np].s = s;
	s->cu[s->np].proc = (uint32_t)s->np;
	s->at = &s->cu[0];
	return (uint32_t)s->np++;
}

/*
 * The host of device d among its pid's (0: the first CPU device of the pid and every device before the
 * second, 1: the second and those after it up to the third, ...): dumps of several processes that record
 * one pid (none: 0) are held one after the other in the file, each with its own CPU device first, and
 * each is a process of its own for the reads' order (the stragglers are each one's own). The arrows stay
 * joined by pid, as the whole load joins them (fkey, dpid).
 */
static uint32_t dsec(const struct pt_model *m, uint32_t d)
{
	uint32_t n = 0, pid = m->devices.v[d].pid;
	for (uint32_t k = 0; k <= d; k++)
		n += m->devices.v[k].kind == PT_DEV_CPU && m->devices.v[k].pid == pid;
	return n ? n - 1 : 0;
}

/* The place of pid in s->pids, added when new. */
static uint32_t pid_at(struct pt_tl_gstream *s, uint32_t pid)
{
	for (size_t k = 0; k < s->pids.n; k++)
		if (s->pids.v[k] == pid)
			return (uint32_t)k;
	pt_vec_push(&s->pids, pid);
	return (uint32_t)(s->pids.n - 1);
}

static uint32_t tproc(const struct pt_tl_gstream *s, uint32_t tr)
{
	return s->np > 1 ? s->dproc[s->m->tracks.v[tr].device] : 0;
}

/* The writing read of process p. */
static struct pt_ptm_turns *turns_of(struct pt_tl_gstream *s, uint32_t p)
{
	return p ? &s->cu[p].rd : &s->b.rd;
}

/* Devices of several ranks (the kineto profile writes one trace per rank). */
static bool several_ranks(const struct pt_model *m)
{
	uint32_t *r = NULL;
	size_t n = pt_tl_ranks(m, &r);
	free(r);
	return n > 1;
}

static void fit(struct pt_tl_gstream *s, const struct pt_model *m)
{
	if (m->tracks.n > s->nt) {
		s->t = pt_xrealloc(s->t, m->tracks.n * sizeof(*s->t));
		memset(s->t + s->nt, 0, (m->tracks.n - s->nt) * sizeof(*s->t));
		s->nt = m->tracks.n;
	}
	if (m->devices.n > s->nd) {
		s->klag = pt_xrealloc(s->klag, m->devices.n * sizeof(*s->klag));
		memset(s->klag + s->nd, 0, (m->devices.n - s->nd) * sizeof(*s->klag));
		s->rdev = pt_xrealloc(s->rdev, m->devices.n);
		memset(s->rdev + s->nd, 0, m->devices.n - s->nd);
		s->dproc = pt_xrealloc(s->dproc, m->devices.n * sizeof(*s->dproc));
		s->dpid = pt_xrealloc(s->dpid, m->devices.n * sizeof(*s->dpid));
		for (size_t d = s->nd; d < m->devices.n; d++) {
			s->dproc[d] = proc_of_pid(s, m->devices.v[d].pid, dsec(m, (uint32_t)d));
			s->dpid[d] = pid_at(s, m->devices.v[d].pid);
		}
		s->nd = m->devices.n;
		bool kr = s->o->kineto && several_ranks(m);
		if (kr != s->kranks && s->nev_all)
			s->again = true; /* (the join's keys so far are not those) */
		s->kranks = kr;
	}
}

/* Is string id a name the step pattern matches (a host step range)? */
static bool step_name(struct pt_tl_gstream *s, const struct pt_model *m, uint32_t id)
{
	if (!s->has_re || id >= m->strings.n)
		return false;
	if (id >= s->nrstep) { /* (the strings grow as the first read goes) */
		s->rstep = pt_xrealloc(s->rstep, m->strings.n);
		memset(s->rstep + s->nrstep, 0, m->strings.n - s->nrstep);
		s->nrstep = m->strings.n;
	}
	if (!s->rstep[id])
		s->rstep[id] = regexec(&s->re, pt_model_strget(m, id), 0, NULL, 0) ? 1 : 2;
	return s->rstep[id] == 2;
}

static uint8_t kernel_class(struct pt_tl_gstream *s, const struct pt_model *m, uint32_t id)
{
	if (!s->kcls)
		s->kcls = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1);
	if (id >= m->strings.n)
		id = 0;
	if (!s->kcls[id])
		s->kcls[id] = pt_index_comm_kernel_name(pt_model_strget(m, id)) ? 2 : 1;
	return s->kcls[id];
}

/*
 * The launch join's key of correlation id co on device d: co, but in the kineto profile of several ranks,
 * whose trace of a rank links its own calls and activities alone (the ranks' ids are alike), the rank
 * above bit 56 (KEY_MAX: ids and ranks that do not fit are read whole).
 */
#define KEY_MAX (UINT64_C(1) << 56)
#define KEY_RANKS 256

/* Group g's id co widens the group's bounds [lo[g], hi[g]] (lo UINT64_MAX: none yet). */
static void key_bound(uint64_t *lo, uint64_t *hi, uint32_t g, uint64_t co)
{
	if (co < lo[g])
		lo[g] = co;
	if (co > hi[g])
		hi[g] = co;
}

/* The ng groups' spans of ids and the bases of their dense keys, each group's ids after the one's before. */
static void key_bases(const uint64_t *lo, const uint64_t *hi, size_t ng, uint64_t *span, uint64_t *base)
{
	uint64_t b = 0;
	for (size_t g = 0; g < ng; g++) {
		base[g] = b;
		span[g] = lo[g] <= hi[g] ? hi[g] - lo[g] + 1 : 0;
		b += span[g];
	}
}
/* (rank r's dense key of co once j_dense made them: 0, never an id, where no activity of r has co) */
static uint64_t jkey_dense(const struct pt_tl_gstream *s, uint32_t r, uint64_t co)
{
	if (r >= KEY_RANKS || co < s->jlo[r] || co - s->jlo[r] >= s->jspan[r])
		return 0;
	return 1 + s->jbase[r] + (co - s->jlo[r]);
}

static uint64_t jkey(const struct pt_tl_gstream *s, uint32_t d, uint64_t co)
{
	if (!s->kranks || !co)
		return co;
	uint32_t r = tl_device_rank(&s->m->devices.v[d]);
	return s->jbase ? jkey_dense(s, r, co) : co | (uint64_t)r << 56;
}

/* The first read's keys of j in the kineto profile of several ranks (co with the rank above bit 56),
 * rewritten in place to their dense keys (jkey), in the same order: the slots stay as they were. */
static void j_dense(struct pt_tl_gstream *s)
{
	if (!s->kranks || !s->j.n || s->j.sealed)
		return;
	s->jlo = pt_xmalloc(KEY_RANKS * sizeof(*s->jlo));
	s->jspan = pt_xcalloc(KEY_RANKS, sizeof(*s->jspan));
	s->jbase = pt_xcalloc(KEY_RANKS, sizeof(*s->jbase));
	uint64_t hi[KEY_RANKS] = { 0 };
	for (size_t r = 0; r < KEY_RANKS; r++)
		s->jlo[r] = UINT64_MAX;
	for (size_t k = 0; k < s->j.n; k++) {
		uint64_t key = s->j.id ? s->j.id[k] : s->j.id32[k];
		key_bound(s->jlo, hi, (uint32_t)(key >> 56), key & (KEY_MAX - 1));
	}
	key_bases(s->jlo, hi, KEY_RANKS, s->jspan, s->jbase);
	for (size_t k = 0; k < s->j.n; k++) { /* (4-byte keys are all rank 0's, and 1 + co - jlo[0] <= co) */
		uint64_t key = s->j.id ? s->j.id[k] : s->j.id32[k];
		uint64_t d = jkey_dense(s, (uint32_t)(key >> 56), key & (KEY_MAX - 1));
		if (s->j.id)
			s->j.id[k] = d;
		else
			s->j.id32[k] = (uint32_t)d;
	}
}

/*
 * The arrows' join key of correlation id co on device d in the viewer profile of several processes, so
 * that a call joins the activities of its own process alone (their ids are alike): in the first read, co
 * with the process above bit 56 (fbig where the id does not fit: then the model is read whole); after it,
 * the dense key of struct pt_tl_gstream's fj, 0 (never an id) where no activity of the process has co.
 */
static uint64_t fkey(const struct pt_tl_gstream *s, uint32_t d, uint64_t co)
{
	uint32_t p = s->dpid[d];
	if (!s->fbase)
		return co >= KEY_MAX ? 0 : co | (uint64_t)p << 56;
	return co < s->flo[p] || co - s->flo[p] >= s->fspan[p] ? 0 : 1 + s->fbase[p] + (co - s->flo[p]);
}

/* The first read's keys of fj (the other processes', rewritten in place) and j's ids (the first
 * process's, a superset), made dense (fkey) and sealed: only the slots are read (the calls' starts are j's). */
static void fj_seal(struct pt_tl_gstream *s)
{
	size_t np = s->pids.n, nj = s->j.n, nf = s->fj.n;
	s->flo = pt_xmalloc(np * sizeof(*s->flo));
	s->fspan = pt_xcalloc(np, sizeof(*s->fspan));
	s->fbase = pt_xcalloc(np, sizeof(*s->fbase));
	uint64_t *hi = pt_xcalloc(np, sizeof(*hi));
	for (size_t p = 0; p < np; p++)
		s->flo[p] = UINT64_MAX;
	for (size_t k = 0; k < nj + nf; k++) {
		uint64_t key = k < nj ? (s->j.id ? s->j.id[k] : s->j.id32[k]) : s->fj.id[k - nj];
		key_bound(s->flo, hi, k < nj ? 0 : (uint32_t)(key >> 56), key & (KEY_MAX - 1));
	}
	key_bases(s->flo, hi, np, s->fspan, s->fbase);
	free(hi);
	for (size_t k = 0; k < nf; k++) { /* (the other processes' keys are all wider than 4 bytes: fj.id) */
		uint32_t p = (uint32_t)(s->fj.id[k] >> 56);
		s->fj.id[k] = 1 + s->fbase[p] + ((s->fj.id[k] & (KEY_MAX - 1)) - s->flo[p]);
	}
	for (size_t k = 0; k < nj; k++)
		pt_ljoin_want(&s->fj, 1 + ((s->j.id ? s->j.id[k] : s->j.id32[k]) - s->flo[0]));
	pt_ljoin_seal(&s->fj);
	free(s->fj.start);
	s->fj.start = NULL;
	free(s->fj.end);
	s->fj.end = NULL;
}

/* A join by the id alone, from j's wants (keyed by rank, made plain) before j's seal: sealed, without ends. */
static void join_plain(const struct pt_tl_gstream *s, struct pt_ljoin *p)
{
	pt_ljoin_init(p);
	for (size_t k = 0; k < s->j.n; k++)
		pt_ljoin_want(p, (s->j.id ? s->j.id[k] : s->j.id32[k]) & (KEY_MAX - 1));
	pt_ljoin_seal(p);
	free(p->end);
	p->end = NULL;
}

/* The anchors' join (aj) of the kineto profile of several ranks with step windows (wins). */
static void aj_seal(struct pt_tl_gstream *s, bool wins)
{
	if (!s->kranks || !wins || !s->j.n)
		return;
	join_plain(s, &s->aj);
	s->ajon = true;
}

/* The join by the id alone (gj) of the kineto profile of several ranks with its extra rows and no launch
 * link. */
static void gj_seal(struct pt_tl_gstream *s)
{
	if (!s->kranks || s->no_sets || s->gc.linked || !s->j.n)
		return;
	join_plain(s, &s->gj);
	free(s->gj.start); /* (only the slots are read) */
	s->gj.start = NULL;
	pt_bits_grow(&s->gseen, &s->ngseen, s->gj.n ? s->gj.n : 1);
	s->gjon = true;
}

/* The slot of the arrows' join (fs) of correlation id co on device d, or SIZE_MAX. */
static size_t flow_slot(const struct pt_tl_gstream *s, uint32_t d, uint64_t co)
{
	return s->fkeyed ? pt_ljoin_slot(&s->fj, fkey(s, d, co)) : pt_ljoin_slot(&s->j, jkey(s, d, co));
}

/* No later start of a run of starts whose lag is g comes before this (see pass-timeline-stream.c). */
static int64_t lag_bound(const struct pt_lag *g, bool seen, int64_t top)
{
	if (!seen)
		return g->min;
	int64_t b;
	if (g->lag > (uint64_t)INT64_MAX || __builtin_sub_overflow(top, (int64_t)g->lag, &b))
		return INT64_MIN;
	return b;
}

/* ------------------------------------------------------------------ the rows' order */

/* (start, longer first, name, file order): the layout's order of a track (fix_ties) */
static bool sev_less(const struct pt_model *m, const struct tl_sev *a, const struct tl_sev *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	if (a->dur != b->dur)
		return a->dur > b->dur;
	if (a->name != b->name) {
		int c = strcmp(pt_model_strget(m, a->name), pt_model_strget(m, b->name));
		if (c)
			return c < 0;
	}
	return a->ev < b->ev;
}

static void tq_add(const struct pt_model *m, struct tq *q, const struct tl_sev *v)
{
	if (q->h && q->n == q->cap) {
		memmove(q->v, q->v + q->h, (q->n - q->h) * sizeof(*q->v));
		q->n -= q->h;
		q->h = 0;
	}
	pt_xgrow((void **)&q->v, &q->cap, q->n + 1, sizeof(*q->v));
	/* The place after the last event not after it (the queue is in that order): at the end most often, else
	 * found by halves; starts compared inline, the names only on a tie; the later ones moved up at once. */
	size_t i = q->n;
#define AFTER(x) ((x)->start > v->start || ((x)->start == v->start && sev_less(m, v, (x))))
	if (i > q->h && AFTER(&q->v[i - 1])) {
		size_t lo = q->h, hi = i - 1; /* the place is in [lo, hi] */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (AFTER(&q->v[mid]))
				hi = mid;
			else
				lo = mid + 1;
		}
		i = lo;
	}
#undef AFTER
	if (i < q->n)
		memmove(q->v + i + 1, q->v + i, (q->n - i) * sizeof(*q->v));
	q->n++;
	q->v[i] = *v;
}

/* Event gi of a read, in file order: a straggler (already held)? Else its start moves the bounds. */
static bool saw(struct pt_tl_gstream *s, uint32_t tr, uint32_t gi, int64_t st)
{
	struct gcur *c = s->at;
	while (c->sgi < s->sg.n && s->sg.ev[c->sgi] < gi) /* (another process's: a writing read skips them) */
		c->sgi++;
	if (c->sgi < s->sg.n && s->sg.ev[c->sgi] == gi) {
		c->sgi++;
		return true;
	}
	struct gtrk *t = &s->t[tr];
	if (!t->seen || st > t->top)
		t->top = st;
	t->seen = true;
	struct gproc *p = &s->P[tproc(s, tr)];
	if (!p->gseen || st > p->gtop)
		p->gtop = st;
	p->gseen = true;
	return false;
}

/* No later event of track tr that is not a straggler starts before this: by its own starts, or by all
 * its process's events' in file order, whichever says more. */
static int64_t track_bound(const struct pt_tl_gstream *s, uint32_t tr)
{
	const struct gtrk *t = &s->t[tr];
	const struct gproc *p = &s->P[tproc(s, tr)];
	int64_t a = lag_bound(&t->lag, t->seen, t->top), b = lag_bound(&p->glag, p->gseen, p->gtop);
	return a > b ? a : b;
}

/* The next event of track t in the rows' order into *out, where it starts before below, a straggler before
 * sbelow (all: any). */
static bool next_of(struct pt_tl_gstream *s, struct gtrk *t, int64_t below, int64_t sbelow, bool all,
		    struct tl_sev *out)
{
	const struct tl_sev *a = t->q.h < t->q.n ? &t->q.v[t->q.h] : NULL, *b = NULL;
	struct tl_sev g;
	/* (the straggler made whole only where its start does not settle it) */
	if (t->sh < t->sn && !(a && a->start < s->sg.st[t->sl[t->sh]]) &&
	    (all || a || s->sg.st[t->sl[t->sh]] < sbelow)) {
		tl_strags_get(&s->sg, t->sl[t->sh], &g);
		b = &g;
	}
	if (a && b && sev_less(s->m, b, a))
		a = NULL;
	if (a) {
		if (!all && a->start >= below)
			return false;
		*out = t->q.v[t->q.h++];
		if (t->q.h == t->q.n)
			t->q.h = t->q.n = 0;
		return true;
	}
	if (!b || (!all && b->start >= sbelow))
		return false;
	t->sh++;
	*out = *b;
	return true;
}

/* The configuration (+ 1, 0 none) of kernel event gi, the next kernel event of a read in file order. */
static uint32_t kconf_next(struct pt_tl_gstream *s, uint32_t gi)
{
	struct gcur *c = s->at;
	size_t k;
	if (!s->kev) {
		k = c->kord++;
		if (k >= s->nk)
			return 0;
	} else {
		while (c->kcur < s->nk && s->kev[c->kcur] < gi)
			c->kcur++;
		if (c->kcur == s->nk || s->kev[c->kcur] != gi)
			return 0;
		k = c->kcur;
	}
	return s->kw == 1 ? ((const uint8_t *)s->kcode)[k] : s->kw == 2 ? ((const uint16_t *)s->kcode)[k] :
			    ((const uint32_t *)s->kcode)[k];
}

/* The codes of the model's kernel infos (m->kernels, in event order), which are then freed. */
static void kconf_keep(struct pt_tl_gstream *s, struct pt_model *m)
{
	size_t n = m->kernels.n, nc = m->kernel_configs.n;
	if (!n)
		return;
	s->kw = nc < UINT8_MAX ? 1 : nc < UINT16_MAX ? 2 : 4;
	s->kcode = pt_xmalloc(n * s->kw);
	s->nk = n;
	bool dense = n == s->nkev;
	for (size_t k = 1; k < n && dense; k++)
		dense = m->kernels.v[k].event > m->kernels.v[k - 1].event;
	if (!dense) {
		/* (pt_model_add_kernel keeps them in event order: a file's are checked so) */
		s->kev = pt_xmalloc(n * sizeof(*s->kev));
		for (size_t k = 0; k < n; k++)
			s->kev[k] = m->kernels.v[k].event;
	}
	for (size_t k = 0; k < n; k++) {
		uint32_t c = m->kernels.v[k].config < nc ? m->kernels.v[k].config + 1 : 0;
		if (s->kw == 1)
			((uint8_t *)s->kcode)[k] = (uint8_t)c;
		else if (s->kw == 2)
			((uint16_t *)s->kcode)[k] = (uint16_t)c;
		else
			((uint32_t *)s->kcode)[k] = c;
	}
}

/* A read of process c->proc's events (all: of every process) from the file's start. */
static void reset_read(struct pt_tl_gstream *s, struct gcur *c, bool all)
{
	s->at = c;
	for (size_t p = 0; p < s->np; p++) {
		if (!all && p != c->proc)
			continue;
		s->cu[p].base = 0;
		s->cu[p].nown = 0;
		s->cu[p].sgi = 0;
		s->cu[p].kord = s->cu[p].kcur = 0;
		s->P[p].gseen = false;
		tl_kcopy_rewind(&s->cu[p].kc);
		tl_krange_rewind(&s->cu[p].kr);
	}
	for (size_t tr = 0; tr < s->nt; tr++) {
		if (!all && tproc(s, (uint32_t)tr) != c->proc)
			continue;
		s->t[tr].seen = false;
		s->t[tr].q.h = s->t[tr].q.n = 0;
		s->t[tr].sh = 0;
	}
}

static void reset_reads(struct pt_tl_gstream *s)
{
	reset_read(s, &s->cu[0], true);
}

static const struct pt_model *sort_m;
static const struct tl_strags *sort_sg;
static int strag_cmp(const void *pa, const void *pb)
{
	uint32_t ka = *(const uint32_t *)pa, kb = *(const uint32_t *)pb;
	int64_t sa = sort_sg->st[ka], sb = sort_sg->st[kb];
	if (sa != sb)
		return sa < sb ? -1 : 1;
	struct tl_sev a, b;
	tl_strags_get(sort_sg, ka, &a);
	tl_strags_get(sort_sg, kb, &b);
	return sev_less(sort_m, &a, &b) ? -1 : sev_less(sort_m, &b, &a);
}

/* ------------------------------------------------------------------ the kineto profile's host ranges */

static bool krange_wanted(const struct pt_tl_gstream *s, const struct pt_model *m)
{
	for (size_t d = 0; d < m->devices.n && d < s->nd; d++)
		if (s->rdev[d] && tl_gpu_annotations_wanted(m, (uint32_t)d))
			return true;
	return false;
}

/* A chunk of launch links (the kineto profile's first read): does one name a host range? Those that do,
 * packed for the GPU user annotations where a process with host ranges gets them. */
static void krange_links(struct pt_tl_gstream *s, struct pt_model *m)
{
	for (size_t l = 0; l < m->links.n && !s->link_range; l++)
		s->link_range = m->links.v[l].range != 0;
	tl_gast_links(s->ga, m, krange_wanted(s, m));
}

/*
 * After the first read: would the profile write GPU user annotations (pass-timeline-gpuann.c: a launch
 * link names a host range of a process that gets them)?
 */
static bool krange_annotated(const struct pt_tl_gstream *s, const struct pt_model *m)
{
	return s->link_range && krange_wanted(s, m);
}

/*
 * An event of a read in file order (the kineto profile): a host range's range info (its bits, its id in
 * task), a copy's or set's copy info (TL_KX_COPY, its bytes in task, its kinds in kconf) into v.
 */
static void krange_sev(struct pt_tl_gstream *s, struct tl_sev *v)
{
	uint64_t x = 0;
	uint32_t kinds = 0;
	if (!s->o->kineto)
		return;
	if (v->kind == PT_EV_RANGE && (v->kx = tl_krange_of(&s->at->kr, v->ev, &x)))
		v->task = x;
	else if ((v->kind == PT_EV_MEMCPY || v->kind == PT_EV_MEMSET) && (v->kx = tl_kcopy_of(&s->at->kc, v->ev, &kinds, &x))) {
		v->task = x;
		v->kconf = kinds;
	}
}

/*
 * The kineto profile without its extra rows writes a device's Steps row only where no host step range
 * is kept (pass-timeline-layout.c): where one is, the rows' slices (about 60 bytes a step and device)
 * are not held while it writes.
 */
static void krange_no_steps_rows(const struct pt_tl_gstream *s, struct pt_tl *t)
{
	if (!s->o->kineto || s->o->kineto_extra || !s->host_steps)
		return;
	for (size_t d = 0; d < t->ndev; d++)
		pt_vec_free(&t->dev[d].steps.s);
}

/*
 * The synchronization infos the trace reads (an Event Sync's or Stream Wait Event's arguments,
 * pass-timeline-events.c sync_args): the others' rows dropped, in event order still (the 1 GiB
 * Kineto trace of bench/RESULTS.md holds 167,000 stream syncs' rows, 7.6 MB with their vector's room).
 */
static void syncs_waited(struct pt_model *m)
{
	size_t k = 0;
	for (size_t i = 0; i < m->syncs.n; i++)
		if (m->syncs.v[i].type == 1 || m->syncs.v[i].type == 2)
			m->syncs.v[k++] = m->syncs.v[i];
	if (k == m->syncs.n)
		return;
	m->syncs.n = k;
	if (!k) {
		pt_vec_free(&m->syncs);
		return;
	}
	m->syncs.v = pt_xrealloc(m->syncs.v, k * sizeof(*m->syncs.v));
	m->syncs.cap = k;
}

/* ------------------------------------------------------------------ first read */

static int scan1(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct pt_tl_gstream *s = arg;
	fit(s, m);
	const struct pt_events *ev = &m->events;
	if (m->ext_corr.n && s->o->kineto) { /* PT_PTM_EXT_CORR_BATCHWISE */
		tl_kxpack_add(&s->xp, m);
		m->ext_corr.n = 0;
	}
	if (m->links.n) { /* PT_PTM_LINKS_BATCHWISE */
		if (s->o->kineto)
			krange_links(s, m);
		if (!s->no_sets)
			tl_gcomm_links(&s->gc, m);
		m->links.n = 0;
	}
	if (m->ranges.n) { /* range infos (PT_PTM_RANGES_BATCHWISE): which make kernels communication (without
			    * the unions, the kineto profile's, the kernels' classes are not read) */
		if (!s->no_sets)
			tl_gcomm_infos(&s->gc, m);
		if (s->o->kineto)
			tl_kro_take(&s->kro, &s->kr, m);
		m->ranges.n = 0;
		if (!ev->n)
			return 0;
	}
	if (ev->dense & PT_EVCOL_CORR)
		s->has_corr = true;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		uint32_t tr = ev->track[i];
		if (k == PT_EV_TASK || k == PT_EV_AICPU || tr >= m->tracks.n)
			goto again;
		uint32_t d = m->tracks.v[tr].device;
		if (d >= m->devices.n || (m->devices.v[d].kind != PT_DEV_CPU && m->devices.v[d].kind != PT_DEV_GPU))
			goto again;
		int64_t st = ev->start[i], en = st + ev->dur[i];
		if (!s->has_ev || st < s->evmin)
			s->evmin = st;
		if (!s->has_ev || en > s->evmax)
			s->evmax = en;
		s->has_ev = true;
		s->nev_all++;
		if (s->sel)
			tl_gsel_event(s->sel, m, ev, i, s->at->base + i, k == PT_EV_RANGE && step_name(s, m, ev->name[i]));
		uint64_t co = ev->corr[i];
		/* how far it starts before the latest start so far, in powers of two */
		struct gproc *p = &s->P[s->dproc[d]];
		if (p->atop_seen && st < p->atop)
			s->hist[64 - __builtin_clzll((unsigned long long)((uint64_t)p->atop - (uint64_t)st))]++;
		else
			p->atop = st;
		p->atop_seen = true;
		if (k == PT_EV_RANGE) {
			const char *name = pt_model_strget(m, ev->name[i]);
			if (!s->no_sets && pt_index_comm_op_name(name)) /* it may make the kernels it launches
									 * communication (index.c) */
				tl_gcomm_range(&s->gc, s->at->base + i, tr, st, ev->dur[i]);
			s->rdev[d] = 1;
			if (s->ga)
				tl_gast_range(s->ga, tr, st);
			if (s->has_re) {
				pt_sel_found_range(&s->rf, &s->re, name);
				if (step_name(s, m, ev->name[i])) {
					struct tl_hrange h = { st, en, ev->name[i] };
					pt_vec_push(&s->hr, h);
				}
			}
		} else if (k != PT_EV_API && co) {
			if (s->kranks && (co >= KEY_MAX || tl_device_rank(&m->devices.v[d]) > 255))
				goto again;
			pt_ljoin_want(&s->j, jkey(s, d, co));
			if (!s->o->kineto && (co >= KEY_MAX || s->pids.n > 256))
				s->fbig = true;
			else if (!s->o->kineto && s->dpid[d]) /* (the first process's keys are j's) */
				pt_ljoin_want(&s->fj, fkey(s, d, co));
		}
		if (k == PT_EV_KERNEL) {
			pt_lag_add(&s->klag[d], st);
			s->nkev++;
		}
	}
	s->at->base += ev->n;
	return 0;
again:
	s->again = true;
	return AGAIN;
}

/* ------------------------------------------------------------------ second read */

/*
 * How far back a start may fall and its event still be read in its turn: the
 * rows are filled in time order as the file is read, so an event that starts
 * W before the latest start read holds back W of every row; one that starts
 * further back is a straggler, held from the second read on. W = 2^b - 1 at
 * the least of (stragglers x 33 bytes + W x the events per ns x 56 bytes): a
 * straggler's columns and its place in its track's list.
 */
static void choose_late(struct pt_tl_gstream *s)
{
	uint64_t n = 0;
	for (int b = 0; b <= 64; b++)
		n += s->hist[b];
	double span = s->has_ev && s->evmax > s->evmin ? (double)s->evmax - (double)s->evmin : 1.0;
	double rate = (double)s->nev_all / span;
	uint64_t above = n; /* events more than 2^b - 1 back: buckets b + 1 .. 64 */
	double best = -1;
	s->late = 0;
	for (int b = 0; b < 64; b++) {
		above -= s->hist[b];
		double w = (double)((UINT64_C(1) << b) - 1);
		double cost = (double)above * 33.0 + w * rate * 56.0;
		if (best < 0 || cost < best) {
			best = cost;
			s->late = (UINT64_C(1) << b) - 1;
			s->nlate = above;
		}
	}
}

static int calls(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct pt_tl_gstream *s = arg;
	const struct pt_events *ev = &m->events;
	if (m->tracks.n != s->nt)
		return AGAIN; /* the file changed */
	for (size_t i = 0; i < ev->n; i++) {
		uint64_t co = ev->corr[i];
		int64_t st = ev->start[i], du = ev->dur[i];
		uint32_t tr0 = ev->track[i];
		if (s->sel && ev->kind[i] == PT_EV_KERNEL)
			tl_gsel_kernel(s->sel, m, m->tracks.v[tr0].device, jkey(s, m->tracks.v[tr0].device, co),
				       ev->name[i], &s->j);
		uint32_t kc = ev->kind[i] == PT_EV_KERNEL ? kconf_next(s, (uint32_t)(s->at->base + i)) : 0;
		/* a straggler, or the lags of the others */
		struct gproc *p = &s->P[tproc(s, tr0)];
		if (p->atop_seen && st < p->atop && (uint64_t)p->atop - (uint64_t)st > s->late) {
			struct tl_sev g = { .start = st, .dur = du, .task = ev->task[i], .corr = co, .name = ev->name[i],
					    .op = ev->op[i], .kind = ev->kind[i], .ev = (uint32_t)(s->at->base + i), .kconf = kc };
			krange_sev(s, &g);
			tl_strags_push(&s->sg, &g, tr0);
		} else {
			if (!p->atop_seen || st > p->atop)
				p->atop = st;
			p->atop_seen = true;
			pt_lag_add(&s->t[tr0].lag, st);
			pt_lag_add(&p->glag, st);
		}
		if (ev->kind[i] == PT_EV_API && tl_gcomm_on(&s->gc))
			tl_gcomm_call(&s->gc, s->at->base + i, tr0, st);
		if (ev->kind[i] != PT_EV_API || !co)
			continue;
		uint64_t key = jkey(s, m->tracks.v[tr0].device, co);
		if (s->ajon)
			pt_ljoin_call(&s->aj, co, st, st + du);
		if (s->gjon && s->gc.bycorr) {
			size_t g = pt_ljoin_slot(&s->gj, co);
			if (g != SIZE_MAX && !pt_bits_get(s->gseen, s->ngseen, g)) { /* (the first call of its id) */
				pt_bits_set(s->gseen, g);
				tl_gcomm_first_call(&s->gc, g, tr0, st);
			}
		}
		size_t slot = pt_ljoin_slot(&s->j, key);
		if (slot == SIZE_MAX)
			continue;
		if (s->j.start) { /* (else aj's starts are all that is read of the calls) */
			if (s->gc.bycorr && !s->gjon && s->j.start[slot] == INT64_MIN) /* (the first call of its id) */
				tl_gcomm_first_call(&s->gc, slot, tr0, st);
			pt_ljoin_call(&s->j, key, st, st + du);
		}
		tl_gsel_call(s->sel, m, m->tracks.v[tr0].device, slot, st, &s->j);
		if (!s->fs || du < 1)
			continue;
		if (s->fkeyed && (slot = flow_slot(s, m->tracks.v[tr0].device, co)) == SIZE_MAX)
			continue;
		uint32_t tr = ev->track[i], gi = (uint32_t)(s->at->base + i);
		size_t lo;
		bool keep;
		(void)tl_step_keep(s->pass.t, m->tracks.v[tr].device, st, st, du, &s->cur[tr], &lo, &keep);
		struct flow *f = &s->fs[slot];
		if (keep && (!f->api || st < f->sts)) {
			f->api = gi + 1;
			f->srow = tr;
			f->sts = st;
		}
	}
	s->at->base += ev->n;
	return 0;
}

/*
 * The calls' starts that the third read and the writing read anchor the activities' steps at, 4 bytes a
 * slot instead of 8: per block of AN_B slots (ids in order: their calls close in time) the least start,
 * and each slot's start after it; a block whose starts span 2^32 - 1 units or more keeps them whole.
 */
#define AN_BITS 8
#define AN_B (1u << AN_BITS)
#define AN_NONE UINT32_MAX

static void anchors_pack(struct anchors *a, struct pt_ljoin *j)
{
	int64_t *v = j->start;
	size_t n = j->n, nb = (n + AN_B - 1) / AN_B, nw = 0, wcap = 0;
	if (!v || !n)
		return;
	a->base = pt_xmalloc(nb * sizeof(*a->base));
	a->wat = pt_xmalloc(nb * sizeof(*a->wat));
	/* d in place of the starts, forward: slot i's 4 bytes end at or before slot i's start begins, each
	 * block's starts read (its bounds, its wide copy) before its first d is written */
	uint32_t *d = (uint32_t *)(void *)v;
	for (size_t b = 0; b < nb; b++) {
		size_t i0 = b * AN_B, i1 = n - i0 < AN_B ? n : i0 + AN_B;
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t i = i0; i < i1; i++)
			if (v[i] != INT64_MIN) {
				lo = v[i] < lo ? v[i] : lo;
				hi = v[i] > hi ? v[i] : hi;
			}
		int64_t span;
		bool fits = lo > hi || (!__builtin_sub_overflow(hi, lo, &span) && span < (int64_t)AN_NONE);
		a->base[b] = lo;
		a->wat[b] = AN_NONE;
		if (!fits) {
			pt_xgrow((void **)&a->wide, &wcap, (nw + 1) * AN_B, sizeof(*a->wide));
			memcpy(a->wide + nw * AN_B, v + i0, (i1 - i0) * sizeof(*v));
			a->wat[b] = (uint32_t)nw++;
		}
		for (size_t i = i0; i < i1; i++) {
			int64_t x;
			memcpy(&x, &v[i], sizeof(x));
			uint32_t y = !fits || x == INT64_MIN ? AN_NONE : (uint32_t)(x - lo);
			memcpy(&d[i], &y, sizeof(y));
		}
	}
	a->d = pt_xrealloc(v, n * sizeof(*a->d));
	j->start = NULL;
}

static bool anchor_get(const struct anchors *a, size_t slot, int64_t *st)
{
	uint32_t w = a->wat[slot >> AN_BITS];
	if (w != AN_NONE) {
		int64_t x = a->wide[(size_t)w * AN_B + (slot & (AN_B - 1))];
		*st = x;
		return x != INT64_MIN;
	}
	if (a->d[slot] == AN_NONE)
		return false;
	*st = a->base[slot >> AN_BITS] + (int64_t)a->d[slot];
	return true;
}

/* Does a device of t have step windows (then a device activity's step is its launch's: tl_step_keep)? */
static bool step_wins(const struct pt_tl *t)
{
	for (size_t d = 0; d < t->ndev; d++)
		if (t->dev[d].win.n)
			return true;
	return false;
}

static void anchors_free(struct anchors *a)
{
	free(a->base);
	free(a->d);
	free(a->wide);
	free(a->wat);
	memset(a, 0, sizeof(*a));
}

/* The start of the call that launched a device activity with correlation id co (the first call of that id
 * in the file: in the kineto profile of several ranks aj's, of any rank), else its own start. */
static int64_t anchor_of(const struct pt_tl_gstream *s, uint8_t k, uint64_t co, int64_t st)
{
	const struct pt_ljoin *j = s->ajon ? &s->aj : &s->j;
	if (!co || !is_device_activity(k) || (!j->start && !s->an.d))
		return st;
	size_t slot = pt_ljoin_slot(j, co);
	int64_t a;
	if (slot == SIZE_MAX)
		return st;
	if (s->an.d)
		return anchor_get(&s->an, slot, &a) ? a : st;
	return pt_ljoin_get(j, slot, &a, NULL) ? a : st;
}

/* ------------------------------------------------------------------ third read */

static void xf_push(struct flowvec *v, const struct flow *x)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 1024;
		v->v = pt_xbig_grow(v->v, v->cap * sizeof(*v->v), cap * sizeof(*v->v), true);
		v->cap = cap;
	}
	v->v[v->n++] = *x;
}

static void xf_free(struct flowvec *v)
{
	pt_xbig_free(v->v, v->cap * sizeof(*v->v));
	memset(v, 0, sizeof(*v));
}

/* One kept event of track tr in the rows' order: the layout's scan, the arrows' ends. */
static void scan_one(struct pt_tl_gstream *s, uint32_t tr, const struct tl_sev *v)
{
	struct tl_tscan *q = &s->scan[tr];
	int64_t st = v->start, en = st + v->dur;
	if (!q->n || st < q->lo)
		q->lo = st;
	if (!q->n || en > q->hi)
		q->hi = en;
	q->last = st;
	q->steps |= (v->keep & 2) != 0;
	/* the arrows' ends: viewer at the midpoints, kineto at the starts (pass-timeline-flows.c) */
	int64_t half = s->o->kineto ? 0 : v->dur / 2;
	uint8_t l = lane_next(&q->L, st, en);
	if (!q->lane_n && q->L.nl > 1) {
		q->lane_n = pt_xcalloc(256, sizeof(*q->lane_n));
		q->lane_n[0] = q->n;
	}
	if (q->lane_n)
		q->lane_n[l]++;
	q->n++;
	if (!s->fs || !v->corr || v->kind == PT_EV_RANGE)
		return;
	size_t slot = flow_slot(s, s->m->tracks.v[tr].device, v->corr);
	if (slot == SIZE_MAX)
		return;
	struct flow *f = &s->fs[slot];
	if (v->kind == PT_EV_API) {
		if (f->api == v->ev + 1) {
			f->srow |= FL_PLACED | (uint32_t)l << 24;
			f->sts = st + half;
		}
	} else if (v->dur >= 1) {
		uint32_t row = tr | (uint32_t)l << 24;
		int64_t mid = st + half;
		if (!f->act) {
			f->act = v->ev + 1;
			f->frow = row;
			f->fts = mid;
		} else {
			struct flow x = { .api = (uint32_t)slot, .act = v->ev + 1, .frow = row, .fts = mid };
			xf_push(&s->xf, &x);
		}
	}
}

/* The third read's end: the arrows whose call is on a row, from fs and xf into fl. */
/*
 * The kineto profile of several ranks, a trace per rank (tl_gstream_flows): are the calls of each rank's
 * arrows on one device? Then the arrows of each trace are in the order that tl_flows_order gives them
 * once they are in the order of their calls' model times (the trace's clock moves a device's times alike),
 * and all of them can be ordered and packed at once, each trace taking its own in that order.
 */
static bool ranks_one_device(const struct pt_tl_gstream *s)
{
	uint32_t dr[KEY_RANKS];
	for (size_t r = 0; r < KEY_RANKS; r++)
		dr[r] = UINT32_MAX;
	for (size_t k = 0; k < s->fl.n; k++) {
		uint32_t d = s->m->tracks.v[s->fl.v[k].srow & FL_TRACK].device;
		uint32_t r = tl_device_rank(&s->m->devices.v[d]);
		if (r >= KEY_RANKS || (dr[r] != UINT32_MAX && dr[r] != d))
			return false;
		dr[r] = d;
	}
	return true;
}

/*
 * The viewer profile of several processes (one trace): are the arrows' calls all on devices of one clock?
 * Then the trace's clock moves every call's time alike, and the arrows can be ordered and packed now, as
 * for calls on one device.
 */
static bool calls_one_clock(const struct pt_tl_gstream *s)
{
	const char *c0 = NULL;
	for (size_t k = 0; k < s->fl.n; k++) {
		const char *c = tl_dev_clock(&s->m->devices.v[s->m->tracks.v[s->fl.v[k].srow & FL_TRACK].device]);
		if (c0 && strcmp(c, c0))
			return false;
		c0 = c;
	}
	return true;
}

static void gather_flows(struct pt_tl_gstream *s)
{
	if (!s->fs)
		return;
	size_t nx = 0;
	for (size_t k = 0; k < s->xf.n; k++) {
		struct flow x = s->xf.v[k];
		const struct flow *f = &s->fs[x.api];
		if (!f->api || !(f->srow & FL_PLACED))
			continue;
		x.api = f->api;
		x.srow = f->srow;
		x.sts = f->sts;
		s->xf.v[nx++] = x;
	}
	size_t nf = 0, ns = s->fkeyed ? s->fj.n : s->j.n;
	for (size_t k = 0; k < ns; k++) {
		const struct flow *f = &s->fs[k];
		if (f->api && f->act && (f->srow & FL_PLACED))
			s->fs[nf++] = *f;
	}
	pt_vec_free(&s->fl);
	s->fl.v = pt_xrealloc(s->fs, (nf + nx ? nf + nx : 1) * sizeof(*s->fs));
	s->fs = NULL;
	pt_ljoin_free(&s->fj);
	if (nx)
		memcpy(s->fl.v + nf, s->xf.v, nx * sizeof(*s->xf.v));
	s->fl.n = s->fl.cap = nf + nx;
	xf_free(&s->xf);
	/* the calls on one device: ordered now, the event indexes dropped (tl_flows_order's order and packing) */
	const struct pt_model *m = s->m;
	bool one = !s->kranks;
	uint32_t d0 = UINT32_MAX;
	for (size_t k = 0; k < s->fl.n && one; k++) {
		uint32_t d = m->tracks.v[s->fl.v[k].srow & FL_TRACK].device;
		if (d0 == UINT32_MAX)
			d0 = d;
		one = d == d0;
	}
	if (s->kranks && s->fl.n)
		one = ranks_one_device(s);
	else if (!one && s->fl.n)
		one = calls_one_clock(s);
	if (!one || !s->fl.n)
		return;
	tl_flows_sort(s->fl.v, s->fl.n);
	struct tl_arrow *a = (struct tl_arrow *)(void *)s->fl.v;
	for (size_t i = 0; i < s->fl.n; i++) { /* forward: arrow i ends at or before flow i + 1 starts */
		struct flow f;
		memcpy(&f, (const char *)s->fl.v + i * sizeof(f), sizeof(f));
		struct tl_arrow w = { f.srow, f.frow, f.sts, f.fts };
		memcpy((char *)a + i * sizeof(w), &w, sizeof(w));
	}
	s->fl.v = pt_xrealloc(a, s->fl.n * sizeof(*a));
	s->fl.cap = s->fl.n;
	s->packed = true;
}

static void kq_add(struct kq *q, int64_t st, int64_t en, uint8_t cls)
{
	if (q->h && q->n == q->cap) {
		memmove(q->v, q->v + q->h, (q->n - q->h) * sizeof(*q->v));
		q->n -= q->h;
		q->h = 0;
	}
	pt_xgrow((void **)&q->v, &q->cap, q->n + 1, sizeof(*q->v));
	size_t i = q->n++;
	while (i > q->h && q->v[i - 1].s > st) {
		q->v[i] = q->v[i - 1];
		i--;
	}
	q->v[i] = (struct kiv){ st, en, cls };
}

static void kq_release(struct pt_tl_gstream *s, size_t d, bool all)
{
	struct kq *q = &s->kq[d];
	int64_t below = lag_bound(&s->klag[d], q->seen, q->top);
	while (q->h < q->n && (all || q->v[q->h].s < below)) {
		const struct kiv *k = &q->v[q->h++];
		pt_ivpack_append(k->cls == 2 ? &s->M[d] : &s->C[d], k->s, k->e);
	}
	if (q->h == q->n)
		q->h = q->n = 0;
}

static void scan_release(struct pt_tl_gstream *s, bool all)
{
	for (size_t tr = 0; tr < s->nt; tr++) {
		struct gtrk *t = &s->t[tr];
		int64_t below = track_bound(s, (uint32_t)tr);
		struct tl_sev v;
		while (next_of(s, t, below, below, all, &v))
			scan_one(s, (uint32_t)tr, &v);
	}
	for (size_t d = 0; d < s->nd; d++)
		kq_release(s, d, all);
}

static int scan3(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct pt_tl_gstream *s = arg;
	const struct pt_events *ev = &m->events;
	if (m->tracks.n != s->nt)
		return AGAIN;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t tr = ev->track[i], gi = (uint32_t)(s->at->base + i);
		uint32_t d = m->tracks.v[tr].device;
		uint8_t k = ev->kind[i];
		int64_t st = ev->start[i], du = ev->dur[i];
		uint64_t co = ev->corr[i];
		bool keep = tl_pass_event_at(&s->pass, ev, i, gi, anchor_of(s, k, co, st));
		bool late = saw(s, tr, gi, st);
		if (s->ga)
			tl_gast_event(s->ga, gi, tr, k, st, du, keep);
		if (keep && k == PT_EV_RANGE && !s->host_steps && step_name(s, m, ev->name[i]))
			s->host_steps = true;
		if (k == PT_EV_KERNEL && !s->no_sets) {
			struct kq *q = &s->kq[d];
			uint8_t cls = kernel_class(s, m, ev->name[i]);
			if (cls == 1 && ((s->gc.nck && tl_gcomm_kernel(&s->gc, gi)) ||
					 (s->gc.ncs && co &&
					  tl_gcomm_kernel_slot(&s->gc, s->gjon ? pt_ljoin_slot(&s->gj, co) :
										 pt_ljoin_slot(&s->j, jkey(s, d, co))))))
				cls = 2;
			kq_add(q, st, st + du, cls);
			if (!q->seen || st > q->top)
				q->top = st;
			q->seen = true;
		}
		if (!keep)
			continue;
		s->nev[d]++;
		if (du < 0 || late)
			continue;
		uint8_t kb = 1;
		if (k == PT_EV_RANGE && step_name(s, m, ev->name[i]))
			kb |= 2;
		struct tl_sev v = { .start = st, .dur = du, .task = ev->task[i], .corr = co, .name = ev->name[i],
				    .op = ev->op[i], .kind = k, .keep = kb, .ev = gi };
		tq_add(m, &s->t[tr].q, &v);
	}
	s->at->base += ev->n;
	scan_release(s, false);
	return 0;
}

static void gstream_free(struct pt_tl_gstream *s);

static int read_again(struct pt_tl_gstream *s, int (*fn)(void *, struct pt_model *, struct pt_err **),
		      struct pt_err **e)
{
	reset_reads(s);
	struct pt_ptm_sink sink = { fn, s, true, G_SKIP };
	int rc = pt_ptm_read_stream(s->path, s->m, &sink, e);
	if (rc > 0)
		return pt_err(e, "'%s' changed while it was read", s->path);
	return rc;
}

int pt_tl_gstream_new(const char *path, const struct pt_tl_opts *o, bool flows, struct pt_model **mp,
		      struct pt_tl **out, struct pt_err **e)
{
	*mp = NULL;
	*out = NULL;
	pt_xmap_big(); /* the reads free large blocks (the first read's buffers, the launch arrows' slots) */
	struct pt_tl_gstream *s = pt_xcalloc(1, sizeof(*s));
	pt_ptm_turns_init(&s->b.rd);
	s->P = pt_xcalloc(1, sizeof(*s->P));
	s->cu = pt_xcalloc(1, sizeof(*s->cu));
	s->cu[0].s = s;
	s->at = s->cu;
	s->path = pt_xstrdup(path);
	s->o = o;
	s->no_sets = o->kineto && !o->kineto_extra;
	if (o->kineto)
		s->ga = tl_gast_new();
	pt_ljoin_init(&s->j);
	pt_ljoin_init(&s->fj);
	pt_sel_found_init(&s->rf, &o->sel);
	s->sel = tl_gsel_new(&o->sel);
	char msg[128];
	s->has_re = !pt_sel_step_re(&o->sel, &s->re, msg, sizeof(msg));
	struct pt_model *m = s->m = pt_model_new();
	/* links and copies are never read (kineto: the copies are; no counters, no GPU annotations without
	 * host ranges: the memory records and the links unread) */
	struct pt_ptm_sink first = { scan1, s, false,
				     G_SKIP | PT_PTM_RANGES_BATCHWISE |
					     (o->kineto ? PT_PTM_TABLES_NO_MEM_LINKS | PT_PTM_SKIP_BUT_LINKS | PT_PTM_LINKS_BATCHWISE |
								  PT_PTM_EXT_CORR_BATCHWISE
							: PT_PTM_SKIP_LAUNCH_TABLES | PT_PTM_TABLES_NO_EXT_CORR | PT_PTM_SKIP_BUT_LINKS |
							  PT_PTM_LINKS_BATCHWISE) };
	int rc = pt_ptm_read_stream(path, m, &first, e);
	if (rc || s->again)
		goto out;
	fit(s, m);
	if (!s->no_sets)
		tl_gcomm_infos(&s->gc, m);
	/* (fbig: the arrows of several processes cannot be keyed by theirs; the kernels that join their calls
	 * by correlation id for the unions, keyed by rank too, cannot be looked up as index.c does) */
	if (m->steps.n || m->tracks.n > FL_TRACK ||
	    (!s->no_sets && !tl_gcomm_seal(&s->gc, s->nev_all, m->tracks.n, !s->kranks || !s->gc.linked)) ||
	    (flows && !o->kineto && s->pids.n > 1 && s->fbig)) {
		s->again = true;
		goto out;
	}
	for (size_t d = 0; d < m->devices.n; d++) {
		struct pt_ival *sp = NULL;
		size_t n = pt_index_comm_spans(m, (uint32_t)d, &sp);
		free(sp);
		if (n || (m->devices.v[d].kind != PT_DEV_CPU && m->devices.v[d].kind != PT_DEV_GPU)) {
			s->again = true;
			goto out;
		}
	}
	if (s->sel && !tl_gsel_streams(s->sel, m)) {
		s->again = true;
		goto out;
	}
	if (o->kineto) {
		tl_kro_take(&s->kro, &s->kr, m);
		tl_kro_seal(&s->kro, &s->kr);
	}
	if (o->kineto && krange_annotated(s, m)) { /* (two range infos of one event, or several processes with a
						     * selection, whose annotations' nesting read is not checked against the
						     * whole load: read whole) */
		int kn = tl_kro_nest(&s->kro, &s->kn);
		if (kn < 0 || !tl_gast_seal(s->ga) || (s->np > 1 && s->sel)) {
			s->again = true;
			goto out;
		}
	} else {
		tl_gast_free(s->ga);
		s->ga = NULL;
	}
	tl_kro_free(&s->kro);
	if (tl_gsel_by_read(s->sel)) { /* the steps of several processes by their own read (pass-timeline-gsel.h) */
		bool whole;
		if ((rc = tl_gsel_read_steps(s->sel, s->path, &whole, e)) || whole) {
			s->again = whole;
			goto out;
		}
	}
	s->rf.step_records = false;
	/* what the viewer profile never reads of the side tables (the links, and but for the kineto profile
	 * the copies, were not kept; kineto: the copies' kinds and sizes) */
	if (o->kineto) {
		tl_kpack_fit(&s->kr.p);
		tl_kext_copies_in_order(m);
		tl_kcopy_take(&s->kc, m);
		for (size_t p = 0; p < s->np; p++) { /* (a cursor each over the one pack: the processes' reads interleave) */
			s->cu[p].kc = s->kc;
			s->cu[p].kr = s->kr;
		}
		tl_kxpack_add(&s->xp, m); /* (any rows left) */
		pt_vec_free(&m->ext_corr);
		s->ext = tl_kxmap_build(&s->xp, m->devices.n);
	}
	kconf_keep(s, m);
	syncs_waited(m);
	pt_vec_free(&m->kernels);
	pt_vec_free(&m->ranges);
	pt_vec_free(&m->links); /* (a chunk's, PT_PTM_LINKS_BATCHWISE) */
	rc = tl_pass_begin_host(&s->pass, m, o, pt_model_origin(m, s->has_ev ? &s->evmin : NULL), s->hr.v, s->hr.n, e);
	pt_vec_free(&s->hr);
	if (rc)
		goto out;
	/* the GPU user annotations' ranges nested, in a read of their own once the steps are known */
	if (s->ga && (rc = tl_gast_nest(s->ga, s->path, m, s->pass.t, s->kn.any ? &s->kn : &s->kr,
					s->has_re ? &s->re : NULL, G_SKIP, e)))
		goto out;
	tl_kpack_free(&s->kn.p);
	/* the memory records: in the pass's counter groups now */
	if (m->gpu_mem_pack) {
		pt_gpu_mem_pack_free(m->gpu_mem_pack);
		free(m->gpu_mem_pack);
		m->gpu_mem_pack = NULL;
	}
	/* the viewer profile of several processes: the arrows' join by (process, id), the first process's keys
	 * being its ids (j's wants: a superset, whose keys no activity of another process is under) */
	s->fkeyed = flows && s->has_corr && !o->kineto && s->pids.n > 1;
	if (s->fkeyed) {
		fj_seal(s);
	} else {
		pt_ljoin_free(&s->fj);
	}
	gj_seal(s);
	aj_seal(s, step_wins(s->pass.t));
	j_dense(s);
	pt_ljoin_seal(&s->j);
	free(s->j.end); /* the calls' starts are all the join gives here */
	s->j.end = NULL;
	/* what the first read held (the event codes, the kernel infos, the memory records) was grown through
	 * malloc and stays resident once freed: given back before the arrows' slots come on top of it */
	pt_xtrim();
	/* steps counted from the host's ranges alone: before the arrows' slots come (what the count holds for a
	 * while would come on top of them) */
	bool sel_early = s->sel && tl_gsel_no_launches(s->sel);
	if (sel_early && !tl_gsel_steps(s->sel, m, &s->j)) {
		s->again = true;
		goto out;
	}
	s->want_flows = flows && s->has_corr;
	size_t nslot = s->fkeyed ? s->fj.n : s->j.n;
	if (s->want_flows && nslot) {
		s->fs = pt_xcalloc(nslot, sizeof(*s->fs)); /* (a mapping: its pages are resident once written) */
	}
	s->cur = pt_xcalloc(s->nt ? s->nt : 1, sizeof(*s->cur));
	choose_late(s);
	tl_strags_reserve(&s->sg, s->nlate);
	for (size_t p = 0; p < s->np; p++)
		s->P[p].atop_seen = false;
	if (tl_gcomm_more(&s->gc)) { /* (the ranges that a range info alone makes communication, the links) */
		if ((rc = tl_gcomm_reread(&s->gc, s->path, e)))
			goto out;
		if (!tl_gcomm_build(&s->gc)) {
			s->again = true;
			goto out;
		}
	}
	if (s->gjon && !s->gc.bycorr) { /* (no kernel joins its call by id for the unions) */
		pt_ljoin_free(&s->gj);
		free(s->gseen);
		s->gseen = NULL;
		s->gjon = false;
	}
	if (s->ajon && !s->sel && !(s->gc.bycorr && !s->gjon)) { /* (j's starts: only the steps' notes and the
								    * unions' first calls read them here) */
		free(s->j.start);
		s->j.start = NULL;
	}
	if ((rc = read_again(s, calls, e)))
		goto out;
	tl_gcomm_resolve(&s->gc);
	if (s->sel && !sel_early && !tl_gsel_steps(s->sel, m, &s->j)) {
		s->again = true;
		goto out;
	}
	/* without step windows no event's step is its launch's (tl_step_keep): the calls' starts go before
	 * the third read, the join's slots stay for the arrows */
	bool wins = step_wins(s->pass.t);
	if ((!wins || s->ajon) && s->j.start) { /* (aj's starts are the anchors) */
		free(s->j.start);
		s->j.start = NULL;
		pt_xtrim();
	}
	anchors_pack(&s->an, s->ajon ? &s->aj : &s->j);
	/* third read */
	s->scan = pt_xcalloc(s->nt ? s->nt : 1, sizeof(*s->scan));
	s->nev = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->nev));
	s->kq = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->kq));
	s->C = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->C));
	s->M = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->M));
	/* the stragglers that stay, per track in the rows' order (room for each track's, the kept listed) */
	for (size_t k = 0; k < s->sg.n; k++)
		s->t[tl_strags_track(&s->sg, k)].sn++;
	for (size_t tr = 0; tr < s->nt; tr++) {
		struct gtrk *t = &s->t[tr];
		t->sl = t->sn ? pt_xmalloc(t->sn * sizeof(*t->sl)) : NULL;
		t->sn = 0;
	}
	for (size_t k = 0; k < s->sg.n; k++) {
		struct gtrk *t = &s->t[tl_strags_track(&s->sg, k)];
		struct tl_sev g;
		tl_strags_get(&s->sg, k, &g);
		size_t c0 = 0, lo;
		bool keep;
		uint32_t step = tl_step_keep(s->pass.t, m->tracks.v[tl_strags_track(&s->sg, k)].device,
					     anchor_of(s, g.kind, g.corr, g.start), g.start, g.dur, &c0, &lo, &keep);
		uint8_t kb = keep && g.dur >= 0;
		if (kb && g.kind == PT_EV_RANGE && step_name(s, m, g.name))
			kb |= 2;
		tl_strags_set(&s->sg, k, step, kb);
		if (kb)
			t->sl[t->sn++] = (uint32_t)k;
	}
	for (size_t tr = 0; tr < s->nt; tr++) { /* (the unkept's room given back: a selection keeps few) */
		struct gtrk *t = &s->t[tr];
		if (t->sl && !t->sn) {
			free(t->sl);
			t->sl = NULL;
		} else if (t->sl) {
			t->sl = pt_xrealloc(t->sl, t->sn * sizeof(*t->sl));
		}
	}
	sort_m = m;
	sort_sg = &s->sg;
	for (size_t tr = 0; tr < s->nt; tr++)
		if (s->t[tr].sn > 1)
			qsort(s->t[tr].sl, s->t[tr].sn, sizeof(*s->t[tr].sl), strag_cmp);
	sort_m = NULL;
	sort_sg = NULL;
	if ((rc = read_again(s, scan3, e)))
		goto out;
	if (s->ga)
		tl_gast_finish(s->ga);
	scan_release(s, true);
	gather_flows(s);
	m->events.n = 0; /* the last batch: not the model's events */
	if (s->has_corr)
		m->events.dense |= PT_EVCOL_CORR;
	static const struct pt_ivset none = { 0 };
	struct tl_sets *S = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*S));
	for (size_t d = 0; d < s->nd; d++) {
		free(s->kq[d].v);
		pt_ivpack_close(&s->C[d]);
		pt_ivpack_close(&s->M[d]);
		S[d] = (struct tl_sets){ &none, &none, &s->C[d], &s->M[d] };
	}
	free(s->kq);
	s->kq = NULL;
	struct pt_tl *t = tl_pass_finish(&s->pass, S);
	free(S);
	krange_no_steps_rows(s, t);
	/* without step windows no event's step is its launch's: the join's calls are not read again */
	wins = t->has_window;
	for (size_t d = 0; d < t->ndev && !wins; d++)
		wins = t->dev[d].win.n > 0;
	if (!wins) {
		pt_ljoin_free(&s->j);
		pt_ljoin_free(&s->aj);
		s->ajon = false;
		anchors_free(&s->an);
	}
	for (size_t tr = 0; tr < s->nt; tr++) {
		struct lanes *L = &s->scan[tr].L;
		uint32_t nl = L->nl;
		uint64_t ov = L->overflow;
		lanes_free(L);
		memset(L, 0, sizeof(*L));
		L->nl = nl;
		L->overflow = ov;
		free(s->t[tr].q.v);
		memset(&s->t[tr].q, 0, sizeof(s->t[tr].q));
	}
	for (uint32_t p = 1; p < s->np; p++)
		pt_ptm_turns_init(turns_of(s, p));
	s->rd_init = true;
	/* each process's events in the file (the track table's counts), for its read to end after its last */
	for (uint32_t p = 0; p < s->np; p++)
		s->cu[p].total = m->track_events.n == m->tracks.n ? 0 : UINT64_MAX;
	for (size_t tr = 0; tr < m->track_events.n && m->track_events.n == m->tracks.n; tr++)
		s->cu[tproc(s, (uint32_t)tr)].total += m->track_events.v[tr].count;
	s->dense = m->events.dense;
	t->gstream = s;
	*mp = m;
	*out = t;
	return 0;
out:
	if (rc == AGAIN || (rc == 0 && s->again))
		rc = PT_TL_NOSTREAM;
	gstream_free(s);
	pt_model_free(m);
	return rc < 0 ? -1 : rc;
}

void pt_tl_gstream_check_sel(const struct pt_tl *tl, const struct pt_model *m, const struct pt_sel *sel,
			     struct pt_diag *d)
{
	const struct pt_tl_gstream *s = tl->gstream;
	int64_t span[2] = { s->evmin, s->evmax };
	tl_gsel_check(s->sel, m, sel, &s->rf, s->has_ev ? span : NULL, d);
}

struct tl_kxmap *tl_gstream_ext(const struct pt_tl_gstream *s)
{
	return s->ext;
}

struct tl_gast *tl_gstream_gast(const struct pt_tl_gstream *s)
{
	return s->ga;
}

bool tl_gstream_host_steps(const struct pt_tl_gstream *s)
{
	return s->host_steps;
}

struct tl_tscan *tl_gstream_scan(struct pt_tl_gstream *s)
{
	return s->scan;
}

const uint64_t *tl_gstream_nev(const struct pt_tl_gstream *s)
{
	return s->nev;
}

/* Arrow f on trace c's rows (its ends' tracks and lanes made rows, its times the export clock's): false
 * where an end has no row in c. */
static bool ends_on_rows(const struct pt_tl_gstream *s, const struct tl_trace *c, uint32_t *srow, uint32_t *frow,
			 int64_t *sts, int64_t *fts)
{
	const struct pt_model *m = c->m;
	uint32_t at = *srow & FL_TRACK, ft = *frow & FL_TRACK;
	if (!s->b.lane_row[at] || !s->b.lane_row[ft])
		return false;
	uint32_t arow = s->b.lane_row[at][FL_LANE(*srow)], brow = s->b.lane_row[ft][FL_LANE(*frow)];
	if (arow == UINT32_MAX || brow == UINT32_MAX)
		return false;
	*srow = arow;
	*frow = brow;
	*sts += c->dev_off[m->tracks.v[at].device] - c->base;
	*fts += c->dev_off[m->tracks.v[ft].device] - c->base;
	return true;
}

static bool flow_on_rows(const struct pt_tl_gstream *s, const struct tl_trace *c, struct flow *f)
{
	return ends_on_rows(s, c, &f->srow, &f->frow, &f->sts, &f->fts);
}

/* The kineto profile of several ranks, its arrows ordered and packed (ranks_one_device): trace c takes its
 * own, in their order, and the others stay, in theirs, for their traces. */
static bool ranks_take_arrows(struct pt_tl_gstream *s, struct tl_trace *c)
{
	struct tl_arrow *a = (struct tl_arrow *)(void *)s->fl.v;
	size_t n = 0, k = 0;
	for (size_t i = 0; i < s->fl.n; i++) {
		struct tl_arrow w = a[i];
		n += ends_on_rows(s, c, &w.srow, &w.frow, &w.sts, &w.fts);
	}
	struct tl_arrow *mine = n ? pt_xmalloc(n * sizeof(*mine)) : NULL;
	n = 0;
	for (size_t i = 0; i < s->fl.n; i++) {
		struct tl_arrow w = a[i];
		if (ends_on_rows(s, c, &w.srow, &w.frow, &w.sts, &w.fts))
			mine[n++] = w;
		else
			a[k++] = a[i];
	}
	s->fl.n = k;
	if (k) {
		s->fl.v = pt_xrealloc(s->fl.v, k * sizeof(*a));
		s->fl.cap = k;
	} else {
		pt_vec_free(&s->fl);
	}
	pt_vec_free(&c->flows);
	free(c->arrows);
	c->arrows = mine;
	c->narrows = n;
	return true;
}

bool tl_gstream_flows(struct tl_trace *c)
{
	struct pt_tl_gstream *s = c->tl->gstream;
	if (s->kranks && s->packed)
		return ranks_take_arrows(s, c);
	if (s->kranks) { /* the kineto profile of several ranks, a trace per rank: each takes its own arrows (an
			  * arrow's ends are of one rank), the others' stay, in their order, for their traces */
		pt_vec_free(&c->flows);
		size_t n = 0, k = 0;
		for (size_t i = 0; i < s->fl.n; i++) {
			struct flow f = s->fl.v[i];
			n += flow_on_rows(s, c, &f);
		}
		if (n < s->fl.n) {
			c->flows.v = pt_xmalloc((n ? n : 1) * sizeof(*c->flows.v));
			c->flows.cap = n ? n : 1;
			for (size_t i = 0; i < s->fl.n; i++) {
				struct flow f = s->fl.v[i];
				if (flow_on_rows(s, c, &f))
					c->flows.v[c->flows.n++] = f;
				else
					s->fl.v[k++] = s->fl.v[i];
			}
			s->fl.n = k;
			s->fl.v = pt_xrealloc(s->fl.v, (k ? k : 1) * sizeof(*s->fl.v));
			s->fl.cap = k ? k : 1;
			return false;
		}
	}
	if (s->packed) { /* ordered and packed: the trace takes them as its arrows */
		struct tl_arrow *a = (struct tl_arrow *)(void *)s->fl.v;
		size_t n = 0;
		for (size_t k = 0; k < s->fl.n; k++) {
			struct tl_arrow w = a[k];
			if (ends_on_rows(s, c, &w.srow, &w.frow, &w.sts, &w.fts))
				a[n++] = w;
		}
		pt_vec_free(&c->flows);
		free(c->arrows);
		c->arrows = n ? a : NULL;
		if (!n)
			free(a);
		c->narrows = n;
		s->fl.v = NULL;
		s->fl.n = s->fl.cap = 0;
		return true;
	}
	size_t n = 0;
	for (size_t k = 0; k < s->fl.n; k++) {
		struct flow f = s->fl.v[k];
		if (flow_on_rows(s, c, &f))
			s->fl.v[n++] = f;
	}
	/* the trace takes them */
	pt_vec_free(&c->flows);
	c->flows.v = s->fl.v;
	c->flows.n = n;
	c->flows.cap = s->fl.cap;
	s->fl.v = NULL;
	s->fl.n = s->fl.cap = 0;
	return false;
}

/* ------------------------------------------------------------------ writing */

/* The events of the running read's track queues that start before their bound (all: every one) to their
 * rows. A track's stragglers, all held, go to its row only below its process's bound (the merge's reach):
 * where the track's own bound runs ahead (a track whose few events in their turn came late in the file,
 * CUPTI's syncs), they would all be queued twice at once. */
static void route_release(struct pt_tl_gstream *s, bool all)
{
	struct tl_trace *c = s->b.c;
	for (size_t tr = 0; tr < s->nt; tr++) {
		struct gtrk *t = &s->t[tr];
		if (!s->b.lane_row[tr] || tproc(s, (uint32_t)tr) != s->at->proc)
			continue;
		int64_t below = track_bound(s, (uint32_t)tr);
		const struct gproc *p = &s->P[tproc(s, (uint32_t)tr)];
		int64_t sbelow = lag_bound(&p->glag, p->gseen, p->gtop);
		if (sbelow > below)
			sbelow = below;
		struct tl_sev v;
		while (next_of(s, t, below, sbelow, all, &v)) {
			uint8_t l = lane_next(&s->b.L[tr], v.start, v.start + v.dur);
			uint32_t ri = s->b.lane_row[tr][l];
			if (ri != UINT32_MAX)
				tl_row_push(&c->rows.v[ri], &v);
		}
		if (t->sh < t->sn) /* (no straggler left starts before sbelow) */
			below = sbelow;
		if (!all && below > INT64_MIN) {
			s->b.head[tr] = below;
			s->b.has_head[tr] = 1;
		}
	}
}

/* In the read's thread, while the writer waits: the batch's kept events of the read's process to their
 * track queues, and on. */
static void route(struct pt_tl_gstream *s, const struct pt_model *m)
{
	const struct pt_tl *tl = s->b.c->tl;
	const struct pt_events *ev = &m->events;
	uint32_t proc = s->at->proc;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t tr = ev->track[i], gi = (uint32_t)(s->at->base + i);
		int64_t st = ev->start[i], du = ev->dur[i];
		uint8_t k = ev->kind[i];
		uint32_t kc = k == PT_EV_KERNEL ? kconf_next(s, gi) : 0;
		if (tproc(s, tr) != proc)
			continue;
		s->at->nown++;
		if (saw(s, tr, gi, st) || !s->b.lane_row[tr] || du < 0)
			continue;
		uint64_t co = ev->corr[i];
		size_t lo;
		bool keep;
		uint32_t step = tl_step_keep(tl, m->tracks.v[tr].device, anchor_of(s, k, co, st), st, du, &s->cur[tr],
					     &lo, &keep);
		if (!keep)
			continue;
		uint8_t kb = 1;
		if (k == PT_EV_RANGE && step_name(s, m, ev->name[i]))
			kb |= 2;
		struct tl_sev v = { .start = st, .dur = du, .task = ev->task[i], .corr = co, .name = ev->name[i],
				    .op = ev->op[i], .step = step, .kind = k, .keep = kb, .ev = gi, .kconf = kc };
		krange_sev(s, &v);
		tq_add(m, &s->t[tr].q, &v);
	}
	s->at->base += ev->n;
	route_release(s, false);
}

/* (In the read's thread: one runs at a time, while the writer waits, and it is s->at.) */
static int feed(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gcur *c = arg;
	struct pt_tl_gstream *s = c->s;
	s->at = c;
	if (m->tracks.n != s->nt)
		return AGAIN;
	route(s, m);
	if (s->np > 1 && c->nown == c->total) { /* its process's last event: the rest of the file is the others' */
		route_release(s, true);
		return OWN_DONE;
	}
	return pt_ptm_turns_yield(turns_of(s, c->proc)) ? STOPPED : 0;
}

static void before_read(void *arg)
{
	struct gcur *c = arg;
	reset_read(c->s, c, false);
}

static void after_read(void *arg)
{
	struct gcur *c = arg;
	c->s->at = c;
	route_release(c->s, true); /* the file's end: every event of its process is read */
}

static int it_failed(struct pt_trace *t, struct pt_err **e)
{
	struct pt_tl_gstream *s = ((struct tl_trace *)t)->tl->gstream;
	return tl_rowbind_failed(&s->b, s->path, e);
}

static void reset_tracks(struct pt_tl_gstream *s)
{
	reset_reads(s);
	memset(s->cur, 0, s->nt * sizeof(*s->cur));
}

void tl_gstream_bind(struct tl_trace *c)
{
	struct pt_tl_gstream *s = c->tl->gstream;
	tl_rowbind_bind(&s->b, c, s->nt, it_failed);
	reset_tracks(s);
	/* one writing read per process over the same file and model (one runs at a time) */
	for (uint32_t p = 0; p < s->np; p++) {
		struct pt_ptm_turns *rd = turns_of(s, p);
		if (p)
			pt_ptm_turns_rewind(rd);
		rd->path = s->path;
		rd->m = s->m;
		rd->sink = (struct pt_ptm_sink){ feed, &s->cu[p], true, G_SKIP };
		rd->before = before_read;
		rd->after = after_read;
		rd->arg = &s->cu[p];
	}
}

void tl_gstream_unbind(struct tl_trace *c)
{
	struct pt_tl_gstream *s = c->tl ? c->tl->gstream : NULL;
	if (!s || s->b.c != c)
		return;
	for (uint32_t p = 1; p < s->np; p++)
		pt_ptm_turns_stop(turns_of(s, p));
	tl_rowbind_unbind(&s->b, c);
	/* the model as the third read left it, for the next trace (the kineto profile's next rank) */
	s->m->events.n = 0;
	s->m->events.dense = s->dense;
	for (size_t tr = 0; tr < s->nt; tr++) {
		free(s->t[tr].q.v);
		memset(&s->t[tr].q, 0, sizeof(s->t[tr].q));
	}
}

void tl_gstream_rewind(struct tl_trace *c)
{
	struct pt_tl_gstream *s = c->tl->gstream;
	tl_rowbind_rewind(&s->b);
	for (uint32_t p = 0; p < s->np; p++) {
		if (p)
			pt_ptm_turns_rewind(turns_of(s, p));
		s->cu[p].eof_told = false;
	}
	reset_tracks(s);
}

int tl_gstream_pull(struct tl_trace *c, uint32_t row)
{
	struct pt_tl_gstream *s = c->tl->gstream;
	/* the read of the row's process (its track's) */
	uint32_t p = tproc(s, c->rows.v[row].track);
	struct pt_ptm_turns *rd = turns_of(s, p);
	if (!rd->eof && !pt_ptm_turns_pull(rd))
		return 0;
	if (rd->rc == OWN_DONE) /* ended after its process's last event, which released its queues */
		rd->rc = 0;
	/* the end released the queues' last events: looked at again once */
	return tl_rowbind_pull_rd(&s->b, rd, &s->cu[p].eof_told);
}

static void gstream_free(struct pt_tl_gstream *s)
{
	if (!s)
		return;
	free(s->kcode);
	free(s->kev);
	tl_kpack_free(&s->kr.p);
	tl_kpack_free(&s->kn.p);
	tl_kro_free(&s->kro);
	tl_kpack_free(&s->kc.p);
	tl_gast_free(s->ga);
	free(s->rdev);
	tl_kxpack_free(&s->xp);
	tl_kxmap_free(s->ext);
	free(s->jlo);
	free(s->jspan);
	free(s->jbase);
	pt_ptm_turns_destroy(&s->b.rd);
	if (s->rd_init)
		for (uint32_t p = 1; p < s->np; p++)
			pt_ptm_turns_destroy(turns_of(s, p));
	free(s->P);
	free(s->cu);
	free(s->dproc);
	free(s->dpid);
	pt_vec_free(&s->pids);
	if (s->t)
		for (size_t tr = 0; tr < s->nt; tr++) {
			free(s->t[tr].q.v);
			free(s->t[tr].sl);
		}
	free(s->t);
	tl_strags_free(&s->sg);
	if (s->kq)
		for (size_t d = 0; d < s->nd; d++)
			free(s->kq[d].v);
	free(s->kq);
	if (s->C)
		for (size_t d = 0; d < s->nd; d++) {
			pt_ivpack_free(&s->C[d]);
			pt_ivpack_free(&s->M[d]);
		}
	free(s->C);
	free(s->M);
	if (s->scan)
		for (size_t tr = 0; tr < s->nt; tr++) {
			lanes_free(&s->scan[tr].L);
			free(s->scan[tr].lane_n);
		}
	free(s->scan);
	free(s->nev);
	free(s->klag);
	free(s->cur);
	free(s->rstep);
	free(s->kcls);
	tl_gcomm_free(&s->gc);
	free(s->fs);
	xf_free(&s->xf);
	pt_vec_free(&s->fl);
	pt_vec_free(&s->hr);
	pt_ljoin_free(&s->j);
	pt_ljoin_free(&s->aj);
	anchors_free(&s->an);
	pt_ljoin_free(&s->fj);
	if (s->gjon)
		pt_ljoin_free(&s->gj);
	free(s->gseen);
	free(s->flo);
	free(s->fspan);
	free(s->fbase);
	tl_gsel_free(s->sel);
	if (s->pass.m)
		tl_pass_free(&s->pass);
	if (s->has_re)
		regfree(&s->re);
	free(s->path);
	pt_err_free(s->b.ferr);
	free(s);
}

void pt_tl_gstream_free(struct pt_tl_gstream *s)
{
	gstream_free(s);
}
