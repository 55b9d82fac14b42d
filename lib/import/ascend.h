/*
 * The Ascend importer: shared context of the per-format readers
 * (import-ascend-*.c). import-ascend.c discovers the files of a job directory
 * (ascend.md §1), groups them per device and kind, and calls the readers of
 * one device in dependency order:
 *
 *   info.json -> host_start/dev_start -> framework (text or binary)
 *   -> HWTS -> step trace -> AI CPU -> AICPUMI -> TDT
 *
 * Readers append to ctx->m through the model builder, count skipped records
 * with pt_diag_warn() (file = the physical slice path, pos = its byte offset
 * or line), and record facts for `proftool info` with pt_model_stat_*() under
 * the device index. A fatal problem (ascend.md §0) returns -1 with pt_err().
 */
#ifndef PT_IMPORT_ASCEND_H
#define PT_IMPORT_ASCEND_H
#include <stdbool.h>
#include <stdint.h>

#include "import/slices.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"

#define PT_ASCEND_IMPORTER_VERSION "1"

enum pt_ascend_kind {
	PT_AK_HWTS,
	PT_AK_STEP_TRACE,
	PT_AK_FW_TASK_DESC,   /* text era Framework.host.*task_desc_info */
	PT_AK_FW_GRAPH_DESC,  /* text era Framework.host.*graph_desc_info */
	PT_AK_FW_POINT,       /* text era Framework.host.*point */
	PT_AK_FWB_TASK_DESC,  /* binary era Framework.task_desc_info */
	PT_AK_FWB_TENSOR,     /* binary era Framework.tensor_data_info */
	PT_AK_FWB_STEP_INFO,  /* binary era Framework.step_info */
	PT_AK_FWB_HASH_DIC,   /* binary era Framework.hash_dic */
	PT_AK_HOST_START,
	PT_AK_DEV_START,
	PT_AK_INFO_JSON,
	PT_AK_AICPU,
	PT_AK_AICPUMI,
	PT_AK_TDT,
	PT_AK_AICORE,
	PT_AK__N
};

enum pt_ascend_era { PT_ERA_NONE = 0, PT_ERA_TEXT = 1, PT_ERA_BINARY = 2 };

struct pt_ascend_opts {
	uint64_t hwts_freq_khz; /* --hwts-freq in kHz, 0 = not given */
	int64_t device;         /* --device, -1 = all */
	int dtype_table;        /* 0 = choose, 1 = old, 2 = new (--dtype-table) */
};

/* Everything known about one Ascend device during its import. */
struct pt_ascend_dev {
	uint32_t id;   /* Ascend device id (from file names) */
	uint32_t dev;  /* model device index */
	struct pt_slices files[PT_AK__N];
	bool ge_backend;          /* text era: ge rather than vm backend */

	/* set by the framework readers */
	enum pt_ascend_era era;
	bool dynamic_shape;       /* some TASK_DESC has shapeType 1 */
	struct pt_hashmap task_op; /* pt_ascend_task_key() -> op index */
	struct pt_hashmap point_op; /* step-trace tag -> op index (point / STEP_INFO) */

	/* set before any time conversion (info.json, --hwts-freq or default) */
	uint64_t freq_khz;
};

struct pt_ascend_ctx {
	struct pt_model *m;
	struct pt_diag *diag;
	const struct pt_ascend_opts *opts;
};

/* The join key of (stream, task) (ascend.md §2.1, §3.2). Text era: task ids
 * >= 25000 are keyed without their stream; binary era: always with it. */
#define PT_ASCEND_NO_STREAM 0xFFFFFFu
static inline uint64_t pt_ascend_task_key(enum pt_ascend_era era, uint32_t stream, uint64_t task)
{
	uint64_t s = (era != PT_ERA_BINARY && task >= 25000) ? PT_ASCEND_NO_STREAM : (stream & 0xFFFFFFu);
	return (s << 40) | (task & 0xFFFFFFFFFFULL);
}

/* The key as text: "<stream>_<task>" or "<task>". buf: at least 48 bytes. */
void pt_ascend_task_key_str(enum pt_ascend_era era, uint32_t stream, uint64_t task, char *buf);

/* Device cycles to device-clock ns: floor(cycles * 1e6 / f_kHz), exact. */
static inline int64_t pt_ascend_cycles_to_ns(uint64_t cycles, uint64_t freq_khz)
{
	if (freq_khz == 100000)
		return (int64_t)(cycles * 10);
	return (int64_t)((unsigned __int128)cycles * 1000000u / freq_khz);
}

/* Whether cycles convert to ns within the model's time range, [0, PT_TIME_LIMIT]
 * (model/model.h), at f_kHz; callers skip the record or drop its times otherwise. */
static inline bool pt_ascend_cycles_fit(uint64_t cycles, uint64_t freq_khz)
{
	return freq_khz && (unsigned __int128)cycles * 1000000u / freq_khz <= (unsigned __int128)PT_TIME_LIMIT;
}

/* The largest cycle count that pt_ascend_cycles_fit() accepts: hot loops compare with it. */
static inline uint64_t pt_ascend_max_cycles(uint64_t freq_khz)
{
	/* floor(cyc * 1e6 / f) <= L  <=>  cyc < (L + 1) * f / 1e6 */
	unsigned __int128 lim = (((unsigned __int128)PT_TIME_LIMIT + 1) * freq_khz + 999999u) / 1000000u - 1;
	return lim > UINT64_MAX ? UINT64_MAX : (uint64_t)lim;
}

/* Whether a device time in ns lies within the model's time range, [0, PT_TIME_LIMIT]. */
static inline bool pt_ascend_ns_fit(int64_t ns)
{
	return ns >= 0 && ns <= PT_TIME_LIMIT;
}

/* The per-format readers, one file each. Each reads dev->files[its kind]. */
int pt_ascend_read_info_json(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_clocks(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_framework_text(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_framework_bin(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_hwts(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_step_trace(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_aicpu(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_aicpumi(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_tdt(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);
int pt_ascend_read_aicore(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e);

/*
 * Ascend file names (§1.2, §1.4), for the path classifier (classify.c):
 * whether name is an Ascend raw file and its kind (*preferred: the newer of
 * the kind's two names; *backend: framework text 1 vm, 2 ge, 3 binary-era
 * "Framework.vm.*"); and its slice number and device id (-1 when absent) and,
 * in a container's names, the job id between them (malloc'd, or NULL).
 */
bool pt_ascend_name_kind(const char *name, enum pt_ascend_kind *kind, bool *preferred, int *backend);
void pt_ascend_name_suffix(const char *name, int64_t *slice, int64_t *device, char **jobid);

#endif
