/*
 * Ascend jobs (ascend.md §1): the kinds of raw file by name (the path
 * classifier, classify.c, finds the files under each PATH with them); the
 * files found grouped per device, the slices ordered, and the per-format
 * readers of each device run in dependency order.
 */
#include "import/ascend.h"
#include "import/input.h"
#include "import/registry.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support/xalloc.h"
#include "support/sort.h"

/* Name strings of each kind; where two exist, the newer (preferred) is first. */
static const struct kind_name {
	enum pt_ascend_kind kind;
	const char *name;
	bool preferred;
} kind_names[] = {
	{ PT_AK_HWTS, "hwts.data", true },
	{ PT_AK_HWTS, "hwts.log.data.45.dev.profiler_default_tag", false },
	{ PT_AK_STEP_TRACE, "training_trace.46.dev.profiler_default_tag", false },
	{ PT_AK_AICPUMI, "DATA_PREPROCESS.AICPUMI", true },
	{ PT_AK_AICPUMI, "DATA_PREPROCESS.dev.AICPUMI", false },
	{ PT_AK_AICPU, "DATA_PREPROCESS.AICPU", true },
	{ PT_AK_AICPU, "DATA_PREPROCESS.dev.AICPU", false },
	{ PT_AK_TDT, "DATA_PREPROCESS.dev.TDT", false },
	{ PT_AK_HOST_START, "host_start.log", false },
	{ PT_AK_DEV_START, "dev_start.log", false },
	{ PT_AK_INFO_JSON, "info.json", false },
	{ PT_AK_AICORE, "aicore.data", false },
};

static const char *kind_label[PT_AK__N] = {
	[PT_AK_HWTS] = "hwts",
	[PT_AK_STEP_TRACE] = "step-trace",
	[PT_AK_FW_TASK_DESC] = "framework-task-desc",
	[PT_AK_FW_GRAPH_DESC] = "framework-graph-desc",
	[PT_AK_FW_POINT] = "framework-point",
	[PT_AK_FWB_TASK_DESC] = "framework-bin-task-desc",
	[PT_AK_FWB_TENSOR] = "framework-bin-tensor-data",
	[PT_AK_FWB_STEP_INFO] = "framework-bin-step-info",
	[PT_AK_FWB_HASH_DIC] = "framework-bin-hash-dic",
	[PT_AK_HOST_START] = "host-start",
	[PT_AK_DEV_START] = "dev-start",
	[PT_AK_INFO_JSON] = "info-json",
	[PT_AK_AICPU] = "aicpu",
	[PT_AK_AICPUMI] = "aicpumi",
	[PT_AK_TDT] = "tdt",
	[PT_AK_AICORE] = "aicore",
};

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Does `name` contain `pat` followed by a separator ('.', '_' or the end)? */
static const char *match_at(const char *name, const char *pat)
{
	size_t pl = strlen(pat);
	for (const char *p = strstr(name, pat); p; p = strstr(p + 1, pat)) {
		char c = p[pl];
		if (c == 0 || c == '.' || c == '_')
			return p;
	}
	return NULL;
}

/*
 * Split a base name into slice number and device id (§1.4): the device is the
 * decimal token just before ".slice_<n>", or the last token for unsliced names.
 * Container names put a job id between them: "...<dev>.<JOBID>.slice_<n>".
 */
void pt_ascend_name_suffix(const char *name, int64_t *slice, int64_t *device, char **jobid)
{
	size_t len = strlen(name);
	*slice = -1;
	*device = -1;
	*jobid = NULL;
	const char *s = strstr(name, ".slice_");
	size_t end = len;
	if (s && all_digits(s + 7, strlen(s + 7))) {
		*slice = strtoll(s + 7, NULL, 10);
		end = (size_t)(s - name);
	}
	/* last token of name[0, end) */
	size_t b = end;
	while (b > 0 && name[b - 1] != '.')
		b--;
	if (all_digits(name + b, end - b)) {
		*device = strtoll(name + b, NULL, 10);
		return;
	}
	if (b > 1) {
		size_t e2 = b - 1, b2 = e2;
		while (b2 > 0 && name[b2 - 1] != '.')
			b2--;
		if (all_digits(name + b2, e2 - b2)) {
			*device = strtoll(name + b2, NULL, 10);
			*jobid = pt_xstrndup(name + b, end - b);
		}
	}
}

bool pt_ascend_name_kind(const char *name, enum pt_ascend_kind *kind, bool *preferred, int *backend)
{
	if (ends_with(name, ".done") || ends_with(name, ".join") || ends_with(name, ".zip"))
		return false;
	*backend = 0;
	*preferred = false;
	const char *fw = strstr(name, "Framework.");
	if (fw) {
		const char *t = fw + 10;
		bool host = !strncmp(t, "host.", 5);
		if (host)
			t += 5;
		bool vm = !strncmp(t, "vm.", 3);
		const char *u = vm ? t + 3 : t;
		static const struct { const char *n; enum pt_ascend_kind text, bin; } fwk[] = {
			{ "task_desc_info", PT_AK_FW_TASK_DESC, PT_AK_FWB_TASK_DESC },
			{ "graph_desc_info", PT_AK_FW_GRAPH_DESC, PT_AK__N },
			{ "point", PT_AK_FW_POINT, PT_AK__N },
			{ "tensor_data_info", PT_AK__N, PT_AK_FWB_TENSOR },
			{ "step_info", PT_AK__N, PT_AK_FWB_STEP_INFO },
			{ "hash_dic", PT_AK__N, PT_AK_FWB_HASH_DIC },
		};
		for (size_t i = 0; i < sizeof(fwk) / sizeof(fwk[0]); i++) {
			size_t l = strlen(fwk[i].n);
			if (strncmp(u, fwk[i].n, l) || (u[l] != '.' && u[l] != 0))
				continue;
			if (host || vm) {
				if (fwk[i].text == PT_AK__N)
					return false;
				*kind = fwk[i].text;
				*backend = host ? (vm ? 1 : 2) : 3;
				return true;
			}
			if (fwk[i].bin == PT_AK__N)
				return false;
			*kind = fwk[i].bin;
			return true;
		}
		return false;
	}
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++) {
		if (match_at(name, kind_names[i].name)) {
			*kind = kind_names[i].kind;
			*preferred = kind_names[i].preferred;
			return true;
		}
	}
	return false;
}

static int cmp_slice(const void *a, const void *b)
{
	const struct pt_input *x = *(const struct pt_input *const *)a, *y = *(const struct pt_input *const *)b;
	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static bool is_fw_text(enum pt_ascend_kind k)
{
	return k == PT_AK_FW_TASK_DESC || k == PT_AK_FW_GRAPH_DESC || k == PT_AK_FW_POINT;
}

static bool is_fw_bin(enum pt_ascend_kind k)
{
	return k == PT_AK_FWB_TASK_DESC || k == PT_AK_FWB_TENSOR || k == PT_AK_FWB_STEP_INFO ||
	       k == PT_AK_FWB_HASH_DIC;
}

/*
 * Choose the files of (device, kind) (§1.2, §1.3): per PATH, the preferred
 * name wins; the shallowest directory wins (warned when deeper ones match
 * too); slices are ordered by number; a missing slice number among several
 * files is fatal.
 */
static int select_files(const struct pt_inputs *f, uint32_t device, enum pt_ascend_kind kind, struct pt_ascend_dev *d,
			struct pt_diag *diag, struct pt_err **e)
{
	const struct pt_input **sel = NULL;
	size_t ns = 0;
	uint32_t npaths = 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].path_index + 1 > npaths)
			npaths = f->v[i].path_index + 1;
	for (uint32_t pi = 0; pi < npaths; pi++) {
		int best_rank = 99;
		bool any_pref = false;
		for (size_t i = 0; i < f->n; i++) {
			const struct pt_input *c = &f->v[i];
			if (c->path_index == pi && c->number == device && c->kind == (int)kind) {
				if (c->depth < best_rank)
					best_rank = c->depth;
			}
		}
		if (best_rank == 99)
			continue;
		bool deeper = false;
		for (size_t i = 0; i < f->n; i++) {
			const struct pt_input *c = &f->v[i];
			if (c->path_index == pi && c->number == device && c->kind == (int)kind) {
				if (c->depth == best_rank)
					any_pref |= c->preferred;
				else
					deeper = true;
			}
		}
		size_t first = ns;
		for (size_t i = 0; i < f->n; i++) {
			const struct pt_input *c = &f->v[i];
			if (c->path_index != pi || c->number != device || c->kind != (int)kind || c->depth != best_rank)
				continue;
			if (any_pref && !c->preferred)
				continue;
			sel = pt_xrealloc(sel, (ns + 1) * sizeof(*sel));
			sel[ns++] = c;
		}
		if (deeper)
			pt_diag_note(diag, "'%s': %s files also found in a subdirectory; using those in '%s' (they may be duplicates)",
				     sel[first]->dir, kind_label[kind], sel[first]->dir);
	}
	if (ns > 1) {
		for (size_t i = 0; i < ns; i++)
			if (sel[i]->slice < 0) {
				int rc = pt_err(e, "'%s': several %s files of device %" PRIu32
						   " match and this one has no slice number, so their order is unknown",
						sel[i]->path, kind_label[kind], device);
				free(sel);
				return rc;
			}
	}
	pt_sort(sel, ns, sizeof(*sel), cmp_slice);
	for (size_t i = 0; i < ns; i++) {
		pt_slices_add(&d->files[kind], sel[i]->path);
		if (is_fw_text(kind) && sel[i]->backend == 2)
			d->ge_backend = true;
	}
	free(sel);
	return 0;
}

/* Framework consistency (§1.5): no vm/ge mix, no text/binary mix. */
static int check_framework(const struct pt_inputs *f, uint32_t device, struct pt_err **e)
{
	const struct pt_input *vm = NULL, *ge = NULL, *bin = NULL, *binvm = NULL;
	for (size_t i = 0; i < f->n; i++) {
		const struct pt_input *c = &f->v[i];
		if (c->number != device)
			continue;
		if (is_fw_text(c->kind)) {
			if (c->backend == 1 && !vm)
				vm = c;
			if (c->backend == 2 && !ge)
				ge = c;
			if (c->backend == 3 && !binvm)
				binvm = c;
		}
		if (is_fw_bin(c->kind) && !bin)
			bin = c;
	}
	if (vm && ge)
		return pt_err(e, "device %" PRIu32 ": framework files of both the vm backend ('%s') and the ge backend ('%s')",
			      device, vm->path, ge->path);
	if (bin && (vm || ge || binvm))
		return pt_err(e, "device %" PRIu32 ": data of MindSpore 1.5 or earlier ('%s') is mixed with binary framework files ('%s')",
			      device, (vm ? vm : ge ? ge : binvm)->path, bin->path);
	return 0;
}

static int import_device(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_model *m = c->m;
	struct pt_device *dev = &m->devices.v[d->dev];
	free(dev->clock);
	dev->clock = pt_xstrdup("ascend-device");
	free(dev->name);
	dev->name = pt_xasprintf("Ascend device %" PRIu32, d->id);

	for (int k = 0; k < PT_AK__N; k++)
		for (size_t i = 0; i < d->files[k].n; i++) {
			struct stat st;
			uint64_t size = stat(d->files[k].paths[i], &st) ? 0 : (uint64_t)st.st_size;
			char importer[64];
			snprintf(importer, sizeof(importer), "ascend-%s", kind_label[k]);
			pt_model_add_source(m, d->files[k].paths[i], size, importer, (int32_t)d->dev);
		}

	if (d->files[PT_AK_INFO_JSON].n && pt_ascend_read_info_json(c, d, e))
		return -1;
	dev = &m->devices.v[d->dev];
	if (c->opts->hwts_freq_khz) {
		d->freq_khz = c->opts->hwts_freq_khz;
		dev->freq_origin = PT_FREQ_OPTION;
	} else if (d->freq_khz) {
		dev->freq_origin = PT_FREQ_INFO_JSON;
	} else {
		d->freq_khz = 100000;
		dev->freq_origin = PT_FREQ_DEFAULT;
		if (d->files[PT_AK_HWTS].n || d->files[PT_AK_STEP_TRACE].n || d->files[PT_AK_AICPU].n ||
		    d->files[PT_AK_AICPUMI].n || d->files[PT_AK_DEV_START].n)
			pt_diag_note(c->diag, "device %" PRIu32 ": no hwts_frequency in an info.json; assumed 100 MHz (use --hwts-freq to set it)",
				     d->id);
	}
	dev->freq_khz = d->freq_khz;

	if ((d->files[PT_AK_HOST_START].n || d->files[PT_AK_DEV_START].n) && pt_ascend_read_clocks(c, d, e))
		return -1;
	bool text = d->files[PT_AK_FW_TASK_DESC].n || d->files[PT_AK_FW_GRAPH_DESC].n || d->files[PT_AK_FW_POINT].n;
	bool bin = d->files[PT_AK_FWB_TASK_DESC].n || d->files[PT_AK_FWB_TENSOR].n ||
		   d->files[PT_AK_FWB_STEP_INFO].n || d->files[PT_AK_FWB_HASH_DIC].n;
	if (text && pt_ascend_read_framework_text(c, d, e))
		return -1;
	if (bin && pt_ascend_read_framework_bin(c, d, e))
		return -1;
	if (d->files[PT_AK_HWTS].n && pt_ascend_read_hwts(c, d, e))
		return -1;
	if (d->files[PT_AK_STEP_TRACE].n && pt_ascend_read_step_trace(c, d, e))
		return -1;
	if (d->files[PT_AK_AICPU].n && pt_ascend_read_aicpu(c, d, e))
		return -1;
	if (d->files[PT_AK_AICPUMI].n && pt_ascend_read_aicpumi(c, d, e))
		return -1;
	if (d->files[PT_AK_TDT].n && pt_ascend_read_tdt(c, d, e))
		return -1;
	if (d->files[PT_AK_AICORE].n && pt_ascend_read_aicore(c, d, e))
		return -1;
	return 0;
}

static void free_dev(struct pt_ascend_dev *d)
{
	for (int k = 0; k < PT_AK__N; k++)
		pt_slices_free(&d->files[k]);
	pt_hashmap_free(&d->task_op);
	pt_hashmap_free(&d->point_op);
}

int pt_import_ascend(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		     struct pt_diag *diag, struct pt_err **e)
{
	const struct pt_ascend_opts *opts = &o->ascend;
	const struct pt_inputs *f = in;
	int rc = 0;
	uint32_t *ids = NULL;
	size_t nids = 0;
	/* the devices present, in id order */
	for (size_t i = 0; i < f->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < nids; j++)
			seen |= ids[j] == f->v[i].number;
		if (!seen) {
			ids = pt_xrealloc(ids, (nids + 1) * sizeof(*ids));
			ids[nids++] = f->v[i].number;
		}
	}
	pt_sort(ids, nids, sizeof(*ids), cmp_u32);
	if (opts->device >= 0) {
		bool have = false;
		for (size_t j = 0; j < nids; j++)
			have |= ids[j] == (uint32_t)opts->device;
		if (!have) {
			char list[512] = "";
			for (size_t j = 0; j < nids && strlen(list) < sizeof(list) - 16; j++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%" PRIu32, j ? ", " : "",
					 ids[j]);
			rc = pt_err(e, "no file of device %" PRId64 " (devices present: %s)", opts->device, list);
			goto out;
		}
		for (size_t i = 0; i < f->n; i++)
			if (f->v[i].number != (uint32_t)opts->device)
				pt_diag_warn(diag, f->v[i].path, "skipped files of unselected devices", PT_POS_NONE, 0);
	}
	struct pt_ascend_ctx ctx = { m, diag, opts };
	for (size_t j = 0; j < nids && !rc; j++) {
		if (opts->device >= 0 && ids[j] != (uint32_t)opts->device)
			continue;
		if ((rc = check_framework(f, ids[j], e)))
			break;
		struct pt_ascend_dev d;
		memset(&d, 0, sizeof(d));
		d.id = ids[j];
		d.dev = pt_model_device(m, PT_DEV_NPU, ids[j]);
		pt_hashmap_init(&d.task_op);
		pt_hashmap_init(&d.point_op);
		for (int k = 0; k < PT_AK__N && !rc; k++)
			rc = select_files(f, ids[j], (enum pt_ascend_kind)k, &d, diag, e);
		if (!rc)
			rc = import_device(&ctx, &d, e);
		free_dev(&d);
	}
out:
	free(ids);
	return rc;
}
