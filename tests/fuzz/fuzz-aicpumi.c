/* libFuzzer target: AICPUMI data, in the text-era sample job. */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "DATA_PREPROCESS.dev.AICPUMI.0.slice_0"
#include "fuzz-common.h"
