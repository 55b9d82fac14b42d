/* libFuzzer target: binary-era framework files; byte 0 picks task_desc_info, tensor_data_info, step_info or hash_dic. */
#define FZ_COMPANION "testdata/ascend/binary"
#define FZ_NAMES "data/Framework.task_desc_info.1.slice_0", "data/Framework.tensor_data_info.1.slice_0", "data/Framework.step_info.1.slice_0", "data/Framework.hash_dic.1.slice_0"
#include "fuzz-common.h"
