/*
 * Shared body of the libFuzzer targets (tests/fuzz/README.md).
 *
 * An importer target defines FZ_COMPANION (a directory under testdata/ whose
 * files form the rest of the job, or NULL) and FZ_NAMES (the file names the
 * fuzzed bytes may take, relative to the job directory). With more than one
 * name, the first input byte chooses the name and the rest is the content.
 * Once per process the companion directory is copied into a fresh temporary
 * job directory; per input the chosen file is written, the job is imported
 * with pt_import() exactly as `proftool import` does, and the file's
 * companion content is put back (PT_FUZZ_COMPANION may name another
 * companion directory). A successful import is then dumped, written
 * as a .ptm to memory, read back and indexed, so that hostile values reach
 * everything downstream of the importer.
 */
#ifndef PT_FUZZ_COMMON_H
#define PT_FUZZ_COMMON_H
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/export.h"
#include "import/registry.h"
#include "model/dump.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/pass-summary.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/out.h"

#ifndef PT_SRC_DIR
#error "PT_SRC_DIR must name the source tree"
#endif

static void fz_die(const char *what)
{
	perror(what);
	abort();
}

static void fz_write_file(const char *path, const uint8_t *d, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fz_die(path);
	while (n) {
		ssize_t w = write(fd, d, n);
		if (w <= 0)
			fz_die(path);
		d += w;
		n -= (size_t)w;
	}
	close(fd);
}

static uint8_t *fz_read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	uint8_t *b = malloc(cap);
	size_t r;
	while ((r = fread(b + len, 1, cap - len, f)) > 0) {
		len += r;
		if (len == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	*n = len;
	return b;
}

/* Copy directory src into dst (recursively, regular files only). */
static void fz_copy_tree(const char *src, const char *dst)
{
	DIR *d = opendir(src);
	if (!d)
		fz_die(src);
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char s[4096], t[4096];
		snprintf(s, sizeof(s), "%s/%s", src, de->d_name);
		snprintf(t, sizeof(t), "%s/%s", dst, de->d_name);
		struct stat st;
		if (stat(s, &st))
			fz_die(s);
		if (S_ISDIR(st.st_mode)) {
			mkdir(t, 0755);
			fz_copy_tree(s, t);
		} else if (S_ISREG(st.st_mode)) {
			size_t n;
			uint8_t *b = fz_read_file(s, &n);
			if (!b)
				fz_die(s);
			fz_write_file(t, b, n);
			free(b);
		}
	}
	closedir(d);
}

static void fz_rm_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			char s[4096];
			snprintf(s, sizeof(s), "%s/%s", path, de->d_name);
			fz_rm_tree(s);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static char fz_dir[4096];

static void fz_cleanup(void)
{
	if (fz_dir[0])
		fz_rm_tree(fz_dir);
}

/* A fresh temporary directory, removed at exit. */
static const char *fz_tmpdir(void)
{
	if (!fz_dir[0]) {
		const char *base = getenv("TMPDIR");
		if (!base || !*base)
			base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
		snprintf(fz_dir, sizeof(fz_dir), "%s/pt-fuzz.XXXXXX", base);
		if (!mkdtemp(fz_dir))
			fz_die(fz_dir);
		atexit(fz_cleanup);
	}
	return fz_dir;
}

/* Everything downstream of a model: dump, .ptm round trip, index. */
static void fz_exercise_model(const struct pt_model *m, bool roundtrip)
{
	struct pt_out o;
	int fd = open("/dev/null", O_WRONLY);
	pt_out_init_fd(&o, fd, "null");
	pt_model_dump(m, &o);
	struct pt_err *e = NULL;
	pt_out_flush(&o, &e);
	pt_err_free(e);
	e = NULL;
	pt_out_abort(&o);
	close(fd);

	if (roundtrip) {
		int mfd = memfd_create("fuzz.ptm", 0);
		if (mfd < 0)
			fz_die("memfd_create");
		pt_out_init_fd(&o, mfd, "fuzz.ptm");
		int rc = pt_ptm_write(m, &o, false, 1, &e);
		if (!rc)
			rc = pt_out_flush(&o, &e);
		if (rc) {
			fprintf(stderr, "fuzz: cannot write the model back\n");
			abort();
		}
		pt_out_abort(&o);
		lseek(mfd, 0, SEEK_SET);
		struct pt_model *m2 = NULL;
		if (pt_ptm_read_fd(mfd, "fuzz.ptm", &m2, &e)) {
			char *s = pt_err_str(e);
			fprintf(stderr, "fuzz: a model just written does not read back: %s\n", s);
			abort();
		}
		pt_model_free(m2);
		close(mfd);
	}

	struct pt_index *x = pt_index_new(m);
	for (uint32_t d = 0; d < m->devices.n; d++) {
		struct pt_breakdown b;
		pt_index_comp(x, d);
		pt_index_comm(x, d);
		pt_index_breakdown(x, d, INT64_MIN / 2, INT64_MAX / 2, &b);
	}
	for (uint32_t t = 0; t < m->tracks.n; t++) {
		size_t n;
		pt_index_track_events(x, t, &n);
	}
	pt_index_free(x);
}

#ifndef FZ_PTM
static const char *const fz_names[] = { FZ_NAMES };
#define FZ_NNAMES (sizeof(fz_names) / sizeof(fz_names[0]))
static uint8_t *fz_orig[FZ_NNAMES];
static size_t fz_orig_n[FZ_NNAMES];
static char fz_job[4096];

static void fz_init(void)
{
	snprintf(fz_job, sizeof(fz_job), "%s/job", fz_tmpdir());
	mkdir(fz_job, 0755);
	/* PT_FUZZ_COMPANION (set by tests/fuzz/run to a small generated job)
	 * overrides the compiled-in testdata directory */
	const char *comp = FZ_COMPANION;
	const char *env = getenv("PT_FUZZ_COMPANION");
	if (comp && env && *env) {
		fz_copy_tree(env, fz_job);
	} else if (comp) {
		char s[4096];
		snprintf(s, sizeof(s), "%s/%s", PT_SRC_DIR, comp);
		fz_copy_tree(s, fz_job);
	}
	for (size_t i = 0; i < FZ_NNAMES; i++) {
		char p[4096];
		snprintf(p, sizeof(p), "%s/%s", fz_job, fz_names[i]);
		/* a name in subdirectories (data/..., hccl_info_0/op/...) the companion may lack */
		for (char *slash = strchr(p + strlen(fz_job) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = 0;
			mkdir(p, 0755);
			*slash = '/';
		}
		fz_orig[i] = fz_read_file(p, &fz_orig_n[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fz_job[0])
		fz_init();
	size_t k = 0;
	if (FZ_NNAMES > 1) {
		if (!size)
			return 0;
		k = data[0] % FZ_NNAMES;
		data++;
		size--;
	}
	char p[4096];
	snprintf(p, sizeof(p), "%s/%s", fz_job, fz_names[k]);
	fz_write_file(p, data, size);

	struct pt_import_opts o;
	pt_import_opts_init(&o);
	struct pt_model *m = pt_model_new();
	struct pt_diag diag = { 0 };
	struct pt_err *e = NULL;
	const char *paths[] = { fz_job };
	int rc = pt_import(m, paths, 1, &o, &diag, &e);
	if (rc == 0)
		fz_exercise_model(m, true);
	if (e) {
		char *s = pt_err_str(e);
		free(s);
	}
	pt_err_free(e);
	pt_diag_free(&diag);
	pt_model_free(m);

	if (fz_orig[k])
		fz_write_file(p, fz_orig[k], fz_orig_n[k]);
	else
		unlink(p);
	return 0;
}
#else
/* The default summary of a model as text, into a memory file; returns that file. */
static int fz_summary_text(const struct pt_summary *s)
{
	int fd = memfd_create("summary.txt", 0);
	if (fd < 0)
		fz_die("memfd_create");
	struct pt_out o;
	struct pt_err *e = NULL;
	pt_out_init_fd(&o, fd, "summary.txt");
	{
		struct pt_export_opts tx = { PT_FMT_TABLE, PT_TU_DEFAULT, true, 0 };
		size_t nt;
		struct pt_table **tv = pt_summary_tables(s, true, &nt);
		pt_export_text(&o, tv, nt, &tx);
		free(tv);
	}
	if (pt_out_flush(&o, &e))
		fz_die("summary text");
	pt_out_abort(&o);
	return fd;
}

static bool fz_same_file(int a, int b)
{
	off_t na = lseek(a, 0, SEEK_END), nb = lseek(b, 0, SEEK_END);
	if (na != nb)
		return false;
	char *pa = na ? mmap(NULL, (size_t)na, PROT_READ, MAP_PRIVATE, a, 0) : NULL;
	char *pb = nb ? mmap(NULL, (size_t)nb, PROT_READ, MAP_PRIVATE, b, 0) : NULL;
	bool same = !na || memcmp(pa, pb, (size_t)na) == 0;
	if (na) {
		munmap(pa, (size_t)na);
		munmap(pb, (size_t)nb);
	}
	return same;
}

/* s (freed here) must be what the in-memory summary of m prints. */
static void fz_same_summary(struct pt_summary *s, const struct pt_model *m, const struct pt_summary_opts *o,
			    const char *what)
{
	struct pt_err *e = NULL;
	struct pt_index *x = pt_index_new(m);
	struct pt_summary w;
	if (pt_pass_summary(m, x, o, &w, &e))
		fz_die("summary");
	int a = fz_summary_text(s), b = fz_summary_text(&w);
	if (!fz_same_file(a, b)) {
		fprintf(stderr, "fuzz: %s differs from the in-memory summary\n", what);
		abort();
	}
	close(a);
	close(b);
	pt_summary_free(s);
	pt_summary_free(&w);
	pt_index_free(x);
}

/*
 * The streaming summary of the same bytes (pass-summary.h): it may only
 * succeed where the full read did, and then must print what the in-memory
 * summary prints.
 */
static void fz_stream_summary(int fd, const struct pt_model *m)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	struct pt_summary s;
	bool streamed = false;
	struct pt_model *whole = NULL; /* only for standard input */
	struct pt_err *e = NULL;
	if (pt_summary_stream_file(PT_PTM_SOURCE(path), &o, &s, &streamed, &whole, &e) || !streamed) {
		pt_err_free(e);
		pt_model_free(whole);
		return;
	}
	if (!m) {
		fprintf(stderr, "fuzz: the streaming summary read a model that does not read\n");
		abort();
	}
	fz_same_summary(&s, m, &o, "the streaming summary");
}

/*
 * The same from standard input (summary -), which is read once: a summary
 * there may only succeed where the full read did; streamed, it prints what
 * the in-memory summary prints, and a model handed back whole summarises as
 * the full read's model does.
 */
static void fz_stream_summary_pipe(int fd, const struct pt_model *m)
{
	int saved = dup(0);
	if (saved < 0 || lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, 0) != 0)
		fz_die("dup2");
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	struct pt_summary s;
	bool streamed = false;
	struct pt_model *whole = NULL;
	struct pt_err *e = NULL;
	int rc = pt_summary_stream_file(PT_PTM_SOURCE("-"), &o, &s, &streamed, &whole, &e);
	if (dup2(saved, 0) != 0)
		fz_die("dup2");
	close(saved);
	if (rc) {
		pt_err_free(e);
		return;
	}
	if (!m || (!streamed && !whole)) {
		fprintf(stderr, "fuzz: the summary of standard input read a model that does not read, or gave nothing\n");
		abort();
	}
	if (whole) { /* what the caller would summarise in memory */
		struct pt_index *y = pt_index_new(whole);
		if (pt_pass_summary(whole, y, &o, &s, &e))
			fz_die("summary of the whole model");
		pt_index_free(y);
	}
	fz_same_summary(&s, m, &o, "the summary of standard input");
	pt_model_free(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.ptm", 0);
	if (fd < 0)
		fz_die("memfd_create");
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0)
			fz_die("write");
		off += (size_t)w;
	}
	lseek(fd, 0, SEEK_SET);
	struct pt_model *m = NULL;
	struct pt_err *e = NULL;
	if (!pt_ptm_read_fd(fd, "fuzz.ptm", &m, &e)) {
		fz_exercise_model(m, true);
	} else {
		char *s = pt_err_str(e);
		free(s);
	}
	pt_err_free(e);
	fz_stream_summary(fd, m);
	fz_stream_summary_pipe(fd, m);
	pt_model_free(m);
	close(fd);
	return 0;
}
#endif

#endif
