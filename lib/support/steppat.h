/*
 * The step pattern of GPU data (--step-pattern, DESIGN.md §3): host ranges
 * whose whole name matches it are training steps.
 */
#ifndef PT_STEPPAT_H
#define PT_STEPPAT_H
#include <regex.h>
#include <stddef.h>

#define PT_STEP_PATTERN_DEFAULT "(ProfilerStep|ProfileStep)#[0-9]+"

/*
 * Compile `pattern` (POSIX ERE; NULL: the default) anchored to the whole
 * name. Returns 0, or regcomp's error code with regerror's text in msg[0..n)
 * (when msg is not NULL); re needs no regfree after a failure.
 */
int pt_step_pattern_compile(regex_t *re, const char *pattern, char *msg, size_t n);

#endif
