/* libFuzzer target: AI CPU data (text and binary forms), in the text-era sample job. */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "DATA_PREPROCESS.dev.AICPU.0.slice_0"
#include "fuzz-common.h"
