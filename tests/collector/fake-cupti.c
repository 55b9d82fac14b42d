/*
 * A fake libcupti for the collector's CUDA-free harness (cupti.md §8.3): the CUPTI
 * calls libproftool-cupti.so makes, against the real CUPTI headers, with no GPU and no
 * driver. It keeps which kinds are enabled, hands out and completes activity buffers
 * through the registered callbacks, walks them with the 13.0 strides, and lets the
 * test fire callbacks (cudaProfilerStart, module unload, ...) and "launch" kernels.
 *
 * It also enforces a rule the real library breaks by deadlocking: a flush from inside
 * a RESOURCE callback aborts (on an H200, the flush in MODULE_UNLOAD_STARTING waited
 * forever for CUPTI's worker thread, which waited for the driver lock).
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cupti/cupti-layouts.h"
#include "fake-cupti.h"

#define FAKE_VERSION 130001u

static CUpti_CallbackFunc g_cb;
static void *g_ud;
static int g_subscribed;
static CUpti_BuffersCallbackRequestFunc g_req;
static CUpti_BuffersCallbackCompleteFunc g_done;
static uint8_t g_enabled[CUPTI_ACTIVITY_KIND_COUNT];
static uint8_t *g_buf;
static size_t g_size, g_used;
static int g_in_resource_cb;
static uint32_t g_corr;
struct fake_cupti_counts fake_cupti_counts;

static uint32_t stride_of(uint32_t kind)
{
	const struct pt_cl_layout *l = pt_cl_default(FAKE_VERSION, kind);
	return l ? l->size : pt_cl_other_stride(kind);
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *s, CUpti_CallbackFunc cb, void *ud)
{
	if (g_subscribed || getenv("FAKE_CUPTI_SUBSCRIBED"))
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	g_subscribed = 1;
	g_cb = cb;
	g_ud = ud;
	*s = (CUpti_SubscriberHandle)&g_subscribed;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle s)
{
	(void)s;
	g_subscribed = 0;
	g_cb = NULL;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t *v)
{
	*v = FAKE_VERSION;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t *t)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	*t = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain d, uint32_t cbid, const char **name)
{
	static const char *const rt[] = { [171] = "cudaProfilerStart", [172] = "cudaProfilerStop", [211] = "cudaLaunchKernel" };
	if (d == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < sizeof(rt) / sizeof(rt[0]) && rt[cbid]) {
		*name = rt[cbid];
		return CUPTI_SUCCESS;
	}
	return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiSetThreadIdType(CUpti_ActivityThreadIdType t)
{
	(void)t;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivitySetAttribute(CUpti_ActivityAttribute a, size_t *sz, void *v)
{
	(void)a, (void)sz, (void)v;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done)
{
	g_req = req;
	g_done = done;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind k)
{
	if ((unsigned)k >= CUPTI_ACTIVITY_KIND_COUNT || !stride_of(k))
		return CUPTI_ERROR_NOT_COMPATIBLE;
	g_enabled[k] = 1;
	fake_cupti_counts.enables++;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind k)
{
	if ((unsigned)k >= CUPTI_ACTIVITY_KIND_COUNT)
		return CUPTI_ERROR_INVALID_KIND;
	g_enabled[k] = 0;
	fake_cupti_counts.disables++;
	return CUPTI_SUCCESS;
}

#define OPTION(name)                                        \
	CUptiResult CUPTIAPI name(uint8_t enable)           \
	{                                                   \
		(void)enable;                               \
		return CUPTI_SUCCESS;                       \
	}
OPTION(cuptiActivityEnableLatencyTimestamps)
OPTION(cuptiActivityEnableCudaEventDeviceTimestamps)
OPTION(cuptiActivityEnableAllSyncRecords)
OPTION(cuptiActivityEnableLaunchAttributes)
OPTION(cuptiActivityEnableAllocationSource)

CUptiResult CUPTIAPI cuptiActivityFlushPeriod(uint32_t t)
{
	(void)t;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t en, CUpti_SubscriberHandle s, CUpti_CallbackDomain d, CUpti_CallbackId c)
{
	(void)s, (void)d, (void)c;
	fake_cupti_counts.callbacks_enabled += en != 0;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext c, uint32_t s, size_t *n)
{
	(void)c, (void)s;
	*n = 0;
	return CUPTI_SUCCESS;
}

/* Records back to back, each as long as its kind's 13.0 stride (the probe fills a buffer with one kind). */
CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t *buf, size_t valid, CUpti_Activity **rec)
{
	uint8_t *p = *rec ? (uint8_t *)*rec + stride_of(((uint32_t *)*rec)[0]) : buf;
	if (p + sizeof(uint32_t) > buf + valid)
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	uint32_t k = *(uint32_t *)p, st = k < CUPTI_ACTIVITY_KIND_COUNT ? stride_of(k) : 0;
	if (!st)
		return CUPTI_ERROR_INVALID_KIND;
	if (p + st > buf + valid)
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	*rec = (CUpti_Activity *)p;
	return CUPTI_SUCCESS;
}

static void complete(void)
{
	if (g_buf && g_done) {
		uint8_t *b = g_buf;
		g_buf = NULL;
		g_done(NULL, 0, b, g_size, g_used);
		fake_cupti_counts.buffers++;
	}
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
	(void)flag;
	if (g_in_resource_cb) {
		fprintf(stderr, "fake-cupti: cuptiActivityFlushAll from a RESOURCE callback: deadlocks in the real driver\n");
		abort();
	}
	complete();
	return CUPTI_SUCCESS;
}

/* ---- the test's side ------------------------------------------------------------------- */

void fake_cupti_fire(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, CUpti_ApiCallbackSite site)
{
	if (!g_cb)
		return;
	CUpti_CallbackData cd;
	CUpti_ResourceData rd;
	memset(&cd, 0, sizeof(cd));
	memset(&rd, 0, sizeof(rd));
	cd.callbackSite = site;
	g_in_resource_cb = dom == CUPTI_CB_DOMAIN_RESOURCE;
	g_cb(g_ud, dom, cbid, dom == CUPTI_CB_DOMAIN_RESOURCE ? (const void *)&rd : (const void *)&cd);
	g_in_resource_cb = 0;
}

int fake_cupti_kernel(const char *name, uint64_t start, uint64_t end)
{
	if (!g_enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL])
		return 0;
	CUpti_ActivityKernel10 k;
	if (g_buf && g_used + sizeof(k) > g_size)
		complete();
	if (!g_buf) {
		size_t maxrec = 0;
		g_req(&g_buf, &g_size, &maxrec);
		g_used = 0;
		if (!g_buf)
			return 0;
	}
	memset(&k, 0, sizeof(k));
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k.start = start;
	k.end = end;
	k.deviceId = 0;
	k.contextId = 1;
	k.streamId = 7;
	k.gridX = k.gridY = k.gridZ = k.blockX = k.blockY = k.blockZ = 1;
	k.correlationId = ++g_corr;
	k.name = name;
	memcpy(g_buf + g_used, &k, sizeof(k));
	g_used += sizeof(k);
	return 1;
}
