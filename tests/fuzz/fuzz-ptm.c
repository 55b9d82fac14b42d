/* libFuzzer target: the model reader (.ptm, proftool-model(5)), from memory. */
#define FZ_PTM 1
#include "fuzz-common.h"
