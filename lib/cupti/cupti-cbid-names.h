/*
 * Built-in names of CUDA runtime and driver API callback ids (cupti.md §3),
 * generated from CUPTI's cupti_runtime_cbid.h and cupti_driver_cbid.h by
 * scripts/gen-cupti-cbid-names (one file per domain). Used when a dump
 * carries no name for a cbid.
 */
#ifndef PT_CUPTI_CBID_NAMES_H
#define PT_CUPTI_CBID_NAMES_H
#include <stdint.h>

/* The recorded name (e.g. "cudaLaunchKernel_v7000") of a runtime (driver = 0)
 * or driver (driver = 1) API callback id, or NULL when the table has none. */
const char *pt_cupti_cbid_name(int driver, uint32_t cbid);
/* The same per domain: cupti-cbid-names-runtime.c and cupti-cbid-names-driver.c. */
const char *pt_cupti_runtime_cbid_name(uint32_t cbid);
const char *pt_cupti_driver_cbid_name(uint32_t cbid);

#endif
