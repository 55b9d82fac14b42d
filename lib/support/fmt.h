/* Locale-independent integer formatting; exactly what printf("%lld"/"%llu") writes. */
#ifndef PT_FMT_H
#define PT_FMT_H
#include <stddef.h>
#include <stdint.h>

/* Write the decimal form of v to out (at least 21 bytes); returns its length. No NUL. */
size_t pt_fmt_u64(char *out, uint64_t v);
size_t pt_fmt_i64(char *out, int64_t v);

/* v / 1000 with exactly three decimals ("1234.567"), from integers (at least 25 bytes). */
size_t pt_fmt_milli(char *out, uint64_t v);

/*
 * A positive double (1e-6 <= C < 1e13 exactly; others through printf) as a
 * plain decimal with 17 significant digits, which always read back as C,
 * trailing zeros dropped down to 3 decimals (at least 80 bytes).
 */
size_t pt_fmt_dbl17(char *out, double C);

#endif

#ifndef PT_FMT_SCALED
#define PT_FMT_SCALED
/*
 * v / div printed with `decimals` fraction digits, rounded half away from
 * zero, computed in integers (div a power of ten, decimals <= 9). Exact when
 * 10^decimals >= div. Returns the length written to out (at least 32 bytes).
 */
size_t pt_fmt_scaled(char *out, int64_t v, int64_t div, int decimals);
#endif
