/*
 * pipeline_profiling_<d>.json (ascend.md §2.11, §3.11):
 *   {"sampling_interval": <ms>, "op_info": [{op_id, op_type, num_workers,
 *     children, metrics: null | {"output_queue": {size: [...], length}}}]}
 *
 * Fatal (ascend.md §0): JSON that does not parse, no sampling_interval, an
 * empty op_info, no root, several roots, a cycle. Warnings: ops without a
 * usable op_id (skipped), duplicate op ids (later skipped), missing type or
 * workers, non-integer sizes, unknown child ids and second parents (edges
 * dropped), empty size series. Children are stored as recorded, minus the
 * dropped edges; collapsing ops without metrics is the pass's work.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import/import-minddata.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/xalloc.h"

struct rawop {
	int64_t id;
	const char *type;
	int64_t workers;
	json_t *children; /* borrowed */
	json_t *queue;    /* output_queue object, borrowed; NULL without metrics */
	uint32_t order;
	PT_VEC(int64_t) kids;
	size_t parent;    /* index + 1, 0 none */
};

static bool json_int(const json_t *j, int64_t *v)
{
	if (json_is_integer(j)) {
		*v = (int64_t)json_integer_value(j);
		return true;
	}
	if (json_is_real(j)) {
		double d = json_real_value(j);
		if (d >= -9.2e18 && d <= 9.2e18 && d == (double)(int64_t)d) {
			*v = (int64_t)d;
			return true;
		}
	}
	return false;
}

/* Index of op `id` (ids: op_id -> index; a hostile op_info may hold
 * hundreds of thousands of ops, so no linear search). */
static size_t find(const struct pt_hashmap *ids, int64_t id)
{
	const uint64_t *v = pt_hashmap_get(ids, (uint64_t)id);
	return v ? (size_t)*v : SIZE_MAX;
}

int pt_md_read_pipeline(struct pt_model *m, uint32_t dev, const char *path, struct pt_diag *diag,
			struct pt_err **e)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_DECODE_ANY, &je);
	if (!root)
		return pt_err(e, "pipeline '%s': invalid JSON at line %d, byte %d: %s", path, je.line, je.position,
			      je.text);
	int rc = 0;
	struct rawop *ops = NULL;
	size_t n = 0;
	struct pt_hashmap ids;
	pt_hashmap_init(&ids);
	int64_t interval;
	if (!json_is_object(root)) {
		rc = pt_err(e, "pipeline '%s': not a JSON object", path);
		goto out;
	}
	if (!json_int(json_object_get(root, "sampling_interval"), &interval) || interval < 0 ||
	    interval > INT64_MAX / 1000000 / 1000000) {
		rc = pt_err(e, "pipeline '%s': missing or invalid 'sampling_interval'", path);
		goto out;
	}
	json_t *info = json_object_get(root, "op_info");
	if (!json_is_array(info) || !json_array_size(info)) {
		rc = pt_err(e, "pipeline '%s': missing or empty 'op_info'", path);
		goto out;
	}
	size_t nin = json_array_size(info);
	ops = pt_xcalloc(nin, sizeof(*ops));
	for (size_t i = 0; i < nin; i++) {
		json_t *jo = json_array_get(info, i);
		struct rawop r;
		memset(&r, 0, sizeof(r));
		r.order = (uint32_t)i;
		if (!json_is_object(jo) || !json_int(json_object_get(jo, "op_id"), &r.id) || r.id < 0) {
			pt_diag_warn(diag, path, "skipped ops without a valid op_id (op_info entry)", PT_POS_NONE, 0);
			continue;
		}
		if (find(&ids, r.id) != SIZE_MAX) {
			pt_diag_warn(diag, path, "skipped ops with a duplicate op_id (op_info entry)", PT_POS_NONE, 0);
			continue;
		}
		json_t *jt = json_object_get(jo, "op_type");
		r.type = json_is_string(jt) ? json_string_value(jt) : NULL;
		if (!r.type)
			pt_diag_warn(diag, path, "ops without op_type", PT_POS_NONE, 0);
		if (!json_int(json_object_get(jo, "num_workers"), &r.workers) || r.workers < 0) {
			r.workers = -1;
			pt_diag_warn(diag, path, "ops without a valid num_workers", PT_POS_NONE, 0);
		}
		r.children = json_object_get(jo, "children");
		if (r.children && !json_is_null(r.children) && !json_is_array(r.children)) {
			pt_diag_warn(diag, path, "ignored 'children' that are not a list", PT_POS_NONE, 0);
			r.children = NULL;
		}
		json_t *met = json_object_get(jo, "metrics");
		json_t *q = json_is_object(met) ? json_object_get(met, "output_queue") : NULL;
		r.queue = json_is_object(q) ? q : NULL;
		if (met && !json_is_null(met) && !json_is_object(met))
			pt_diag_warn(diag, path, "ignored 'metrics' that are not an object", PT_POS_NONE, 0);
		*pt_hashmap_put(&ids, (uint64_t)r.id, 0, NULL) = n;
		ops[n++] = r;
	}
	if (!n) {
		rc = pt_err(e, "pipeline '%s': no op with a valid op_id", path);
		goto out;
	}
	/* edges: known ids only, one parent each */
	for (size_t i = 0; i < n; i++) {
		json_t *ch = ops[i].children;
		for (size_t k = 0; ch && k < json_array_size(ch); k++) {
			int64_t cid;
			size_t c;
			if (!json_int(json_array_get(ch, k), &cid) || (c = find(&ids, cid)) == SIZE_MAX) {
				pt_diag_warn(diag, path, "dropped unknown child ids", PT_POS_NONE, 0);
				continue;
			}
			if (c == i) {
				rc = pt_err(e, "pipeline '%s': op %" PRId64 " lists itself as a child (a cycle)", path,
					    ops[i].id);
				goto out;
			}
			if (ops[c].parent) {
				if (ops[c].parent != i + 1)
					pt_diag_warn(diag, path, "dropped second parents of ops (child listed twice)",
						     PT_POS_NONE, 0);
				continue;
			}
			ops[c].parent = i + 1;
			pt_vec_push(&ops[i].kids, cid);
		}
	}
	/* exactly one root, everything reachable from it */
	size_t rootix = SIZE_MAX, nroots = 0;
	char roots[256] = "";
	for (size_t i = 0; i < n; i++) {
		if (ops[i].parent)
			continue;
		if (!nroots++)
			rootix = i;
		size_t l = strlen(roots);
		if (l < sizeof(roots) - 32)
			snprintf(roots + l, sizeof(roots) - l, "%s%" PRId64, l ? ", " : "", ops[i].id);
	}
	if (!nroots) {
		rc = pt_err(e, "pipeline '%s': the op tree has no root (a cycle)", path);
		goto out;
	}
	if (nroots > 1) {
		rc = pt_err(e, "pipeline '%s': the op tree has several roots (ops %s)", path, roots);
		goto out;
	}
	/* every op has at most one parent and only the root has none, so an op
	 * not reachable from the root lies on a cycle */
	{
		bool *seen = pt_xcalloc(n, sizeof(*seen));
		size_t *stack = pt_xmalloc(n * sizeof(*stack)), sp = 0, nseen = 1;
		seen[rootix] = true;
		stack[sp++] = rootix;
		while (sp) {
			size_t i = stack[--sp];
			for (size_t k = 0; k < ops[i].kids.n; k++) {
				size_t c = find(&ids, ops[i].kids.v[k]);
				if (!seen[c]) {
					seen[c] = true;
					nseen++;
					stack[sp++] = c;
				}
			}
		}
		int64_t bad = -1;
		for (size_t i = 0; i < n && bad < 0; i++)
			if (!seen[i])
				bad = ops[i].id;
		free(seen);
		free(stack);
		if (nseen != n) {
			rc = pt_err(e, "pipeline '%s': op %" PRId64 " lies on a cycle of children", path, bad);
			goto out;
		}
	}

	/* into the model, in file order */
	struct stat st;
	pt_model_add_source(m, path, stat(path, &st) ? 0 : (uint64_t)st.st_size, "minddata-pipeline", (int32_t)dev);
	int64_t interval_ns = interval * 1000000;
	int64_t nsamples = 0;
	for (size_t i = 0; i < n; i++) {
		struct rawop *r = &ops[i];
		struct pt_md_op op;
		memset(&op, 0, sizeof(op));
		op.device = dev;
		op.op_id = r->id;
		op.type = pt_model_str(m, r->type ? r->type : "");
		op.num_workers = r->workers;
		op.sampling_interval_ns = interval_ns;
		op.order = r->order;
		op.queue_capacity = -1;
		op.queue_track = PT_NONE;
		op.children.v = r->kids.v;
		op.children.n = r->kids.n;
		op.children.cap = r->kids.cap;
		memset(&r->kids, 0, sizeof(r->kids));
		if (r->queue) {
			op.has_queue = true;
			int64_t len;
			json_t *jl = json_object_get(r->queue, "length");
			if (json_int(jl, &len) && len >= 0)
				op.queue_capacity = len;
			else
				pt_diag_warn(diag, path, "output queues without a valid length", PT_POS_NONE, 0);
			char name[64];
			snprintf(name, sizeof(name), "md_op_queue:%" PRId64, r->id);
			op.queue_track = pt_model_track(m, dev, PT_TRACK_QUEUE, r->id, name);
			json_t *sz = json_object_get(r->queue, "size");
			size_t ns = json_is_array(sz) ? json_array_size(sz) : 0;
			if (!ns)
				pt_diag_warn(diag, path, "output queues with an empty size series", PT_POS_NONE, 0);
			for (size_t k = 0; k < ns; k++) {
				int64_t v, t;
				if (!json_int(json_array_get(sz, k), &v) || v < 0) {
					pt_diag_warn(diag, path, "skipped invalid output-queue sizes", PT_POS_NONE, 0);
					continue;
				}
				if (__builtin_mul_overflow((int64_t)k, interval_ns, &t) || t > PT_TIME_LIMIT) {
					/* the model's time range (model/model.h); later samples too */
					pt_diag_warn(diag, path, "skipped output-queue samples beyond 2^62 ns", PT_POS_NONE, 0);
					break;
				}
				pt_model_add_queue_sample(m, op.queue_track, t, v, op.queue_capacity);
				nsamples++;
			}
		}
		pt_model_add_md_op(m, &op);
	}
	pt_model_stat_add(m, (int32_t)dev, "minddata.pipeline.ops", (int64_t)n);
	pt_model_stat_add(m, (int32_t)dev, "minddata.pipeline.samples", nsamples);
out:
	for (size_t i = 0; ops && i < n; i++)
		pt_vec_free(&ops[i].kids);
	free(ops);
	pt_hashmap_free(&ids);
	json_decref(root);
	return rc;
}
