#include "out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "fmt.h"
#include "progress.h"
#include "xalloc.h"

#define OUT_BUF (256 * 1024)

void pt_out_init_fd(struct pt_out *o, int fd, const char *name)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->name = pt_xstrdup(name);
	o->cap = OUT_BUF;
	o->buf = pt_xmalloc(o->cap);
}

/* ---- temporaries a signal must remove -------------------------------------
 * Every temporary file open in the process is a node of a list that only
 * grows: a node is pushed (with a lock-free push) before its file is created,
 * and only its `live` flag is cleared when the file is renamed or removed.
 * The signal handler walks the list and unlinks the live paths: it reads no
 * memory that is ever freed or rewritten, and calls only unlink, sigaction
 * and raise, which are async-signal-safe. Nodes stay reachable from the list
 * head until exit (a few bytes per output file written). */
struct tmp_node {
	struct tmp_node *next;
	atomic_int live;
	char path[];
};

static _Atomic(struct tmp_node *) tmp_head;

static struct tmp_node *tmp_register(const char *path)
{
	size_t n = strlen(path) + 1;
	struct tmp_node *t = pt_xmalloc(sizeof(*t) + n);
	memcpy(t->path, path, n);
	atomic_init(&t->live, 1);
	t->next = atomic_load(&tmp_head);
	while (!atomic_compare_exchange_weak(&tmp_head, &t->next, t))
		;
	return t;
}

static void tmp_unregister(struct tmp_node *t)
{
	if (t)
		atomic_store(&t->live, 0);
}

static bool tmp_is_live(const char *path)
{
	for (struct tmp_node *t = atomic_load(&tmp_head); t; t = t->next)
		if (atomic_load(&t->live) && !strcmp(t->path, path))
			return true;
	return false;
}

void pt_out_remove_temporaries(void)
{
	for (struct tmp_node *t = atomic_load(&tmp_head); t; t = t->next)
		if (atomic_load(&t->live))
			unlink(t->path);
}

static void (*broken_pipe)(void);

void pt_out_on_broken_pipe(void (*handler)(void))
{
	broken_pipe = handler;
}

static void on_fatal_signal(int sig)
{
	int saved = errno;
	pt_out_remove_temporaries();
	/* die of the signal, so that the exit status says which: the default
	 * action is taken once the handler returns and unblocks it */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	raise(sig);
	errno = saved;
}

static const int fatal_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ,
				     SIGVTALRM, SIGPROF };

void pt_out_cleanup_on_signals(void)
{
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		struct sigaction old, sa;
		/* a signal ignored by whoever started us (nohup, a background job) stays ignored */
		if (sigaction(fatal_signals[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		for (size_t j = 0; j < sizeof(fatal_signals) / sizeof(fatal_signals[0]); j++)
			sigaddset(&sa.sa_mask, fatal_signals[j]);
		sa.sa_flags = SA_RESTART;
		sigaction(fatal_signals[i], &sa, NULL);
	}
}

/* Remove "<base>.tmp.<pid>" files beside path that a process which no longer
 * exists left behind (killed with SIGKILL, or by a power cut): kill(pid, 0)
 * fails with ESRCH. Our own pid's name is stale too unless we have it open. */
static void remove_stale_temps(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? pt_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : pt_xstrdup(".");
	const char *base = slash ? slash + 1 : path;
	size_t bl = strlen(base);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		if (strncmp(nm, base, bl) || strncmp(nm + bl, ".tmp.", 5))
			continue;
		const char *p = nm + bl + 5;
		char *end;
		errno = 0;
		long pid = strtol(p, &end, 10);
		if (p[0] < '1' || p[0] > '9' || *end || errno || pid <= 0 || pid > INT_MAX)
			continue;
		char *full = pt_xasprintf("%s/%s", dir, nm);
		struct stat st;
		bool stale = (pid_t)pid == getpid() ? !tmp_is_live(full) : kill((pid_t)pid, 0) < 0 && errno == ESRCH;
		if (stale && !lstat(full, &st) && S_ISREG(st.st_mode))
			unlink(full);
		free(full);
	}
	closedir(d);
	free(dir);
}

/* The file a write to path replaces: path itself, or the end of its chain of
 * symbolic links (which need not exist yet); NULL for a loop of links. */
static char *link_target(const char *path)
{
	char *p = pt_xstrdup(path);
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		if (lstat(p, &st) || !S_ISLNK(st.st_mode))
			return p;
		size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : PATH_MAX;
		char *l = pt_xmalloc(cap + 1);
		ssize_t n = readlink(p, l, cap);
		if (n < 0 || (size_t)n >= cap) {
			free(l);
			return p; /* changed under us: let open() report it */
		}
		l[n] = 0;
		const char *slash = strrchr(p, '/');
		if (l[0] != '/' && slash) {
			char *j = pt_xasprintf("%.*s/%s", (int)(slash - p), p, l);
			free(l);
			l = j;
		}
		free(p);
		p = l;
	}
	free(p);
	return NULL; /* a loop */
}

/* Is p one of our open descriptors named as a file ("/dev/fd/N",
 * "/proc/self/fd/N", "/proc/<our pid>/fd/N")? Its number in *fd. */
static bool fd_name(const char *p, int *fd)
{
	const char *n = NULL;
	char own[48];
	snprintf(own, sizeof(own), "/proc/%ld/fd/", (long)getpid());
	if (!strncmp(p, "/dev/fd/", 8))
		n = p + 8;
	else if (!strncmp(p, "/proc/self/fd/", 14))
		n = p + 14;
	else if (!strncmp(p, own, strlen(own)))
		n = p + strlen(own);
	if (!n || *n < '0' || *n > '9')
		return false;
	char *end;
	errno = 0;
	long v = strtol(n, &end, 10);
	if (*end || errno || v > INT_MAX)
		return false;
	*fd = (int)v;
	return true;
}

/* The descriptor a path names through its chain of symbolic links
 * (/dev/stdout -> /proc/self/fd/1), or -1: what is open there, a regular
 * file included, is written in place, never replaced. */
static int fd_of(const char *path)
{
	char *p = pt_xstrdup(path);
	int fd = -1;
	for (int hops = 0; hops < 40 && fd < 0; hops++) {
		struct stat st;
		if (fd_name(p, &fd))
			break;
		if (lstat(p, &st) || !S_ISLNK(st.st_mode))
			break;
		char l[PATH_MAX];
		ssize_t n = readlink(p, l, sizeof(l) - 1);
		if (n <= 0)
			break;
		l[n] = 0;
		const char *slash = strrchr(p, '/');
		char *j = l[0] != '/' && slash ? pt_xasprintf("%.*s/%s", (int)(slash - p), p, l) : pt_xstrdup(l);
		free(p);
		p = j;
	}
	free(p);
	return fd;
}

/* What path is for writing: standard output, one of our descriptors
 * (/dev/stdout, /dev/fd/N), an existing device, FIFO or socket (written in
 * place, as is whatever such a name or a link to one leads to), a directory
 * (an error), else a file to create. */
enum target { T_STDOUT, T_FD, T_IN_PLACE, T_DIR, T_FILE };

static enum target target_of(const char *path, int *fd)
{
	struct stat st;
	if (!strcmp(path, "-"))
		return T_STDOUT;
	if ((*fd = fd_of(path)) >= 0)
		return T_FD;
	if (stat(path, &st) || S_ISREG(st.st_mode))
		return T_FILE;
	return S_ISDIR(st.st_mode) ? T_DIR : T_IN_PLACE;
}

bool pt_out_is_stream(const char *path)
{
	int fd;
	enum target t = target_of(path, &fd);
	return t == T_STDOUT || t == T_FD || t == T_IN_PLACE;
}

bool pt_out_is_dir(const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	return (n && path[n - 1] == '/') || (!stat(path, &st) && S_ISDIR(st.st_mode));
}

int pt_out_make_dir(const char *path, struct pt_err **e)
{
	struct stat st;
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return 0;
		return pt_err(e, "cannot write into '%s': it is not a directory", path);
	}
	if (errno != ENOENT || (mkdir(path, 0777) < 0 && errno != EEXIST))
		return pt_err_errno(e, errno, "cannot create the directory '%s'", path);
	return 0;
}

char *pt_out_dir_file(const char *dir, const char *name, const char *ext)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return pt_xasprintf("%.*s%s%s%s", (int)n, dir, n && dir[n - 1] == '/' ? "" : "/", name, ext);
}

int pt_out_open(struct pt_out *o, const char *path, struct pt_err **e)
{
	pt_progress_end(); /* a progress line on the terminal goes before output can follow it */
	int fd = -1;
	switch (target_of(path, &fd)) {
	case T_STDOUT:
		pt_out_init_fd(o, 1, "standard output");
		return 0;
	case T_FD: {
		/* our own descriptor (-o /dev/stdout): write where it points, at its
		 * offset and with its flags (a `>>` file is appended to) */
		int d = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (d < 0)
			return pt_err_errno(e, errno, "cannot open '%s'", path);
		pt_out_init_fd(o, d, path);
		o->own_fd = true;
		return 0;
	}
	case T_DIR:
		return pt_err(e, "cannot create '%s': it is a directory", path);
	case T_IN_PLACE: {
		/* A device, FIFO or socket (e.g. /dev/full, /dev/stdout) is written in
		 * place: a temporary file beside it must never be renamed over it. */
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return pt_err_errno(e, errno, "cannot open '%s'", path);
		pt_out_init_fd(o, fd, path);
		o->own_fd = true;
		return 0;
	}
	case T_FILE:
		break;
	}
	/* a symbolic link is followed: its target is replaced, not the link */
	char *final = link_target(path);
	if (!final)
		return pt_err_errno(e, ELOOP, "cannot create '%s'", path);
	remove_stale_temps(final);
	char *tmp = pt_xasprintf("%s.tmp.%ld", final, (long)getpid());
	struct tmp_node *reg = tmp_register(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int er = errno;
		tmp_unregister(reg);
		free(tmp);
		free(final);
		return pt_err_errno(e, er, "cannot create '%s'", path);
	}
	/* a file replaced keeps its mode (a 0600 file stays private) and, where
	 * we may set them, its owner and group; set before anything is written */
	struct stat st;
	if (!stat(final, &st) && S_ISREG(st.st_mode)) {
		if (fchown(fd, st.st_uid, st.st_gid) < 0 && fchown(fd, (uid_t)-1, st.st_gid) < 0) {
			/* not ours to give away: the file becomes ours, as with any rewrite */
		}
		if (fchmod(fd, st.st_mode & 07777) < 0) {
			int er = errno;
			close(fd);
			unlink(tmp);
			tmp_unregister(reg);
			free(tmp);
			free(final);
			return pt_err_errno(e, er, "cannot set the mode of '%s'", path);
		}
	}
	pt_out_init_fd(o, fd, path);
	o->own_fd = true;
	o->tmp_path = tmp;
	o->final_path = final;
	o->tmp_reg = reg;
	return 0;
}

static void drain(struct pt_out *o, const char *p, size_t n)
{
	while (n && !o->err) {
		ssize_t w = write(o->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE && broken_pipe)
				broken_pipe();
			o->err = errno;
			return;
		}
		p += w;
		n -= (size_t)w;
		o->written += (uint64_t)w;
	}
}

void pt_out_write(struct pt_out *o, const void *p, size_t n)
{
	if (o->err)
		return;
	if (o->len + n > o->cap) {
		drain(o, o->buf, o->len);
		o->len = 0;
		if (n >= o->cap) {
			drain(o, p, n);
			return;
		}
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void pt_out_puts(struct pt_out *o, const char *s)
{
	pt_out_write(o, s, strlen(s));
}

void pt_out_putc(struct pt_out *o, char c)
{
	if (o->len < o->cap)
		o->buf[o->len++] = c;
	else
		pt_out_write(o, &c, 1);
}

void pt_out_printf(struct pt_out *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		pt_out_write(o, small, (size_t)n);
		return;
	}
	char *big = pt_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pt_out_write(o, big, (size_t)n);
	free(big);
}

void pt_out_i64(struct pt_out *o, int64_t v)
{
	char b[24];
	pt_out_write(o, b, pt_fmt_i64(b, v));
}

void pt_out_u64(struct pt_out *o, uint64_t v)
{
	char b[24];
	pt_out_write(o, b, pt_fmt_u64(b, v));
}

/* Bytes of s[i..n) that a terminal would act on: a C0 control (0x00-0x1f),
 * DEL, or the two bytes of a C1 control in UTF-8 (U+0080-U+009F, 0xc2
 * 0x80-0x9f: 0xc2 0x9b is CSI). 0 for a byte shown as it is. */
static size_t ctl_bytes(const char *s, size_t i, size_t n)
{
	unsigned char b = (unsigned char)s[i];
	if (b < 0x20 || b == 0x7f)
		return 1;
	if (b == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f)
		return 2;
	return 0;
}

size_t pt_text_escaped_len(const char *s, size_t n)
{
	size_t len = n;
	for (size_t i = 0; i < n; i++) {
		size_t k = ctl_bytes(s, i, n);
		len += 3 * k;
		i += k ? k - 1 : 0;
	}
	return len;
}

char *pt_text_escape(const char *s, size_t n, size_t *len)
{
	static const char hex[] = "0123456789abcdef";
	size_t m = pt_text_escaped_len(s, n), j = 0;
	char *d = pt_xmalloc(m + 1);
	for (size_t i = 0; i < n; i++) {
		size_t k = ctl_bytes(s, i, n);
		if (!k) {
			d[j++] = s[i];
			continue;
		}
		for (size_t q = 0; q < k; q++, i++) {
			unsigned char b = (unsigned char)s[i];
			d[j++] = '\\';
			d[j++] = 'x';
			d[j++] = hex[b >> 4];
			d[j++] = hex[b & 15];
		}
		i--;
	}
	d[j] = 0;
	if (len)
		*len = j;
	return d;
}

void pt_out_text(struct pt_out *o, const char *s, size_t n)
{
	if (pt_text_escaped_len(s, n) == n) {
		pt_out_write(o, s, n);
		return;
	}
	size_t m;
	char *d = pt_text_escape(s, n, &m);
	pt_out_write(o, d, m);
	free(d);
}

int pt_out_flush(struct pt_out *o, struct pt_err **e)
{
	drain(o, o->buf, o->len);
	o->len = 0;
	if (o->err)
		return pt_err_errno(e, o->err, "cannot write %s%s%s", o->own_fd ? "'" : "", o->name,
				    o->own_fd ? "'" : "");
	return 0;
}

static void release(struct pt_out *o)
{
	free(o->buf);
	free(o->name);
	free(o->tmp_path);
	free(o->final_path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

int pt_out_commit(struct pt_out *o, struct pt_err **e)
{
	int rc = pt_out_flush(o, e);
	if (o->own_fd) {
		if (!rc && close(o->fd) < 0)
			rc = pt_err_errno(e, errno, "cannot write '%s'", o->name);
		else if (rc)
			close(o->fd);
		if (!rc && o->tmp_path && rename(o->tmp_path, o->final_path) < 0)
			rc = pt_err_errno(e, errno, "cannot rename '%s' to '%s'", o->tmp_path, o->final_path);
		if (rc && o->tmp_path)
			unlink(o->tmp_path);
		tmp_unregister(o->tmp_reg);
	}
	release(o);
	return rc;
}

void pt_out_abort(struct pt_out *o)
{
	if (o->own_fd) {
		close(o->fd);
		if (o->tmp_path)
			unlink(o->tmp_path);
		tmp_unregister(o->tmp_reg);
	}
	release(o);
}
