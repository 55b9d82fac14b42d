/*
 * libproftool-cupti.so: the CUPTI collector (cupti.md §5). Injected with
 * CUDA_INJECTION64_PATH into unmodified CUDA programs; the driver calls
 * InitializeInjection() once per process during cuInit. It enables the
 * configured activity kinds and writes every completed CUPTI buffer, with
 * pointer slots rewritten to string/blob ids, into a CUPTIDMP v1 dump
 * (cupti-<host>-<pid>.cdump). The dump writer itself is CUDA-free and lives in
 * lib/cupti/cdump-writer.c (unit-tested without a GPU); this file is the CUPTI
 * glue: environment, stride probe, callbacks, flush points, exit and fork.
 *
 * Rules kept here: InitializeInjection always returns 1; no CUPTI call is made
 * while the writer's lock is held; the collector never links libcudart/libcuda
 * (cuDriverGetVersion is looked up with dlsym).
 */
#define _GNU_SOURCE
#include <cupti.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cupti/cdump-writer.h"
#include "cupti/cupti-layouts.h"

#define EXPORT __attribute__((visibility("default")))
#define COLLECTOR_VERSION "proftool-cupti " PT_VERSION

static struct pt_cdump_writer g_w;
static CUpti_SubscriberHandle g_sub;
static atomic_int g_initialized, g_active, g_exiting;
static int g_log = 1;
static size_t g_buffer_size = 4u << 20;
static unsigned g_max_buffers = 64;
static atomic_uint g_in_flight;
static bool g_from_start = true;  /* PROFTOOL_CUPTI_PROFILE_FROM_START=off: record only inside regions */
static atomic_int g_in_region;
static atomic_uint g_regions;
static uint32_t g_cupti_version;
static uint64_t g_last_sync_ns;
static pthread_mutex_t g_free_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t **g_free;
static size_t g_nfree, g_capfree;

static void logf_(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(int level, const char *fmt, ...)
{
	if (g_log < level)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("proftool-cupti: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- clock pairing (§5.6) ------------------------------------------------- */

static void clock_sync(uint32_t reason)
{
	uint64_t c, best_c = 0, best_r = 0, best_m = 0, best_u = UINT64_MAX;
	cuptiGetTimestamp(&c); /* warm-up */
	for (int i = 0; i < 16; i++) {
		uint64_t m0 = now_ns(CLOCK_MONOTONIC), r0 = now_ns(CLOCK_REALTIME);
		if (cuptiGetTimestamp(&c) != CUPTI_SUCCESS)
			return;
		uint64_t r1 = now_ns(CLOCK_REALTIME), m1 = now_ns(CLOCK_MONOTONIC);
		if (r1 - r0 < best_u) {
			best_u = r1 - r0;
			best_c = c;
			best_r = r0 + (r1 - r0) / 2;
			best_m = m0 + (m1 - m0) / 2;
		}
	}
	pt_cdump_writer_clock_sync(&g_w, best_c, best_r, best_m, best_u / 2, reason);
	g_last_sync_ns = best_r;
}

/* ---- environment (§5.10) ----------------------------------------------------- */

static const uint32_t default_kinds[] = {
	CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
	CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET,
	CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_OVERHEAD,
	CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_CUDA_EVENT,
	CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_NAME, CUPTI_ACTIVITY_KIND_MARKER,
	CUPTI_ACTIVITY_KIND_MARKER_DATA, CUPTI_ACTIVITY_KIND_MEMORY2, CUPTI_ACTIVITY_KIND_MEMORY_POOL,
};

static bool want[PT_CK__MAX];

static void parse_kinds(const char *s)
{
	for (size_t i = 0; i < sizeof(default_kinds) / sizeof(default_kinds[0]); i++)
		want[default_kinds[i]] = true;
	if (!s || !*s || !strcasecmp(s, "default"))
		return;
	char *dup = strdup(s), *save = NULL;
	bool first = true;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save), first = false) {
		bool add = *t != '-', edit = *t == '+' || *t == '-';
		const char *name = edit ? t + 1 : t;
		if (first && !edit)
			memset(want, 0, sizeof(want));
		if (!strcasecmp(name, "all")) {
			for (const uint32_t *k = pt_cl_decoded_kinds; *k; k++)
				want[*k] = *k != CUPTI_ACTIVITY_KIND_KERNEL;
			continue;
		}
		if (!strcasecmp(name, "default")) {
			for (size_t i = 0; i < sizeof(default_kinds) / sizeof(default_kinds[0]); i++)
				want[default_kinds[i]] = true;
			continue;
		}
		uint32_t k = pt_cl_kind_by_name(name);
		if (!k || !pt_cl_fields(k)) {
			logf_(1, "PROFTOOL_CUPTI_KINDS: unknown kind '%s' ignored", name);
			continue;
		}
		want[k] = add;
	}
	want[CUPTI_ACTIVITY_KIND_KERNEL] = false; /* serializes all kernels: never enabled */
	free(dup);
}

static size_t parse_size(const char *s, size_t dflt)
{
	if (!s || !*s)
		return dflt;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'k')
		v <<= 10;
	else if (*end == 'M' || *end == 'm')
		v <<= 20;
	if (v < (64u << 10) || v > (256u << 20)) {
		logf_(1, "PROFTOOL_CUPTI_BUFFER_SIZE=%s outside 64K-256M; using %zu", s, dflt);
		return dflt;
	}
	return (size_t)v & ~(size_t)7;
}

static const char *env_first(const char *const *names)
{
	for (; *names; names++) {
		const char *v = getenv(*names);
		if (v && *v)
			return v;
	}
	return NULL;
}

static int32_t env_int(const char *const *names)
{
	const char *v = env_first(names);
	return v ? (int32_t)strtol(v, NULL, 10) : -1;
}

/* ---- stride probe (§5.4) ------------------------------------------------------- */

static void probe(void)
{
	uint8_t *buf = aligned_alloc(8, 64 * 1024);
	if (!buf)
		return;
	for (uint32_t k = 1; k < CUPTI_ACTIVITY_KIND_COUNT && k < PT_CK__MAX; k++) {
		uint32_t *w = (uint32_t *)buf;
		for (size_t i = 0; i < 64 * 1024 / 4; i++)
			w[i] = k;
		CUpti_Activity *r1 = NULL, *r2 = NULL;
		uint32_t stride = 0;
		if (cuptiActivityGetNextRecord(buf, 64 * 1024, &r1) == CUPTI_SUCCESS) {
			r2 = r1;
			if (cuptiActivityGetNextRecord(buf, 64 * 1024, &r2) == CUPTI_SUCCESS)
				stride = (uint32_t)((uint8_t *)r2 - (uint8_t *)r1);
		}
		const struct pt_cl_layout *l = stride ? pt_cl_find(g_cupti_version, k, stride, NULL) : NULL;
		pt_cdump_writer_set_kind(&g_w, k, stride, l ? l->struct_version : 0, 0);
	}
	free(buf);
	pt_cdump_writer_classify(&g_w);
}

/* ---- buffers (§5.5) --------------------------------------------------------------- */

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
	*max_records = 0;
	*size = g_buffer_size;
	pthread_mutex_lock(&g_free_lock);
	uint8_t *b = g_nfree ? g_free[--g_nfree] : NULL;
	pthread_mutex_unlock(&g_free_lock);
	if (!b && atomic_load(&g_in_flight) >= g_max_buffers && g_cupti_version >= 27) {
		pt_cdump_writer_add_dropped(&g_w, PT_CDUMP_D_BUFFERS_REFUSED, 1);
		*buf = NULL;
		return;
	}
	if (!b)
		b = aligned_alloc(8, g_buffer_size);
	if (!b) {
		pt_cdump_writer_add_dropped(&g_w, PT_CDUMP_D_BUFFERS_REFUSED, 1);
		*buf = NULL;
		return;
	}
	atomic_fetch_add(&g_in_flight, 1);
	*buf = b;
}

static void release_buffer(uint8_t *b)
{
	pthread_mutex_lock(&g_free_lock);
	if (g_nfree == g_capfree) {
		size_t nc = g_capfree ? g_capfree * 2 : 16;
		uint8_t **n = realloc(g_free, nc * sizeof(*n));
		if (!n) {
			pthread_mutex_unlock(&g_free_lock);
			free(b);
			atomic_fetch_sub(&g_in_flight, 1);
			return;
		}
		g_free = n;
		g_capfree = nc;
	}
	g_free[g_nfree++] = b;
	pthread_mutex_unlock(&g_free_lock);
	atomic_fetch_sub(&g_in_flight, 1);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
	(void)ctx;
	(void)stream;
	(void)size;
	if (!buf)
		return;
	/* walk with libcupti's own iterator (outside the lock): the walked prefix is what gets written */
	CUpti_Activity *r = NULL;
	size_t walked = 0;
	while (cuptiActivityGetNextRecord(buf, valid, &r) == CUPTI_SUCCESS)
		walked = (size_t)((uint8_t *)r - buf) + g_w.kinds[((uint32_t *)r)[0] < PT_CK__MAX ? ((uint32_t *)r)[0] : 0].stride;
	if (walked > valid)
		walked = valid;
	if (walked < valid)
		pt_cdump_writer_add_dropped(&g_w, PT_CDUMP_D_BYTES_DISCARDED, valid - walked);
	uint64_t now = now_ns(CLOCK_REALTIME);
	if (atomic_load(&g_active) && !atomic_load(&g_exiting) && now - g_last_sync_ns > 10000000000ull)
		clock_sync(1);
	pt_cdump_writer_buffer(&g_w, buf, walked, 0, now);
	release_buffer(buf);
}

/* ---- names ------------------------------------------------------------------------- */

static bool thread_name(uint32_t tid, char *out, size_t n, void *arg)
{
	(void)arg;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%u/comm", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(out, (int)n, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = 0;
	return ok;
}

static void write_cbid_names(void)
{
	static const struct { CUpti_CallbackDomain dom; uint32_t size; } doms[] = {
		{ CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE },
		{ CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE },
	};
	size_t cap = CUPTI_DRIVER_TRACE_CBID_SIZE + CUPTI_RUNTIME_TRACE_CBID_SIZE, n = 0;
	uint32_t *d = calloc(cap, sizeof(*d)), *c = calloc(cap, sizeof(*c));
	const char **names = calloc(cap, sizeof(*names));
	if (!d || !c || !names)
		goto out;
	for (size_t i = 0; i < 2; i++)
		for (uint32_t cb = 1; cb < doms[i].size; cb++) {
			const char *nm = NULL;
			if (cuptiGetCallbackName(doms[i].dom, cb, &nm) == CUPTI_SUCCESS && nm) {
				d[n] = (uint32_t)doms[i].dom;
				c[n] = cb;
				names[n++] = nm;
			}
		}
	pt_cdump_writer_cbid_names(&g_w, n, d, c, names);
out:
	free(d);
	free(c);
	free(names);
}

static size_t read_file(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = 0;
	return n;
}

static void write_process(void)
{
	static char exe[4096], cmd[8192], host[256], comm[64];
	ssize_t el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[el > 0 ? el : 0] = 0;
	size_t cl = read_file("/proc/self/cmdline", cmd, sizeof(cmd));
	while (cl && !cmd[cl - 1])
		cl--;
	gethostname(host, sizeof(host) - 1);
	read_file("/proc/self/comm", comm, sizeof(comm));
	comm[strcspn(comm, "\n")] = 0;
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	static const char *const rank_v[] = { "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", NULL };
	static const char *const lrank_v[] = { "LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", NULL };
	static const char *const world_v[] = { "WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", NULL };
	uint32_t tags[6] = { PT_CDUMP_P_EXE, PT_CDUMP_P_CMDLINE, PT_CDUMP_P_HOST, PT_CDUMP_P_COLLECTOR,
			     PT_CDUMP_P_COMM, PT_CDUMP_P_VISIBLE_DEVICES };
	const char *vals[6] = { exe, cmd, host, COLLECTOR_VERSION, comm, vis ? vis : "" };
	size_t lens[6] = { strlen(exe), cl, strlen(host), strlen(COLLECTOR_VERSION), strlen(comm),
			   vis ? strlen(vis) : 0 };
	pt_cdump_writer_process(&g_w, (uint32_t)getpid(), (uint32_t)getppid(), env_int(rank_v), env_int(lrank_v),
				env_int(world_v), vis ? 6 : 5, tags, vals, lens);
}

/* ---- the nvprof region switch ---------------------------------------------------------------
 * With PROFTOOL_CUPTI_PROFILE_FROM_START=off the configured kinds stay disabled until the program
 * calls cudaProfilerStart (or cuProfilerStart), and are disabled again at cudaProfilerStop, as
 * `nvprof --profile-from-start off` does. The runtime call reaches the driver call inside it, so
 * both callbacks fire; the exchange on g_in_region makes the pair act once. The kinds are disabled
 * on entry to the stop: what still runs then is CUPTI's to keep or drop, so a program synchronizes
 * before it (proftool-collector(7)).
 */

static void set_kinds(int on)
{
	for (uint32_t k = 1; k < PT_CK__MAX; k++)
		if (g_w.kinds[k].flags & PT_CDUMP_K_ENABLED)
			(void)(on ? cuptiActivityEnable((CUpti_ActivityKind)k) : cuptiActivityDisable((CUpti_ActivityKind)k));
}

static bool is_profiler_call(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, bool start)
{
	if (dom == CUPTI_CB_DOMAIN_RUNTIME_API)
		return cbid == (start ? CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000
				      : CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API)
		return cbid == (start ? CUPTI_DRIVER_TRACE_CBID_cuProfilerStart : CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
	return false;
}

static void region_callback(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
	if (is_profiler_call(dom, cbid, true) && cd->callbackSite == CUPTI_API_EXIT) {
		if (!atomic_exchange(&g_in_region, 1)) {
			set_kinds(1);
			logf_(2, "region %u: recording", atomic_fetch_add(&g_regions, 1) + 1);
		}
	} else if (is_profiler_call(dom, cbid, false) && cd->callbackSite == CUPTI_API_ENTER) {
		if (atomic_exchange(&g_in_region, 0)) {
			set_kinds(0);
			logf_(2, "region %u: stopped", atomic_load(&g_regions));
		}
	}
}

/* ---- flush points, exit, fork (§5.8) --------------------------------------------------- */

static void CUPTIAPI callback(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data)
{
	(void)ud;
	if (!atomic_load(&g_active) || atomic_load(&g_exiting))
		return;
	if (!g_from_start && (is_profiler_call(dom, cbid, true) || is_profiler_call(dom, cbid, false))) {
		region_callback(dom, cbid, data);
		return;
	}
	/*
	 * No flush from a resource callback: the driver calls it holding its own lock, and a flush
	 * waits for CUPTI's worker thread, which needs that lock. Measured on an H200 (driver
	 * 580.159.04, libcupti of CUDA 13.0): cuDNN's atexit handler unloads its modules, the flush
	 * in MODULE_UNLOAD_STARTING never returned and every PyTorch process hung at exit. The
	 * records stay in CUPTI's buffers and arrive with the forced flush at exit.
	 */
	if (dom == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
		clock_sync(3);
	} else if (dom == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
		pt_cdump_writer_clear_ptr_cache(&g_w);
	} else if (dom == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020) {
		const CUpti_CallbackData *cd = data;
		if (cd->callbackSite == CUPTI_API_ENTER) {
			cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
			clock_sync(3);
		}
	}
}

static void at_exit_handler(void)
{
	if (!atomic_load(&g_active) || atomic_exchange(&g_exiting, 1))
		return;
	cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	size_t dropped = 0;
	if (cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped) == CUPTI_SUCCESS)
		pt_cdump_writer_add_dropped(&g_w, PT_CDUMP_D_RECORDS, dropped);
	clock_sync(2);
	if (pt_cdump_writer_close(&g_w, now_ns(CLOCK_REALTIME)))
		logf_(1, "writing the dump failed: %s", strerror(errno));
	atomic_store(&g_active, 0);
}

static void in_child(void)
{
	/* the child disables the collector without writing or closing anything */
	atomic_store(&g_active, 0);
	atomic_store(&g_exiting, 1);
	g_w.fd = -1;
	g_w.closed = true;
}

/* ---- the entry point (§5.2, §5.3) -------------------------------------------------------- */

static int setup(void)
{
	const char *dis = getenv("PROFTOOL_CUPTI_DISABLE");
	if (dis && !strcmp(dis, "1"))
		return 0;
	const char *lg = getenv("PROFTOOL_CUPTI_LOG");
	if (lg && *lg)
		g_log = atoi(lg);
	parse_kinds(getenv("PROFTOOL_CUPTI_KINDS"));
	g_buffer_size = parse_size(getenv("PROFTOOL_CUPTI_BUFFER_SIZE"), g_buffer_size);
	const char *mb = getenv("PROFTOOL_CUPTI_MAX_BUFFERS");
	if (mb && atoi(mb) > 0)
		g_max_buffers = (unsigned)atoi(mb);
	const char *pfs = getenv("PROFTOOL_CUPTI_PROFILE_FROM_START");
	if (pfs && (!strcasecmp(pfs, "off") || !strcmp(pfs, "0") || !strcasecmp(pfs, "no")))
		g_from_start = false;

	CUptiResult res = cuptiSubscribe(&g_sub, (CUpti_CallbackFunc)callback, NULL);
	if (res == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
		logf_(1, "another CUPTI client is active; collector disabled");
		return 0;
	}
	if (res != CUPTI_SUCCESS) {
		logf_(1, "cuptiSubscribe failed (%d); collector disabled", (int)res);
		return 0;
	}
	cuptiGetVersion(&g_cupti_version);
	int drv = 0;
	int (*get_drv)(int *) = (int (*)(int *))dlsym(RTLD_DEFAULT, "cuDriverGetVersion");
	if (get_drv)
		get_drv(&drv);
	bool sys_tids = cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) == CUPTI_SUCCESS;

	const char *dir = getenv("PROFTOOL_CUPTI_OUTDIR");
	if (!dir || !*dir)
		dir = ".";
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	char *path = NULL;
	int fd = pt_cdump_create_file(dir, host, (uint32_t)getpid(), &path);
	if (fd < 0) {
		const char *tmp = getenv("TMPDIR");
		logf_(1, "cannot create a dump in '%s' (%s); trying %s", dir, strerror(errno), tmp ? tmp : "/tmp");
		fd = pt_cdump_create_file(tmp && *tmp ? tmp : "/tmp", host, (uint32_t)getpid(), &path);
	}
	if (fd < 0) {
		logf_(1, "cannot create a dump file: %s; collector disabled", strerror(errno));
		cuptiUnsubscribe(g_sub);
		return 0;
	}
	struct pt_cdump_header_info h = {
		g_cupti_version, CUPTI_API_VERSION, (uint32_t)drv, (uint32_t)getpid(), now_ns(CLOCK_REALTIME),
		PT_CDUMP_H_DEFAULT_CLOCK | PT_CDUMP_H_POINTERS_REWRITTEN | (sys_tids ? PT_CDUMP_H_SYSTEM_TIDS : 0),
	};
	if (pt_cdump_writer_open(&g_w, fd, &h)) {
		logf_(1, "cannot write '%s': %s; collector disabled", path, strerror(errno));
		free(path);
		cuptiUnsubscribe(g_sub);
		return 0;
	}
	g_w.thread_name = thread_name;
	logf_(2, "writing %s", path);
	free(path);
	probe();
	write_process();
	write_cbid_names();
	clock_sync(0);

	const char *dbs = getenv("PROFTOOL_CUPTI_DEVICE_BUFFER_SIZE");
	if (dbs && *dbs) {
		size_t v = (size_t)strtoull(dbs, NULL, 10), sz = sizeof(v);
		cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &sz, &v);
	}
	if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) {
		logf_(1, "cuptiActivityRegisterCallbacks failed; collector disabled");
		pt_cdump_writer_close(&g_w, now_ns(CLOCK_REALTIME));
		return 0;
	}
	int enabled = 0;
	for (uint32_t k = 1; k < PT_CK__MAX; k++) {
		if (!want[k])
			continue;
		CUptiResult r = cuptiActivityEnable((CUpti_ActivityKind)k);
		if (r == CUPTI_SUCCESS) {
			g_w.kinds[k].flags |= PT_CDUMP_K_ENABLED;
			enabled++;
		} else {
			logf_(1, "cannot enable activity kind %s (%d)", pt_cl_kind_name(k), (int)r);
		}
	}
	const char *opts = getenv("PROFTOOL_CUPTI_OPTIONS");
	if (opts && strstr(opts, "latency"))
		cuptiActivityEnableLatencyTimestamps(1);
	if (opts && strstr(opts, "event-timestamps"))
		cuptiActivityEnableCudaEventDeviceTimestamps(1);
	if (opts && strstr(opts, "all-sync"))
		cuptiActivityEnableAllSyncRecords(1);
	if (opts && strstr(opts, "launch-attributes"))
		cuptiActivityEnableLaunchAttributes(1);
	if (opts && strstr(opts, "alloc-source"))
		cuptiActivityEnableAllocationSource(1);
	const char *fp = getenv("PROFTOOL_CUPTI_FLUSH_PERIOD_MS");
	if (fp && atoi(fp) > 0)
		cuptiActivityFlushPeriod((uint32_t)atoi(fp));
	pt_cdump_writer_kind_table(&g_w);
	if (!enabled) {
		logf_(1, "no activity kind could be enabled; collector disabled");
		pt_cdump_writer_close(&g_w, now_ns(CLOCK_REALTIME));
		return 0;
	}
	cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
	cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
	cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
	if (!g_from_start) {
		/* the ENABLED bits above say what a region records; nothing is recorded before the first one */
		set_kinds(0);
		cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
		cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
		cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
		cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
		logf_(2, "profile-from-start off: recording only between cudaProfilerStart and cudaProfilerStop");
	}
	atomic_store(&g_active, 1);
	atexit(at_exit_handler);
	pthread_atfork(NULL, NULL, in_child);
	return 0;
}

EXPORT int InitializeInjection(void)
{
	if (atomic_exchange(&g_initialized, 1))
		return 1;
	setup();
	return 1; /* never break the traced program */
}
