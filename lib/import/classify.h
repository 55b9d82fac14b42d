/*
 * The path classifier: the one place that looks at the import PATHs.
 *
 * pt_import() walks each PATH once (pt_walk_new: a stat of the PATH and, for
 * a directory, one read of its entries); every directory any rule looks into
 * (PATH/data, a container's <dev>/data, ...) is read at most once through
 * pt_walk_list, and an entry's stat is made at most once. Then, at each
 * importer's turn, that importer's rule (one function per format, below)
 * picks its files from the walk, by name or by content where the format
 * needs it, into a struct pt_inputs, and the importer reads what it is given:
 * no importer lists a directory itself.
 *
 * A rule reports what its format always reported while finding files (a
 * PATH that cannot be listed, a file of an already found rank, ...). An entry
 * named like an input of the format that is not a regular file (a FIFO, a
 * dangling link) is either warned of at once or, for the formats that read as
 * they find (CUPTI, Kineto), kept in the list with `skip` set, and the
 * importer warns of it in turn: the warnings keep their order.
 *
 * Adding an input format = its importer (one file), one rule here and one row
 * in registry.c.
 */
#ifndef PT_IMPORT_CLASSIFY_H
#define PT_IMPORT_CLASSIFY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_diag;
struct pt_err;
struct pt_import_opts;

/* One directory's entries, in the order the system lists them ("." and ".." left out). */
struct pt_dir {
	char *path;  /* as first asked for */
	int err;     /* errno when it could not be opened (then n = 0), else 0 */
	struct pt_dir_entry {
		char *name;
		bool statted;     /* `what` and `is_dir` are known */
		bool is_dir;      /* stat (following links) says a directory */
		const char *what; /* NULL: a regular file, else what it is (pt_input_not_regular) */
	} *v;
	size_t n;
};

/* Read dir's entries into *d (d->err set when it cannot be opened). For readers that walk below a
 * found input (an HCCL directory's operator directories). */
void pt_dir_read(const char *dir, struct pt_dir *d);
void pt_dir_free(struct pt_dir *d);
/* Entry i of d: NULL when a regular file, else what it is; *is_dir (may be NULL) when a directory. */
const char *pt_dir_entry_what(struct pt_dir *d, size_t i, bool *is_dir);

/* The PATHs of one import, each looked at once. */
struct pt_walk;

struct pt_walk *pt_walk_new(const char *const *paths, int npaths);
void pt_walk_free(struct pt_walk *w);
/* The listing of directory `dir` (read on first use, then kept). */
struct pt_dir *pt_walk_list(struct pt_walk *w, const char *dir);

/* One input file (or directory: HCCL) a rule found for its importer. */
struct pt_input {
	char *path;          /* as messages name it */
	const char *skip;    /* not NULL: named like an input but not a regular file (what it is): warn, read nothing */
	char *dir;           /* Ascend: the directory it was found in */
	uint32_t path_index; /* which PATH it came from */
	int kind;            /* the format's own kind (enum pt_ascend_kind, enum pt_md_kind), else 0 */
	uint32_t number;     /* the device or rank number its name carries */
	int64_t slice;       /* Ascend: n of ".slice_<n>", -1 without */
	int depth;           /* Ascend: 0 in the job directory, 1 in its data/, 2 in a container's data/ */
	int backend;         /* Ascend framework text: 1 vm, 2 ge; 3 a binary-era "Framework.vm.*" text file */
	bool preferred;      /* Ascend: the newer of a kind's two names */
	bool named;          /* the only PATH names this file itself: its errors need not name it again */
};

struct pt_inputs {
	struct pt_input *v;
	size_t n, cap;
};

void pt_inputs_free(struct pt_inputs *in);

/*
 * A rule: append the inputs of one format found in the walk to *out.
 * 0, or -1 with *e (a PATH that cannot be read where the format requires it).
 */
typedef int (*pt_classify_fn)(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
			      struct pt_diag *diag, struct pt_err **e);

/* The rules (classify.c), one per importer. */
int pt_classify_ascend(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		       struct pt_diag *diag, struct pt_err **e);
int pt_classify_hccl(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		     struct pt_diag *diag, struct pt_err **e);
int pt_classify_cupti(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		      struct pt_diag *diag, struct pt_err **e);
int pt_classify_kineto(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		       struct pt_diag *diag, struct pt_err **e);
int pt_classify_nsys(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		     struct pt_diag *diag, struct pt_err **e);
int pt_classify_msgpu(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		      struct pt_diag *diag, struct pt_err **e);
int pt_classify_minddata(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
			 struct pt_diag *diag, struct pt_err **e);
int pt_classify_memory(struct pt_walk *w, const struct pt_import_opts *o, struct pt_inputs *out,
		       struct pt_diag *diag, struct pt_err **e);

#endif
