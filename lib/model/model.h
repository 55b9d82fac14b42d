/*
 * The in-memory model: the single source of truth every pass reads.
 *
 * Importers append through the pt_model_* builder functions below and never
 * compute analyses. Once loaded or built, a model is treated as immutable.
 * All times are int64 nanoseconds in their device's clock domain. Strings are
 * interned (id 0 is ""). Ids of devices, tracks and ops are indexes into their
 * vectors, in the order they were added (deterministic: importers add in input
 * order, never in hash order).
 *
 * How sources map onto the model (every importer and pass follows this):
 *  - Ascend: one PT_DEV_NPU device per Ascend device id. Paired HWTS tasks are
 *    PT_EV_TASK events on PT_TRACK_STREAM tracks (stream = HWTS stream id),
 *    with op = the framework op and name = its full name (0 when unknown).
 *    AI CPU ops are PT_EV_AICPU events on the device's PT_TRACK_AICPU track
 *    (plus struct pt_aicpu rows); get_next records are PT_EV_GETNEXT events
 *    and queue samples on a PT_TRACK_QUEUE track named "get_next". Step
 *    markers are struct pt_step rows.
 *  - CUPTI / GPU: one PT_DEV_GPU device per (process, CUDA device); the host
 *    side of each process is one PT_DEV_CPU device. Kernels, memcpy, memset
 *    and synchronization are PT_EV_KERNEL/MEMCPY/MEMSET/SYNC events on
 *    PT_TRACK_STREAM tracks of the GPU device (stream = CUDA stream id);
 *    runtime/driver calls are PT_EV_API events and NVTX/user ranges
 *    PT_EV_RANGE events on PT_TRACK_HOST_THREAD tracks of the CPU device
 *    (stream = thread id). `corr` is the CUPTI correlation id: an API event
 *    and the GPU activities it launched share it. Training steps on GPU data
 *    are PT_EV_RANGE events whose name matches --step-pattern
 *    (default "ProfilerStep#N").
 *  - MindData: queue samples and pipeline operators, attached to the device
 *    whose id the file names carry.
 *    Pipeline ops are struct pt_md_op rows; each op's output queue is a
 *    PT_TRACK_QUEUE track (stream = op id, name "md_op_queue:<op id>") whose
 *    samples have time = index × sampling interval (unanchored). The host
 *    device queue (type-1 records) is the PT_TRACK_QUEUE track
 *    "md_host_queue:device_queue" (stream -2) or, from the iterator file,
 *    "md_host_queue:dataset_iterator" (stream -3):
 *    time = the record's timestamp (ms × 10^6) or, without one, the batch
 *    number (a step stamp); every record is also a struct pt_md_record.
 *    CPU series of minddata_cpu_utilization_<d>.json are PT_TRACK_COUNTER
 *    tracks named "md_cpu:device.<metric>", "md_cpu:process.<metric>" and
 *    "md_cpu:op.<op id>.<metric>" (metric = user, sys, io, idle, runable,
 *    ctx_switch), time = time_stamp[i] ms × 10^6, else i × sampling interval
 *    (such samples are counted in the device stat "minddata.cpu.unstamped";
 *    model/hostcpu.h reads the series back and derives every CPU figure).
 * Times are never rebased in the model.
 *
 * Importers keep every time they store (event starts and ends, step marks,
 * sample times, clock offsets) within ±PT_TIME_LIMIT ns (2^62): the sum or
 * difference of two such values is at most 2^63 in magnitude, which int64
 * holds but for +2^63 itself (both values exactly at ±2^62), so
 * passes may add a duration to a start or subtract two times without
 * overflow checks. A record whose time falls outside is skipped or kept
 * without its times, and counted (CUPTI: cupti.untimed_records; Ascend and
 * MindData: a warning per file, see proftool-import(1)). The .ptm reader
 * rejects a model whose event starts or durations leave that range; it does
 * not re-check the other times, so code that must survive any model file
 * (the Chrome exporter's clock offsets) still checks its sums.
 */
#ifndef PT_MODEL_H
#define PT_MODEL_H
#include <stdbool.h>
#include <stdint.h>

#include "support/strtab.h"
#include "support/vec.h"

struct pt_gpu_mem_pack; /* MEMORY2 rows packed (gpu-mem-pack.h) */
struct pt_spill; /* events encoded for the model file during an import (ptm.h) */

enum pt_device_kind { PT_DEV_UNKNOWN = 0, PT_DEV_NPU = 1, PT_DEV_GPU = 2, PT_DEV_CPU = 3 };
enum pt_freq_origin { PT_FREQ_NONE = 0, PT_FREQ_DEFAULT = 1, PT_FREQ_INFO_JSON = 2, PT_FREQ_OPTION = 3 };
enum pt_track_kind {
	PT_TRACK_UNKNOWN = 0,
	PT_TRACK_STREAM = 1,
	PT_TRACK_AICPU = 2,
	PT_TRACK_HOST_THREAD = 3,
	PT_TRACK_QUEUE = 4,
	PT_TRACK_COUNTER = 5,
};
enum pt_event_kind {
	PT_EV_UNKNOWN = 0,
	PT_EV_TASK = 1,    /* paired Ascend device task (HWTS Start/End) */
	PT_EV_AICPU = 2,   /* Ascend AI CPU op */
	PT_EV_GETNEXT = 3, /* Ascend device get_next record */
	PT_EV_KERNEL = 4,
	PT_EV_MEMCPY = 5,
	PT_EV_MEMSET = 6,
	PT_EV_API = 7,
	PT_EV_RANGE = 8,
	PT_EV_SYNC = 9,
};

#define PT_NONE UINT32_MAX /* "no such index" for device/track/op indexes */
#define PT_TIME_LIMIT (INT64_C(1) << 62) /* 2^62 ns, about 146 years: see the top of this file */

struct pt_clock_offset {
	char *from, *to;
	int64_t offset_ns; /* time in `to` = time in `from` + offset_ns */
};

struct pt_device {
	uint32_t id; /* as the source names it (Ascend device id) */
	enum pt_device_kind kind;
	char *name;
	uint64_t freq_khz; /* counter frequency in kHz, 0 = not applicable */
	enum pt_freq_origin freq_origin;
	double peak_flops;
	uint32_t ai_core_num;
	uint64_t aic_freq_khz;
	char *clock;     /* clock domain, e.g. "ascend-device" */
	PT_VEC(struct pt_clock_offset) offsets;
	char *framework_era;      /* "text", "binary" or NULL */
	char *framework_backend;  /* "vm", "ge" or NULL */
	char *dtype_table;        /* "old", "new" or NULL */
	char *dtype_table_origin; /* "chosen", "ambiguous", "option" or NULL */
	bool dynamic_shape;
	uint32_t step_end_tag;    /* 255 or 65535, 0 without step trace */
	/* CUPTI (0 when not applicable): the traced process and the GPU's properties */
	uint32_t pid;             /* process id; 0 = not a CUPTI device */
	int32_t rank;             /* distributed rank, -1 unknown (meaningful when pid != 0) */
	uint32_t sm_count;
	uint64_t mem_bytes;       /* global memory */
	uint32_t cc_major, cc_minor;
	uint64_t mem_bandwidth_kbs;
	char *comm_backend;       /* distributed backend (Kineto's distributedInfo.backend), NULL unknown */
	int32_t world_size;       /* processes of the distributed run (CUPTI PROCESS, Kineto distributedInfo), 0 unknown */
	/* the GPU's limits that Kineto's deviceProperties lists and CUDA's occupancy calculation reads
	 * (cupti.md §7.1; CUPTI DEVICE records, a Kineto input's deviceProperties), 0 = unknown */
	struct pt_gpu_limits {
		uint32_t max_threads_per_block, max_threads_per_sm, warp_size;
		uint32_t regs_per_block, regs_per_sm;
		uint64_t smem_per_block, smem_per_sm, smem_per_block_optin; /* bytes */
	} lim;
	char *host;               /* host name of the traced process (CUPTI PROCESS record), NULL unknown */
	/* run CPU utilisation of the traced process (CUPTI ExtraInfo markers, cupti.md): fractions */
	bool has_cpu_process, has_cpu_system;
	double cpu_process, cpu_system;
};

struct pt_track {
	uint32_t device; /* device index */
	enum pt_track_kind kind;
	int64_t stream;  /* stream or thread id, -1 when none */
	uint32_t name;   /* string id */
};

struct pt_tensor {
	bool output;
	uint32_t index;
	uint32_t format;    /* string id */
	int32_t dtype_code; /* raw code */
	uint32_t dtype;     /* string id of the name */
	int64_t *shape;
	uint32_t nshape;
};

struct pt_op {
	uint32_t device;
	uint32_t name;       /* full name */
	uint32_t short_name;
	uint32_t type;
	uint32_t block_dim;
	int32_t task_type;   /* binary era taskType, -1 unknown */
	bool has_graph;      /* graph_desc / tensor metadata present */
	PT_VEC(struct pt_tensor) tensors;
	PT_VEC(char *) task_keys;
};

/* Columnar events. */
struct pt_events {
	size_t n, cap;
	uint32_t *track;
	uint32_t *name;   /* string id, 0 = unnamed */
	uint8_t *kind;    /* enum pt_event_kind */
	int64_t *start;
	int64_t *dur;
	uint64_t *corr;   /* 0 = none */
	uint32_t *op;     /* op index + 1, 0 = none */
	uint64_t *task;   /* device task id */
	/* Sparse columns: corr, op and task stay calloc'd and never written (no
	 * resident memory: untouched zero pages) until a non-zero value is
	 * stored; a bit in `dense` (PT_EVCOL_*) is set from then on. Readers
	 * see ordinary zero-filled arrays. Code that stores into these columns
	 * directly (not through pt_model_add_event) must set the bit first. */
	uint8_t dense;
	/* The streaming import (ptm.h, pt_ptm_spill_start; only `proftool
	 * import` starts it): the first `base` events of the model were encoded
	 * for the model file and dropped, and column index i holds event
	 * base + i. Code that reads events it did not just add calls
	 * pt_ptm_spill_undo() first. Elsewhere base is 0 and spill NULL. */
	size_t base;
	struct pt_spill *spill;
	/* How many events the model will hold, when a reader knows it (the
	 * TrackEvents counts), else 0: growth then stops at exactly that many.
	 * It is taken only once the events held are within a factor of 16 of
	 * it: a false claim then reserves at most 16 times the columns read,
	 * address space that no page fills. */
	size_t expect;
};
enum { PT_EVCOL_CORR = 1, PT_EVCOL_OP = 2, PT_EVCOL_TASK = 4 };

/* The number of events in the model, spilled ones included. */
static inline size_t pt_events_total(const struct pt_events *ev)
{
	return ev->base + ev->n;
}

struct pt_comm {
	uint32_t stream;
	uint32_t tag;   /* opening (odd) tag */
	int64_t start, end;
	uint32_t name;  /* string id */
	uint32_t type;  /* string id */
};

enum {
	PT_STEP_HAS_START = 1,
	PT_STEP_HAS_START_TAG = 2,
	PT_STEP_HAS_FP = 4,
	PT_STEP_HAS_BP = 8,
	PT_STEP_HAS_END = 16,
};

struct pt_step {
	uint32_t device;
	uint32_t step;
	uint32_t has; /* PT_STEP_HAS_* bits */
	int64_t start, start_tag, fp, bp, end;
	PT_VEC(struct pt_comm) comm;
};

struct pt_queue_samples {
	size_t n, cap;
	uint32_t *track;
	int64_t *time, *size, *capacity;
};

struct pt_counter_samples {
	size_t n, cap;
	uint32_t *track;
	int64_t *time;
	double *value;
};

enum { PT_AICPU_HAS_TIMES = 1, PT_AICPU_HAS_TOTAL = 2, PT_AICPU_HAS_DISPATCH = 4 };

/* An Ascend AI CPU op; its execution is also an event of kind PT_EV_AICPU. */
struct pt_aicpu {
	uint32_t device;
	uint32_t serial;  /* 1, 2, ... in record order */
	uint32_t name;    /* string id */
	uint32_t has;     /* PT_AICPU_HAS_* */
	int64_t start, end;          /* run_start, run_end (device clock ns) */
	int64_t total_ns, dispatch_ns;
	uint32_t event;   /* event index + 1, 0 = none */
};

/*
 * MindData (ascend.md §2.11). A pipeline op as recorded in
 * pipeline_profiling_<d>.json: the tree is kept as recorded (children ids
 * before collapsing); its output-queue size series are queue samples on the
 * op's PT_TRACK_QUEUE track (time = sample index × sampling interval, from
 * the pipeline start: unanchored), capacity = the queue length.
 */
struct pt_md_op {
	uint32_t device;          /* device index */
	int64_t op_id;
	uint32_t type;            /* string id, as recorded ("BatchOp", "Batch") */
	int64_t num_workers;
	int64_t sampling_interval_ns;
	bool has_queue;           /* metrics.output_queue present */
	int64_t queue_capacity;   /* output_queue.length, -1 without a queue */
	uint32_t queue_track;     /* PT_NONE without a queue */
	uint32_t order;           /* position in the file's op_info list */
	PT_VEC(int64_t) children; /* op ids as recorded (before collapsing) */
};

enum pt_md_file { PT_MD_DEVICE_QUEUE = 0, PT_MD_ITERATOR = 1 };

/* One record of device_queue_profiling_<d>.txt / dataset_iterator_profiling_<d>.txt. */
struct pt_md_record {
	uint32_t device;   /* device index */
	uint8_t file;      /* enum pt_md_file */
	uint8_t type;      /* 0 time, 1 connector */
	int64_t extra;     /* type 0: 0 get, 1 push, 2 batch; type 1: queue capacity */
	int64_t batch;     /* 1-based */
	int64_t value;     /* type 0: ns (ms × 10^6); type 1: queue size */
	int64_t time;      /* timestamp, host-steady ns (ms × 10^6); -1 when absent */
};

/*
 * CUPTI side tables (cupti.md §6): details of GPU activity and host range
 * events, keyed by event index, in event order.
 */
/* A kernel's launch configuration; kernels launched alike share one (m->kernel_configs). */
struct pt_kernel_config {
	int32_t grid[3], block[3];
	uint32_t registers;                /* per thread */
	int32_t static_smem, dynamic_smem; /* bytes */
	uint32_t graph_id;                 /* 0 = not a graph launch */
};

struct pt_kernel_info {
	uint32_t event;  /* event index (kind PT_EV_KERNEL) */
	uint32_t config; /* m->kernel_configs index */
};

/* How pt_model_add_kernel() finds a configuration again (model.c). */
/* pt_model_track's index of m->tracks[0, n): open addressing by (device, kind, stream). */
struct pt_track_index {
	uint32_t *slot; /* track index + 1, 0 = empty */
	size_t cap;     /* a power of two, or 0 */
	size_t n;       /* the tracks indexed: the first n of m->tracks */
};

struct pt_kernel_config_index {
	uint32_t *slot; /* index + 1, 0 = empty */
	size_t cap;     /* a power of two, or 0 */
	uint32_t last;  /* the configuration last added or found */
	uint32_t prev;  /* the one before it */
};

/* A memcpy (MEMCPY, MEMCPY2) or memset event. Kinds are CUPTI's enum values. */
struct pt_copy_info {
	uint32_t event;
	uint8_t copy_kind; /* CUpti_ActivityMemcpyKind; 0 for memset */
	uint8_t src_kind;  /* CUpti_ActivityMemoryKind; 0 for memset */
	uint8_t dst_kind;  /* memset: its memoryKind */
	uint64_t bytes;
	int32_t src_device, dst_device; /* CUDA device ids of a peer copy, -1 otherwise */
};

/* A GPU activity joined through its correlation id to the API call that launched it. */
struct pt_gpu_link {
	uint32_t event; /* the GPU event */
	uint32_t api;   /* event index of the API call (kind PT_EV_API) */
	uint32_t range; /* event index + 1 of the innermost host range enclosing the call, 0 = none */
};

/*
 * The CUPTI callback id of a runtime or driver API name (cupti.md §7.4's
 * "cbid"): one row per distinct (name, cbid) an importer met, in the order
 * met. API events carry only their name; the cbid is looked up by it.
 */
struct pt_api_cbid {
	uint32_t name; /* string id of the API event's name as stored */
	uint32_t cbid;
};

/* External correlation (CUPTI EXTERNAL_CORRELATION): framework ids of an API call. */
struct pt_ext_corr {
	uint32_t device; /* the process's CPU device index */
	uint32_t kind;   /* CUpti_ExternalCorrelationKind (3 = CUSTOM0, PyTorch op id) */
	uint64_t corr;   /* CUPTI correlation id */
	uint64_t id;     /* external id */
};

/*
 * What an EVENT_SYNCHRONIZE or STREAM_WAIT_EVENT record waited for (cupti.md
 * §6.7): the CUDA event record it joins (by cudaEventSyncId, else the last
 * record of the same context and event id with a smaller correlation id), its
 * stream and correlation id. One per synchronization event; -1 = unknown.
 */
struct pt_sync_info {
	uint32_t event;        /* the PT_EV_SYNC event */
	uint32_t type;         /* CUpti_ActivitySynchronizationType */
	int64_t cuda_event_id; /* the record's cudaEventId, -1 when not applicable */
	int64_t wait_stream;   /* stream of the joined cudaEventRecord */
	int64_t wait_corr;     /* correlation id of the joined cudaEventRecord */
};

enum { PT_RANGE_UNTERMINATED = 1, PT_RANGE_INSTANT = 2 };

/* A host range event (PT_EV_RANGE) from NVTX markers. */
/*
 * A named argument of an event as its source records it (EventArgBatch of
 * proftool-model(5)): key and value are string ids. In event order.
 */
struct pt_event_arg {
	uint32_t event;
	uint32_t key, value;
};

struct pt_range_info {
	uint32_t event;
	uint32_t type;   /* string id: ProfileStep, Forward, ..., Operator, UserRange (summary.md §1.1) */
	uint32_t label;  /* string id of the display name (the op of a PyTorch range), 0 = the event name */
	uint32_t domain; /* string id of the NVTX domain, 0 = default */
	uint32_t parent; /* event index + 1 of an explicit parent range, 0 = none */
	uint64_t id;     /* NVTX range id */
	uint32_t flags;  /* PT_RANGE_* */
};

/*
 * An AI Core PMU record of aicore.data (ascend.md §2.9), in file order. `op`
 * is the framework op its task key joins (§3.2); records of unknown tasks are
 * kept with op 0. Counters, in order: cube_fp16, cube_int8, vec_fp32,
 * vec_fp16_128lane, vec_fp16_64lane, vec_int32, vec_misc, (unused).
 */
#define PT_AICORE_NPMU 8
struct pt_aicore {
	uint32_t device; /* device index */
	uint32_t op;     /* op index + 1, 0 = none */
	uint32_t stream;
	uint32_t task;   /* raw task id */
	uint64_t pmu[PT_AICORE_NPMU];
};

/*
 * Memory (ascend.md §2.12, cupti.md §6.11). Ascend: MindSpore's
 * memory_usage_<d>.pb as read, one pt_mem_graph per GraphMemProto, its nodes
 * (execution order) and tensors in file order; node output and workspace
 * tensor ids are runs of mem_ids (workspace ids repeating an output id of
 * the same node already dropped). GPU: CUPTI MEMORY2 and MEMORY_POOL
 * records in dump order, timestamps mapped like every other CUPTI time
 * (untimed records are counted, not kept).
 */
struct pt_mem_graph {
	uint32_t device;     /* device index */
	int64_t graph_id;
	int64_t static_mem;  /* bytes */
	uint64_t total_mem;  /* MemoryProto.total_mem (bytes) */
	uint32_t fp_start, bp_end; /* string ids, 0 = not set */
};

struct pt_mem_node {
	uint32_t graph;      /* mem_graphs index */
	uint32_t name;       /* string id */
	uint64_t node_id;
	uint32_t out0, nout; /* output tensor ids: mem_ids[out0 .. out0 + nout) */
	uint32_t ws0, nws;   /* workspace tensor ids */
};

struct pt_mem_tensor {
	uint32_t graph;      /* mem_graphs index */
	uint64_t id;
	uint64_t size;       /* bytes */
	uint32_t type;       /* string id ("Common", "Workspace", ...) */
	uint64_t life_start, life_end;
	uint32_t life_long;  /* string id ("LifeLongNone", ...) */
};

enum { PT_GMEM_ALLOC = 1, PT_GMEM_RELEASE = 2 };

/* A CUPTI MEMORY2 record (Memory3/Memory4). */
struct pt_gpu_mem {
	uint32_t device;     /* GPU device index */
	uint8_t op;          /* memoryOperationType: 1 allocation, 2 release */
	uint8_t mem_kind;    /* CUpti_ActivityMemoryKind */
	uint8_t pool_type;   /* memoryPoolConfig.memoryPoolType: 0 none, 1 LOCAL, 2 IMPORTED */
	uint32_t corr;       /* correlationId of the API call */
	uint32_t pid;
	uint32_t stream;
	int64_t time;
	uint64_t address, bytes, pc;
	uint64_t pool_address, pool_threshold, pool_size, pool_utilized;
	uint32_t name, source; /* string ids, 0 = none */
};

enum { PT_GPOOL_CREATED = 1, PT_GPOOL_DESTROYED = 2, PT_GPOOL_TRIMMED = 3 };

/* A CUPTI MEMORY_POOL record (MemoryPool2/MemoryPool3). */
struct pt_gpu_pool {
	uint32_t device;     /* GPU device index */
	uint8_t op;          /* memoryPoolOperationType: 1 created, 2 destroyed, 3 trimmed */
	uint8_t pool_type;   /* 1 LOCAL, 2 IMPORTED */
	bool managed;
	uint32_t corr, pid;
	int64_t time;
	uint64_t address, size, utilized, min_keep, threshold;
};

/*
 * An HCCL trace event (ascend.md §2.10) as read: one per element of a
 * "traceEvents" list. Operators (subdirectories of hccl_info_<d>) in name
 * order, their execution files by number, events in file order. Times are
 * µs × 1000 in the device clock; ranks as recorded (0xffffffff = local).
 */
struct pt_hccl_task {
	uint32_t device;    /* device index */
	uint32_t op;        /* string id of the operator directory ("allReduce_1") */
	uint32_t exec;      /* execution: index of the file within its operator, from 0 */
	uint32_t tid;
	int64_t ts, dur;    /* ns */
	uint32_t src, dst;  /* "src rank", "dst rank" */
	uint32_t transport; /* string id: RDMA, SDMA, LOCAL, ... ("" absent) */
	uint32_t task_type; /* string id: RDMASend, Reduce Inline, Memcpy, Notify Wait, ... */
	uint64_t size;      /* bytes ("size", a hex string); 0 absent */
};

/*
 * What a .ptm file records about the events of one track (TrackEvents of
 * proftool-model(5)), as read: for readers that stream the events (the
 * summary), which check it against the events they see. A full read keeps
 * it unchecked and the writer derives it from the events; models built by
 * the importers have none.
 */
enum { PT_TRACKEV_IN_ORDER = 1 };
struct pt_track_events {
	uint64_t count, with_op;
	int64_t min_start, max_end;
	uint32_t kinds; /* bit per enum pt_event_kind */
	uint32_t flags; /* PT_TRACKEV_* */
};

/* Add an event to x, the events before it on the same track in model order
 * (*last: the previous one's start), as the writer derives TrackEvents. */
static inline void pt_track_events_add(struct pt_track_events *x, int64_t *last, uint8_t kind, int64_t start,
				       int64_t dur, uint32_t op)
{
	int64_t end = start + dur;
	if (!x->count++) {
		x->min_start = start;
		x->max_end = end;
		x->flags |= PT_TRACKEV_IN_ORDER;
	} else {
		if (start < *last)
			x->flags &= ~(uint32_t)PT_TRACKEV_IN_ORDER;
		if (start < x->min_start)
			x->min_start = start;
		if (end > x->max_end)
			x->max_end = end;
	}
	*last = start;
	if (kind < 32)
		x->kinds |= 1u << kind;
	x->with_op += op != 0;
}

struct pt_stat {
	int32_t device; /* device index, -1 = whole model */
	char *key;
	int64_t value;
};

struct pt_source {
	char *path;
	uint64_t size;
	char *importer;
	char *importer_version;
	int32_t device; /* device index, -1 = not per device */
};

struct pt_model {
	struct pt_strtab strings;
	PT_VEC(struct pt_source) sources;
	PT_VEC(struct pt_device) devices;
	PT_VEC(struct pt_track) tracks;
	struct pt_track_index track_index; /* pt_model_track's */
	PT_VEC(struct pt_track_events) track_events; /* per track as a file records it, or empty */
	PT_VEC(struct pt_op) ops;
	PT_VEC(struct pt_step) steps;
	PT_VEC(struct pt_stat) stats;
	PT_VEC(struct pt_aicpu) aicpu;
	PT_VEC(struct pt_kernel_info) kernels; /* CUPTI side tables, event order */
	PT_VEC(struct pt_kernel_config) kernel_configs; /* distinct, in order of first use (pt_model_add_kernel) */
	struct pt_kernel_config_index kernel_config_index; /* pt_model_add_kernel's */
	PT_VEC(struct pt_copy_info) copies;
	PT_VEC(struct pt_gpu_link) links;
	PT_VEC(struct pt_ext_corr) ext_corr;
	PT_VEC(struct pt_api_cbid) api_cbids; /* distinct, in order met */
	PT_VEC(struct pt_range_info) ranges;
	PT_VEC(struct pt_event_arg) event_args; /* event order */
	PT_VEC(struct pt_sync_info) syncs; /* event order */
	PT_VEC(struct pt_aicore) aicore;        /* Ascend AI Core PMU records, file order */
	PT_VEC(struct pt_mem_graph) mem_graphs; /* memory (see struct pt_mem_graph) */
	PT_VEC(struct pt_mem_node) mem_nodes;
	PT_VEC(struct pt_mem_tensor) mem_tensors;
	PT_VEC(uint64_t) mem_ids;
	PT_VEC(struct pt_gpu_mem) gpu_mem;
	/* more MEMORY2 rows, packed, after those of gpu_mem: only in a model that
	 * `proftool import` writes (gpu-mem-pack.h); NULL elsewhere */
	struct pt_gpu_mem_pack *gpu_mem_pack;
	PT_VEC(struct pt_gpu_pool) gpu_pools;
	PT_VEC(struct pt_hccl_task) hccl;       /* HCCL trace events (see struct pt_hccl_task) */
	struct pt_events events;
	struct pt_queue_samples queues;
	struct pt_counter_samples counters;
	PT_VEC(struct pt_md_op) md_ops;         /* MindData pipeline ops, file order */
	PT_VEC(struct pt_md_record) md_records; /* MindData per-batch records */
	char *producer; /* "proftool <version>" of the writer */
};

struct pt_model *pt_model_new(void);
/* The value (string id) of event's argument key (string id), UINT32_MAX when it has none. */
uint32_t pt_model_event_arg(const struct pt_model *m, uint32_t event, uint32_t key);
void pt_model_free(struct pt_model *m);

static inline uint32_t pt_model_str(struct pt_model *m, const char *s)
{
	return pt_strtab_add(&m->strings, s);
}
static inline const char *pt_model_strget(const struct pt_model *m, uint32_t id)
{
	return pt_strtab_get(&m->strings, id);
}

/* Device index of (kind, id), added with defaults if absent. */
uint32_t pt_model_device(struct pt_model *m, enum pt_device_kind kind, uint32_t id);
/* Device index of (kind, id), or PT_NONE. */
uint32_t pt_model_find_device(const struct pt_model *m, enum pt_device_kind kind, uint32_t id);
/* Index of the model's only device of that kind, or PT_NONE when there are none or several
 * (the attachment rule of ascend.md §1.4: files numbered otherwise go to the only NPU). */
uint32_t pt_model_only_device(const struct pt_model *m, enum pt_device_kind kind);
/* Index of the first CPU device (the host) of process pid, or PT_NONE (also for pid 0: not recorded). */
uint32_t pt_model_host_of_pid(const struct pt_model *m, uint32_t pid);
/* Track index of (device, kind, stream), the first such track, added with `name`
 * if absent. A hash lookup (tracks are only ever appended to m->tracks). */
uint32_t pt_model_track(struct pt_model *m, uint32_t device, enum pt_track_kind kind, int64_t stream,
			const char *name);
void pt_model_add_source(struct pt_model *m, const char *path, uint64_t size, const char *importer,
			 int32_t device);
void pt_model_add_clock_offset(struct pt_model *m, uint32_t device, const char *from, const char *to,
			       int64_t offset_ns);
/* Append an op; returns its index. The op's vectors are taken over (zeroed in *op). */
uint32_t pt_model_add_op(struct pt_model *m, struct pt_op *op);
void pt_op_add_tensor(struct pt_op *op, bool output, uint32_t index, uint32_t format, int32_t dtype_code,
		      uint32_t dtype, const int64_t *shape, uint32_t nshape);
void pt_op_add_task_key(struct pt_op *op, const char *key);
/* Append the kernel info of event `event` launched with configuration c (interned). */
void pt_model_add_kernel(struct pt_model *m, uint32_t event, const struct pt_kernel_config *c);
/* The launch configuration of kernel info i. */
static inline const struct pt_kernel_config *pt_model_kernel_config(const struct pt_model *m, size_t i)
{
	return &m->kernel_configs.v[m->kernels.v[i].config];
}
/* The synchronization join of event i (m->syncs is in event order), or NULL. */
const struct pt_sync_info *pt_model_sync_info(const struct pt_model *m, uint32_t event);
/* The copy or range info of an event (m->copies, m->ranges are in event order), or NULL. */
const struct pt_copy_info *pt_model_copy_info(const struct pt_model *m, uint32_t event);
const struct pt_range_info *pt_model_range_info(const struct pt_model *m, uint32_t event);
/* The search of those three over any rows of `size` bytes, each starting with its uint32_t event, in the
 * rows' order (a table out of event order: the row it lands on, or NULL). */
const void *pt_model_row_of_event(const void *v, size_t n, size_t size, uint32_t event);
/* Append a step; its comm vector is taken over. */
void pt_model_add_step(struct pt_model *m, struct pt_step *s);

void pt_events_grow(struct pt_events *ev, size_t need);
/* Free the columns of ev (not its spill). */
void pt_events_free_columns(struct pt_events *ev);
static inline void pt_events_reserve(struct pt_events *ev, size_t need)
{
	if (need > ev->cap)
		pt_events_grow(ev, need);
}

/* Append one event. `op` is an op index or PT_NONE. */
static inline void pt_model_add_event(struct pt_model *m, uint32_t track, uint32_t name, enum pt_event_kind kind,
				      int64_t start, int64_t dur, uint64_t corr, uint32_t op, uint64_t task)
{
	struct pt_events *ev = &m->events;
	pt_events_reserve(ev, ev->n + 1);
	size_t i = ev->n++;
	ev->track[i] = track;
	ev->name[i] = name;
	ev->kind[i] = (uint8_t)kind;
	ev->start[i] = start;
	ev->dur[i] = dur;
	if (corr || (ev->dense & PT_EVCOL_CORR)) {
		ev->dense |= PT_EVCOL_CORR;
		ev->corr[i] = corr;
	}
	if (op != PT_NONE || (ev->dense & PT_EVCOL_OP)) {
		ev->dense |= PT_EVCOL_OP;
		ev->op[i] = op == PT_NONE ? 0 : op + 1;
	}
	if (task || (ev->dense & PT_EVCOL_TASK)) {
		ev->dense |= PT_EVCOL_TASK;
		ev->task[i] = task;
	}
}

/* Range [*lo, *hi] and count of the non-zero correlation ids of events of
 * one kind (to size a support/idmap.h); 0 when there are none. */
size_t pt_events_corr_range(const struct pt_events *ev, int kind, uint64_t *lo, uint64_t *hi);

void pt_model_add_queue_sample(struct pt_model *m, uint32_t track, int64_t time, int64_t size, int64_t capacity);
void pt_model_add_counter_sample(struct pt_model *m, uint32_t track, int64_t time, double value);

/* Append a MindData op; its children vector is taken over (zeroed in *op). */
void pt_model_add_md_op(struct pt_model *m, struct pt_md_op *op);
void pt_model_add_md_record(struct pt_model *m, const struct pt_md_record *r);

/* Append an AI CPU op (copied). */
void pt_model_add_aicpu(struct pt_model *m, const struct pt_aicpu *a);

/*
 * Append a device as given, without looking for an equal one (a CUPTI or
 * Kineto device belongs to one process); its strings and offsets are taken
 * over (*d is zeroed). Returns its index.
 */
uint32_t pt_model_new_device(struct pt_model *m, struct pt_device *d);
/* Append a track without looking for an equal one (the importer keeps its own index). Returns its index. */
uint32_t pt_model_new_track(struct pt_model *m, uint32_t device, enum pt_track_kind kind, int64_t stream,
			    uint32_t name);

/* The side tables of GPU events, appended in event order (copied; inline: one per record). */
static inline void pt_model_add_copy(struct pt_model *m, const struct pt_copy_info *c)
{
	pt_vec_push(&m->copies, *c);
}
static inline void pt_model_add_sync(struct pt_model *m, const struct pt_sync_info *s)
{
	pt_vec_push(&m->syncs, *s);
}
static inline void pt_model_add_event_arg(struct pt_model *m, const struct pt_event_arg *a)
{
	pt_vec_push(&m->event_args, *a);
}
static inline void pt_model_add_range(struct pt_model *m, const struct pt_range_info *r)
{
	pt_vec_push(&m->ranges, *r);
}
static inline void pt_model_add_ext_corr(struct pt_model *m, const struct pt_ext_corr *x)
{
	pt_vec_push(&m->ext_corr, *x);
}
static inline void pt_model_add_api_cbid(struct pt_model *m, uint32_t name, uint32_t cbid)
{
	struct pt_api_cbid a = { name, cbid };
	pt_vec_push(&m->api_cbids, a);
}
static inline void pt_model_add_gpu_mem(struct pt_model *m, const struct pt_gpu_mem *g)
{
	pt_vec_push(&m->gpu_mem, *g);
}
static inline void pt_model_add_gpu_pool(struct pt_model *m, const struct pt_gpu_pool *p)
{
	pt_vec_push(&m->gpu_pools, *p);
}
/*
 * Room for n more GPU links at the end of m->links: returns the first of the
 * n slots, which the caller fills, then pt_model_commit_links(m, n). When the
 * model has no link storage yet and *spare is a malloc'd buffer, that buffer
 * is grown to n links and taken over (*spare = NULL), so that a join can lay
 * its links over its own scratch records.
 */
struct pt_gpu_link *pt_model_reserve_links(struct pt_model *m, size_t n, void **spare);
static inline void pt_model_commit_links(struct pt_model *m, size_t n)
{
	m->links.n += n;
}

/* Ascend side tables (copied). */
static inline void pt_model_add_aicore(struct pt_model *m, const struct pt_aicore *a)
{
	pt_vec_push(&m->aicore, *a);
}
static inline void pt_model_add_hccl_task(struct pt_model *m, const struct pt_hccl_task *t)
{
	pt_vec_push(&m->hccl, *t);
}
/* A memory graph, its nodes, the tensor ids they list and its tensors (see struct pt_mem_graph). Each
 * returns the index of what it appended. */
uint32_t pt_model_add_mem_graph(struct pt_model *m, const struct pt_mem_graph *g);
uint32_t pt_model_add_mem_node(struct pt_model *m, const struct pt_mem_node *n);
uint32_t pt_model_add_mem_id(struct pt_model *m, uint64_t id);
uint32_t pt_model_add_mem_tensor(struct pt_model *m, const struct pt_mem_tensor *t);

/* Add `delta` to the stat (device, key), creating it at 0. device -1 = model-wide. */
void pt_model_stat_add(struct pt_model *m, int32_t device, const char *key, int64_t delta);
/* Set the stat (device, key) to value. */
void pt_model_stat_set(struct pt_model *m, int32_t device, const char *key, int64_t value);
/* Value of a stat, or `dflt` when absent. */
int64_t pt_model_stat_get(const struct pt_model *m, int32_t device, const char *key, int64_t dflt);

/* Name of an enum value, for dumps and tables. */
const char *pt_device_kind_name(enum pt_device_kind k);
const char *pt_freq_origin_name(enum pt_freq_origin o);
const char *pt_track_kind_name(enum pt_track_kind k);
const char *pt_event_kind_name(enum pt_event_kind k);

#endif
