/*
 * PyTorch profiler (Kineto) trace importer: the helpers its tests reach.
 * The importer itself is pt_import_kineto() (import/registry.h).
 */
#ifndef PT_IMPORT_KINETO_H
#define PT_IMPORT_KINETO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The JSON number text s[0, n) times 10^scale, exactly, as an integer:
 * scale 3 turns Kineto's microseconds ("1694039959123.456", "12", "1.5e3")
 * into nanoseconds without going through a double. Digits beyond the unit
 * are rounded half away from zero. False when the text is not a JSON number
 * or the value leaves ±2^62.
 */
bool pt_kineto_decimal(const char *s, size_t n, int scale, int64_t *out);

/* Whether the first bytes of a file, b[0, n), look like a Kineto trace. */
bool pt_kineto_sniff(const char *b, size_t n);
/* Whether the file's first bytes (decompressed when gzipped) are a Kineto trace's (classify.c). */
bool pt_kineto_sniff_file(const char *path);

#endif
