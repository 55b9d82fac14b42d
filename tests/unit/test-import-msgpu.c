/* Unit tests of lib/import/import-msgpu.c: file names, the activity line parser and the
 * float-microsecond text to exact ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "import/import-msgpu.h"

static void test_kind_of(void **state)
{
	(void)state;
	uint32_t n = 99;
	assert_int_equal(pt_msgpu_kind_of("activity_execute_timestamp_3.txt", &n), PT_MSK_ACTIVITY);
	assert_int_equal(n, 3);
	assert_int_equal(pt_msgpu_kind_of("gpu_op_execute_timestamp_0.txt", &n), PT_MSK_OPS);
	assert_int_equal(pt_msgpu_kind_of("op_execute_timestamp_12.txt", &n), PT_MSK_OPS_OLD);
	assert_int_equal(n, 12);
	assert_int_equal(pt_msgpu_kind_of("gpu_activity_data_1.csv", &n), PT_MSK_ACT_DATA);
	assert_int_equal(pt_msgpu_kind_of("step_trace_profiling_0.txt", &n), PT_MSK_STEP_TRACE);
	assert_int_equal(pt_msgpu_kind_of("start_time_7.txt", &n), PT_MSK_START_TIME);
	assert_int_equal(pt_msgpu_kind_of("cpu_op_execute_timestamp_0.txt", &n), -1);
	assert_int_equal(pt_msgpu_kind_of("activity_execute_timestamp_.txt", &n), -1);
	assert_int_equal(pt_msgpu_kind_of("activity_execute_timestamp_0.csv", &n), -1);
	assert_int_equal(pt_msgpu_kind_of("start_time_99999999999.txt", &n), -1);
}

static int64_t ns(const char *s)
{
	int64_t v = -1;
	assert_int_equal(pt_msgpu_us_to_ns(s, strlen(s), &v), 0);
	return v;
}

static void test_us(void **state)
{
	(void)state;
	assert_int_equal(ns("0"), 0);
	assert_int_equal(ns("41.157"), 41157);
	assert_int_equal(ns("1234.57"), 1234570);
	assert_int_equal(ns("1.23457e+06"), INT64_C(1234570000));
	assert_int_equal(ns("0.0005"), 1);  /* half up */
	assert_int_equal(ns("0.00049"), 0);
	assert_int_equal(ns("3.4565"), 3457);
	int64_t v;
	assert_int_not_equal(pt_msgpu_us_to_ns("-1.5", 4, &v), 0);
	assert_int_not_equal(pt_msgpu_us_to_ns("+1.5", 4, &v), 0);
	assert_int_not_equal(pt_msgpu_us_to_ns("1.5us", 5, &v), 0);
	assert_int_not_equal(pt_msgpu_us_to_ns("", 0, &v), 0);
	assert_int_not_equal(pt_msgpu_us_to_ns("nan", 3, &v), 0);
}

static const char *parse(const char *s, struct pt_msgpu_kernel *k)
{
	return pt_msgpu_parse_kernel(s, strlen(s), k);
}

static void test_kernel_line(void **state)
{
	(void)state;
	struct pt_msgpu_kernel k;
	const char *l = "cudnn::detail::wgrad<float, 128>(int, float const*);7;1600000000001009000;63.2815";
	assert_null(parse(l, &k));
	assert_int_equal(k.name_len, strlen("cudnn::detail::wgrad<float, 128>(int, float const*)"));
	assert_memory_equal(k.name, l, k.name_len);
	assert_int_equal(k.stream, 7);
	assert_int_equal(k.start, INT64_C(1600000000001009000));
	assert_int_equal(k.dur, 63282);
	/* a ';' inside the name: the numbers come from the right */
	assert_null(parse("a;b;0;5;1", &k));
	assert_int_equal(k.name_len, 3);
	assert_int_equal(k.stream, 0);
	assert_null(parse(";0;5;1", &k)); /* an empty name is kept as it is */
	assert_int_equal(k.name_len, 0);
	assert_non_null(parse("k;7;1600000000001009000", &k));
	assert_non_null(parse("k;x;1;1", &k));
	assert_non_null(parse("k;4294967296;1;1", &k));
	assert_non_null(parse("k;1;-1;1", &k));
	assert_non_null(parse("k;1;4611686018427387905;1", &k)); /* beyond 2^62 */
	assert_non_null(parse("k;1;4611686018427387904;0.001", &k)); /* ends beyond 2^62 */
	assert_null(parse("k;1;4611686018427387904;0", &k));
	assert_non_null(parse("k;1;5;", &k));
	assert_non_null(parse("", &k));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_of),
		cmocka_unit_test(test_us),
		cmocka_unit_test(test_kernel_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
