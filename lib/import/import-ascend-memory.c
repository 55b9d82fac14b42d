/*
 * Ascend memory-usage importer (ascend.md §2.12, §3.13): MindSpore's
 * memory_usage_<d>.pb, one serialized MemoryProto per file, found beside the
 * MindData files (every PATH's own entries, a single file, or --minddata
 * DIR). Device attachment follows ascend.md §1.4 like the MindData files: with
 * exactly one Ascend device in the model, a lone memory file is attached to
 * it (noted when the numbers differ); otherwise the number is the device id.
 *
 * The file is checked with a small protobuf wire walker first, so that a file
 * that does not parse is reported with the byte offset where it stops making
 * sense; it is then unpacked with protobuf-c's generated code and appended
 * to the model as read (workspace ids repeating an output id of the same
 * node dropped, §2.12). Lifetime problems (reversed, past the last node,
 * unknown life_long) and node_id != position are warned here, once per file
 * and kind; the memory pass applies the same rules.
 *
 * When the model holds op executions of the device (HWTS tasks, AI CPU ops),
 * each curve point is also a sample of the device's counter track "Memory#allocated_bytes"
 * at the start of every execution whose op's last name segment equals the
 * node name (§3.13 "Time"; chrome-trace.md §7).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/input.h"
#include "import/import-ascend-memory.h"
#include "import/numbered.h"
#include "import/registry.h"
#include "mindspore_memory.pb-c.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/xalloc.h"
#include "support/sort.h"

#define PREFIX "memory_usage_"

int pt_memory_file_number(const char *base, uint32_t *number)
{
	size_t pl = strlen(PREFIX);
	if (strncmp(base, PREFIX, pl))
		return -1;
	const char *p = base + pl;
	uint64_t v = 0;
	size_t nd = 0;
	while (p[nd] >= '0' && p[nd] <= '9' && nd < 10)
		v = v * 10 + (uint64_t)(p[nd++] - '0');
	if (!nd || v > UINT32_MAX || strcmp(p + nd, ".pb"))
		return -1;
	*number = (uint32_t)v;
	return 0;
}

/* ---- protobuf wire walk -------------------------------------------------------- */

enum msg { MSG_MEMORY, MSG_GRAPH, MSG_NODE, MSG_TENSOR, MSG_NONE };

static int varint(const uint8_t *p, size_t n, size_t *pos, uint64_t *v)
{
	uint64_t r = 0;
	for (int i = 0; i < 10; i++) {
		if (*pos >= n)
			return -1;
		uint8_t b = p[(*pos)++];
		if (i == 9 && b > 1)
			return -1;
		r |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -1;
}

/*
 * Expected wire type of a known field: 0 varint, 2 length-delimited,
 * 6 = varint or packed (repeated scalar), -1 unknown field (anything goes).
 * *sub is the nested message of a length-delimited message field.
 */
static int expect(enum msg m, uint64_t field, enum msg *sub)
{
	*sub = MSG_NONE;
	switch (m) {
	case MSG_MEMORY:
		if (field == 1) {
			*sub = MSG_GRAPH;
			return 2;
		}
		return field == 2 ? 0 : -1;
	case MSG_GRAPH:
		if (field == 1 || field == 2)
			return 0;
		if (field == 3 || field == 4) {
			*sub = field == 3 ? MSG_NODE : MSG_TENSOR;
			return 2;
		}
		return field == 5 || field == 6 ? 2 : -1;
	case MSG_NODE:
		if (field == 1)
			return 2;
		if (field == 2)
			return 0;
		return field >= 3 && field <= 5 ? 6 : -1;
	case MSG_TENSOR:
		if (field == 1 || field == 2 || field == 4 || field == 5)
			return 0;
		return field == 3 || field == 6 ? 2 : -1;
	default:
		return -1;
	}
}

/* Walk p[0..n) as message m; on error *bad = the file offset (base + position). */
static int walk(const uint8_t *p, size_t n, enum msg m, uint64_t base, int depth, uint64_t *bad, const char **why)
{
	size_t pos = 0;
	while (pos < n) {
		size_t at = pos;
		uint64_t key;
		if (varint(p, n, &pos, &key)) {
			*bad = base + at;
			*why = "bad field key";
			return -1;
		}
		uint64_t field = key >> 3;
		unsigned wt = (unsigned)(key & 7);
		if (!field || field > 536870911u) {
			*bad = base + at;
			*why = "invalid field number";
			return -1;
		}
		enum msg sub;
		int want = expect(m, field, &sub);
		if (want >= 0 && !(want == (int)wt || (want == 6 && (wt == 0 || wt == 2)))) {
			*bad = base + at;
			*why = "unexpected wire type for a known field";
			return -1;
		}
		uint64_t v;
		switch (wt) {
		case 0:
			if (varint(p, n, &pos, &v)) {
				*bad = base + at;
				*why = "truncated varint";
				return -1;
			}
			break;
		case 1:
		case 5: {
			size_t w = wt == 1 ? 8 : 4;
			if (n - pos < w) {
				*bad = base + at;
				*why = "truncated fixed-size field";
				return -1;
			}
			pos += w;
			break;
		}
		case 2: {
			if (varint(p, n, &pos, &v) || v > n - pos) {
				*bad = base + at;
				*why = "length past the end of the enclosing message";
				return -1;
			}
			if (sub != MSG_NONE) {
				if (depth > 8 || walk(p + pos, (size_t)v, sub, base + pos, depth + 1, bad, why))
					return -1;
			} else if (want == 6) { /* packed varints */
				size_t q = pos, end = pos + (size_t)v;
				uint64_t x;
				while (q < end)
					if (varint(p, end, &q, &x)) {
						*bad = base + q;
						*why = "bad packed varint";
						return -1;
					}
			}
			pos += (size_t)v;
			break;
		}
		default:
			*bad = base + at;
			*why = "unsupported wire type";
			return -1;
		}
	}
	return 0;
}

/* ---- reading one file ---------------------------------------------------------- */

static int read_all(const char *path, uint8_t **buf, size_t *len, struct pt_err **e)
{
	int fd;
	uint64_t size;
	if (pt_input_open(path, &fd, &size, e))
		return -1;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int er = errno;
		close(fd);
		return pt_err_errno(e, er, "cannot open '%s'", path);
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = pt_xmalloc(cap);
	for (;;) {
		if (n == cap) {
			cap *= 2;
			b = pt_xrealloc(b, cap);
		}
		size_t k = fread(b + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(b);
		return pt_err(e, "cannot read '%s'", path);
	}
	if (n < size) {
		free(b);
		return pt_input_shrunk(path, n, size, e);
	}
	*buf = b;
	*len = n;
	return 0;
}

static bool known_life(const char *s)
{
	return !strcmp(s, "LifeLongNone") || !strcmp(s, "LifeLongGraphAll") || !strcmp(s, "LifeLongGraphStart") ||
	       !strcmp(s, "LifeLongGraphEnd");
}

static const char *last_segment(const char *s)
{
	const char *p = strrchr(s, '/');
	return p ? p + 1 : s;
}

/* Counter samples of a graph: its points placed at the executions of their ops. */
static void add_counters(struct pt_model *m, uint32_t dev, const int64_t *used, size_t nn, size_t node0)
{
	if (!nn)
		return;
	/* node name -> first node index + 1; next[i] = next index + 1 with the same name */
	struct pt_hashmap names;
	pt_hashmap_init(&names);
	uint32_t *next = pt_xcalloc(nn, sizeof(*next));
	for (size_t i = nn; i-- > 0;) {
		bool added;
		uint64_t *h = pt_hashmap_put(&names, m->mem_nodes.v[node0 + i].name, 0, &added);
		next[i] = (uint32_t)*h;
		*h = i + 1;
	}
	uint32_t track = PT_NONE;
	const struct pt_events *ev = &m->events;
	struct pt_hashmap seg; /* event name id -> last-segment string id + 1, 0 = not a string */
	pt_hashmap_init(&seg);
	for (size_t k = 0; k < ev->n; k++) {
		if (ev->kind[k] != PT_EV_TASK && ev->kind[k] != PT_EV_AICPU)
			continue;
		if (!ev->name[k] || m->tracks.v[ev->track[k]].device != dev)
			continue;
		bool added;
		uint64_t *sv = pt_hashmap_put(&seg, ev->name[k], 0, &added);
		if (added) {
			const char *ls = last_segment(pt_model_strget(m, ev->name[k]));
			uint32_t sid = pt_strtab_find(&m->strings, ls, strlen(ls));
			*sv = sid == UINT32_MAX ? 0 : (uint64_t)sid + 1;
		}
		if (!*sv)
			continue;
		uint64_t *ni = pt_hashmap_get(&names, *sv - 1);
		for (uint32_t i = ni ? (uint32_t)*ni : 0; i; i = next[i - 1]) {
			if (track == PT_NONE)
				track = pt_model_track(m, dev, PT_TRACK_COUNTER, PT_MEMORY_COUNTER_STREAM, "Memory#allocated_bytes");
			pt_model_add_counter_sample(m, track, ev->start[k], (double)used[i - 1]);
		}
	}
	pt_hashmap_free(&seg);
	pt_hashmap_free(&names);
	free(next);
}

struct warns {
	uint64_t reversed, overlong, unknown_life, node_id;
	uint64_t first_reversed, first_overlong, first_unknown, first_node_id;
};

/* A tensor size as the memory pass counts it: beyond int64, saturated. */
static int64_t size_sat(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

static void warn_once(uint64_t *cnt, uint64_t *first, uint64_t idx)
{
	if (!(*cnt)++)
		*first = idx;
}

int pt_memory_read_file(struct pt_model *m, uint32_t dev, const char *path, struct pt_diag *diag, struct pt_err **e)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	/* the counters are placed at task executions read before (add_counters) */
	if (pt_ptm_spill_undo(m, e) || read_all(path, &buf, &len, e))
		return -1;
	pt_model_add_source(m, path, len, "ascend-memory", (int32_t)dev);
	if (!len) {
		pt_model_stat_add(m, (int32_t)dev, "memory.empty_files", 1);
		free(buf);
		return 0;
	}
	uint64_t bad = 0;
	const char *why = "";
	if (walk(buf, len, MSG_MEMORY, 0, 0, &bad, &why)) {
		free(buf);
		return pt_err(e, "memory file '%s': not a MemoryProto: %s at byte %" PRIu64 " (file of %zu bytes)", path,
			      why, bad, len);
	}
	Mindspore__Profiler__MemoryProto *mp = mindspore__profiler__memory_proto__unpack(NULL, len, buf);
	free(buf);
	if (!mp)
		return pt_err(e, "memory file '%s': not a MemoryProto: protobuf unpack failed at byte 0", path);

	struct warns w = { 0 };
	for (size_t gi = 0; gi < mp->n_graph_mem; gi++) {
		const Mindspore__Profiler__GraphMemProto *g = mp->graph_mem[gi];
		uint32_t gidx = (uint32_t)m->mem_graphs.n;
		struct pt_mem_graph mg = { dev, g->graph_id, g->static_mem, mp->total_mem,
					   pt_model_str(m, g->fp_start ? g->fp_start : ""),
					   pt_model_str(m, g->bp_end ? g->bp_end : "") };
		pt_model_add_mem_graph(m, &mg);
		size_t node0 = m->mem_nodes.n, nn = g->n_node_mems;
		for (size_t i = 0; i < nn; i++) {
			const Mindspore__Profiler__NodeMemProto *nd = g->node_mems[i];
			if (nd->node_id != i)
				warn_once(&w.node_id, &w.first_node_id, i);
			struct pt_mem_node mn = { gidx, pt_model_str(m, nd->node_name ? nd->node_name : ""), nd->node_id,
						  (uint32_t)m->mem_ids.n, (uint32_t)nd->n_output_tensor_id, 0, 0 };
			for (size_t k = 0; k < nd->n_output_tensor_id; k++)
				pt_model_add_mem_id(m, nd->output_tensor_id[k]);
			mn.ws0 = (uint32_t)m->mem_ids.n;
			for (size_t k = 0; k < nd->n_workspace_tensor_id; k++) {
				uint64_t id = nd->workspace_tensor_id[k];
				bool dup = false;
				for (size_t j = 0; j < nd->n_output_tensor_id && !dup; j++)
					dup = nd->output_tensor_id[j] == id;
				if (dup)
					continue;
				pt_model_add_mem_id(m, id);
				mn.nws++;
			}
			pt_model_add_mem_node(m, &mn);
		}
		/* difference array in 128 bits: sizes up to 2^64 and static memory
		 * near ±2^63 add up exactly; the curve is then clamped to int64 */
		__int128 *diff = nn ? pt_xcalloc(nn + 1, sizeof(*diff)) : NULL;
		for (size_t ti = 0; ti < g->n_tensor_mems; ti++) {
			const Mindspore__Profiler__TensorMemProto *t = g->tensor_mems[ti];
			const char *ll = t->life_long ? t->life_long : "";
			struct pt_mem_tensor mt = { gidx, t->tensor_id, t->size, pt_model_str(m, t->type ? t->type : ""),
						    t->life_start, t->life_end, pt_model_str(m, ll) };
			pt_model_add_mem_tensor(m, &mt);
			if (!known_life(ll)) {
				warn_once(&w.unknown_life, &w.first_unknown, t->tensor_id);
				continue;
			}
			if (!nn)
				continue;
			uint64_t a = t->life_start, b = t->life_end;
			if (!strcmp(ll, "LifeLongGraphAll")) {
				a = 0;
				b = nn - 1;
			} else if (!strcmp(ll, "LifeLongGraphStart")) {
				a = 0;
			} else if (!strcmp(ll, "LifeLongGraphEnd")) {
				b = nn - 1;
			}
			if (a > b) {
				warn_once(&w.reversed, &w.first_reversed, t->tensor_id);
				continue;
			}
			if (b > nn - 1) {
				warn_once(&w.overlong, &w.first_overlong, t->tensor_id);
				b = nn - 1;
				if (a > b)
					continue;
			}
			diff[a] += size_sat(t->size);
			diff[b + 1] -= size_sat(t->size);
		}
		int64_t *used = nn ? pt_xmalloc(nn * sizeof(*used)) : NULL; /* the curve */
		__int128 run = g->static_mem;
		for (size_t i = 0; i < nn; i++) {
			run += diff[i];
			used[i] = run > INT64_MAX ? INT64_MAX : run < INT64_MIN ? INT64_MIN : (int64_t)run;
		}
		free(diff);
		add_counters(m, dev, used, nn, node0);
		free(used);
		pt_model_stat_add(m, (int32_t)dev, "memory.graphs", 1);
		pt_model_stat_add(m, (int32_t)dev, "memory.nodes", (int64_t)nn);
		pt_model_stat_add(m, (int32_t)dev, "memory.tensors", (int64_t)g->n_tensor_mems);
	}
	if (!mp->n_graph_mem)
		pt_model_stat_add(m, (int32_t)dev, "memory.empty_files", 1);
	mindspore__profiler__memory_proto__free_unpacked(mp, NULL);
	if (w.node_id)
		pt_diag_warn_n(diag, path, "node_id differs from the position of nodes; position used", PT_POS_NONE, 0,
			       w.node_id);
	if (w.reversed)
		pt_diag_warn_n(diag, path, "ignored tensors with a reversed lifetime", PT_POS_NONE, 0, w.reversed);
	if (w.overlong)
		pt_diag_warn_n(diag, path, "cut tensor lifetimes reaching past the last node", PT_POS_NONE, 0,
			       w.overlong);
	if (w.unknown_life)
		pt_diag_warn_n(diag, path, "ignored tensors with an unknown life_long", PT_POS_NONE, 0, w.unknown_life);
	return 0;
}

/* ---- discovery ------------------------------------------------------------------- */

int pt_import_ascend_memory(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
			    struct pt_diag *diag, struct pt_err **e)
{
	return pt_numbered_read_all(m, in, o->ascend.device, "memory file", pt_memory_read_file, diag, e);
}
