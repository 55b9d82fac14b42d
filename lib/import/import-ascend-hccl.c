/*
 * HCCL trace importer (ascend.md §2.10): the directory hccl_info_<d> that
 * MindSpore's profiler writes into its output directory (<d>: the rank id),
 * found under every PATH, given as a PATH itself, or under --minddata DIR.
 * It holds one subdirectory per communication operator (e.g. allReduce_1),
 * each with one JSON file per execution, {"traceEvents": [...]}.
 *
 * Operators are read in name order (byte order), an operator's files by the
 * number after the last '_' of their name (MindSpore's order; files without
 * one follow, by name), events in file order. Every event is appended to the
 * model as read (struct pt_hccl_task); the link statistics of §3.10 are
 * derived later (model/hccl-links.c), never here.
 *
 * Device attachment follows ascend.md §1.4 like the memory and MindData
 * files: with exactly one Ascend device in the model and one HCCL directory,
 * it is attached to that device (noted when the numbers differ); otherwise
 * the number is the device id, and with --device N other numbers are
 * skipped with a warning.
 *
 * Fatal (§0, §5): a file that cannot be read, that is not JSON (the parser's
 * line and byte are named), or whose top level is not an object with a
 * "traceEvents" list. Warnings, counted per file: list elements that are not
 * objects, events without a numeric ts or dur (µs) in range or with a
 * negative dur, events whose ranks or size (a hex string) do not parse.
 * Absent args fields read as: tid 0, ranks 0xffffffff (local), transport
 * and task type "", size 0.
 */
#include "import/import-ascend-hccl.h"
#include "import/input.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import/numbered.h"
#include "import/registry.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/sort.h"
#include "support/xalloc.h"

#define PREFIX "hccl_info_"
#define LOCAL_RANK 0xffffffffu

int pt_hccl_dir_number(const char *base, uint32_t *number)
{
	size_t pl = strlen(PREFIX);
	if (strncmp(base, PREFIX, pl))
		return -1;
	const char *p = base + pl;
	if (!*p || strlen(p) > 9)
		return -1;
	uint32_t v = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint32_t)(*p - '0');
	}
	*number = v;
	return 0;
}

/* µs (an integer or a fraction) to ns, within ±2^62 ns. */
static bool usec_ns(const json_t *j, int64_t *ns)
{
	const int64_t lim = INT64_C(1) << 62;
	if (json_is_integer(j)) {
		json_int_t v = json_integer_value(j);
		if (v > lim / 1000 || v < -(lim / 1000))
			return false;
		*ns = (int64_t)v * 1000;
		return true;
	}
	if (json_is_real(j)) {
		double d = json_real_value(j) * 1000.0;
		if (!isfinite(d) || d > (double)lim || d < -(double)lim)
			return false;
		*ns = llround(d);
		return true;
	}
	return false;
}

/* A rank: an integer 0 ... 0xffffffff, or such a number as a string (decimal or 0x hex). */
static bool rank_of(const json_t *j, uint32_t *v)
{
	if (!j) {
		*v = LOCAL_RANK;
		return true;
	}
	if (json_is_integer(j)) {
		json_int_t x = json_integer_value(j);
		if (x < 0 || x > (json_int_t)UINT32_MAX)
			return false;
		*v = (uint32_t)x;
		return true;
	}
	if (json_is_string(j)) {
		const char *s = json_string_value(j);
		char *end;
		if (!*s || *s == '-' || *s == '+')
			return false;
		unsigned long long x = strtoull(s, &end, 0);
		if (*end || x > UINT32_MAX)
			return false;
		*v = (uint32_t)x;
		return true;
	}
	return false;
}

/* "size": bytes as a hex string ("0x400" or "400", as MindSpore reads it with int(size, 16)), or an integer. */
static bool size_of(const json_t *j, uint64_t *v)
{
	if (!j) {
		*v = 0;
		return true;
	}
	if (json_is_integer(j)) {
		json_int_t x = json_integer_value(j);
		if (x < 0)
			return false;
		*v = (uint64_t)x;
		return true;
	}
	if (!json_is_string(j))
		return false;
	const char *s = json_string_value(j);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	size_t n = strlen(s);
	if (!n || n > 16)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return true;
}

static uint32_t str_field(struct pt_model *m, const json_t *args, const char *key)
{
	const json_t *j = args ? json_object_get(args, key) : NULL;
	return json_is_string(j) ? pt_model_str(m, json_string_value(j)) : 0;
}

static int read_file(struct pt_model *m, uint32_t dev, uint32_t op, uint32_t exec, const char *path,
		     struct pt_diag *diag, struct pt_err **e)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root)
		return pt_err(e, "HCCL trace '%s': invalid JSON at line %d, byte %d: %s", path, je.line, je.position,
			      je.text);
	json_t *list = json_is_object(root) ? json_object_get(root, "traceEvents") : NULL;
	if (!json_is_array(list)) {
		json_decref(root);
		return pt_err(e, "HCCL trace '%s': no \"traceEvents\" list", path);
	}
	struct stat st;
	pt_model_add_source(m, path, stat(path, &st) ? 0 : (uint64_t)st.st_size, "ascend-hccl", (int32_t)dev);
	size_t n = json_array_size(list);
	int64_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		const json_t *ev = json_array_get(list, i);
		if (!json_is_object(ev)) {
			pt_diag_warn(diag, path, "skipped HCCL trace events that are not objects", PT_POS_NONE, 0);
			continue;
		}
		struct pt_hccl_task t;
		memset(&t, 0, sizeof(t));
		t.device = dev;
		t.op = op;
		t.exec = exec;
		if (!usec_ns(json_object_get(ev, "ts"), &t.ts) || !usec_ns(json_object_get(ev, "dur"), &t.dur) ||
		    t.dur < 0) {
			pt_diag_warn(diag, path, "skipped HCCL trace events without a valid ts or dur", PT_POS_NONE, 0);
			continue;
		}
		const json_t *tid = json_object_get(ev, "tid");
		if (json_is_integer(tid) && json_integer_value(tid) >= 0 && json_integer_value(tid) <= (json_int_t)UINT32_MAX)
			t.tid = (uint32_t)json_integer_value(tid);
		const json_t *args = json_object_get(ev, "args");
		if (!json_is_object(args))
			args = NULL;
		if (!rank_of(args ? json_object_get(args, "src rank") : NULL, &t.src) ||
		    !rank_of(args ? json_object_get(args, "dst rank") : NULL, &t.dst)) {
			pt_diag_warn(diag, path, "skipped HCCL trace events with an invalid src or dst rank", PT_POS_NONE, 0);
			continue;
		}
		if (!size_of(args ? json_object_get(args, "size") : NULL, &t.size)) {
			pt_diag_warn(diag, path, "skipped HCCL trace events with an invalid size", PT_POS_NONE, 0);
			continue;
		}
		t.transport = str_field(m, args, "transport type");
		t.task_type = str_field(m, args, "task type");
		pt_model_add_hccl_task(m, &t);
		kept++;
	}
	json_decref(root);
	pt_model_stat_add(m, (int32_t)dev, "hccl.files", 1);
	pt_model_stat_add(m, (int32_t)dev, "hccl.events", kept);
	return 0;
}

struct ent {
	char *name;
	uint64_t key; /* the file's number, UINT64_MAX without one */
};

static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* MindSpore's file order key: the decimal between the last '_' and the following '.'. */
static uint64_t file_key(const char *name)
{
	const char *u = strrchr(name, '_');
	const char *p = u ? u + 1 : name;
	uint64_t v = 0;
	size_t n = 0;
	for (; *p >= '0' && *p <= '9' && n < 18; p++, n++)
		v = v * 10 + (uint64_t)(*p - '0');
	return n && (*p == '.' || !*p) ? v : UINT64_MAX;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

/* Entries of dir that are directories (want_dirs) or regular .json files, sorted. */
static int list_dir(const char *dir, bool want_dirs, struct ent **out, size_t *nout, struct pt_diag *diag,
		    struct pt_err **e)
{
	struct pt_dir d;
	pt_dir_read(dir, &d);
	if (d.err) {
		pt_dir_free(&d);
		return pt_err(e, "cannot open directory '%s'", dir);
	}
	struct ent *v = NULL;
	size_t n = 0, cap = 0;
	size_t dl = strlen(dir);
	for (size_t i = 0; i < d.n; i++) {
		const char *name = d.v[i].name;
		if (name[0] == '.')
			continue;
		if (!want_dirs && !ends_with(name, ".json"))
			continue;
		bool is_dir;
		const char *what = pt_dir_entry_what(&d, i, &is_dir);
		bool ok = want_dirs ? is_dir : !what;
		if (!ok && !want_dirs) { /* a .json that is not a file: a FIFO would hang the read */
			char *full = pt_xasprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", name);
			pt_input_skip(diag, full, what);
			free(full);
		}
		if (!ok)
			continue;
		pt_xgrow((void **)&v, &cap, n + 1, sizeof(*v));
		v[n].name = pt_xstrdup(name);
		v[n].key = want_dirs ? 0 : file_key(name);
		n++;
	}
	pt_dir_free(&d);
	pt_sort(v, n, sizeof(*v), cmp_ent);
	*out = v;
	*nout = n;
	return 0;
}

static void free_ents(struct ent *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

int pt_hccl_read_dir(struct pt_model *m, uint32_t dev, const char *dir, struct pt_diag *diag, struct pt_err **e)
{
	struct ent *ops;
	size_t nops;
	if (list_dir(dir, true, &ops, &nops, diag, e))
		return -1;
	int rc = 0;
	size_t dl = strlen(dir);
	for (size_t i = 0; i < nops && !rc; i++) {
		char *opdir = pt_xasprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", ops[i].name);
		struct ent *files;
		size_t nf;
		rc = list_dir(opdir, false, &files, &nf, diag, e);
		if (!rc) {
			uint32_t op = pt_model_str(m, ops[i].name);
			for (size_t k = 0; k < nf && !rc; k++) {
				char *path = pt_xasprintf("%s/%s", opdir, files[k].name);
				rc = read_file(m, dev, op, (uint32_t)k, path, diag, e);
				free(path);
			}
			free_ents(files, nf);
			pt_model_stat_add(m, (int32_t)dev, "hccl.operators", 1);
		}
		free(opdir);
	}
	free_ents(ops, nops);
	return rc;
}

int pt_import_ascend_hccl(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
			  struct pt_diag *diag, struct pt_err **e)
{
	return pt_numbered_read_all(m, in, o->ascend.device, "HCCL directory", pt_hccl_read_dir, diag, e);
}
