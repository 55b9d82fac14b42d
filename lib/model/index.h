/*
 * Derived lookups shared by the passes, computed once and lazily: no pass
 * calls another pass, they all read here (DESIGN.md §1).
 *
 *  - per track: event indexes sorted by start;
 *  - per device: the task classification and the sets C (computation) and
 *    M (communication) of ascend.md §3.8 / summary.md §2.5, and the
 *    breakdown of any window into computation, overlapped, exposed
 *    communication and free time.
 */
#ifndef PT_INDEX_H
#define PT_INDEX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <regex.h>

#include "support/interval.h"

struct pt_model;
struct pt_index;

struct pt_breakdown {
	int64_t computation;         /* |C ∩ S| */
	int64_t communication;       /* |M ∩ S| */
	int64_t overlapped;          /* |C ∩ M ∩ S| */
	int64_t comm_not_overlapped; /* |(M − C) ∩ S| */
	int64_t free;                /* |S − (C ∪ M)| */
};

struct pt_index *pt_index_new(const struct pt_model *m);
void pt_index_free(struct pt_index *x);
/*
 * The origin of every time selection (--time-window, select.h) and of the
 * times the selection notes print: the earliest time of the model, event
 * starts and step records alike (a step's start, FP, BP and end, its
 * reduce pairs' starts), so that no step time is negative; 0 for a model
 * with neither. Computed once per index, on first use.
 */
int64_t pt_index_origin(struct pt_index *x);
/*
 * The same origin for a reader without an index: with events_min NULL from
 * m's events and steps; else from *events_min, the earliest event start of
 * a model whose events m does not hold together (the streamed summary's
 * scan; INT64_MAX: no event), and m's steps, which a .ptm file defines
 * before its first event batch.
 */
int64_t pt_model_origin(const struct pt_model *m, const int64_t *events_min);
/*
 * Communication names (summary.md §2.5, --comm-pattern): `re` (compiled
 * case-insensitive, matched anywhere) replaces the built-in name lists of
 * kernels and Operator ranges; NULL keeps them. Kernel names are matched
 * demangled when `demangle` is set (the output name). Call before the first
 * query; `re` must outlive the index. The structural rules stay either way:
 * a kernel launched from inside a communication host range (type
 * Communication, or an Operator range with a communication name) is
 * communication, and Ascend tasks keep ascend.md §3.8.
 */
void pt_index_set_comm_pattern(struct pt_index *x, const regex_t *re, bool demangle);
/* Does --comm-pattern `re` match name s (demangled first when `demangle` and s is a mangled C++ name),
 * as the index matches it? (For the streamed passes, which hold no index.) */
bool pt_index_comm_re_match(const regex_t *re, bool demangle, const char *s);

/*
 * Memory back before the index's last use, for a caller holding what it
 * needs already (the timeline): the per-track event lists and the event
 * classes, both remade when next needed.
 */
void pt_index_drop_event_lists(struct pt_index *x);
/* Event indexes of a track, sorted by (start, model order). */
const uint32_t *pt_index_track_events(struct pt_index *x, uint32_t track, size_t *n);
/*
 * Call fn(arg, event index) for every event of tracks[0 .. nt) in start order:
 * a k-way merge of the per-track sorted lists. Events with equal starts come
 * in a fixed order that callers must not rely on (unions, sums and monotonic
 * cursors do not).
 */
typedef void (*pt_index_visit)(void *arg, size_t ev);
void pt_index_merge(struct pt_index *x, const uint32_t *tracks, size_t nt, pt_index_visit fn, void *arg);
/* Is a kernel of this name communication by the built-in name list (no --comm-pattern)? */
bool pt_index_comm_kernel_name(const char *name);
/* Does a host Operator range's name read as communication (summary.md §2.5's name list, no
 * --comm-pattern)? */
bool pt_index_comm_op_name(const char *name);
/* Do the model's range records make some kernel communication by where it was launched
 * (a "Communication" range, or an Operator range of a communication name)? */
bool pt_index_comm_ranges(const struct pt_model *m);
/* Is event i a communication task (ascend.md §3.8; kernels: summary.md §2.5 name rule)? */
bool pt_index_is_comm(struct pt_index *x, size_t ev);
/* Per op of m: is it a communication op (ascend.md §3.8: a communication type, or a
 * name the step trace marks)? An array of m->ops.n flags, to free. */
uint8_t *pt_index_op_comm(const struct pt_model *m);
/*
 * Class of an Ascend task (ascend.md §3.8): 2 communication, 1 computation.
 * op: the event's op + 1 (0 none); named: its stream runs some task of a
 * framework op (an unnamed task on such a stream computes).
 */
static inline uint8_t pt_index_task_class(const uint8_t *op_comm, uint32_t op, bool named)
{
	if (op)
		return op_comm[op - 1] ? 2 : 1;
	return named ? 1 : 2;
}
/* The communication spans of device dev that are not events (ascend.md §3.8: HCCL operators,
 * one per execution file, and step-trace reduce pairs), part of M: *out (to free), their count. */
size_t pt_index_comm_spans(const struct pt_model *m, uint32_t dev, struct pt_ival **out);
/* Is event i a device activity that takes part in C or M? */
bool pt_index_is_device_task(const struct pt_index *x, size_t ev);
/* C and M of device index dev. */
const struct pt_ivset *pt_index_comp(struct pt_index *x, uint32_t dev);
const struct pt_ivset *pt_index_comm(struct pt_index *x, uint32_t dev);
/* C ∪ M of device index dev (built on the first request, kept with the index). */
const struct pt_ivset *pt_index_comp_or_comm(struct pt_index *x, uint32_t dev);
/*
 * Union of the events of one kind (enum pt_event_kind) on device index dev,
 * whatever their anchor: Mc (PT_EV_MEMCPY) and Ms (PT_EV_MEMSET) of
 * hints.md §2.1, the kernel union of the device utilisation (PT_EV_KERNEL),
 * runtime calls (PT_EV_API) of a host device. Built once, lazily.
 */
const struct pt_ivset *pt_index_kind_set(struct pt_index *x, uint32_t dev, int kind);
/* Breakdown over the union of the windows in s (an ivset), or one window [a, b). */
void pt_index_breakdown_set(struct pt_index *x, uint32_t dev, const struct pt_ivset *s, struct pt_breakdown *out);
void pt_index_breakdown(struct pt_index *x, uint32_t dev, int64_t a, int64_t b, struct pt_breakdown *out);

#endif
