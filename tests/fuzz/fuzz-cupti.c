/* libFuzzer target: CUPTIDMP dumps (cupti.md §1), alone. */
#define FZ_COMPANION NULL
#define FZ_NAMES "fuzz.cdump"
#include "fuzz-common.h"
