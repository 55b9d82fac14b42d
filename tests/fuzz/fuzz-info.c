/* libFuzzer target: info.json and the clock files; byte 0 picks info.json, host_start.log or dev_start.log. */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "info.json.0", "host_start.log.0", "dev_start.log.0"
#include "fuzz-common.h"
