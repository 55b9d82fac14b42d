/*
 * proftool-gen's CUPTIDMP back end: a small text description -> a CUPTIDMP v1
 * dump (cupti.md §1, §8.2). Records are laid out through the importer's layout
 * table (lib/cupti/cupti-layouts.c), so no CUPTI header is needed. Chunks are
 * written in description order; the strings a buffer introduces go in a
 * STRINGS chunk right before it. --scale SIZE repeats the description's
 * buffers (times, correlation and marker ids, parent payloads shifted) in 4 MiB BUFFER chunks until
 * the file holds SIZE bytes: benchmark inputs.
 */
#include "gen-cupti.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cupti/cdump.h"
#include "cupti/cupti-layouts.h"
#include "support/strtab.h"
#include "support/xalloc.h"

static const char *g_file = "";
static int g_line;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "proftool-gen: error: ");
	if (g_line)
		fprintf(stderr, "'%s' line %d: ", g_file, g_line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- output ------------------------------------------------------------------ */

struct obuf {
	uint8_t *p;
	size_t n, cap;
};

static uint8_t *ob_add(struct obuf *b, size_t n)
{
	pt_xgrow((void **)&b->p, &b->cap, b->n + n, 1);
	uint8_t *r = b->p + b->n;
	memset(r, 0, n);
	b->n += n;
	return r;
}

static uint8_t *chunk(struct obuf *o, uint32_t type, size_t plen)
{
	uint8_t *h = ob_add(o, 16 + (size_t)pt_cdump_round8(plen));
	pt_put32(h, type);
	pt_put64(h + 8, plen);
	return h + 16;
}

/* ---- state ------------------------------------------------------------------------ */

struct cbid_name {
	uint32_t domain, cbid;
	const char *name;
};

static const struct cbid_name builtin_cbids[] = {
	{ 2, 20, "cudaMalloc_v3020" },       { 2, 22, "cudaFree_v3020" },
	{ 2, 31, "cudaMemcpy_v3020" },       { 2, 41, "cudaMemcpyAsync_v3020" },
	{ 2, 49, "cudaMemset_v3020" },       { 2, 51, "cudaMemsetAsync_v3020" },
	{ 2, 131, "cudaStreamSynchronize_v3020" }, { 2, 135, "cudaEventRecord_v3020" },
	{ 2, 137, "cudaEventSynchronize_v3020" },  { 2, 147, "cudaStreamWaitEvent_v3020" },
	{ 2, 164, "cudaDeviceReset_v3020" }, { 2, 165, "cudaDeviceSynchronize_v3020" },
	{ 2, 211, "cudaLaunchKernel_v7000" }, { 2, 214, "cudaLaunchKernel_ptsz_v7000" },
	{ 2, 311, "cudaGraphLaunch_v10000" }, { 2, 373, "cudaMallocAsync_v11020" },
	{ 1, 17, "cuCtxSynchronize" },       { 1, 243, "cuMemAlloc_v2" },
	{ 1, 276, "cuMemcpyHtoD_v2" },       { 1, 307, "cuLaunchKernel" },
	{ 1, 652, "cuLaunchKernelEx" },
};

struct gc {
	struct obuf out;
	uint32_t version, pid;
	uint64_t hflags;
	bool header_done, kinds_done, no_end, end_done;
	uint32_t stride[PT_CK__MAX];
	const struct pt_cl_layout *lay[PT_CK__MAX];
	bool kind_set[PT_CK__MAX];
	struct pt_strtab strings;
	size_t strings_emitted;
	/* current buffer */
	bool in_buffer;
	struct obuf buf;
	uint32_t buf_records;
	size_t last_rec_off, last_rec_len;
	uint64_t seq, n_records;
	/* for --scale: the records of every buffer, concatenated */
	struct obuf all;
	uint64_t all_records;
	int64_t tmin, tmax;
	uint64_t corr_max;
	uint64_t truncate_to;
	bool truncate;
	uint64_t zero_fill;
};

/* ---- tokenizer ---------------------------------------------------------------------- */

#define MAXTOK 128

/* Split a line into tokens; quoted strings keep their content (\" and \\ escapes). key="v" stays one token. */
static int tokenize(char *line, char **tok)
{
	int n = 0;
	char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			break;
		if (n == MAXTOK)
			die("too many tokens");
		char *start = p, *w = p;
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1])
						p++;
					*w++ = *p++;
				}
				if (*p != '"')
					die("unterminated string");
				p++;
				continue;
			}
			*w++ = *p++;
		}
		bool more = *p != 0;
		if (more)
			p++;
		*w = 0;
		tok[n++] = start;
		if (!more)
			break;
	}
	return n;
}

static uint64_t num(const char *s, const char *what)
{
	char *end;
	bool neg = *s == '-';
	errno = 0;
	uint64_t v = strtoull(neg ? s + 1 : s, &end, 0);
	uint64_t mul = 1;
	if (*end == 'K' || *end == 'k')
		mul = 1ULL << 10, end++;
	else if (*end == 'M')
		mul = 1ULL << 20, end++;
	else if (*end == 'G' || *end == 'g')
		mul = 1ULL << 30, end++;
	if (errno || end == s || *end || (neg && !s[1]))
		die("%s: '%s' is not an integer", what, s);
	v *= mul;
	return neg ? (uint64_t)-(int64_t)v : v;
}

static char *kv(char *tok, char **val)
{
	char *eq = strchr(tok, '=');
	if (!eq)
		die("expected key=value, got '%s'", tok);
	*eq = 0;
	*val = eq + 1;
	return tok;
}

/* ---- directives --------------------------------------------------------------------------- */

static void emit_strings(struct gc *g)
{
	if (g->strings.n <= g->strings_emitted)
		return;
	size_t plen = 0;
	for (size_t id = g->strings_emitted; id < g->strings.n; id++)
		plen += (size_t)pt_cdump_round8(8 + g->strings.slen[id] + 1);
	uint8_t *p = chunk(&g->out, PT_CDUMP_STRINGS, plen);
	for (size_t id = g->strings_emitted; id < g->strings.n; id++) {
		uint32_t l = g->strings.slen[id];
		pt_put32(p, (uint32_t)id);
		pt_put32(p + 4, l);
		memcpy(p + 8, g->strings.data + g->strings.off[id], l);
		p += pt_cdump_round8(8 + (uint64_t)l + 1);
	}
	g->strings_emitted = g->strings.n;
}

static void need_header(struct gc *g)
{
	if (!g->header_done)
		die("the first directive must be 'header'");
}

static void d_header(struct gc *g, int n, char **t)
{
	if (g->header_done)
		die("a second 'header'");
	g->version = 130001;
	g->pid = 4242;
	g->hflags = PT_CDUMP_H_DEFAULT_CLOCK | PT_CDUMP_H_POINTERS_REWRITTEN | PT_CDUMP_H_SYSTEM_TIDS;
	uint32_t driver = 13000, major = 1, hsize = 64, endian = 1, psize = 8;
	for (int i = 1; i < n; i++) {
		char *v, *k = kv(t[i], &v);
		if (!strcmp(k, "cupti"))
			g->version = (uint32_t)num(v, k);
		else if (!strcmp(k, "pid"))
			g->pid = (uint32_t)num(v, k);
		else if (!strcmp(k, "driver"))
			driver = (uint32_t)num(v, k);
		else if (!strcmp(k, "major"))
			major = (uint32_t)num(v, k);
		else if (!strcmp(k, "header-size"))
			hsize = (uint32_t)num(v, k);
		else if (!strcmp(k, "endian"))
			endian = (uint32_t)num(v, k);
		else if (!strcmp(k, "pointer-size"))
			psize = (uint32_t)num(v, k);
		else if (!strcmp(k, "magic"))
			; /* handled below */
		else if (!strcmp(k, "flags")) {
			g->hflags = 0;
			for (char *f = strtok(v, ","); f; f = strtok(NULL, ",")) {
				if (!strcmp(f, "default-clock"))
					g->hflags |= PT_CDUMP_H_DEFAULT_CLOCK;
				else if (!strcmp(f, "rewritten"))
					g->hflags |= PT_CDUMP_H_POINTERS_REWRITTEN;
				else if (!strcmp(f, "system-tids"))
					g->hflags |= PT_CDUMP_H_SYSTEM_TIDS;
				else if (!strcmp(f, "synthetic"))
					g->hflags |= PT_CDUMP_H_SYNTHETIC;
				else if (strcmp(f, "none"))
					die("unknown header flag '%s' (default-clock, rewritten, system-tids, synthetic, none)", f);
			}
		} else
			die("unknown header key '%s'", k);
	}
	g->hflags |= PT_CDUMP_H_SYNTHETIC;
	uint8_t *h = ob_add(&g->out, hsize >= 64 ? hsize : 64);
	memcpy(h, PT_CDUMP_MAGIC, 8);
	for (int i = 1; i < n; i++)
		if (!strncmp(t[i], "magic", 5))
			memcpy(h, t[i] + 6, strlen(t[i] + 6) < 8 ? strlen(t[i] + 6) : 8);
	pt_put16(h + 8, (uint16_t)major);
	pt_put16(h + 10, 0);
	pt_put16(h + 12, (uint16_t)hsize);
	h[14] = (uint8_t)endian;
	h[15] = (uint8_t)psize;
	pt_put32(h + 16, g->version);
	pt_put32(h + 20, g->version);
	pt_put32(h + 24, driver);
	pt_put32(h + 28, g->pid);
	pt_put64(h + 32, 1000000000);
	pt_put64(h + 40, g->hflags);
	g->header_done = true;
	/* the API names the records use */
	size_t nb = sizeof(builtin_cbids) / sizeof(builtin_cbids[0]), plen = 0;
	for (size_t i = 0; i < nb; i++)
		plen += (size_t)pt_cdump_round8(16 + strlen(builtin_cbids[i].name) + 1);
	uint8_t *p = chunk(&g->out, PT_CDUMP_CBID_NAMES, plen);
	for (size_t i = 0; i < nb; i++) {
		size_t l = strlen(builtin_cbids[i].name);
		pt_put32(p, builtin_cbids[i].domain);
		pt_put32(p + 4, builtin_cbids[i].cbid);
		pt_put32(p + 8, (uint32_t)l);
		memcpy(p + 16, builtin_cbids[i].name, l);
		p += pt_cdump_round8(16 + l + 1);
	}
}

static uint32_t kind_arg(const char *s)
{
	uint32_t k = pt_cl_kind_by_name(s);
	if (!k) {
		char *end;
		unsigned long v = strtoul(s, &end, 0);
		if (*end || v == 0 || v >= PT_CK__MAX)
			die("unknown activity kind '%s'", s);
		k = (uint32_t)v;
	}
	return k;
}

static void d_kinds(struct gc *g, int n, char **t)
{
	need_header(g);
	bool dflt = n > 1 && !strcmp(t[1], "default");
	if (n > 1 && !dflt && strcmp(t[1], "none"))
		die("kinds: expected 'default' or 'none'");
	for (uint32_t k = 1; k < PT_CK__MAX && dflt; k++) {
		if (g->kind_set[k])
			continue;
		const struct pt_cl_layout *l = pt_cl_default(g->version, k);
		if (l) {
			g->stride[k] = l->size;
			g->lay[k] = l;
		} else if (pt_cl_other_stride(k)) {
			g->stride[k] = pt_cl_other_stride(k);
		}
	}
}

static void write_kind_table(struct gc *g)
{
	uint32_t n = 0;
	for (uint32_t k = 1; k < PT_CK__MAX; k++)
		n += g->stride[k] || g->kind_set[k];
	uint8_t *p = chunk(&g->out, PT_CDUMP_KIND_TABLE, 8 + 16 * (size_t)n);
	pt_put32(p, 16);
	pt_put32(p + 4, n);
	p += 8;
	for (uint32_t k = 1; k < PT_CK__MAX; k++) {
		if (!g->stride[k] && !g->kind_set[k])
			continue;
		const struct pt_cl_layout *l = g->stride[k] ? pt_cl_find(g->version, k, g->stride[k], NULL) : NULL;
		uint32_t fl = g->stride[k] ? PT_CDUMP_K_ENABLED : PT_CDUMP_K_REJECTED;
		if (l)
			fl |= PT_CDUMP_K_REWRITTEN;
		else if (g->stride[k])
			fl |= PT_CDUMP_K_RAW;
		pt_put32(p, k);
		pt_put32(p + 4, g->stride[k]);
		pt_put32(p + 8, l ? l->struct_version : 0);
		pt_put32(p + 12, fl);
		p += 16;
	}
	g->kinds_done = true;
}

static void need_kinds(struct gc *g)
{
	need_header(g);
	if (!g->kinds_done)
		write_kind_table(g);
}

static void d_struct(struct gc *g, int n, char **t)
{
	need_header(g);
	for (int i = 1; i < n; i++) {
		char *v, *k = kv(t[i], &v);
		uint32_t kind = kind_arg(k);
		const struct pt_cl_layout *l = pt_cl_by_struct(g->version, kind, v);
		if (!l)
			die("struct %s=%s: no such layout for CUPTI %u", k, v, g->version);
		g->stride[kind] = l->size;
		g->lay[kind] = l;
		g->kind_set[kind] = true;
	}
}

static void d_stride(struct gc *g, int n, char **t)
{
	need_header(g);
	for (int i = 1; i < n; i++) {
		char *v, *k = kv(t[i], &v);
		uint32_t kind = kind_arg(k);
		g->stride[kind] = (uint32_t)num(v, "stride");
		g->lay[kind] = g->stride[kind] ? pt_cl_find(g->version, kind, g->stride[kind], NULL) : NULL;
		g->kind_set[kind] = true;
	}
}

static void d_clock(struct gc *g, int n, char **t)
{
	need_header(g);
	uint64_t c = 0, r = 0, mo = 0, u = 0, reason = 0;
	for (int i = 1; i < n; i++) {
		char *v, *k = kv(t[i], &v);
		uint64_t x = num(v, k);
		if (!strcmp(k, "cupti"))
			c = x;
		else if (!strcmp(k, "real"))
			r = x;
		else if (!strcmp(k, "mono"))
			mo = x;
		else if (!strcmp(k, "uncertainty"))
			u = x;
		else if (!strcmp(k, "reason"))
			reason = x;
		else
			die("unknown clock key '%s'", k);
	}
	uint8_t *p = chunk(&g->out, PT_CDUMP_CLOCK_SYNC, 40);
	pt_put64(p, c);
	pt_put64(p + 8, r);
	pt_put64(p + 16, mo);
	pt_put64(p + 24, u);
	pt_put32(p + 32, (uint32_t)reason);
}

static void d_process(struct gc *g, int n, char **t)
{
	need_header(g);
	int32_t rank = -1, lrank = -1, world = -1;
	uint32_t ppid = 1;
	uint32_t tags[16];
	const char *vals[16];
	int nt = 0;
	for (int i = 1; i < n; i++) {
		char *v, *k = kv(t[i], &v);
		uint32_t tag = 0;
		if (!strcmp(k, "rank"))
			rank = (int32_t)num(v, k);
		else if (!strcmp(k, "local_rank"))
			lrank = (int32_t)num(v, k);
		else if (!strcmp(k, "world_size"))
			world = (int32_t)num(v, k);
		else if (!strcmp(k, "ppid"))
			ppid = (uint32_t)num(v, k);
		else if (!strcmp(k, "exe"))
			tag = PT_CDUMP_P_EXE;
		else if (!strcmp(k, "cmdline"))
			tag = PT_CDUMP_P_CMDLINE;
		else if (!strcmp(k, "host"))
			tag = PT_CDUMP_P_HOST;
		else if (!strcmp(k, "visible"))
			tag = PT_CDUMP_P_VISIBLE_DEVICES;
		else if (!strcmp(k, "comm"))
			tag = PT_CDUMP_P_COMM;
		else
			die("unknown process key '%s'", k);
		if (tag && nt < 16) {
			tags[nt] = tag;
			vals[nt++] = v;
		}
	}
	size_t plen = 24;
	for (int i = 0; i < nt; i++)
		plen += (size_t)pt_cdump_round8(8 + strlen(vals[i]) + 1);
	uint8_t *p = chunk(&g->out, PT_CDUMP_PROCESS, plen);
	pt_put32(p, g->pid);
	pt_put32(p + 4, ppid);
	pt_put32(p + 8, (uint32_t)rank);
	pt_put32(p + 12, (uint32_t)lrank);
	pt_put32(p + 16, (uint32_t)world);
	pt_put32(p + 20, (uint32_t)nt);
	p += 24;
	for (int i = 0; i < nt; i++) {
		size_t l = strlen(vals[i]);
		pt_put32(p, tags[i]);
		pt_put32(p + 4, (uint32_t)l);
		memcpy(p + 8, vals[i], l);
		if (tags[i] == PT_CDUMP_P_CMDLINE) /* arguments separated by NUL */
			for (size_t j = 0; j < l; j++)
				if (p[8 + j] == ' ')
					p[8 + j] = 0;
		p += pt_cdump_round8(8 + l + 1);
	}
}

static void set_field(struct gc *g, uint32_t kind, uint8_t *r, uint32_t size, const char *k, const char *v)
{
	const struct pt_cl_field *f = pt_cl_field(kind, k);
	int range = pt_cl_range_of(g->version);
	if (!f)
		die("kind %s has no field '%s'", pt_cl_kind_name(kind), k);
	if (!pt_cl_field_in(f, size, range))
		die("field '%s' is not in the %u-byte %s record", k, size, pt_cl_kind_name(kind));
	uint64_t x = 0;
	switch (f->role) {
	case PT_CL_STR:
	case PT_CL_BLOB:
		if (*v == '@')
			x = num(v + 1, k);
		else if (f->role == PT_CL_STR && *v)
			x = pt_strtab_add(&g->strings, v);
		else if (*v)
			x = num(v, k);
		pt_put64(r + f->off, x);
		return;
	case PT_CL_OBJID: {
		char buf[128];
		snprintf(buf, sizeof(buf), "%s", v);
		int i = 0;
		for (char *s = strtok(buf, ","); s && i < 3; s = strtok(NULL, ","), i++)
			pt_put32(r + f->off + 4 * i, (uint32_t)num(s, k));
		return;
	}
	case PT_CL_BYTES:
		for (size_t i = 0; i < f->size && v[2 * i] && v[2 * i + 1]; i++) {
			char h[3] = { v[2 * i], v[2 * i + 1], 0 };
			r[f->off + i] = (uint8_t)strtoul(h, NULL, 16);
		}
		return;
	default:
		break;
	}
	if (strchr(v, '.') && f->size == 8 && strncmp(v, "0x", 2)) {
		double d = strtod(v, NULL);
		memcpy(&x, &d, 8);
	} else {
		x = num(v, k);
	}
	switch (f->size) {
	case 1: r[f->off] = (uint8_t)x; break;
	case 2: pt_put16(r + f->off, (uint16_t)x); break;
	case 4: pt_put32(r + f->off, (uint32_t)x); break;
	default: pt_put64(r + f->off, x); break;
	}
	if (f->role == PT_CL_TIME && x) {
		if ((int64_t)x < g->tmin)
			g->tmin = (int64_t)x;
		if ((int64_t)x > g->tmax)
			g->tmax = (int64_t)x;
	}
	if (!strcmp(k, "correlationId") && x > g->corr_max)
		g->corr_max = x;
}

static uint8_t *new_record(struct gc *g, uint32_t kind, uint32_t *size)
{
	if (!g->in_buffer)
		die("'rec' outside 'buffer' ... 'end-buffer'");
	uint32_t s = g->stride[kind];
	if (!s)
		die("kind %s has no stride in the KIND_TABLE ('kinds default' or 'stride')", pt_cl_kind_name(kind));
	g->last_rec_off = g->buf.n;
	g->last_rec_len = s;
	uint8_t *r = ob_add(&g->buf, s);
	pt_put32(r, kind);
	g->buf_records++;
	*size = s;
	return r;
}

static void d_rec(struct gc *g, int n, char **t)
{
	if (n < 2)
		die("rec: missing kind");
	uint32_t kind = kind_arg(t[1]), size;
	uint8_t *r = new_record(g, kind, &size);
	for (int i = 2; i < n; i++) {
		char *v, *k = kv(t[i], &v);
		if (g->lay[kind])
			set_field(g, kind, r, g->lay[kind]->size, k, v);
		else
			die("kind %s has no known layout for stride %u; use 'raw'", t[1], size);
		r = g->buf.p + g->last_rec_off; /* set_field may not grow buf, but be safe */
	}
}

static void marker(struct gc *g, uint32_t flags, uint64_t ts, uint64_t id, uint64_t tid, const char *name,
		   const char *domain)
{
	uint32_t size;
	uint8_t *r = new_record(g, PT_CK_MARKER, &size);
	char b[64];
	snprintf(b, sizeof(b), "%u", flags);
	set_field(g, PT_CK_MARKER, r, size, "flags", b);
	snprintf(b, sizeof(b), "%" PRIu64, ts);
	set_field(g, PT_CK_MARKER, r, size, "timestamp", b);
	snprintf(b, sizeof(b), "%" PRIu64, id);
	set_field(g, PT_CK_MARKER, r, size, "id", b);
	set_field(g, PT_CK_MARKER, r, size, "objectKind", "2");
	snprintf(b, sizeof(b), "%u,%" PRIu64, g->pid, tid);
	set_field(g, PT_CK_MARKER, r, size, "objectId", b);
	if (name)
		set_field(g, PT_CK_MARKER, r, size, "name", name);
	if (domain)
		set_field(g, PT_CK_MARKER, r, size, "domain", domain);
}

static void d_range(struct gc *g, int n, char **t)
{
	if (n < 3)
		die("range TYPE \"NAME\" start=T end=T thread=TID id=N [parent=P]");
	const char *type = t[1], *name = t[2];
	uint64_t start = 0, end = 0, tid = g->pid, id = 0, parent = 0;
	bool has_parent = false;
	for (int i = 3; i < n; i++) {
		char *v, *k = kv(t[i], &v);
		uint64_t x = num(v, k);
		if (!strcmp(k, "start"))
			start = x;
		else if (!strcmp(k, "end"))
			end = x;
		else if (!strcmp(k, "thread"))
			tid = x;
		else if (!strcmp(k, "id"))
			id = x;
		else if (!strcmp(k, "parent"))
			parent = x, has_parent = true;
		else
			die("unknown range key '%s'", k);
	}
	const char *dom = strcmp(type, "UserRange") && strcmp(type, "-") ? type : NULL;
	marker(g, 2, start, id, tid, name, dom);
	marker(g, 4, end, id, tid, NULL, NULL);
	if (has_parent) {
		uint32_t size;
		uint8_t *r = new_record(g, PT_CK_MARKER_DATA, &size);
		char b[32];
		snprintf(b, sizeof(b), "%" PRIu64, id);
		set_field(g, PT_CK_MARKER_DATA, r, size, "id", b);
		set_field(g, PT_CK_MARKER_DATA, r, size, "payloadKind", "1");
		snprintf(b, sizeof(b), "%" PRIu64, parent);
		set_field(g, PT_CK_MARKER_DATA, r, size, "payload", b);
	}
}

static void hex_bytes(struct obuf *b, int n, char **t, int from)
{
	for (int i = from; i < n; i++) {
		const char *s = t[i];
		size_t l = strlen(s);
		if (l % 2)
			die("odd number of hex digits in '%s'", s);
		for (size_t j = 0; j < l; j += 2) {
			char h[3] = { s[j], s[j + 1], 0 };
			char *end;
			unsigned long v = strtoul(h, &end, 16);
			if (*end)
				die("bad hex byte '%s'", h);
			*ob_add(b, 1) = (uint8_t)v;
		}
	}
}

static void flush_buffer(struct gc *g, const uint8_t *data, size_t len, uint32_t nrec, uint32_t flags)
{
	emit_strings(g);
	uint8_t *p = chunk(&g->out, PT_CDUMP_BUFFER, 32 + len);
	pt_put64(p, g->seq++);
	pt_put64(p + 8, len);
	pt_put32(p + 16, nrec);
	pt_put32(p + 20, flags);
	pt_put64(p + 24, 1000000000);
	memcpy(p + 32, data, len);
	g->n_records += nrec;
}

static void end_buffer(struct gc *g)
{
	flush_buffer(g, g->buf.p, g->buf.n, g->buf_records, PT_CDUMP_B_REWRITTEN);
	uint8_t *a = ob_add(&g->all, g->buf.n);
	memcpy(a, g->buf.p, g->buf.n);
	g->all_records += g->buf_records;
	g->buf.n = 0;
	g->buf_records = 0;
	g->in_buffer = false;
}

static void write_end(struct gc *g)
{
	if (g->end_done)
		return;
	emit_strings(g);
	if (!g->no_end) {
		uint8_t *p = chunk(&g->out, PT_CDUMP_END, 24);
		pt_put64(p, g->seq);
		pt_put64(p + 8, g->n_records);
		pt_put64(p + 16, 2000000000);
	}
	g->end_done = true;
}

/* A MARKER_DATA record r of layout lay whose uint64 payload (payloadKind 1) names a parent range by
 * its marker id (cupti.md §6.6): the id shifted by d as the markers' ids are (0 stays an explicit root),
 * so that each repetition's ranges name their own repetition's parents. */
static void shift_parent(uint8_t *r, const struct pt_cl_layout *lay, uint32_t d)
{
	const struct pt_cl_field *kf = pt_cl_field(PT_CK_MARKER_DATA, "payloadKind"),
				 *pf = pt_cl_field(PT_CK_MARKER_DATA, "payload");
	if (!d || !kf || !pf || !pt_cl_field_in(kf, lay->size, lay->range) || !pt_cl_field_in(pf, lay->size, lay->range))
		return;
	uint64_t kind = kf->size == 1 ? r[kf->off] : kf->size == 2 ? (uint64_t)(r[kf->off] | r[kf->off + 1] << 8)
							      : pt_le32(r + kf->off);
	uint64_t v = pf->size == 8 ? pt_le64(r + pf->off) : 0;
	if (kind == 1 && v)
		pt_put64(r + pf->off, (uint32_t)(v + d));
}

/* --scale: repeat the records of every buffer, shifted, in 4 MiB buffers; ids shift by
 * id_stride times the largest id + 1 per repetition (0: every repetition has the same ids). */
static void scale(struct gc *g, uint64_t target, uint64_t id_stride)
{
	if (!g->all.n)
		die("--scale needs at least one buffer in the description");
	int64_t span = (g->tmax > g->tmin ? g->tmax - g->tmin : 0) + 1000;
	uint64_t cspan = (g->corr_max + 1) * id_stride;
	const size_t cap = 4u << 20;
	uint8_t *b = pt_xmalloc(cap + g->all.n);
	uint64_t rep = 1;
	while (g->out.n < target) {
		size_t len = 0;
		uint32_t nrec = 0;
		while ((!len || len + g->all.n <= cap) && g->out.n + len < target) {
			memcpy(b + len, g->all.p, g->all.n);
			for (size_t o = 0; o < g->all.n;) {
				uint8_t *r = b + len + o;
				uint32_t k = pt_le32(r), s = g->stride[k];
				for (const struct pt_cl_field *f = pt_cl_fields(k); f && f->name && g->lay[k]; f++) {
					if (!pt_cl_field_in(f, g->lay[k]->size, g->lay[k]->range))
						continue;
					if (f->role == PT_CL_TIME && pt_le64(r + f->off))
						pt_put64(r + f->off, pt_le64(r + f->off) + (uint64_t)span * rep);
					else if ((!strcmp(f->name, "correlationId") || !strcmp(f->name, "runtimeCorrelationId") ||
						  (k == PT_CK_MARKER && !strcmp(f->name, "id")) ||
						  (k == PT_CK_MARKER_DATA && !strcmp(f->name, "id"))) && pt_le32(r + f->off))
						pt_put32(r + f->off, (uint32_t)(pt_le32(r + f->off) + cspan * rep));
				}
				if (k == PT_CK_MARKER_DATA && g->lay[k])
					shift_parent(r, g->lay[k], (uint32_t)(cspan * rep));
				o += s;
			}
			len += g->all.n;
			nrec += (uint32_t)g->all_records;
			rep++;
		}
		flush_buffer(g, b, len, nrec, PT_CDUMP_B_REWRITTEN);
	}
	free(b);
}

static void run_line(struct gc *g, int n, char **t)
{
	const char *d = t[0];
	if (!strcmp(d, "header")) {
		d_header(g, n, t);
	} else if (!strcmp(d, "kinds")) {
		d_kinds(g, n, t);
	} else if (!strcmp(d, "struct")) {
		d_struct(g, n, t);
	} else if (!strcmp(d, "stride")) {
		d_stride(g, n, t);
	} else if (!strcmp(d, "clock")) {
		d_clock(g, n, t);
	} else if (!strcmp(d, "process")) {
		d_process(g, n, t);
	} else if (!strcmp(d, "buffer")) {
		need_kinds(g);
		if (g->in_buffer)
			die("nested 'buffer'");
		g->in_buffer = true;
	} else if (!strcmp(d, "end-buffer")) {
		if (!g->in_buffer)
			die("'end-buffer' without 'buffer'");
		end_buffer(g);
	} else if (!strcmp(d, "rec")) {
		d_rec(g, n, t);
	} else if (!strcmp(d, "range")) {
		d_range(g, n, t);
	} else if (!strcmp(d, "raw")) {
		if (!g->in_buffer)
			die("'raw' outside a buffer");
		hex_bytes(&g->buf, n, t, 1);
	} else if (!strcmp(d, "cut")) {
		if (!g->in_buffer || !g->last_rec_len)
			die("'cut' needs a record before it");
		uint64_t keep = n > 1 ? num(t[1], "cut") : 0;
		if (keep > g->last_rec_len)
			die("cut: the last record has only %zu bytes", g->last_rec_len);
		g->buf.n = g->last_rec_off + keep;
	} else if (!strcmp(d, "chunk")) {
		need_header(g);
		if (n < 2)
			die("chunk TYPE HEX...");
		struct obuf tmp = { 0 };
		hex_bytes(&tmp, n, t, 2);
		uint8_t *p = chunk(&g->out, (uint32_t)num(t[1], "chunk type"), tmp.n);
		if (tmp.n)
			memcpy(p, tmp.p, tmp.n);
		free(tmp.p);
	} else if (!strcmp(d, "dropped")) {
		need_header(g);
		uint64_t v[PT_CDUMP_D__N] = { 0 };
		int i = 0;
		for (char *s = n > 1 ? strtok(t[1], ",") : NULL; s && i < PT_CDUMP_D__N; s = strtok(NULL, ","))
			v[i++] = num(s, "dropped");
		uint8_t *p = chunk(&g->out, PT_CDUMP_DROPPED, 8 * PT_CDUMP_D__N);
		for (i = 0; i < PT_CDUMP_D__N; i++)
			pt_put64(p + 8 * i, v[i]);
	} else if (!strcmp(d, "threads")) {
		need_header(g);
		size_t plen = 0;
		for (int i = 1; i < n; i++) {
			char *eq = strchr(t[i], '=');
			if (!eq)
				die("threads: expected tid=name");
			plen += (size_t)pt_cdump_round8(8 + strlen(eq + 1) + 1);
		}
		uint8_t *p = chunk(&g->out, PT_CDUMP_THREAD_NAMES, plen);
		for (int i = 1; i < n; i++) {
			char *v, *k = kv(t[i], &v);
			size_t l = strlen(v);
			pt_put32(p, (uint32_t)num(k, "tid"));
			pt_put32(p + 4, (uint32_t)l);
			memcpy(p + 8, v, l);
			p += pt_cdump_round8(8 + l + 1);
		}
	} else if (!strcmp(d, "cbid")) {
		need_header(g);
		if (n != 4)
			die("cbid DOMAIN CBID NAME");
		uint32_t dom = !strcasecmp(t[1], "runtime") ? 2 : !strcasecmp(t[1], "driver") ? 1
												: (uint32_t)num(t[1], "domain");
		size_t l = strlen(t[3]);
		uint8_t *p = chunk(&g->out, PT_CDUMP_CBID_NAMES, 16 + l + 1);
		pt_put32(p, dom);
		pt_put32(p + 4, (uint32_t)num(t[2], "cbid"));
		pt_put32(p + 8, (uint32_t)l);
		memcpy(p + 16, t[3], l);
	} else if (!strcmp(d, "no-end")) {
		g->no_end = true;
	} else if (!strcmp(d, "end")) {
		need_kinds(g);
		write_end(g);
	} else if (!strcmp(d, "truncate-file")) {
		g->truncate = true;
		g->truncate_to = n > 1 ? num(t[1], "truncate-file") : 0;
	} else if (!strcmp(d, "zero-fill")) {
		g->zero_fill = n > 1 ? num(t[1], "zero-fill") : 16;
	} else {
		die("unknown directive '%s'", d);
	}
}

int gen_cupti_main(int argc, char **argv)
{
	const char *desc = NULL, *out = NULL;
	uint64_t scale_to = 0, id_stride = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			scale_to = num(argv[++i], "--scale");
		else if (!strcmp(argv[i], "--id-stride") && i + 1 < argc)
			id_stride = num(argv[++i], "--id-stride");
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs("usage: proftool-gen cupti DESC.cdtxt -o OUT.cdump [--scale SIZE]\n"
			      "Writes a synthetic CUPTIDMP dump (proftool-cuptidmp(5)) described by DESC.cdtxt\n"
			      "(language: tests/gen/README.md).\n"
			      "--scale SIZE repeats the description's buffers (shifted) until the file has SIZE bytes\n"
			      "(suffixes K, M, G); --id-stride K shifts the ids of each repetition by K times the\n"
			      "largest id + 1 (1; 0 repeats the same ids, K > 1 spreads them).\n", stdout);
			return 0;
		} else if (!desc && argv[i][0] != '-')
			desc = argv[i];
		else
			die("unexpected argument '%s' (usage: proftool-gen cupti DESC -o OUT [--scale SIZE])", argv[i]);
	}
	if (!desc || !out)
		die("usage: proftool-gen cupti DESC.cdtxt -o OUT.cdump [--scale SIZE]");
	FILE *in = strcmp(desc, "-") ? fopen(desc, "r") : stdin;
	if (!in)
		die("cannot open '%s': %s", desc, strerror(errno));
	g_file = desc;
	struct gc g;
	memset(&g, 0, sizeof(g));
	pt_strtab_init(&g.strings);
	g.strings_emitted = 1;
	g.tmin = INT64_MAX;
	g.tmax = INT64_MIN;
	char line[8192];
	char *tok[MAXTOK];
	while (fgets(line, sizeof(line), in)) {
		g_line++;
		size_t l = strlen(line);
		while (l && (line[l - 1] == '\n' || line[l - 1] == '\r'))
			line[--l] = 0;
		int n = tokenize(line, tok);
		if (n)
			run_line(&g, n, tok);
	}
	if (in != stdin)
		fclose(in);
	g_line = 0;
	if (!g.header_done)
		die("'%s': no 'header' directive", desc);
	if (g.in_buffer)
		die("'%s': 'buffer' without 'end-buffer'", desc);
	need_kinds(&g);
	if (scale_to && !g.end_done)
		scale(&g, scale_to, id_stride);
	write_end(&g);
	if (g.zero_fill)
		ob_add(&g.out, (size_t)g.zero_fill);
	size_t len = g.out.n;
	if (g.truncate && g.truncate_to < len)
		len = (size_t)g.truncate_to;
	FILE *fo = fopen(out, "wb");
	if (!fo)
		die("cannot create '%s': %s", out, strerror(errno));
	if (fwrite(g.out.p, 1, len, fo) != len || fclose(fo))
		die("cannot write '%s'", out);
	free(g.out.p);
	free(g.buf.p);
	free(g.all.p);
	pt_strtab_free(&g.strings);
	return 0;
}
