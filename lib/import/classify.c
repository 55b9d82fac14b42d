/* The path classifier: one walk of the import PATHs, one rule per format (see classify.h). */
#include "import/classify.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cupti/cdump.h"
#include "import/ascend.h"
#include "import/import-ascend-hccl.h"
#include "import/import-ascend-memory.h"
#include "import/import-kineto.h"
#include "import/import-minddata.h"
#include "import/import-msgpu.h"
#include "import/input.h"
#include "import/registry.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/sort.h"
#include "support/xalloc.h"

/* ---- directories ---------------------------------------------------------------------------- */

void pt_dir_read(const char *dir, struct pt_dir *d)
{
	memset(d, 0, sizeof(*d));
	d->path = pt_xstrdup(dir);
	DIR *h = opendir(dir);
	if (!h) {
		d->err = errno ? errno : EIO;
		return;
	}
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(h))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		pt_xgrow((void **)&d->v, &cap, d->n + 1, sizeof(*d->v));
		d->v[d->n++] = (struct pt_dir_entry){ pt_xstrdup(de->d_name), false, false, NULL };
	}
	closedir(h);
}

void pt_dir_free(struct pt_dir *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	free(d->v);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

const char *pt_dir_entry_what(struct pt_dir *d, size_t i, bool *is_dir)
{
	struct pt_dir_entry *x = &d->v[i];
	if (!x->statted) {
		char *full = pt_xasprintf("%s/%s", d->path, x->name);
		x->what = pt_input_what(full, &x->is_dir);
		x->statted = true;
		free(full);
	}
	if (is_dir)
		*is_dir = x->is_dir;
	return x->what;
}

/* ---- the walk -------------------------------------------------------------------------------- */

struct walk_stat {
	char *path;
	int err; /* errno of its stat, 0 when it worked */
	mode_t mode;
};

struct pt_walk {
	const char *const *paths;
	int npaths;
	struct walk_stat *st; /* every path stat'ed, the PATHs first */
	size_t nst, capst;
	struct pt_dir **dirs; /* every directory read */
	size_t ndirs, capdirs;
};

static const struct walk_stat *walk_stat(struct pt_walk *w, const char *path)
{
	for (size_t i = 0; i < w->nst; i++)
		if (!strcmp(w->st[i].path, path))
			return &w->st[i];
	struct stat st;
	struct walk_stat s = { pt_xstrdup(path), 0, 0 };
	if (stat(path, &st))
		s.err = errno ? errno : EIO;
	else
		s.mode = st.st_mode;
	pt_xgrow((void **)&w->st, &w->capst, w->nst + 1, sizeof(*w->st));
	w->st[w->nst] = s;
	return &w->st[w->nst++];
}

/* stat(path) worked (else errno in *err) and says a directory / a regular file */
static bool walk_is_dir(struct pt_walk *w, const char *path)
{
	const struct walk_stat *s = walk_stat(w, path);
	return !s->err && S_ISDIR(s->mode);
}

struct pt_dir *pt_walk_list(struct pt_walk *w, const char *dir)
{
	for (size_t i = 0; i < w->ndirs; i++)
		if (!strcmp(w->dirs[i]->path, dir))
			return w->dirs[i];
	struct pt_dir *d = pt_xmalloc(sizeof(*d));
	pt_dir_read(dir, d);
	pt_xgrow((void **)&w->dirs, &w->capdirs, w->ndirs + 1, sizeof(*w->dirs));
	w->dirs[w->ndirs++] = d;
	return d;
}

struct pt_walk *pt_walk_new(const char *const *paths, int npaths)
{
	struct pt_walk *w = pt_xcalloc(1, sizeof(*w));
	w->paths = paths;
	w->npaths = npaths;
	for (int i = 0; i < npaths; i++)
		if (walk_is_dir(w, paths[i]))
			pt_walk_list(w, paths[i]);
	return w;
}

void pt_walk_free(struct pt_walk *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nst; i++)
		free(w->st[i].path);
	free(w->st);
	for (size_t i = 0; i < w->ndirs; i++) {
		pt_dir_free(w->dirs[i]);
		free(w->dirs[i]);
	}
	free(w->dirs);
	free(w);
}

void pt_inputs_free(struct pt_inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->v[i].path);
		free(in->v[i].dir);
	}
	free(in->v);
	memset(in, 0, sizeof(*in));
}

static struct pt_input *add(struct pt_inputs *out, char *path)
{
	pt_xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
	struct pt_input *x = &out->v[out->n++];
	memset(x, 0, sizeof(*x));
	x->path = path;
	x->slice = -1;
	return x;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir + "/" + name, without doubling a '/' that ends dir */
static char *join(const char *dir, const char *name)
{
	size_t l = strlen(dir);
	return pt_xasprintf("%s%s%s", dir, l && dir[l - 1] == '/' ? "" : "/", name);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- Ascend job directories (ascend.md §1) ------------------------------------------------------ */

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static void ascend_add(struct pt_inputs *out, const char *dir, const char *name, int depth, uint32_t path_index,
		       const char *want_job, struct pt_diag *diag)
{
	enum pt_ascend_kind kind;
	bool preferred;
	int backend;
	if (!pt_ascend_name_kind(name, &kind, &preferred, &backend))
		return;
	int64_t slice, device;
	char *jobid;
	pt_ascend_name_suffix(name, &slice, &device, &jobid);
	char *path = dir ? pt_xasprintf("%s/%s", dir, name) : pt_xstrdup(name);
	if (want_job && (!jobid || strcmp(jobid, want_job))) {
		free(jobid);
		free(path);
		return;
	}
	free(jobid);
	if (device < 0 || device > UINT32_MAX) {
		pt_diag_warn(diag, path, "assumed device 0 for files without a device id", PT_POS_NONE, 0);
		device = 0;
	}
	struct pt_input *c = add(out, path);
	c->kind = kind;
	c->number = (uint32_t)device;
	c->slice = slice;
	c->preferred = preferred;
	c->backend = backend;
	c->depth = depth;
	c->dir = pt_xstrdup(dir ? dir : ".");
	c->path_index = path_index;
}

/* The sorted names of dir's regular files (or directories), the dot files left out. A file named as an
 * Ascend input that is not a regular file is skipped with a warning. */
static int ascend_list(struct pt_walk *w, const char *dir, bool want_dirs, char ***names, size_t *n,
		       struct pt_diag *diag, struct pt_err **e)
{
	struct pt_dir *d = pt_walk_list(w, dir);
	if (d->err)
		return pt_err_errno(e, d->err, "cannot open directory '%s'", dir);
	char **v = NULL;
	size_t k = 0, cap = 0;
	for (size_t i = 0; i < d->n; i++) {
		const char *name = d->v[i].name;
		if (name[0] == '.')
			continue;
		bool is_dir;
		const char *what = pt_dir_entry_what(d, i, &is_dir);
		bool ok = want_dirs ? is_dir : !what;
		enum pt_ascend_kind kind;
		bool preferred;
		int backend;
		if (!ok && !want_dirs && pt_ascend_name_kind(name, &kind, &preferred, &backend)) {
			char *p = pt_xasprintf("%s/%s", dir, name);
			pt_input_skip(diag, p, what);
			free(p);
		}
		if (!ok)
			continue;
		pt_xgrow((void **)&v, &cap, k + 1, sizeof(*v));
		v[k++] = pt_xstrdup(name);
	}
	pt_sort(v, k, sizeof(*v), cmp_str);
	*names = v;
	*n = k;
	return 0;
}

static int ascend_dir(struct pt_walk *w, struct pt_inputs *out, const char *dir, int depth, uint32_t pi,
		      const char *want_job, struct pt_diag *diag, struct pt_err **e)
{
	char **names;
	size_t n;
	if (ascend_list(w, dir, false, &names, &n, diag, e))
		return -1;
	for (size_t i = 0; i < n; i++)
		ascend_add(out, dir, names[i], depth, pi, want_job, diag);
	free_names(names, n);
	return 0;
}

/* A container directory: <dev>/data/Framework.host.*.<dev>.<JOBID>.slice_<n>. */
static int ascend_container(struct pt_walk *w, struct pt_inputs *out, const char *dir, uint32_t pi,
			    const char *want_job, struct pt_diag *diag, struct pt_err **e)
{
	char **subs;
	size_t n;
	if (ascend_list(w, dir, true, &subs, &n, diag, e))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!all_digits(subs[i], strlen(subs[i])))
			continue;
		char *data = pt_xasprintf("%s/%s/data", dir, subs[i]);
		rc = walk_is_dir(w, data) ? ascend_dir(w, out, data, 2, pi, want_job, diag, e) : 0;
		free(data);
	}
	free_names(subs, n);
	return rc;
}

static int ascend_path(struct pt_walk *w, struct pt_inputs *out, const char *path, uint32_t pi,
		       struct pt_diag *diag, struct pt_err **e)
{
	const struct walk_stat *s = walk_stat(w, path);
	if (s->err)
		return pt_err_errno(e, s->err, "cannot open '%s'", path);
	if (!S_ISDIR(s->mode)) {
		/* a single file: taken when its name is an Ascend kind's, else left to other importers */
		const char *b = strrchr(path, '/');
		char *dir = b ? pt_xstrndup(path, (size_t)(b - path)) : NULL;
		ascend_add(out, dir ? dir : ".", b ? b + 1 : path, 0, pi, NULL, diag);
		free(dir);
		return 0;
	}
	size_t before = out->n;
	if (ascend_dir(w, out, path, 0, pi, NULL, diag, e))
		return -1;
	char *data = pt_xasprintf("%s/data", path);
	int rc = walk_is_dir(w, data) ? ascend_dir(w, out, data, 1, pi, NULL, diag, e) : 0;
	free(data);
	if (rc)
		return -1;
	/* the path is a container directory itself */
	const char *b = strrchr(path, '/');
	const char *base = b && b[1] ? b + 1 : path;
	if (out->n == before && !strncmp(base, "container", 9))
		return ascend_container(w, out, path, pi, NULL, diag, e);
	/* container/<dev>/data beside the job directory holds its framework files */
	char *cont = pt_xasprintf("%s/../container", path);
	rc = 0;
	if (walk_is_dir(w, cont)) {
		char *job = pt_xstrdup(base);
		size_t l = strlen(job);
		while (l > 0 && job[l - 1] == '/')
			job[--l] = 0;
		rc = ascend_container(w, out, cont, pi, job, diag, e);
		free(job);
	}
	free(cont);
	return rc;
}

int pt_classify_ascend(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		       struct pt_diag *diag, struct pt_err **e)
{
	(void)o;
	for (int i = 0; i < w->npaths; i++)
		if (ascend_path(w, out, w->paths[i], (uint32_t)i, diag, e))
			return -1;
	return 0;
}

/* ---- inputs numbered by rank: hccl_info_<d>/, memory_usage_<d>.pb, MindData files --------------- */

/* Add path unless an input of the same kind and number is already there (then: warn dup). */
static void add_numbered(struct pt_inputs *out, const char *path, int kind, uint32_t number, const char *dup,
			 struct pt_diag *diag)
{
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].kind == kind && out->v[i].number == number) {
			pt_diag_warn(diag, path, dup, PT_POS_NONE, 0);
			return;
		}
	struct pt_input *x = add(out, pt_xstrdup(path));
	x->kind = kind;
	x->number = number;
}

#define DUP_HCCL "skipped an HCCL directory of a rank already found elsewhere"

/* PATH itself named hccl_info_<d>, or its entries so named. */
static int hccl_path(struct pt_walk *w, struct pt_inputs *out, const char *path, struct pt_diag *diag,
		     struct pt_err **e)
{
	if (!walk_is_dir(w, path))
		return 0;
	uint32_t num = 0;
	size_t pl = strlen(path);
	while (pl > 1 && path[pl - 1] == '/')
		pl--;
	char *trim = pt_xstrndup(path, pl);
	const char *b = strrchr(trim, '/');
	int self = pt_hccl_dir_number(b ? b + 1 : trim, &num);
	free(trim);
	if (!self) {
		add_numbered(out, path, 0, num, DUP_HCCL, diag);
		return 0;
	}
	struct pt_dir *d = pt_walk_list(w, path);
	if (d->err)
		return pt_err(e, "cannot open directory '%s'", path);
	char **v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < d->n; i++) {
		bool is_dir;
		if (d->v[i].name[0] == '.')
			continue;
		pt_dir_entry_what(d, i, &is_dir);
		if (!is_dir)
			continue;
		pt_xgrow((void **)&v, &cap, n + 1, sizeof(*v));
		v[n++] = d->v[i].name;
	}
	pt_sort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++)
		if (!pt_hccl_dir_number(v[i], &num)) {
			char *full = join(path, v[i]);
			add_numbered(out, full, 0, num, DUP_HCCL, diag);
			free(full);
		}
	free(v);
	return 0;
}

int pt_classify_hccl(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		     struct pt_diag *diag, struct pt_err **e)
{
	if (o->minddata_dir && hccl_path(w, out, o->minddata_dir, diag, e))
		return -1;
	for (int i = 0; i < w->npaths; i++)
		if (strcmp(w->paths[i], "-") && hccl_path(w, out, w->paths[i], diag, e))
			return -1;
	return 0;
}

/* The kind and number of a file by its base name, or -1. */
typedef int (*numbered_name_fn)(const char *base, uint32_t *number);

static int cmp_named(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b); /* the name is the first member */
}

/* A file PATH so named, or the entries of a directory PATH so named (in name order). */
static int numbered_path(struct pt_walk *w, struct pt_inputs *out, const char *path, numbered_name_fn kind_of,
			 const char *dup, struct pt_diag *diag, struct pt_err **e)
{
	const struct walk_stat *s = walk_stat(w, path);
	if (s->err)
		return 0; /* other importers report paths that do not exist */
	uint32_t num;
	if (!S_ISDIR(s->mode)) {
		const char *b = strrchr(path, '/');
		int k = kind_of(b ? b + 1 : path, &num);
		if (k >= 0)
			add_numbered(out, path, k, num, dup, diag);
		return 0;
	}
	struct pt_dir *d = pt_walk_list(w, path);
	if (d->err)
		return pt_err(e, "cannot open directory '%s'", path);
	struct named { const char *name; size_t at; } *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (kind_of(d->v[i].name, &num) < 0)
			continue;
		pt_xgrow((void **)&v, &cap, n + 1, sizeof(*v));
		v[n++] = (struct named){ d->v[i].name, i };
	}
	pt_sort(v, n, sizeof(*v), cmp_named); /* deterministic order */
	for (size_t i = 0; i < n; i++) {
		char *full = join(path, v[i].name);
		int k = kind_of(v[i].name, &num);
		const char *what = pt_dir_entry_what(d, v[i].at, NULL);
		if (!what)
			add_numbered(out, full, k, num, dup, diag);
		else
			pt_input_skip(diag, full, what);
		free(full);
	}
	free(v);
	return 0;
}

static int memory_kind_of(const char *base, uint32_t *number)
{
	return pt_memory_file_number(base, number) ? -1 : 0;
}

int pt_classify_memory(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		       struct pt_diag *diag, struct pt_err **e)
{
	static const char dup[] = "skipped a memory file already found elsewhere";
	if (o->minddata_dir && walk_is_dir(w, o->minddata_dir) &&
	    numbered_path(w, out, o->minddata_dir, memory_kind_of, dup, diag, e))
		return -1;
	for (int i = 0; i < w->npaths; i++)
		if (strcmp(w->paths[i], "-") && numbered_path(w, out, w->paths[i], memory_kind_of, dup, diag, e))
			return -1;
	return 0;
}

/* MindSpore GPU profiler files (import-msgpu.h): depth 1 marks those listed in a directory PATH,
 * which must hold the run's start_time_<d>.txt beside them. */
int pt_classify_msgpu(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		      struct pt_diag *diag, struct pt_err **e)
{
	(void)o;
	static const char dup[] = "skipped a MindSpore GPU profiler file already found elsewhere";
	for (int i = 0; i < w->npaths; i++) {
		if (!strcmp(w->paths[i], "-"))
			continue;
		size_t before = out->n;
		if (numbered_path(w, out, w->paths[i], pt_msgpu_kind_of, dup, diag, e))
			return -1;
		int depth = walk_is_dir(w, w->paths[i]) ? 1 : 0;
		for (size_t j = before; j < out->n; j++)
			out->v[j].depth = depth;
	}
	return 0;
}

int pt_classify_minddata(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
			 struct pt_diag *diag, struct pt_err **e)
{
	static const char dup[] = "skipped a MindData file already found elsewhere";
	if (o->minddata_dir) {
		if (!walk_is_dir(w, o->minddata_dir))
			return pt_err(e, "--minddata: '%s' is not a directory", o->minddata_dir);
		if (numbered_path(w, out, o->minddata_dir, pt_md_kind_of, dup, diag, e))
			return -1;
	}
	for (int i = 0; i < w->npaths; i++)
		if (strcmp(w->paths[i], "-") && numbered_path(w, out, w->paths[i], pt_md_kind_of, dup, diag, e))
			return -1;
	return 0;
}

/* ---- files recognised by content: CUPTI dumps, Kineto traces ------------------------------------ */

static bool cdump_magic(const char *path)
{
	int fd;
	uint64_t size;
	if (pt_input_open(path, &fd, &size, NULL))
		return false;
	char b[8];
	ssize_t n = read(fd, b, 8);
	close(fd);
	return n == 8 && !memcmp(b, PT_CDUMP_MAGIC, 8);
}

/* What a content rule makes of a directory entry it names its own. */
enum take { TAKE_NOT, TAKE_FILE, TAKE_SKIP };

struct content_rule {
	bool (*file)(const char *path); /* a regular file PATH: is it one? */
	bool (*named)(const char *name); /* a directory entry: is it named like one? */
	/* such an entry (full path, what: pt_input_what's): one, one that is not a regular file (warned of), none */
	enum take (*take)(const char *full, const char *name, const char *what);
};

/*
 * The files of one format under each PATH, in PATH order: a regular file PATH
 * that r->file accepts; in a directory PATH, the entries r->take accepts, in
 * name order, after those it keeps to be warned of (`skip` set, in listing
 * order). Directories that cannot be listed hold nothing of these formats.
 */
static void content_rule(struct pt_walk *w, struct pt_inputs *out, const struct content_rule *r)
{
	for (int i = 0; i < w->npaths; i++) {
		const char *p = w->paths[i];
		if (!strcmp(p, "-"))
			continue;
		const struct walk_stat *s = walk_stat(w, p);
		if (s->err)
			continue;
		if (S_ISREG(s->mode)) {
			if (r->file(p)) {
				struct pt_input *x = add(out, pt_xstrdup(p));
				x->path_index = (uint32_t)i;
				x->named = w->npaths == 1; /* among several the failing one must be named */
			}
			continue;
		}
		if (!S_ISDIR(s->mode))
			continue;
		struct pt_dir *d = pt_walk_list(w, p);
		char **names = NULL;
		size_t n = 0, cap = 0;
		for (size_t j = 0; j < d->n; j++) {
			const char *name = d->v[j].name;
			if (!r->named(name))
				continue;
			char *full = pt_xasprintf("%s/%s", p, name);
			const char *what = pt_dir_entry_what(d, j, NULL);
			switch (r->take(full, name, what)) {
			case TAKE_FILE:
				pt_xgrow((void **)&names, &cap, n + 1, sizeof(*names));
				names[n++] = full;
				break;
			case TAKE_SKIP: {
				struct pt_input *x = add(out, full);
				x->skip = what;
				x->path_index = (uint32_t)i;
				break;
			}
			default:
				free(full);
				break;
			}
		}
		pt_sort(names, n, sizeof(*names), cmp_str);
		for (size_t j = 0; j < n; j++)
			add(out, names[j])->path_index = (uint32_t)i;
		free(names);
	}
}

static bool cupti_file(const char *path)
{
	return ends_with(path, ".cdump") || cdump_magic(path);
}

static bool cupti_named(const char *name)
{
	return ends_with(name, ".cdump");
}

static enum take cupti_take(const char *full, const char *name, const char *what)
{
	(void)full, (void)name;
	return what ? TAKE_SKIP : TAKE_FILE; /* a FIFO would block the open for ever */
}

int pt_classify_cupti(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		      struct pt_diag *diag, struct pt_err **e)
{
	(void)o, (void)diag, (void)e;
	static const struct content_rule r = { cupti_file, cupti_named, cupti_take };
	content_rule(w, out, &r);
	return 0;
}

static bool kineto_named(const char *name)
{
	return name[0] != '.' && (ends_with(name, ".json") || ends_with(name, ".json.gz"));
}

static enum take kineto_take(const char *full, const char *name, const char *what)
{
	if (!what && pt_kineto_sniff_file(full))
		return TAKE_FILE;
	/* other importers also list *.json: only a trace's own name is ours to warn of */
	if (what && (ends_with(name, ".pt.trace.json") || ends_with(name, ".pt.trace.json.gz")))
		return TAKE_SKIP;
	return TAKE_NOT;
}

int pt_classify_kineto(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		       struct pt_diag *diag, struct pt_err **e)
{
	(void)o, (void)diag, (void)e;
	static const struct content_rule r = { pt_kineto_sniff_file, kineto_named, kineto_take };
	content_rule(w, out, &r);
	return 0;
}

static bool nsys_named(const char *name)
{
	return name[0] != '.' && ends_with(name, ".sqlite");
}

static enum take nsys_take(const char *full, const char *name, const char *what)
{
	(void)name;
	return what ? TAKE_SKIP : pt_nsys_sniff_file(full) ? TAKE_FILE : TAKE_NOT;
}

/* Nsight Systems / nvprof SQLite exports: an SQLite file PATH, or the *.sqlite SQLite files of a
 * directory PATH (depth 1: the importer skips another program's database there with a warning). */
int pt_classify_nsys(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		     struct pt_diag *diag, struct pt_err **e)
{
	(void)o, (void)diag, (void)e;
	static const struct content_rule r = { pt_nsys_sniff_file, nsys_named, nsys_take };
	size_t before = out->n;
	content_rule(w, out, &r);
	for (size_t j = before; j < out->n; j++)
		out->v[j].depth = strcmp(out->v[j].path, w->paths[out->v[j].path_index]) ? 1 : 0;
	return 0;
}
