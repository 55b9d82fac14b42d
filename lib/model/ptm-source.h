/*
 * A .ptm input for streaming reads (model/ptm.h), handed to a pass that reads
 * it once or more without opening anything itself: a file, which can be read
 * again, or standard input ("-"), which can be read once only, unless
 * pt_ptm_stdin_spool() made it a file that can.
 */
#ifndef PT_PTM_SOURCE_H
#define PT_PTM_SOURCE_H
#include <stdbool.h>

struct pt_model;
struct pt_ptm_sink;
struct pt_err;

/*
 * A tap: a second consumer fed the event batches of the reads another pass
 * makes of the source, instead of reading it again itself (diff --by step:
 * the summary's step figures during the steps' reads). begin() hears of each
 * read before it starts (events_only: the events alone, into the m a first
 * read filled) and says whether it wants the read's batches; then no event
 * column is left undecoded, and batch() sees each batch before the reader's
 * sink does (it cannot stop the read). end() hears how the read ended: 0 when
 * it reached the end of the input, else it stopped early.
 */
struct pt_ptm_tap {
	bool (*begin)(void *arg, struct pt_model *m, bool events_only);
	void (*batch)(void *arg, const struct pt_model *m);
	void (*end)(void *arg, int rc);
	void *arg;
};

struct pt_ptm_tape;

struct pt_ptm_source {
	const char *path;             /* "-": standard input */
	const struct pt_ptm_tap *tap; /* NULL: none */
	struct pt_ptm_tape *tape;     /* NULL, or the reads of a file share it (model/ptm.h): the first keeps
				       * the body, the later ones replay it */
};
/* A source for path, valid in the enclosing block. */
#define PT_PTM_SOURCE(p) (&(const struct pt_ptm_source){ .path = (p) })

/*
 * Make standard input readable again, once per process: a regular file is
 * read again from the offset it stands at now; anything else (a pipe) is
 * copied to an unlinked temporary file in dir (O_TMPFILE, else mkstemp and
 * unlink), which becomes descriptor 0 and is deleted when the process ends:
 * the disk it takes is the model file's size. Returns 1 when it can be read
 * again (*bytes: what was copied, 0 for a regular file), 0 when no file can
 * be made in dir (nothing read: it stays read-once), -1 with *e set when the
 * copy fails (standard input unreadable or dir full: part of it is gone).
 */
int pt_ptm_stdin_spool(const char *dir, unsigned long long *bytes, struct pt_err **e);
/* Can standard input be read again (pt_ptm_stdin_spool() said 1)? */
bool pt_ptm_stdin_again(void);
/* A descriptor of its own at the start of standard input, for one more read
 * (pt_ptm_stdin_again() true; the caller closes it); -1 with errno set. */
int pt_ptm_stdin_open(void);

/*
 * A stand-in: a model file read in place of path, which names it in every
 * message (a raw dump imported into an unlinked temporary model file, cmd/
 * common.c). pt_ptm_standin_file() makes such a file in dir as
 * pt_ptm_stdin_spool() makes its copy (O_TMPFILE, else mkstemp and unlink):
 * a descriptor to write, -1 when none can be made there. Once the model is
 * written to it, pt_ptm_standin_set() hands it over (the process keeps it
 * open until it ends): from then on every read of path (pt_ptm_read, the
 * streaming reads, pt_ptm_probe) reads that model, and path can be read
 * again as a model file can.
 */
int pt_ptm_standin_file(const char *dir);
void pt_ptm_standin_set(const char *path, int fd);
/* Has path a stand-in? */
bool pt_ptm_standin_has(const char *path);
/* A descriptor of its own at the start of path's stand-in (the caller closes it), -1 with errno set
 * when it cannot be opened, -2 when path has none. */
int pt_ptm_standin_open(const char *path);

/* The input's name in messages ("standard input" or the path). */
const char *pt_ptm_source_name(const struct pt_ptm_source *s);
/* Can the input be read only once (a pipe)? */
bool pt_ptm_source_once(const struct pt_ptm_source *s);
/* One streaming read of the input (pt_ptm_read_stream); returns what it returns. */
int pt_ptm_source_read(const struct pt_ptm_source *s, struct pt_model *m, const struct pt_ptm_sink *sink,
		       struct pt_err **e);
/* The same, leaving the event columns of skip_cols (PT_PTM_NO_* bits) undecoded (pt_ptm_read_stream_cols). */
int pt_ptm_source_read_cols(const struct pt_ptm_source *s, struct pt_model *m, const struct pt_ptm_sink *sink,
			    unsigned skip_cols, struct pt_err **e);

#endif
