/* libFuzzer target: AI Core PMU data (data/aicore.data.0.slice_0), in a text-era job (companion/aicore.desc). */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "data/aicore.data.0.slice_0"
#include "fuzz-common.h"
