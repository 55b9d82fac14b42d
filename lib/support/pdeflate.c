/* Parallel deflate into one zlib or gzip stream (see pdeflate.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "pdeflate.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "xalloc.h"

#define DICT 32768u               /* deflate's window: the dictionary of a block */
#define MAX_BLOCK (64u << 20)     /* fits zlib's uInt counts with room to spare */
#define HIST (4 * DICT)           /* a streamed compressor's input buffer */
#define SOUT (64u << 10)          /* and its output buffer */

enum { J_FREE, J_QUEUED, J_BUSY, J_DONE };
enum { E_NONE, E_ZLIB, E_SINK };

/* One block: its dictionary (the dlen input bytes before it) then its data. */
struct job {
	uint8_t *in;
	size_t incap, dlen, len;
	uint8_t *out;
	size_t outcap, outlen;
	unsigned long adler, crc; /* of the data */
	bool last, final, failed; /* last of the stream; final: ended by deflate's final block */
	int state; /* J_*, under mu once threads run */
};

struct pt_pdeflate {
	int level;
	size_t block;
	bool gzip, raw;
	int threads;
	pt_pdeflate_sink sink;
	void *ctx;
	/* a ring: jobs[head .. head + nused) are submitted and not yet written,
	 * jobs[(head + nused) % njobs] is being filled */
	struct job *jobs;
	size_t njobs, head, nused;
	/* the buffers of written jobs, for the next blocks: only as many are
	 * ever allocated as blocks were in flight at once */
	struct spare {
		uint8_t *in, *out;
		size_t incap, outcap;
	} *spare;
	size_t nspare;
	uint8_t dict[DICT]; /* the tail of the last block submitted */
	unsigned long adler, crc; /* of everything written so far */
	uint64_t total;
	int err;
	z_stream zs; /* the caller's own, while no threads run */
	bool zs_ok;
	/*
	 * Without threads the blocks are streamed through zs instead of being
	 * held whole: hist[0, hlen) holds the input's latest bytes, of which
	 * [fed, hlen) wait for zs, and never fewer than the dictionary's
	 * DICT before them; blen bytes of the current block came so far.
	 * zs takes them in pieces that end where deflate, given the whole
	 * block at once, would stop reading to fill its window: 2 * DICT less
	 * the dictionary, then DICT at a time. Deflate slides its window at
	 * the same points, so the bytes are those of compress_job().
	 */
	bool streamed, begun;
	uint8_t *hist, *sout;
	size_t hlen, fed, need, blen;
	/* the pool */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	pthread_t *tid;
	int nthreads;
	size_t qnext, nqueued; /* the oldest queued job, and how many */
	bool stop;
};

int pt_pdeflate_default_threads(void)
{
	/* the CPUs this process may run on, as nproc(1) counts them: a process
	 * pinned to one core (taskset, a container's cpuset) compresses in one thread */
	cpu_set_t set;
	long n = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 16 ? 16 : (int)n;
}

static int zinit(z_stream *s, int level)
{
	memset(s, 0, sizeof(*s));
	return deflateInit2(s, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK ? 0 : -1;
}

/* Raw deflate of one block: the same bytes whichever stream s and thread do it. */
static int compress_job(z_stream *s, const struct pt_pdeflate *z, struct job *j)
{
	const uint8_t *data = j->in + j->dlen;
	if (deflateReset(s) != Z_OK)
		return -1;
	if (j->dlen && deflateSetDictionary(s, j->in, (uInt)j->dlen) != Z_OK)
		return -1;
	size_t need = deflateBound(s, (uLong)j->len) + 64;
	if (j->outcap < need) {
		free(j->out);
		j->out = pt_xmalloc(need);
		j->outcap = need;
	}
	j->outlen = 0;
	s->next_in = (Bytef *)data;
	s->avail_in = (uInt)j->len;
	int flush = j->last && j->final ? Z_FINISH : Z_SYNC_FLUSH;
	for (;;) {
		if (j->outlen == j->outcap) {
			j->outcap *= 2;
			j->out = pt_xrealloc(j->out, j->outcap);
		}
		s->next_out = j->out + j->outlen;
		s->avail_out = (uInt)(j->outcap - j->outlen);
		int r = deflate(s, flush);
		j->outlen = j->outcap - s->avail_out;
		if (r == Z_STREAM_ERROR)
			return -1;
		if (flush == Z_FINISH ? r == Z_STREAM_END : !s->avail_in && s->avail_out)
			break;
		if (s->avail_out) /* room left and not done: no progress possible */
			return -1;
	}
	j->adler = adler32(1L, data, (uInt)j->len);
	if (z->gzip)
		j->crc = crc32(0L, data, (uInt)j->len);
	return 0;
}

static void *worker(void *arg)
{
	struct pt_pdeflate *z = arg;
	z_stream s;
	bool ok = !zinit(&s, z->level);
	pthread_mutex_lock(&z->mu);
	for (;;) {
		while (!z->stop && !z->nqueued)
			pthread_cond_wait(&z->work, &z->mu);
		if (z->stop)
			break;
		struct job *j = &z->jobs[z->qnext];
		z->qnext = (z->qnext + 1) % z->njobs;
		z->nqueued--;
		j->state = J_BUSY;
		pthread_mutex_unlock(&z->mu);
		bool failed = !ok || compress_job(&s, z, j);
		pthread_mutex_lock(&z->mu);
		j->failed = failed;
		j->state = J_DONE;
		pthread_cond_signal(&z->done);
	}
	pthread_mutex_unlock(&z->mu);
	if (ok)
		deflateEnd(&s);
	return NULL;
}

static void start_threads(struct pt_pdeflate *z)
{
	z->tid = pt_xcalloc((size_t)z->threads, sizeof(*z->tid));
	z->qnext = (z->head + z->nused) % z->njobs;
	for (int i = 0; i < z->threads; i++) {
		if (pthread_create(&z->tid[i], NULL, worker, z))
			break; /* fewer threads; none: compress in the caller */
		z->nthreads++;
	}
}

static void stop_threads(struct pt_pdeflate *z)
{
	if (!z->nthreads)
		return;
	pthread_mutex_lock(&z->mu);
	z->stop = true;
	pthread_cond_broadcast(&z->work);
	pthread_mutex_unlock(&z->mu);
	for (int i = 0; i < z->nthreads; i++)
		pthread_join(z->tid[i], NULL);
	z->nthreads = 0;
}

static void emit(struct pt_pdeflate *z, const void *p, size_t n)
{
	if (!z->err && n && z->sink(z->ctx, p, n))
		z->err = E_SINK;
}

/* Write the oldest submitted job (done) and free its slot. */
static void retire(struct pt_pdeflate *z)
{
	struct job *j = &z->jobs[z->head];
	if (j->failed && !z->err)
		z->err = E_ZLIB;
	emit(z, j->out, j->outlen);
	z->adler = adler32_combine(z->adler, j->adler, (z_off_t)j->len);
	if (z->gzip)
		z->crc = crc32_combine(z->crc, j->crc, (z_off_t)j->len);
	z->total += j->len;
	z->spare[z->nspare++] = (struct spare){ j->in, j->out, j->incap, j->outcap };
	j->in = j->out = NULL;
	j->incap = j->outcap = 0;
	j->state = J_FREE;
	z->head = (z->head + 1) % z->njobs;
	z->nused--;
}

/* Retire the oldest jobs that are done; with wait, until fewer than keep remain. */
static void collect(struct pt_pdeflate *z, size_t keep, bool wait)
{
	while (z->nused && (wait ? z->nused > keep : true)) {
		struct job *j = &z->jobs[z->head];
		if (z->nthreads) {
			pthread_mutex_lock(&z->mu);
			if (j->state != J_DONE && !wait) {
				pthread_mutex_unlock(&z->mu);
				return;
			}
			while (j->state != J_DONE)
				pthread_cond_wait(&z->done, &z->mu);
			pthread_mutex_unlock(&z->mu);
		}
		retire(z);
	}
}

/* Hand the block being filled to the pool (or compress it here), then make
 * the next slot the one being filled, with this block's tail as dictionary. */
static void submit(struct pt_pdeflate *z, bool last, bool final)
{
	struct job *j = &z->jobs[(z->head + z->nused) % z->njobs];
	j->last = last;
	j->final = final;
	size_t have = j->dlen + j->len, d = have < DICT ? have : DICT;
	if (!last)
		memcpy(z->dict, j->in + have - d, d);
	if (!last && z->threads > 1 && !z->tid)
		start_threads(z);
	if (z->nthreads) {
		pthread_mutex_lock(&z->mu);
		j->state = J_QUEUED;
		z->nqueued++;
		pthread_cond_signal(&z->work);
		pthread_mutex_unlock(&z->mu);
	} else {
		if (!z->zs_ok)
			z->zs_ok = !zinit(&z->zs, z->level);
		j->failed = !z->zs_ok || compress_job(&z->zs, z, j);
		j->state = J_DONE;
	}
	z->nused++;
	if (last) {
		collect(z, 0, true);
		return;
	}
	collect(z, 0, false);
	collect(z, z->njobs - 1, true);
	struct job *n = &z->jobs[(z->head + z->nused) % z->njobs];
	if (z->nspare) { /* the most recently written block's buffers */
		struct spare *sp = &z->spare[--z->nspare];
		n->in = sp->in;
		n->out = sp->out;
		n->incap = sp->incap;
		n->outcap = sp->outcap;
	}
	if (n->incap < d)
		pt_xgrow((void **)&n->in, &n->incap, d, 1);
	memcpy(n->in, z->dict, d);
	n->dlen = d;
	n->len = 0;
}

/* Streamed compression (no threads): zs takes hist[fed, fed + n) with flush; 0 or -1 (z->err set). */
static int stream_feed(struct pt_pdeflate *z, size_t n, int flush)
{
	z_stream *s = &z->zs;
	s->next_in = z->hist + z->fed;
	s->avail_in = (uInt)n;
	for (;;) {
		s->next_out = z->sout;
		s->avail_out = SOUT;
		int r = deflate(s, flush);
		if (r == Z_STREAM_ERROR) {
			z->err = E_ZLIB;
			return -1;
		}
		emit(z, z->sout, SOUT - s->avail_out);
		if (z->err)
			return -1;
		if (flush == Z_FINISH ? r == Z_STREAM_END : !s->avail_in && s->avail_out)
			break;
		if (s->avail_out) { /* room left and not done: no progress possible */
			z->err = E_ZLIB;
			return -1;
		}
	}
	z->fed += n;
	return 0;
}

/* A block begins: its dictionary, the DICT bytes of input before it (fewer at the start). */
static int stream_begin(struct pt_pdeflate *z)
{
	if (!z->zs_ok && !(z->zs_ok = !zinit(&z->zs, z->level))) {
		z->err = E_ZLIB;
		return -1;
	}
	size_t d = z->hlen < DICT ? z->hlen : DICT;
	if (deflateReset(&z->zs) != Z_OK || (d && deflateSetDictionary(&z->zs, z->hist + z->hlen - d, (uInt)d) != Z_OK)) {
		z->err = E_ZLIB;
		return -1;
	}
	z->need = 2 * DICT - d;
	z->blen = 0;
	z->begun = true;
	return 0;
}

/* The block ends: what waits, then a sync flush (or deflate's final block). */
static int stream_end_block(struct pt_pdeflate *z, bool final)
{
	if (!z->begun && stream_begin(z))
		return -1;
	z->begun = false;
	return stream_feed(z, z->hlen - z->fed, final ? Z_FINISH : Z_SYNC_FLUSH);
}

static int stream_write(struct pt_pdeflate *z, const uint8_t *p, size_t n)
{
	while (n && !z->err) {
		if (z->begun && z->blen == z->block) { /* a full block ends once more input follows */
			if (stream_end_block(z, false))
				break;
			continue;
		}
		if (!z->begun && stream_begin(z))
			break;
		if (z->hlen == HIST) { /* keep what waits and the dictionary's bytes before it */
			size_t keep = z->hlen - z->fed > DICT ? z->hlen - z->fed : DICT;
			memmove(z->hist, z->hist + z->hlen - keep, keep);
			z->fed -= z->hlen - keep;
			z->hlen = keep;
		}
		size_t k = n, room = HIST - z->hlen, left = z->block - z->blen, want = z->fed + z->need - z->hlen;
		k = k < room ? k : room;
		k = k < left ? k : left;
		k = k < want ? k : want;
		memcpy(z->hist + z->hlen, p, k);
		z->adler = adler32(z->adler, p, (uInt)k);
		if (z->gzip)
			z->crc = crc32(z->crc, p, (uInt)k);
		z->total += k;
		z->hlen += k;
		z->blen += k;
		p += k;
		n -= k;
		if (z->hlen - z->fed == z->need && !stream_feed(z, z->need, Z_NO_FLUSH))
			z->need = DICT;
	}
	return z->err ? -1 : 0;
}

struct pt_pdeflate *pt_pdeflate_open(const struct pt_pdeflate_opts *o, pt_pdeflate_sink sink, void *ctx)
{
	struct pt_pdeflate *z = pt_xcalloc(1, sizeof(*z));
	z->level = o->level >= 1 && o->level <= 9 ? o->level : 6;
	z->block = o->block ? o->block : PT_PDEFLATE_DEFAULT_BLOCK;
	if (z->block > MAX_BLOCK)
		z->block = MAX_BLOCK;
	z->gzip = o->gzip && !o->raw;
	z->raw = o->raw;
	z->threads = o->threads < 1 ? 1 : o->threads > PT_PDEFLATE_MAX_THREADS ? PT_PDEFLATE_MAX_THREADS : o->threads;
	z->sink = sink;
	z->ctx = ctx;
	z->streamed = z->threads <= 1;
	if (z->streamed) {
		z->hist = pt_xmalloc(HIST);
		z->sout = pt_xmalloc(SOUT);
	}
	z->njobs = z->threads > 1 ? (size_t)z->threads + 1 : 1;
	z->jobs = pt_xcalloc(z->njobs, sizeof(*z->jobs));
	z->spare = pt_xcalloc(z->njobs, sizeof(*z->spare));
	z->adler = adler32(0L, NULL, 0);
	z->crc = crc32(0L, NULL, 0);
	pthread_mutex_init(&z->mu, NULL);
	pthread_cond_init(&z->work, NULL);
	pthread_cond_init(&z->done, NULL);
	if (z->gzip) {
		/* what deflateInit2(..., 15 + 16, ...) writes: no name, no time, Unix */
		uint8_t h[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, z->level == 9 ? 2 : z->level == 1 ? 4 : 0, 3 };
		emit(z, h, sizeof(h));
	} else if (!z->raw) {
		uint8_t b[2];
		pt_pdeflate_zlib_header(z->level, b);
		emit(z, b, sizeof(b));
	}
	return z;
}

void pt_pdeflate_zlib_header(int level, uint8_t b[2])
{
	/* what deflateInit writes: CMF 0x78 (32 KiB window), FLEVEL from the level */
	unsigned fl = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
	unsigned h = 0x7800u | fl << 6;
	h += 31 - h % 31;
	b[0] = (uint8_t)(h >> 8);
	b[1] = (uint8_t)h;
}

void pt_pdeflate_set_sink(struct pt_pdeflate *z, pt_pdeflate_sink sink, void *ctx)
{
	z->sink = sink;
	z->ctx = ctx;
}

int pt_pdeflate_write(struct pt_pdeflate *z, const void *p, size_t n)
{
	if (z->streamed)
		return stream_write(z, p, n);
	const uint8_t *s = p;
	while (n && !z->err) {
		struct job *j = &z->jobs[(z->head + z->nused) % z->njobs];
		if (j->len == z->block) {
			submit(z, false, false); /* a full block is only sent once more input follows */
			continue;
		}
		size_t k = z->block - j->len < n ? z->block - j->len : n;
		if (j->incap < j->dlen + j->len + k)
			pt_xgrow((void **)&j->in, &j->incap, j->dlen + j->len + k, 1);
		memcpy(j->in + j->dlen + j->len, s, k);
		j->len += k;
		s += k;
		n -= k;
	}
	return z->err ? -1 : 0;
}

static void pdeflate_free(struct pt_pdeflate *z)
{
	stop_threads(z);
	for (size_t i = 0; i < z->njobs; i++) {
		free(z->jobs[i].in);
		free(z->jobs[i].out);
	}
	for (size_t i = 0; i < z->nspare; i++) {
		free(z->spare[i].in);
		free(z->spare[i].out);
	}
	free(z->jobs);
	free(z->spare);
	free(z->hist);
	free(z->sout);
	free(z->tid);
	if (z->zs_ok)
		deflateEnd(&z->zs);
	pthread_mutex_destroy(&z->mu);
	pthread_cond_destroy(&z->work);
	pthread_cond_destroy(&z->done);
	free(z);
}

int pt_pdeflate_end(struct pt_pdeflate *z, bool final, unsigned long *adler, uint64_t *len, struct pt_err **e)
{
	if (!z->err && z->streamed)
		stream_end_block(z, final); /* an error stays in z->err */
	else if (!z->err)
		submit(z, true, final);
	if (adler)
		*adler = z->adler;
	if (len)
		*len = z->total;
	if (!z->err && !z->raw) {
		uint8_t t[8];
		if (z->gzip) {
			for (int i = 0; i < 4; i++) {
				t[i] = (uint8_t)(z->crc >> (8 * i));
				t[4 + i] = (uint8_t)(z->total >> (8 * i));
			}
			emit(z, t, 8);
		} else {
			for (int i = 0; i < 4; i++)
				t[i] = (uint8_t)(z->adler >> (24 - 8 * i));
			emit(z, t, 4);
		}
	}
	int err = z->err;
	pdeflate_free(z);
	if (err == E_ZLIB)
		return pt_err(e, "zlib compression failed");
	if (err == E_SINK)
		return pt_err(e, "cannot write the compressed stream");
	return 0;
}

int pt_pdeflate_finish(struct pt_pdeflate *z, struct pt_err **e)
{
	return pt_pdeflate_end(z, true, NULL, NULL, e);
}

void pt_pdeflate_abort(struct pt_pdeflate *z)
{
	if (z)
		pdeflate_free(z);
}
