/*
 * Number formatting of hint records (hints.md §1.2), shared by the writers
 * of `proftool hints` and the hint rows of `proftool dataset`, so that both
 * print the same digits for the same record.
 */
#ifndef PT_PASS_HINTS_FMT_H
#define PT_PASS_HINTS_FMT_H
#include <stdbool.h>
#include <stddef.h>

/* Is unit one whose values are integers (`ns`, `count`)? */
bool pt_hint_unit_is_int(const char *unit);

/* `value` or `threshold` of a record: an integer for units ns and count,
 * otherwise (pct, fraction, ratio) four decimals, printf %.4f. */
void pt_hint_fmt_value(char *buf, size_t n, const char *unit, double v);

/* A fractional evidence value: four decimals, printf %.4f. */
void pt_hint_fmt_frac(char *buf, size_t n, double v);

#endif
