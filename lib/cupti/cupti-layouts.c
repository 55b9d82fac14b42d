/* The table of known CUPTI record layouts: cupti.md §3.3, §3.4 (13.0) and §3.6 (12.x prefixes). */
#include "cupti/cupti-layouts.h"

#include <stddef.h>
#include <strings.h>

#include "cupti/cdump.h"

#define N(name, off, size) { name, off, size, PT_CL_NUM, 0, 0, 0 }
#define I(name, off, size) { name, off, size, PT_CL_NUM, 0, PT_CL_F_SIGNED, 0 }
#define T(name, off) { name, off, 8, PT_CL_TIME, 0, 0, 0 }
#define S(name, off) { name, off, 8, PT_CL_STR, 0, 0, 0 }
#define B(name, off, len) { name, off, 8, PT_CL_BLOB, 0, 0, len }
#define Z(name, off) { name, off, 8, PT_CL_ZERO, 0, 0, 0 }
#define O(name, off) { name, off, 12, PT_CL_OBJID, 0, 0, 0 }
#define END { NULL, 0, 0, 0, 0, 0, 0 }

static const struct pt_cl_field f_kernel[] = {
	N("kind", 0, 4), N("cacheConfig", 4, 1), N("sharedMemoryConfig", 5, 1), N("registersPerThread", 6, 2),
	T("start", 16), T("end", 24), T("completed", 32), N("deviceId", 40, 4), N("contextId", 44, 4),
	N("streamId", 48, 4), I("gridX", 52, 4), I("gridY", 56, 4), I("gridZ", 60, 4), I("blockX", 64, 4),
	I("blockY", 68, 4), I("blockZ", 72, 4), I("staticSharedMemory", 76, 4), I("dynamicSharedMemory", 80, 4),
	N("localMemoryPerThread", 84, 4), N("localMemoryTotal", 88, 4), N("correlationId", 92, 4),
	I("gridId", 96, 8), S("name", 104), Z("reserved0", 112), T("queued", 120), T("submitted", 128),
	N("launchType", 136, 1), N("sharedMemoryExecuted", 140, 4), N("graphNodeId", 144, 8), N("graphId", 156, 4),
	B("pAccessPolicyWindow", 160, 32), N("channelID", 168, 4), N("channelType", 172, 4), N("clusterX", 176, 4),
	N("clusterY", 180, 4), N("clusterZ", 184, 4), N("localMemoryTotal_v2", 192, 8),
	N("maxPotentialClusterSize", 200, 4), N("maxActiveClusters", 204, 4), N("isDeviceLaunched", 208, 1),
	END,
};

static const struct pt_cl_field f_memcpy[] = {
	N("kind", 0, 4), N("copyKind", 4, 1), N("srcKind", 5, 1), N("dstKind", 6, 1), N("flags", 7, 1),
	N("bytes", 8, 8), T("start", 16), T("end", 24), N("deviceId", 32, 4), N("contextId", 36, 4),
	N("streamId", 40, 4), N("correlationId", 44, 4), N("runtimeCorrelationId", 48, 4), Z("reserved0", 56),
	N("graphNodeId", 64, 8), N("graphId", 72, 4), N("channelID", 76, 4), N("channelType", 80, 4),
	{ "isDeviceLaunched", 84, 1, PT_CL_NUM, 96, 0, 0 }, N("copyCount", 88, 8),
	END,
};

static const struct pt_cl_field f_memcpy2[] = {
	N("kind", 0, 4), N("copyKind", 4, 1), N("srcKind", 5, 1), N("dstKind", 6, 1), N("flags", 7, 1),
	N("bytes", 8, 8), T("start", 16), T("end", 24), N("deviceId", 32, 4), N("contextId", 36, 4),
	N("streamId", 40, 4), N("srcDeviceId", 44, 4), N("srcContextId", 48, 4), N("dstDeviceId", 52, 4),
	N("dstContextId", 56, 4), N("correlationId", 60, 4), Z("reserved0", 64), N("graphNodeId", 72, 8),
	N("graphId", 80, 4), N("channelID", 84, 4), N("channelType", 88, 4),
	END,
};

static const struct pt_cl_field f_memset[] = {
	N("kind", 0, 4), N("value", 4, 4), N("bytes", 8, 8), T("start", 16), T("end", 24), N("deviceId", 32, 4),
	N("contextId", 36, 4), N("streamId", 40, 4), N("correlationId", 44, 4), N("flags", 48, 2),
	N("memoryKind", 50, 2), Z("reserved0", 56), N("graphNodeId", 64, 8), N("graphId", 72, 4),
	N("channelID", 76, 4), N("channelType", 80, 4),
	{ "isDeviceLaunched", 84, 1, PT_CL_NUM, 0, PT_CL_F_13_ONLY, 0 },
	END,
};

static const struct pt_cl_field f_api[] = {
	N("kind", 0, 4), N("cbid", 4, 4), T("start", 8), T("end", 16), N("processId", 24, 4), N("threadId", 28, 4),
	N("correlationId", 32, 4), N("returnValue", 36, 4),
	END,
};

static const struct pt_cl_field f_overhead[] = {
	N("kind", 0, 4), N("overheadKind", 4, 4), N("objectKind", 8, 4), O("objectId", 12), T("start", 24),
	T("end", 32), N("correlationId", 40, 4), B("overheadData", 48, 12),
	END,
};

static const struct pt_cl_field f_sync[] = {
	N("kind", 0, 4), N("type", 4, 4), T("start", 8), T("end", 16), N("correlationId", 24, 4),
	N("contextId", 28, 4), N("streamId", 32, 4), N("cudaEventId", 36, 4), N("cudaEventSyncId", 40, 8),
	N("returnValue", 48, 4),
	END,
};

static const struct pt_cl_field f_cuda_event[] = {
	N("kind", 0, 4), N("correlationId", 4, 4), N("contextId", 8, 4), N("streamId", 12, 4), N("eventId", 16, 4),
	N("deviceId", 24, 4), Z("reserved0", 32), T("deviceTimestamp", 40), N("cudaEventSyncId", 48, 8),
	END,
};

static const struct pt_cl_field f_marker[] = {
	N("kind", 0, 4), N("flags", 4, 4), T("timestamp", 8), N("id", 16, 4), N("objectKind", 20, 4),
	O("objectId", 24), S("name", 40), S("domain", 48),
	END,
};

static const struct pt_cl_field f_marker_data[] = {
	N("kind", 0, 4), N("flags", 4, 4), N("id", 8, 4), N("payloadKind", 12, 4), N("payload", 16, 8),
	N("color", 24, 4), N("category", 28, 4), N("cuptiDomainId", 32, 4),
	END,
};

static const struct pt_cl_field f_name[] = {
	N("kind", 0, 4), N("objectKind", 4, 4), O("objectId", 8), S("name", 24),
	END,
};

static const struct pt_cl_field f_ext[] = {
	N("kind", 0, 4), N("externalKind", 4, 4), N("externalId", 8, 8), N("correlationId", 16, 4),
	END,
};

static const struct pt_cl_field f_device[] = {
	N("kind", 0, 4), N("flags", 4, 4), N("globalMemoryBandwidth", 8, 8), N("globalMemorySize", 16, 8),
	N("l2CacheSize", 28, 4), N("numThreadsPerWarp", 32, 4), N("coreClockRate", 36, 4),
	N("numMemcpyEngines", 40, 4), N("numMultiprocessors", 44, 4), N("maxWarpsPerMultiprocessor", 52, 4),
	N("maxBlocksPerMultiprocessor", 56, 4), N("maxSharedMemoryPerMultiprocessor", 60, 4),
	N("maxRegistersPerMultiprocessor", 64, 4), N("maxRegistersPerBlock", 68, 4),
	N("maxSharedMemoryPerBlock", 72, 4), N("maxThreadsPerBlock", 76, 4), N("maxBlockDimX", 80, 4),
	N("maxBlockDimY", 84, 4), N("maxBlockDimZ", 88, 4), N("maxGridDimX", 92, 4), N("maxGridDimY", 96, 4),
	N("maxGridDimZ", 100, 4), N("computeCapabilityMajor", 104, 4), N("computeCapabilityMinor", 108, 4),
	N("id", 112, 4), N("eccEnabled", 116, 4), { "uuid", 120, 16, PT_CL_BYTES, 0, 0, 0 }, S("name", 136),
	N("isCudaVisible", 144, 1), N("isMigEnabled", 145, 1), N("gpuInstanceId", 152, 4),
	N("computeInstanceId", 156, 4), { "migUuid", 160, 16, PT_CL_BYTES, 0, 0, 0 }, N("isNumaNode", 176, 4),
	N("numaId", 180, 4),
	END,
};

static const struct pt_cl_field f_context[] = {
	N("kind", 0, 4), N("contextId", 4, 4), N("deviceId", 8, 4), N("computeApiKind", 12, 2),
	N("nullStreamId", 14, 2), N("parentContextId", 16, 4), N("isGreenContext", 20, 1),
	N("numMultiprocessors", 22, 2), N("cigMode", 24, 4),
	END,
};

static const struct pt_cl_field f_memory2[] = {
	N("kind", 0, 4), N("memoryOperationType", 4, 4), N("memoryKind", 8, 4), N("correlationId", 12, 4),
	N("address", 16, 8), N("bytes", 24, 8), T("timestamp", 32), N("PC", 40, 8), N("processId", 48, 4),
	N("deviceId", 52, 4), N("contextId", 56, 4), N("streamId", 60, 4), S("name", 64), N("isAsync", 72, 4),
	N("memoryPoolType", 80, 4), N("poolAddress", 88, 8), N("releaseThreshold", 96, 8), N("pool", 104, 8),
	N("utilizedSize", 112, 8), S("source", 120),
	END,
};

static const struct pt_cl_field f_memory_pool[] = {
	N("kind", 0, 4), N("memoryPoolOperationType", 4, 4), N("memoryPoolType", 8, 4), N("correlationId", 12, 4),
	N("processId", 16, 4), N("deviceId", 20, 4), N("minBytesToKeep", 24, 8), N("address", 32, 8),
	N("size", 40, 8), N("releaseThreshold", 48, 8), T("timestamp", 56), N("utilizedSize", 64, 8),
	N("isManagedPool", 72, 1),
	END,
};

static const struct pt_cl_field f_graph[] = {
	N("kind", 0, 4), N("correlationId", 4, 4), T("start", 8), T("end", 16), N("deviceId", 24, 4),
	N("graphId", 28, 4), N("contextId", 32, 4), N("streamId", 36, 4), Z("reserved", 40),
	N("endDeviceId", 48, 4), N("endContextId", 52, 4),
	END,
};

#define R12 PT_CL_R12
#define R13 PT_CL_R13
#define V13 130000, 130099
#define NEVER 1, 0

/* Entries: kind, range, size, struct, struct version, versions for which `kinds default` picks it. */
const struct pt_cl_layout pt_cl_layouts[] = {
	{ PT_CK_MEMCPY, R12, 88, "Memcpy5", 5, 19, 25 },
	{ PT_CK_MEMCPY, R12, 96, "Memcpy6", 6, 26, 28 },
	{ PT_CK_MEMCPY, R13, 96, "Memcpy6", 6, V13 },
	{ PT_CK_MEMSET, R12, 88, "Memset4", 4, 19, 28 },
	{ PT_CK_MEMSET, R13, 88, "Memset4", 4, V13 },
	{ PT_CK_KERNEL, R12, 208, "Kernel9", 9, 19, 28 },
	{ PT_CK_KERNEL, R13, 216, "Kernel10", 10, V13 },
	{ PT_CK_CONCURRENT_KERNEL, R12, 208, "Kernel9", 9, 19, 28 },
	{ PT_CK_CONCURRENT_KERNEL, R13, 216, "Kernel10", 10, V13 },
	{ PT_CK_DRIVER, R12, 40, "API", 1, 19, 28 },
	{ PT_CK_DRIVER, R13, 40, "API", 1, V13 },
	{ PT_CK_RUNTIME, R12, 40, "API", 1, 19, 28 },
	{ PT_CK_RUNTIME, R13, 40, "API", 1, V13 },
	{ PT_CK_INTERNAL_LAUNCH_API, R12, 40, "API", 1, 19, 28 },
	{ PT_CK_INTERNAL_LAUNCH_API, R13, 40, "API", 1, V13 },
	{ PT_CK_DEVICE, R12, 176, "Device4", 4, 19, 28 },
	{ PT_CK_DEVICE, R12, 184, "Device5", 5, NEVER },
	{ PT_CK_DEVICE, R13, 184, "Device5", 5, V13 },
	{ PT_CK_CONTEXT, R12, 16, "Context", 0, 19, 21 },
	{ PT_CK_CONTEXT, R12, 24, "Context2", 2, 22, 28 },
	{ PT_CK_CONTEXT, R12, 32, "Context3", 3, NEVER },
	{ PT_CK_CONTEXT, R13, 32, "Context3", 3, V13 },
	{ PT_CK_NAME, R12, 32, "Name", 1, 19, 28 },
	{ PT_CK_NAME, R13, 32, "Name", 1, V13 },
	{ PT_CK_MARKER, R12, 56, "Marker2", 2, 19, 28 },
	{ PT_CK_MARKER, R13, 56, "Marker2", 2, V13 },
	{ PT_CK_MARKER_DATA, R12, 32, "MarkerData", 0, 19, 28 },
	{ PT_CK_MARKER_DATA, R12, 40, "MarkerData2", 2, NEVER },
	{ PT_CK_MARKER_DATA, R13, 40, "MarkerData2", 2, V13 },
	{ PT_CK_OVERHEAD, R12, 40, "Overhead", 0, 19, 19 },
	{ PT_CK_OVERHEAD, R12, 48, "Overhead2", 2, 20, 21 },
	{ PT_CK_OVERHEAD, R12, 56, "Overhead3", 3, 22, 28 },
	{ PT_CK_OVERHEAD, R13, 56, "Overhead3", 3, V13 },
	{ PT_CK_MEMCPY2, R12, 96, "MemcpyPtoP4", 4, 19, 28 },
	{ PT_CK_MEMCPY2, R13, 96, "MemcpyPtoP4", 4, V13 },
	{ PT_CK_CUDA_EVENT, R12, 24, "CudaEvent", 0, 19, 25 },
	{ PT_CK_CUDA_EVENT, R12, 56, "CudaEvent2", 2, 26, 28 },
	{ PT_CK_CUDA_EVENT, R13, 56, "CudaEvent2", 2, V13 },
	{ PT_CK_SYNCHRONIZATION, R12, 40, "Synchronization", 0, 19, 25 },
	{ PT_CK_SYNCHRONIZATION, R12, 56, "Synchronization2", 2, 26, 28 },
	{ PT_CK_SYNCHRONIZATION, R13, 56, "Synchronization2", 2, V13 },
	{ PT_CK_EXTERNAL_CORRELATION, R12, 24, "ExternalCorrelation", 1, 19, 28 },
	{ PT_CK_EXTERNAL_CORRELATION, R13, 24, "ExternalCorrelation", 1, V13 },
	{ PT_CK_MEMORY2, R12, 120, "Memory3", 3, 19, 23 },
	{ PT_CK_MEMORY2, R12, 128, "Memory4", 4, 24, 28 },
	{ PT_CK_MEMORY2, R13, 128, "Memory4", 4, V13 },
	{ PT_CK_MEMORY_POOL, R12, 72, "MemoryPool2", 2, 19, 28 },
	{ PT_CK_MEMORY_POOL, R13, 80, "MemoryPool3", 3, V13 },
	{ PT_CK_GRAPH_TRACE, R12, 48, "GraphTrace", 1, 19, 28 },
	{ PT_CK_GRAPH_TRACE, R12, 56, "GraphTrace2", 2, NEVER },
	{ PT_CK_GRAPH_TRACE, R13, 56, "GraphTrace2", 2, V13 },
	{ 0, 0, 0, NULL, 0, 0, 0 },
};

const uint32_t pt_cl_decoded_kinds[] = { 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 17, 22, 36, 38, 39, 48, 49, 50, 51, 0 };

static const char *const kind_names[56] = {
	[1] = "MEMCPY", [2] = "MEMSET", [3] = "KERNEL", [4] = "DRIVER", [5] = "RUNTIME", [6] = "EVENT",
	[7] = "METRIC", [8] = "DEVICE", [9] = "CONTEXT", [10] = "CONCURRENT_KERNEL", [11] = "NAME",
	[12] = "MARKER", [13] = "MARKER_DATA", [14] = "SOURCE_LOCATOR", [15] = "GLOBAL_ACCESS", [16] = "BRANCH",
	[17] = "OVERHEAD", [18] = "CDP_KERNEL", [19] = "PREEMPTION", [20] = "ENVIRONMENT",
	[21] = "EVENT_INSTANCE", [22] = "MEMCPY2", [23] = "METRIC_INSTANCE", [24] = "INSTRUCTION_EXECUTION",
	[25] = "UNIFIED_MEMORY_COUNTER", [26] = "FUNCTION", [27] = "MODULE", [28] = "DEVICE_ATTRIBUTE",
	[29] = "SHARED_ACCESS", [30] = "PC_SAMPLING", [31] = "PC_SAMPLING_RECORD_INFO",
	[32] = "INSTRUCTION_CORRELATION", [33] = "OPENACC_DATA", [34] = "OPENACC_LAUNCH", [35] = "OPENACC_OTHER",
	[36] = "CUDA_EVENT", [37] = "STREAM", [38] = "SYNCHRONIZATION", [39] = "EXTERNAL_CORRELATION",
	[40] = "NVLINK", [41] = "INSTANTANEOUS_EVENT", [42] = "INSTANTANEOUS_EVENT_INSTANCE",
	[43] = "INSTANTANEOUS_METRIC", [44] = "INSTANTANEOUS_METRIC_INSTANCE", [45] = "MEMORY", [46] = "PCIE",
	[47] = "OPENMP", [48] = "INTERNAL_LAUNCH_API", [49] = "MEMORY2", [50] = "MEMORY_POOL",
	[51] = "GRAPH_TRACE", [52] = "JIT", [53] = "DEVICE_GRAPH_TRACE", [54] = "MEM_DECOMPRESS",
	[55] = "CONFIDENTIAL_COMPUTE_ROTATION",
};

static const uint16_t other_strides[56] = {
	[18] = 144, [19] = 40, [20] = 40, [25] = 104, [26] = 32, [27] = 24, [28] = 24, [33] = 152, [34] = 152,
	[35] = 120, [37] = 24, [40] = 136, [45] = 80, [46] = 168, [47] = 40, [52] = 72, [53] = 56, [54] = 64,
	[55] = 32,
};

const char *pt_cl_kind_name(uint32_t kind)
{
	return kind < 56 ? kind_names[kind] : NULL;
}

uint32_t pt_cl_kind_by_name(const char *name)
{
	for (uint32_t k = 1; k < 56; k++)
		if (kind_names[k] && !strcasecmp(kind_names[k], name))
			return k;
	return 0;
}

uint32_t pt_cl_other_stride(uint32_t kind)
{
	return kind < 56 ? other_strides[kind] : 0;
}

int pt_cl_range_of(uint32_t version)
{
	if (version >= 19 && version <= 28)
		return PT_CL_R12;
	if (version >= 130000 && version <= 130099)
		return PT_CL_R13;
	return PT_CL_R_NONE;
}

const struct pt_cl_field *pt_cl_fields(uint32_t kind)
{
	switch (kind) {
	case PT_CK_MEMCPY: return f_memcpy;
	case PT_CK_MEMSET: return f_memset;
	case PT_CK_KERNEL:
	case PT_CK_CONCURRENT_KERNEL: return f_kernel;
	case PT_CK_DRIVER:
	case PT_CK_RUNTIME:
	case PT_CK_INTERNAL_LAUNCH_API: return f_api;
	case PT_CK_DEVICE: return f_device;
	case PT_CK_CONTEXT: return f_context;
	case PT_CK_NAME: return f_name;
	case PT_CK_MARKER: return f_marker;
	case PT_CK_MARKER_DATA: return f_marker_data;
	case PT_CK_OVERHEAD: return f_overhead;
	case PT_CK_MEMCPY2: return f_memcpy2;
	case PT_CK_CUDA_EVENT: return f_cuda_event;
	case PT_CK_SYNCHRONIZATION: return f_sync;
	case PT_CK_EXTERNAL_CORRELATION: return f_ext;
	case PT_CK_MEMORY2: return f_memory2;
	case PT_CK_MEMORY_POOL: return f_memory_pool;
	case PT_CK_GRAPH_TRACE: return f_graph;
	default: return NULL;
	}
}

bool pt_cl_field_in(const struct pt_cl_field *f, uint32_t size, int range)
{
	uint32_t need = f->min_size ? f->min_size : (uint32_t)f->off + f->size;
	if ((f->flags & PT_CL_F_13_ONLY) && range != PT_CL_R13)
		return false;
	return need <= size;
}

const struct pt_cl_field *pt_cl_field(uint32_t kind, const char *name)
{
	const struct pt_cl_field *f = pt_cl_fields(kind);
	for (; f && f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

const struct pt_cl_layout *pt_cl_find(uint32_t version, uint32_t kind, uint32_t stride, int *why)
{
	int r = pt_cl_range_of(version);
	bool any = false;
	for (const struct pt_cl_layout *l = pt_cl_layouts; l->kind; l++) {
		if (l->kind != kind || l->range != r)
			continue;
		any = true;
		if (l->size == stride)
			return l;
	}
	if (why)
		*why = any ? 2 : 1;
	return NULL;
}

const struct pt_cl_layout *pt_cl_default(uint32_t version, uint32_t kind)
{
	for (const struct pt_cl_layout *l = pt_cl_layouts; l->kind; l++)
		if (l->kind == kind && version >= l->dflt_min && version <= l->dflt_max)
			return l;
	return NULL;
}

const struct pt_cl_layout *pt_cl_by_struct(uint32_t version, uint32_t kind, const char *strct)
{
	int r = pt_cl_range_of(version);
	for (const struct pt_cl_layout *l = pt_cl_layouts; l->kind; l++)
		if (l->kind == kind && l->range == r && !strcasecmp(l->strct, strct))
			return l;
	return NULL;
}
