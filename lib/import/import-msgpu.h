/*
 * MindSpore GPU profiler directory importer: the line parsers its tests and
 * fuzz target reach. The importer itself is pt_import_msgpu()
 * (import/registry.h); the file formats and their units are described at the
 * top of import-msgpu.c and in proftool-import(1).
 */
#ifndef PT_IMPORT_MSGPU_H
#define PT_IMPORT_MSGPU_H
#include <stddef.h>
#include <stdint.h>

/* The files of one MindSpore GPU profiler run, per device number <d>. */
enum pt_msgpu_kind {
	PT_MSK_ACTIVITY,   /* activity_execute_timestamp_<d>.txt */
	PT_MSK_OPS,        /* gpu_op_execute_timestamp_<d>.txt */
	PT_MSK_OPS_OLD,    /* op_execute_timestamp_<d>.txt (MindSpore 1.0, tag "Ops") */
	PT_MSK_OP_DETAIL,  /* gpu_op_detail_info_<d>.csv */
	PT_MSK_OP_TYPE,    /* gpu_op_type_info_<d>.csv */
	PT_MSK_ACT_DATA,   /* gpu_activity_data_<d>.csv */
	PT_MSK_STEP_TRACE, /* step_trace_profiling_<d>.txt */
	PT_MSK_START_TIME, /* start_time_<d>.txt */
	PT_MSK__N
};

/* Kind of a file by its base name, with its device number; -1 if none. */
int pt_msgpu_kind_of(const char *base, uint32_t *number);

/* One line of activity_execute_timestamp_<d>.txt. */
struct pt_msgpu_kernel {
	const char *name; /* points into the line */
	size_t name_len;
	uint32_t stream;
	int64_t start; /* ns (the CUPTI clock) */
	int64_t dur;   /* ns, from the file's microseconds */
};

/*
 * Parse one activity line `NAME;STREAM;START;DURATION` (s[0, n), no newline):
 * NULL when it parses, else what is wrong with it.
 */
const char *pt_msgpu_parse_kernel(const char *s, size_t n, struct pt_msgpu_kernel *k);

/* A MindSpore float text (C++ ostream: "12.5", "1.23457e+06") of microseconds as exact ns. */
int pt_msgpu_us_to_ns(const char *s, size_t n, int64_t *ns);

#endif
