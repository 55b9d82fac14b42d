/* The test's handle on the fake libcupti (fake-cupti.c). */
#ifndef PT_FAKE_CUPTI_H
#define PT_FAKE_CUPTI_H
#include <cupti.h>
#include <stdint.h>

struct fake_cupti_counts {
	unsigned enables, disables, callbacks_enabled, buffers;
};
extern struct fake_cupti_counts fake_cupti_counts;

/* Call the subscriber's callback as CUPTI would (RESOURCE callbacks get a CUpti_ResourceData). */
void fake_cupti_fire(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, CUpti_ApiCallbackSite site);
/* A kernel record, written only while CONCURRENT_KERNEL is enabled; returns 1 when written. */
int fake_cupti_kernel(const char *name, uint64_t start, uint64_t end);

#endif
