#include "support/progress.h"

const struct pt_progress_sink *pt_progress;
