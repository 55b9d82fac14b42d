/*
 * proftool-gen perturb-job: copies a real text-era Ascend job directory and
 * stretches (or shrinks) the HWTS tasks of chosen ops, so that `proftool diff`
 * can be checked against deltas that are known exactly (tests/gen/README.md,
 * "Perturbed real jobs").
 *
 * Only the syscnt of End-of-task records (ascend.md §2.1, log type 1) whose
 * execution belongs to a chosen op is rewritten: end' = start + ⌊(end - start)
 * × FACTOR⌋ in cycles. Every other byte, the record order and every other
 * file are copied unchanged.
 *
 * The truth (DELTA) comes from this file's own replay of the records it read
 * and wrote, straight from the spec: task_desc joins (§2.3, §3.2; last line
 * wins), pairing per (stream, task) in file order (§3.3; a later Start
 * replaces an open one, negative pairs are dropped), each timestamp converted
 * to ns on its own (§3.1). Nothing from lib/import/ is used.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gen.h"
#include "support/vec.h"
#include "support/hashmap.h"
#include "support/xalloc.h"

#define HWTS_PREFIX "hwts.log.data.45.dev.profiler_default_tag."
#define REC 64

static const char *usage_pj =
	"usage: proftool-gen perturb-job SRC_JOB -o DIR --scale OP FACTOR [--scale OP FACTOR]...\n"
	"                                [--freq MHZ] [--print-delta=FILE]\n"
	"\n"
	"Copies the text-era Ascend job directory SRC_JOB into DIR and rewrites its HWTS\n"
	"task log (one hwts.log.data.45.dev.profiler_default_tag.<dev>.slice_0) so that\n"
	"every execution of each op whose full name contains OP (names from the job's\n"
	"task_desc_info) lasts FACTOR times as long: the End record's cycle count\n"
	"becomes start + floor((end - start) x FACTOR). Every other byte is kept.\n"
	"Writes the true per-op deltas (base -> perturbed, from its own replay of the\n"
	"records) into DIR/DELTA, one tab-separated line per op that ran.\n"
	"\n"
	"options:\n"
	"  -o, --out DIR        directory to write (created; files overwritten)\n"
	"  --scale OP FACTOR    FACTOR: a decimal > 0 with at most 6 decimals; an op\n"
	"                       may match only one --scale; each --scale must match\n"
	"  --freq MHZ           HWTS frequency for the ns in DELTA (default 100, as\n"
	"                       proftool assumes without info.json)\n"
	"  --print-delta=FILE   write the deltas to FILE instead of DIR/DELTA\n"
	"  -h, --help           this text\n";

static void __attribute__((noreturn, format(printf, 1, 2))) pj_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "proftool-gen: error: perturb-job: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

struct rule {
	const char *sub;
	uint64_t num;  /* FACTOR = num / 1,000,000 */
	uint64_t hits; /* ops matched */
};

struct pop {
	char *name;
	int rule; /* -1: unchanged */
	uint64_t base_calls, test_calls;
	uint64_t base_ns, test_ns; /* sums of durations (never negative) */
};

struct pops { struct pop *v; size_t n, cap; };
struct rules { struct rule *v; size_t n, cap; };
struct names { char **v; size_t n, cap; };

/* "1.25" -> 1250000; at most 6 decimals, > 0 */
static uint64_t parse_factor(const char *s)
{
	uint64_t ip = 0, fp = 0;
	int nd = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		pj_die("bad FACTOR '%s' (a decimal > 0, at most 6 decimals)", s);
	for (; *p >= '0' && *p <= '9'; p++) {
		ip = ip * 10 + (uint64_t)(*p - '0');
		if (ip > 1000000)
			pj_die("FACTOR '%s' is too large (at most 1000000)", s);
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (++nd > 6)
				pj_die("bad FACTOR '%s' (at most 6 decimals)", s);
			fp = fp * 10 + (uint64_t)(*p - '0');
		}
		if (!nd)
			pj_die("bad FACTOR '%s' (a decimal > 0, at most 6 decimals)", s);
	}
	if (*p)
		pj_die("bad FACTOR '%s' (a decimal > 0, at most 6 decimals)", s);
	for (; nd < 6; nd++)
		fp *= 10;
	uint64_t v = ip * 1000000 + fp;
	if (!v)
		pj_die("FACTOR '%s' must be > 0", s);
	return v;
}

/* "19.2" -> 19200 kHz */
static uint64_t parse_freq(const char *s)
{
	uint64_t v = parse_factor(s);
	if (v % 1000)
		pj_die("bad --freq '%s' (MHz with at most 3 decimals)", s);
	return v / 1000;
}

static uint64_t cyc_to_ns(uint64_t cyc, uint64_t khz)
{
	return (uint64_t)((unsigned __int128)cyc * 1000000u / khz);
}

static bool is_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		pj_die("cannot open '%s': %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *b = pt_xmalloc(cap + 1);
	for (;;) {
		if (n == cap)
			b = pt_xrealloc(b, (cap *= 2) + 1);
		size_t r = fread(b + n, 1, cap - n, f);
		n += r;
		if (r == 0) {
			if (ferror(f))
				pj_die("read error on '%s'", path);
			break;
		}
	}
	fclose(f);
	b[n] = 0;
	*len = n;
	return b;
}

/* text-era join key (§2.1): the task id alone from 25000 on */
static uint64_t join_key(uint64_t stream, uint64_t task)
{
	return task >= 25000 ? (1ULL << 63) | task : (stream << 32) | task;
}

static size_t op_index(struct pops *ops, const char *name, size_t n)
{
	for (size_t i = 0; i < ops->n; i++)
		if (strlen(ops->v[i].name) == n && !memcmp(ops->v[i].name, name, n))
			return i;
	struct pop p = { 0 };
	p.name = pt_xmalloc(n + 1);
	memcpy(p.name, name, n);
	p.name[n] = 0;
	p.rule = -1;
	pt_vec_push(ops, p);
	return ops->n - 1;
}

/* Reads every slice of task_desc (§2.3, lines may continue across slices) into
 * the join map (value: op index + 1; the last line of a key wins). */
static void read_task_desc(const char *src, const char *dev, struct pops *ops,
			   struct pt_hashmap *join)
{
	static const char *const bases[] = { "Framework.host.vm.task_desc_info.",
					     "Framework.host.task_desc_info." };
	const char *base = NULL;
	for (size_t b = 0; b < 2 && !base; b++) {
		char *p = pt_xasprintf("%s/%s%s.slice_0", src, bases[b], dev);
		struct stat st;
		if (!stat(p, &st))
			base = bases[b];
		free(p);
	}
	if (!base) {
		char *p = pt_xasprintf("%s/Framework.task_desc_info.%s.slice_0", src, dev);
		struct stat st;
		bool bin = !stat(p, &st);
		free(p);
		if (bin)
			pj_die("'%s': binary-era framework files are not supported (text era only)", src);
		pj_die("'%s': no Framework.host[.vm].task_desc_info.%s.slice_0 (the op names of the "
		       "HWTS tasks)", src, dev);
	}
	/* concatenate the slices, remembering where each starts for messages */
	char *all = NULL;
	size_t len = 0;
	for (int s = 0;; s++) {
		char *p = pt_xasprintf("%s/%s%s.slice_%d", src, base, dev, s);
		struct stat st;
		if (stat(p, &st)) {
			free(p);
			break;
		}
		size_t n;
		char *b = read_all(p, &n);
		all = pt_xrealloc(all, len + n + 1);
		memcpy(all + len, b, n);
		len += n;
		all[len] = 0;
		free(b);
		free(p);
	}
	char *fname = pt_xasprintf("%s/%s%s.slice_0", src, base, dev);
	int line = 0;
	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && all[e] != '\n')
			e++;
		line++;
		size_t ll = e - i;
		if (ll && all[i + ll - 1] == '\r')
			ll--;
		if (ll) {
			const char *f[6];
			size_t fl[6];
			int nf = 0;
			for (size_t j = i; j < i + ll;) {
				if (all[j] == ' ') {
					j++;
					continue;
				}
				size_t k = j;
				while (k < i + ll && all[k] != ' ')
					k++;
				if (nf == 6)
					pj_die("'%s' (slices joined) line %d: more than 5 fields", fname, line);
				f[nf] = all + j;
				fl[nf++] = k - j;
				j = k;
			}
			if (nf != 4 && nf != 5)
				pj_die("'%s' (slices joined) line %d: %d fields, need 4 (name block_dim "
				       "task_id stream_id) or 5", fname, line, nf);
			int o = nf - 4;
			if (!is_digits(f[o + 2], fl[o + 2]) || fl[o + 2] > 9 || !is_digits(f[o + 3], fl[o + 3]) ||
			    fl[o + 3] > 9)
				pj_die("'%s' (slices joined) line %d: task_id and stream_id must be integers "
				       "below 10^9", fname, line);
			uint64_t task = strtoull(f[o + 2], NULL, 10), stream = strtoull(f[o + 3], NULL, 10);
			size_t oi = op_index(ops, f[o], fl[o]);
			bool added;
			*pt_hashmap_put(join, join_key(stream, task), 0, &added) = oi + 1;
		}
		i = e + 1;
	}
	free(fname);
	free(all);
}

/* copies SRC into DST recursively (regular files and directories only) */
static void copy_tree(const char *src, const char *dst, const char *skip)
{
	if (mkdir(dst, 0777) && errno != EEXIST)
		pj_die("cannot create '%s': %s", dst, strerror(errno));
	DIR *d = opendir(src);
	if (!d)
		pj_die("cannot open '%s': %s", src, strerror(errno));
	struct names names = { 0 };
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		pt_vec_push(&names, pt_xstrdup(de->d_name));
	}
	closedir(d);
	for (size_t i = 0; i < names.n; i++) {
		char *s = pt_xasprintf("%s/%s", src, names.v[i]);
		char *t = pt_xasprintf("%s/%s", dst, names.v[i]);
		struct stat st;
		if (lstat(s, &st))
			pj_die("cannot stat '%s': %s", s, strerror(errno));
		if (S_ISDIR(st.st_mode)) {
			copy_tree(s, t, NULL);
		} else if (S_ISREG(st.st_mode)) {
			if (!skip || strcmp(names.v[i], skip)) {
				size_t n;
				char *b = read_all(s, &n);
				FILE *f = fopen(t, "wb");
				if (!f)
					pj_die("cannot write '%s': %s", t, strerror(errno));
				if (fwrite(b, 1, n, f) != n || fclose(f))
					pj_die("write error on '%s'", t);
				free(b);
			}
		} else {
			pj_die("'%s': not a regular file or directory", s);
		}
		free(s);
		free(t);
		free(names.v[i]);
	}
	free(names.v);
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void wr64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

int gen_perturb_job_main(int argc, char **argv)
{
	const char *src = NULL, *out = NULL, *delta_path = NULL;
	uint64_t khz = 100000;
	struct rules rules = { 0 };

	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			fputs(usage_pj, stdout);
			return 0;
		} else if (!strcmp(s, "-o") || !strcmp(s, "--out")) {
			if (++i >= argc)
				pj_die("%s needs a directory", s);
			out = argv[i];
		} else if (!strcmp(s, "--scale")) {
			if (i + 2 >= argc)
				pj_die("--scale needs OP and FACTOR");
			struct rule r = { argv[i + 1], parse_factor(argv[i + 2]), 0 };
			if (!*r.sub)
				pj_die("--scale: empty OP");
			pt_vec_push(&rules, r);
			i += 2;
		} else if (!strcmp(s, "--freq")) {
			if (++i >= argc)
				pj_die("--freq needs MHz");
			khz = parse_freq(argv[i]);
		} else if (!strncmp(s, "--print-delta=", 14)) {
			delta_path = s + 14;
		} else if (s[0] == '-' && s[1]) {
			fprintf(stderr, "proftool-gen: error: perturb-job: unknown option '%s'\n%s", s, usage_pj);
			return 1;
		} else if (!src) {
			src = s;
		} else {
			fprintf(stderr, "proftool-gen: error: perturb-job: more than one job\n%s", usage_pj);
			return 1;
		}
	}
	if (!src || !out || !rules.n) {
		fprintf(stderr, "proftool-gen: error: perturb-job: need SRC_JOB, -o DIR and --scale\n%s",
			usage_pj);
		return 1;
	}

	struct stat st;
	if (stat(src, &st))
		pj_die("cannot open '%s': %s", src, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		pj_die("'%s': not a directory", src);

	/* the HWTS log: exactly one, slice 0 only */
	DIR *d = opendir(src);
	if (!d)
		pj_die("cannot open '%s': %s", src, strerror(errno));
	char *hname = NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		size_t pl = strlen(HWTS_PREFIX);
		if (strncmp(n, HWTS_PREFIX, pl) || strstr(n, ".done"))
			continue;
		if (hname) /* named in a fixed order, whatever readdir's */
			pj_die("'%s': more than one HWTS log ('%s', '%s'); one device and one slice only", src,
			       strcmp(hname, n) < 0 ? hname : n, strcmp(hname, n) < 0 ? n : hname);
		hname = pt_xstrdup(n);
	}
	closedir(d);
	if (!hname) {
		d = opendir(src);
		bool newer = false;
		while (d && (de = readdir(d)))
			newer |= !strncmp(de->d_name, "hwts.data", 9);
		if (d)
			closedir(d);
		pj_die("'%s': no HWTS task log (" HWTS_PREFIX "<dev>.slice_0)%s", src,
		       newer ? "; hwts.data logs are not supported" : "");
	}
	const char *dv = hname + strlen(HWTS_PREFIX);
	const char *dot = strstr(dv, ".slice_");
	if (!dot || !is_digits(dv, (size_t)(dot - dv)) || strcmp(dot, ".slice_0"))
		pj_die("'%s/%s': not <dev>.slice_0 after the HWTS prefix", src, hname);
	char *dev = pt_xmalloc((size_t)(dot - dv) + 1);
	memcpy(dev, dv, (size_t)(dot - dv));
	dev[dot - dv] = 0;

	struct pops ops = { 0 };
	struct pt_hashmap join;
	pt_hashmap_init(&join);
	read_task_desc(src, dev, &ops, &join);

	for (size_t i = 0; i < ops.n; i++)
		for (size_t r = 0; r < rules.n; r++) {
			if (!strstr(ops.v[i].name, rules.v[r].sub))
				continue;
			if (ops.v[i].rule >= 0)
				pj_die("op '%s' matches both --scale '%s' and --scale '%s'", ops.v[i].name,
				       rules.v[ops.v[i].rule].sub, rules.v[r].sub);
			ops.v[i].rule = (int)r;
			rules.v[r].hits++;
		}
	for (size_t r = 0; r < rules.n; r++)
		if (!rules.v[r].hits)
			pj_die("--scale '%s': no op of the job's task_desc contains it", rules.v[r].sub);

	/* replay (§3.3) and rewrite */
	char *hpath = pt_xasprintf("%s/%s", src, hname);
	size_t len;
	unsigned char *h = (unsigned char *)read_all(hpath, &len);
	struct pt_hashmap open; /* (stream << 16 | task) -> record index + 1 */
	pt_hashmap_init(&open);
	uint64_t changed = 0;
	for (size_t off = 0; off + REC <= len; off += REC) {
		unsigned char *p = h + off;
		bool zero = true;
		for (int i = 0; i < REC && zero; i++)
			zero = !p[i];
		int type = p[0] & 7;
		if (zero || type > 1)
			continue;
		uint64_t task = (uint64_t)p[6] | (uint64_t)p[7] << 8;
		uint64_t stream = (uint64_t)p[16] | (uint64_t)p[17] << 8 | (uint64_t)p[18] << 16 |
				  (uint64_t)p[19] << 24;
		uint64_t pk = stream << 16 | task;
		bool added;
		if (type == 0) {
			*pt_hashmap_put(&open, pk, 0, &added) = off / REC + 1;
			continue;
		}
		uint64_t *o = pt_hashmap_get(&open, pk);
		if (!o)
			continue; /* orphan End */
		uint64_t start = rd64(h + (*o - 1) * REC + 8), end = rd64(p + 8);
		pt_hashmap_del(&open, pk);
		uint64_t *op = pt_hashmap_get(&join, join_key(stream, task));
		if (!op || end < start)
			continue; /* unnamed, or a negative pair (dropped) */
		struct pop *x = &ops.v[*op - 1];
		uint64_t ns0 = cyc_to_ns(end, khz) - cyc_to_ns(start, khz);
		uint64_t nend = end;
		if (x->rule >= 0) {
			unsigned __int128 nd = (unsigned __int128)(end - start) * rules.v[x->rule].num / 1000000u;
			if (nd > UINT64_MAX - start)
				pj_die("'%s' offset %zu: the scaled End overflows the cycle counter", hpath, off);
			nend = start + (uint64_t)nd;
			wr64(p + 8, nend);
			changed++;
		}
		x->base_calls++;
		x->base_ns += ns0;
		x->test_calls++;
		x->test_ns += cyc_to_ns(nend, khz) - cyc_to_ns(start, khz);
	}
	pt_hashmap_free(&open);
	pt_hashmap_free(&join);

	/* DIR must not lie inside SRC_JOB (the copy would copy itself): its
	 * nearest existing ancestor decides, as what is below it is created here */
	char *anc = pt_xstrdup(out);
	for (;;) {
		if (!stat(anc, &st))
			break;
		char *sl = strrchr(anc, '/');
		if (!sl) {
			strcpy(anc, ".");
			break;
		}
		if (sl == anc)
			sl[1] = 0;
		else
			*sl = 0;
	}
	char *rs = realpath(src, NULL), *ra = realpath(anc, NULL);
	if (!rs || !ra)
		pj_die("cannot resolve '%s' or '%s': %s", src, anc, strerror(errno));
	size_t rl = strlen(rs);
	if (!strcmp(rs, ra) || (!strncmp(rs, ra, rl) && ra[rl] == '/'))
		pj_die("'%s' is inside the job '%s'", out, src);
	free(rs);
	free(ra);
	free(anc);
	/* everything is read and checked: only now is DIR written */
	gen_mkdir_p(out);
	copy_tree(src, out, hname);
	char *opath = pt_xasprintf("%s/%s", out, hname);
	FILE *f = fopen(opath, "wb");
	if (!f)
		pj_die("cannot write '%s': %s", opath, strerror(errno));
	if (fwrite(h, 1, len, f) != len || fclose(f))
		pj_die("write error on '%s'", opath);

	char *dp = delta_path ? pt_xstrdup(delta_path) : pt_xasprintf("%s/DELTA", out);
	f = fopen(dp, "w");
	if (!f)
		pj_die("cannot write '%s': %s", dp, strerror(errno));
	fprintf(f, "# proftool-gen perturb-job true per-op deltas of '%s' (base -> perturbed), %" PRIu64
		   " End records moved, tab-separated\n", src, changed);
	fprintf(f, "# base_name\ttest_name\tbase_calls\ttest_calls\tbase_total_ns\ttest_total_ns\tdelta_calls\t"
		   "delta_total_ns\n");
	for (size_t i = 0; i < ops.n; i++) {
		struct pop *x = &ops.v[i];
		if (!x->base_calls && !x->test_calls)
			continue;
		fprintf(f, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\n",
			x->name, x->name, x->base_calls, x->test_calls, x->base_ns, x->test_ns,
			(int64_t)(x->test_calls - x->base_calls), (int64_t)(x->test_ns - x->base_ns));
	}
	if (fclose(f))
		pj_die("write error on '%s'", dp);
	free(dp);
	free(opath);
	free(hpath);
	free(h);
	for (size_t i = 0; i < ops.n; i++)
		free(ops.v[i].name);
	free(ops.v);
	free(rules.v);
	free(dev);
	free(hname);
	return 0;
}
