/* The CUPTIDMP writer: see cdump-writer.h and cupti.md §1, §4, §5.5, §5.9. */
#include "cupti/cdump-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cupti/cupti-layouts.h"
#include "support/xalloc.h"

/* ---- raw output ---------------------------------------------------------- */

static int write_all(struct pt_cdump_writer *w, const void *p, size_t n)
{
	const uint8_t *b = p;
	if (w->fd < 0)
		return -1;
	while (n) {
		ssize_t k = write(w->fd, b, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			w->failed = true;
			return -1;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Scratch assembly of chunks, written in one call. */
static uint8_t *scratch_reserve(struct pt_cdump_writer *w, size_t *len, size_t more)
{
	pt_xgrow((void **)&w->scratch, &w->scratch_cap, *len + more, 1);
	uint8_t *p = w->scratch + *len;
	*len += more;
	return p;
}

/* Append a chunk header + payload + padding to scratch; returns the payload pointer. */
static uint8_t *scratch_chunk(struct pt_cdump_writer *w, size_t *len, uint32_t type, size_t payload_len)
{
	size_t padded = (size_t)pt_cdump_round8(payload_len);
	uint8_t *h = scratch_reserve(w, len, 16 + padded);
	memset(h, 0, 16 + padded);
	pt_put32(h, type);
	pt_put64(h + 8, payload_len);
	return h + 16;
}

int pt_cdump_writer_chunk(struct pt_cdump_writer *w, uint32_t type, const void *payload, size_t plen)
{
	pthread_mutex_lock(&w->lock);
	size_t len = 0;
	uint8_t *p = scratch_chunk(w, &len, type, plen);
	if (plen)
		memcpy(p, payload, plen);
	int rc = w->closed ? -1 : write_all(w, w->scratch, len);
	pthread_mutex_unlock(&w->lock);
	return rc;
}

/* ---- open, file naming ----------------------------------------------------- */

int pt_cdump_create_file(const char *dir, const char *host, uint32_t pid, char **path)
{
	char h[256];
	size_t i = 0;
	for (; host && host[i] && i < sizeof(h) - 1; i++) {
		char c = host[i];
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
			  c == '_' || c == '-';
		h[i] = ok ? c : '_';
	}
	h[i] = 0;
	for (int n = 0; n < 1000; n++) {
		char *p = n ? pt_xasprintf("%s/cupti-%s-%u-%d.cdump", dir, h, pid, n)
			    : pt_xasprintf("%s/cupti-%s-%u.cdump", dir, h, pid);
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			*path = p;
			return fd;
		}
		free(p);
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int pt_cdump_writer_open(struct pt_cdump_writer *w, int fd, const struct pt_cdump_header_info *hi)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	w->fd = fd;
	w->version = hi->cupti_runtime_version;
	w->string_cap = 64 * 1024;
	pt_strtab_init(&w->strings);
	pt_strtab_init(&w->blobs);
	w->strings_emitted = w->blobs_emitted = 1; /* id 0 = NULL */
	pt_hashmap_init(&w->ptr_cache);
	pt_hashmap_init(&w->tids);
	uint8_t h[PT_CDUMP_HEADER_SIZE];
	memset(h, 0, sizeof(h));
	memcpy(h, PT_CDUMP_MAGIC, 8);
	pt_put16(h + 8, PT_CDUMP_FMT_MAJOR);
	pt_put16(h + 10, PT_CDUMP_FMT_MINOR);
	pt_put16(h + 12, PT_CDUMP_HEADER_SIZE);
	h[14] = 1;
	h[15] = 8;
	pt_put32(h + 16, hi->cupti_runtime_version);
	pt_put32(h + 20, hi->cupti_header_version);
	pt_put32(h + 24, hi->cuda_driver_version);
	pt_put32(h + 28, hi->pid);
	pt_put64(h + 32, hi->start_realtime_ns);
	pt_put64(h + 40, hi->flags);
	return write_all(w, h, sizeof(h));
}

/* ---- kinds ----------------------------------------------------------------- */

void pt_cdump_writer_set_kind(struct pt_cdump_writer *w, uint32_t kind, uint32_t stride, uint32_t struct_version,
			      uint32_t flags)
{
	if (kind >= PT_CK__MAX)
		return;
	w->kinds[kind].stride = stride;
	w->kinds[kind].struct_version = struct_version;
	w->kinds[kind].flags = flags;
}

void pt_cdump_writer_classify(struct pt_cdump_writer *w)
{
	for (uint32_t k = 1; k < PT_CK__MAX; k++) {
		struct pt_cdump_kind *e = &w->kinds[k];
		e->flags &= ~(uint32_t)(PT_CDUMP_K_REWRITTEN | PT_CDUMP_K_RAW);
		e->layout_size = 0;
		if (!e->stride) {
			e->flags |= PT_CDUMP_K_REJECTED;
			continue;
		}
		const struct pt_cl_layout *l = pt_cl_find(w->version, k, e->stride, NULL);
		if (l) {
			e->flags |= PT_CDUMP_K_REWRITTEN;
			e->layout_size = l->size;
			if (!e->struct_version)
				e->struct_version = l->struct_version;
		} else {
			e->flags |= PT_CDUMP_K_RAW;
		}
	}
}

int pt_cdump_writer_kind_table(struct pt_cdump_writer *w)
{
	uint32_t n = 0;
	for (uint32_t k = 1; k < PT_CK__MAX; k++)
		if (w->kinds[k].stride || w->kinds[k].flags)
			n++;
	size_t plen = 8 + 16 * (size_t)n;
	uint8_t *p = pt_xcalloc(1, plen);
	pt_put32(p, 16);
	pt_put32(p + 4, n);
	size_t o = 8;
	for (uint32_t k = 1; k < PT_CK__MAX; k++) {
		const struct pt_cdump_kind *e = &w->kinds[k];
		if (!e->stride && !e->flags)
			continue;
		pt_put32(p + o, k);
		pt_put32(p + o + 4, e->stride);
		pt_put32(p + o + 8, e->struct_version);
		pt_put32(p + o + 12, e->flags);
		o += 16;
	}
	int rc = pt_cdump_writer_chunk(w, PT_CDUMP_KIND_TABLE, p, plen);
	free(p);
	w->kind_table_written = true;
	return rc;
}

/* ---- small chunks ------------------------------------------------------------ */

int pt_cdump_writer_clock_sync(struct pt_cdump_writer *w, uint64_t cupti_ns, uint64_t realtime_ns,
			       uint64_t monotonic_ns, uint64_t uncertainty_ns, uint32_t reason)
{
	uint8_t p[40];
	memset(p, 0, sizeof(p));
	pt_put64(p, cupti_ns);
	pt_put64(p + 8, realtime_ns);
	pt_put64(p + 16, monotonic_ns);
	pt_put64(p + 24, uncertainty_ns);
	pt_put32(p + 32, reason);
	return pt_cdump_writer_chunk(w, PT_CDUMP_CLOCK_SYNC, p, sizeof(p));
}

int pt_cdump_writer_process(struct pt_cdump_writer *w, uint32_t pid, uint32_t ppid, int32_t rank, int32_t local_rank,
			    int32_t world_size, size_t n, const uint32_t *tags, const char *const *vals,
			    const size_t *lens)
{
	size_t plen = 24;
	for (size_t i = 0; i < n; i++)
		plen += (size_t)pt_cdump_round8(8 + lens[i] + 1);
	uint8_t *p = pt_xcalloc(1, plen);
	pt_put32(p, pid);
	pt_put32(p + 4, ppid);
	pt_put32(p + 8, (uint32_t)rank);
	pt_put32(p + 12, (uint32_t)local_rank);
	pt_put32(p + 16, (uint32_t)world_size);
	pt_put32(p + 20, (uint32_t)n);
	size_t o = 24;
	for (size_t i = 0; i < n; i++) {
		pt_put32(p + o, tags[i]);
		pt_put32(p + o + 4, (uint32_t)lens[i]);
		memcpy(p + o + 8, vals[i], lens[i]);
		o += (size_t)pt_cdump_round8(8 + lens[i] + 1);
	}
	int rc = pt_cdump_writer_chunk(w, PT_CDUMP_PROCESS, p, plen);
	free(p);
	return rc;
}

int pt_cdump_writer_cbid_names(struct pt_cdump_writer *w, size_t n, const uint32_t *domains, const uint32_t *cbids,
			       const char *const *names)
{
	size_t plen = 0;
	for (size_t i = 0; i < n; i++)
		plen += (size_t)pt_cdump_round8(16 + strlen(names[i]) + 1);
	uint8_t *p = pt_xcalloc(1, plen ? plen : 1);
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(names[i]);
		pt_put32(p + o, domains[i]);
		pt_put32(p + o + 4, cbids[i]);
		pt_put32(p + o + 8, (uint32_t)l);
		memcpy(p + o + 16, names[i], l);
		o += (size_t)pt_cdump_round8(16 + l + 1);
	}
	int rc = pt_cdump_writer_chunk(w, PT_CDUMP_CBID_NAMES, p, plen);
	free(p);
	return rc;
}

static void put_thread_name(struct pt_cdump_writer *w, size_t *len, uint32_t tid, const char *name)
{
	size_t l = strlen(name);
	uint8_t *p = scratch_chunk(w, len, PT_CDUMP_THREAD_NAMES, 8 + l + 1);
	pt_put32(p, tid);
	pt_put32(p + 4, (uint32_t)l);
	memcpy(p + 8, name, l);
}

int pt_cdump_writer_thread_name(struct pt_cdump_writer *w, uint32_t tid, const char *name)
{
	pthread_mutex_lock(&w->lock);
	size_t len = 0;
	put_thread_name(w, &len, tid, name);
	int rc = w->closed ? -1 : write_all(w, w->scratch, len);
	pthread_mutex_unlock(&w->lock);
	return rc;
}

/* ---- the buffer path ------------------------------------------------------------ */

static uint32_t intern_string(struct pt_cdump_writer *w, uint64_t ptr)
{
	if (!ptr)
		return 0;
	bool added;
	uint64_t *slot = pt_hashmap_put(&w->ptr_cache, ptr, 0, &added);
	if (!added)
		return (uint32_t)*slot;
	const char *s = (const char *)(uintptr_t)ptr;
	size_t l = strnlen(s, w->string_cap);
	if (l == w->string_cap)
		w->strings_cut++;
	uint32_t id = pt_strtab_intern(&w->strings, s, l);
	*slot = id;
	return id;
}

static uint32_t intern_blob(struct pt_cdump_writer *w, uint64_t ptr, size_t len)
{
	if (!ptr)
		return 0;
	return pt_strtab_intern(&w->blobs, (const char *)(uintptr_t)ptr, len);
}

/* Rewrite the pointer slots of one record of a REWRITTEN kind (cupti.md §4). */
static void rewrite_record(struct pt_cdump_writer *w, uint32_t kind, uint8_t *r, uint32_t size)
{
	int range = pt_cl_range_of(w->version);
	for (const struct pt_cl_field *f = pt_cl_fields(kind); f && f->name; f++) {
		if (f->role != PT_CL_STR && f->role != PT_CL_BLOB && f->role != PT_CL_ZERO)
			continue;
		if (!pt_cl_field_in(f, size, range))
			continue;
		uint64_t v = pt_le64(r + f->off), id = 0;
		if (f->role == PT_CL_STR)
			id = intern_string(w, v);
		else if (f->role == PT_CL_BLOB &&
			 (kind != PT_CK_OVERHEAD || pt_le32(r + 4) == PT_CUPTI_OVERHEAD_COMMAND_BUFFER_FULL))
			id = intern_blob(w, v, f->blob_len);
		pt_put64(r + f->off, id);
	}
}

static void emit_new_ids(struct pt_cdump_writer *w, size_t *len)
{
	if (w->strings.n > w->strings_emitted) {
		size_t plen = 0;
		for (size_t id = w->strings_emitted; id < w->strings.n; id++)
			plen += (size_t)pt_cdump_round8(8 + w->strings.slen[id] + 1);
		uint8_t *p = scratch_chunk(w, len, PT_CDUMP_STRINGS, plen);
		for (size_t id = w->strings_emitted; id < w->strings.n; id++) {
			uint32_t l = w->strings.slen[id];
			pt_put32(p, (uint32_t)id);
			pt_put32(p + 4, l);
			memcpy(p + 8, w->strings.data + w->strings.off[id], l);
			p += pt_cdump_round8(8 + (uint64_t)l + 1);
		}
		w->strings_emitted = w->strings.n;
	}
	if (w->blobs.n > w->blobs_emitted) {
		size_t plen = 0;
		for (size_t id = w->blobs_emitted; id < w->blobs.n; id++)
			plen += (size_t)pt_cdump_round8(8 + w->blobs.slen[id]);
		uint8_t *p = scratch_chunk(w, len, PT_CDUMP_BLOBS, plen);
		for (size_t id = w->blobs_emitted; id < w->blobs.n; id++) {
			uint32_t l = w->blobs.slen[id];
			pt_put32(p, (uint32_t)id);
			pt_put32(p + 4, l);
			memcpy(p + 8, w->blobs.data + w->blobs.off[id], l);
			p += pt_cdump_round8(8 + (uint64_t)l);
		}
		w->blobs_emitted = w->blobs.n;
	}
}

int pt_cdump_writer_buffer(struct pt_cdump_writer *w, uint8_t *buf, size_t valid, uint32_t flags,
			   uint64_t completed_realtime_ns)
{
	/* walk (no lock needed: the stride table is fixed once the KIND_TABLE is out) */
	size_t off = 0;
	uint32_t n = 0;
	while (off + 4 <= valid) {
		uint32_t k = pt_le32(buf + off);
		uint32_t s = k < PT_CK__MAX ? w->kinds[k].stride : 0;
		if (!s || off + s > valid)
			break;
		off += s;
		n++;
	}
	pthread_mutex_lock(&w->lock);
	if (off < valid) {
		flags |= PT_CDUMP_B_TRIMMED;
		w->dropped[PT_CDUMP_D_BYTES_DISCARDED] += valid - off;
	}
	if (w->closed || w->fd < 0 || !w->kind_table_written) {
		w->dropped[PT_CDUMP_D_BUFFERS_NOT_WRITTEN]++;
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	size_t len = 0;
	bool any_rewritten = false;
	for (size_t o = 0; o < off;) {
		uint32_t k = pt_le32(buf + o);
		const struct pt_cdump_kind *e = &w->kinds[k];
		if ((e->flags & PT_CDUMP_K_REWRITTEN) && e->layout_size) {
			rewrite_record(w, k, buf + o, e->layout_size);
			any_rewritten = true;
		}
		if ((k == PT_CK_RUNTIME || k == PT_CK_DRIVER || k == PT_CK_INTERNAL_LAUNCH_API) && w->thread_name) {
			uint32_t tid = pt_le32(buf + o + 28);
			bool added;
			pt_hashmap_put(&w->tids, tid, 1, &added);
			char name[64];
			if (added && w->thread_name(tid, name, sizeof(name), w->thread_name_arg))
				put_thread_name(w, &len, tid, name);
		}
		o += e->stride;
	}
	(void)any_rewritten;
	emit_new_ids(w, &len);
	uint8_t *p = scratch_chunk(w, &len, PT_CDUMP_BUFFER, 32 + off);
	pt_put64(p, w->seq);
	pt_put64(p + 8, off);
	pt_put32(p + 16, n);
	pt_put32(p + 20, flags | PT_CDUMP_B_REWRITTEN);
	pt_put64(p + 24, completed_realtime_ns);
	memcpy(p + 32, buf, off);
	int rc = write_all(w, w->scratch, len);
	if (rc) {
		w->dropped[PT_CDUMP_D_BUFFERS_NOT_WRITTEN]++;
	} else {
		w->seq++;
		w->n_records += n;
	}
	pthread_mutex_unlock(&w->lock);
	return rc;
}

void pt_cdump_writer_clear_ptr_cache(struct pt_cdump_writer *w)
{
	pthread_mutex_lock(&w->lock);
	pt_hashmap_free(&w->ptr_cache);
	pt_hashmap_init(&w->ptr_cache);
	pthread_mutex_unlock(&w->lock);
}

void pt_cdump_writer_add_dropped(struct pt_cdump_writer *w, unsigned which, uint64_t n)
{
	if (which >= PT_CDUMP_D__N)
		return;
	pthread_mutex_lock(&w->lock);
	w->dropped[which] += n;
	pthread_mutex_unlock(&w->lock);
}

int pt_cdump_writer_close(struct pt_cdump_writer *w, uint64_t end_realtime_ns)
{
	pthread_mutex_lock(&w->lock);
	if (w->closed) {
		pthread_mutex_unlock(&w->lock);
		return 0;
	}
	size_t len = 0;
	emit_new_ids(w, &len);
	uint8_t *p = scratch_chunk(w, &len, PT_CDUMP_DROPPED, 8 * PT_CDUMP_D__N);
	for (int i = 0; i < PT_CDUMP_D__N; i++)
		pt_put64(p + 8 * i, w->dropped[i]);
	p = scratch_chunk(w, &len, PT_CDUMP_END, 24);
	pt_put64(p, w->seq);
	pt_put64(p + 8, w->n_records);
	pt_put64(p + 16, end_realtime_ns);
	int rc = write_all(w, w->scratch, len);
	w->closed = true;
	if (w->fd >= 0 && close(w->fd))
		rc = -1;
	w->fd = -1;
	pthread_mutex_unlock(&w->lock);
	return rc;
}

void pt_cdump_writer_free(struct pt_cdump_writer *w)
{
	pt_strtab_free(&w->strings);
	pt_strtab_free(&w->blobs);
	pt_hashmap_free(&w->ptr_cache);
	pt_hashmap_free(&w->tids);
	free(w->scratch);
	w->scratch = NULL;
	pthread_mutex_destroy(&w->lock);
}
