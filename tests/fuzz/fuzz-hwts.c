/* libFuzzer target: HWTS logs (ascend.md §2), in the text-era sample job. */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "hwts.log.data.45.dev.profiler_default_tag.0.slice_0"
#include "fuzz-common.h"
