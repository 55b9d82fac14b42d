/*
 * The CUPTIDMP v1 dump format (cupti.md §1, man proftool-cuptidmp(5)):
 * constants shared by the collector's writer, the importer and the generator.
 * No CUPTI header is needed: everything here is proftool's own format.
 */
#ifndef PT_CUPTI_CDUMP_H
#define PT_CUPTI_CDUMP_H
#include <stdint.h>
#include <string.h>

#define PT_CDUMP_MAGIC "CUPTIDMP"
#define PT_CDUMP_HEADER_SIZE 64
#define PT_CDUMP_FMT_MAJOR 1
#define PT_CDUMP_FMT_MINOR 0

/* header flags */
enum {
	PT_CDUMP_H_DEFAULT_CLOCK = 1,
	PT_CDUMP_H_POINTERS_REWRITTEN = 2,
	PT_CDUMP_H_SYSTEM_TIDS = 4,
	PT_CDUMP_H_SYNTHETIC = 8,
};

/* chunk types */
enum {
	PT_CDUMP_KIND_TABLE = 1,
	PT_CDUMP_CLOCK_SYNC = 2,
	PT_CDUMP_STRINGS = 3,
	PT_CDUMP_BUFFER = 4,
	PT_CDUMP_BLOBS = 5,
	PT_CDUMP_CBID_NAMES = 6,
	PT_CDUMP_PROCESS = 7,
	PT_CDUMP_DROPPED = 8,
	PT_CDUMP_THREAD_NAMES = 9,
	PT_CDUMP_END = 0x00444E45,
};

/* KIND_TABLE entry flags */
enum {
	PT_CDUMP_K_ENABLED = 1,
	PT_CDUMP_K_REWRITTEN = 2,
	PT_CDUMP_K_RAW = 4,
	PT_CDUMP_K_REJECTED = 8,
};

/* BUFFER flags */
enum {
	PT_CDUMP_B_REWRITTEN = 1,
	PT_CDUMP_B_FORCED = 2,
	PT_CDUMP_B_TRIMMED = 4,
};

/* PROCESS tags */
enum {
	PT_CDUMP_P_EXE = 1,
	PT_CDUMP_P_CMDLINE = 2,
	PT_CDUMP_P_HOST = 3,
	PT_CDUMP_P_VISIBLE_DEVICES = 4,
	PT_CDUMP_P_COLLECTOR = 5,
	PT_CDUMP_P_COMM = 6,
};

/* DROPPED counters, in order */
enum {
	PT_CDUMP_D_RECORDS = 0,
	PT_CDUMP_D_BUFFERS_REFUSED = 1,
	PT_CDUMP_D_BUFFERS_NOT_WRITTEN = 2,
	PT_CDUMP_D_BYTES_DISCARDED = 3,
	PT_CDUMP_D__N = 4,
};

/* CUpti_ActivityKind values used by proftool (cupti.md §3.3) */
enum {
	PT_CK_MEMCPY = 1,
	PT_CK_MEMSET = 2,
	PT_CK_KERNEL = 3,
	PT_CK_DRIVER = 4,
	PT_CK_RUNTIME = 5,
	PT_CK_DEVICE = 8,
	PT_CK_CONTEXT = 9,
	PT_CK_CONCURRENT_KERNEL = 10,
	PT_CK_NAME = 11,
	PT_CK_MARKER = 12,
	PT_CK_MARKER_DATA = 13,
	PT_CK_OVERHEAD = 17,
	PT_CK_MEMCPY2 = 22,
	PT_CK_CUDA_EVENT = 36,
	PT_CK_SYNCHRONIZATION = 38,
	PT_CK_EXTERNAL_CORRELATION = 39,
	PT_CK_INTERNAL_LAUNCH_API = 48,
	PT_CK_MEMORY2 = 49,
	PT_CK_MEMORY_POOL = 50,
	PT_CK_GRAPH_TRACE = 51,
	PT_CK__MAX = 64, /* table size: kinds are < 64 */
};

#define PT_CUPTI_OVERHEAD_COMMAND_BUFFER_FULL 393216u

static inline uint64_t pt_cdump_round8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* Little-endian accessors on possibly unaligned bytes (x86-64 / LE only). */
static inline uint16_t pt_le16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}
static inline uint32_t pt_le32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static inline uint64_t pt_le64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}
static inline void pt_put16(void *p, uint16_t v)
{
	memcpy(p, &v, 2);
}
static inline void pt_put32(void *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static inline void pt_put64(void *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

#endif
