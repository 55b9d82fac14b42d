/* libFuzzer target: step trace (training_trace), in the text-era sample job. */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "training_trace.46.dev.profiler_default_tag.0.slice_0"
#include "fuzz-common.h"
