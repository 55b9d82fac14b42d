/*
 * The collector's CUDA-free harness: libproftool-cupti's code linked against the fake
 * libcupti of fake-cupti.c, driven as a CUDA program would drive the real one. The
 * process exits normally, so the collector's atexit handler writes the dump; the ctest
 * around it imports the dump with proftool and checks which kernels it holds.
 *
 *   test-collector-harness SCENARIO OUTDIR
 *   region      PROFTOOL_CUPTI_PROFILE_FROM_START=off; kernels before, inside, after and
 *               inside a second cudaProfilerStart/Stop pair: only k_inside and k_second
 *   from-start  the same calls without the switch: all four kernels
 *   unload      a module unload between two kernels (no flush from a resource callback)
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-cupti.h"

int InitializeInjection(void);

static uint64_t t0;

static void kernel(const char *name)
{
	uint64_t now;
	cuptiGetTimestamp(&now);
	if (!t0)
		t0 = now;
	fake_cupti_kernel(name, now, now + 1000);
}

static void profiler(int start)
{
	CUpti_CallbackId rt = start ? CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000 : CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000;
	CUpti_CallbackId drv = start ? CUPTI_DRIVER_TRACE_CBID_cuProfilerStart : CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
	/* the runtime call wraps the driver call, as in libcudart */
	fake_cupti_fire(CUPTI_CB_DOMAIN_RUNTIME_API, rt, CUPTI_API_ENTER);
	fake_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, drv, CUPTI_API_ENTER);
	fake_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, drv, CUPTI_API_EXIT);
	fake_cupti_fire(CUPTI_CB_DOMAIN_RUNTIME_API, rt, CUPTI_API_EXIT);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test-collector-harness region|from-start|unload OUTDIR\n");
		return 2;
	}
	const char *sc = argv[1];
	setenv("PROFTOOL_CUPTI_OUTDIR", argv[2], 1);
	setenv("PROFTOOL_CUPTI_LOG", "2", 1);
	if (!strcmp(sc, "region"))
		setenv("PROFTOOL_CUPTI_PROFILE_FROM_START", "off", 1);
	else if (strcmp(sc, "from-start") && strcmp(sc, "unload")) {
		fprintf(stderr, "test-collector-harness: unknown scenario '%s'\n", sc);
		return 2;
	}
	if (InitializeInjection() != 1) {
		fprintf(stderr, "InitializeInjection did not return 1\n");
		return 1;
	}
	if (!strcmp(sc, "unload")) {
		kernel("k_first");
		fake_cupti_fire(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING, CUPTI_API_ENTER);
		fake_cupti_fire(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, CUPTI_API_ENTER);
		kernel("k_second");
	} else {
		kernel("k_before");
		profiler(1);
		kernel("k_inside");
		profiler(0);
		kernel("k_after");
		profiler(1);
		profiler(1); /* a second start inside a region changes nothing */
		kernel("k_second");
		profiler(0);
		profiler(0);
	}
	printf("%s: enables %u disables %u\n", sc, fake_cupti_counts.enables, fake_cupti_counts.disables);
	return 0; /* the collector's atexit handler flushes and writes END */
}
