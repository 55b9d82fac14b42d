/*
 * A timeline as data (chrome-trace.md): what the timeline pass
 * (pass/pass-timeline.h) hands a trace writer (export/export-chrome.h).
 *
 * The pass decides everything a reader sees: processes and rows with their
 * ids, names and order, the clock and its base, every event's category,
 * name, times and arguments, flows, counters, and the profile's naming
 * (viewer or kineto). A writer only spells it out. Events are not held here:
 * the writer pulls them one at a time, in output order, from the pass's
 * iterator (next), which reads the model; rewind starts again (a writer that
 * measures or plans parts before writing runs the events twice).
 *
 * Times are ns relative to base_ns (>= 0, below 2^53).
 */
#ifndef PT_TABLE_TRACE_H
#define PT_TABLE_TRACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pt_trace_profile { PT_TRACE_VIEWER = 0, PT_TRACE_KINETO = 1 };

struct pt_err;

/*
 * A text. key PT_TRACE_PLAIN: printable ASCII without '"' or '\\' (nothing
 * to escape). Other keys != 0: the same key always comes with the same text,
 * so a writer may keep what it made of it (its JSON form) in slot key - 1 of
 * a table of pt_trace.nkeys slots.
 */
#define PT_TRACE_PLAIN UINT32_MAX
struct pt_trace_str {
	const char *s;
	uint32_t n;
	uint32_t key;
};

enum pt_trace_arg_type {
	PT_TA_I64,  /* i */
	PT_TA_U64,  /* u */
	PT_TA_STR,  /* s: a string */
	PT_TA_NUM,  /* d: a number (an integer when it is one) */
	PT_TA_I64_3, /* v3: an array of three integers */
	PT_TA_F6     /* d: a finite number written with exactly 6 decimals (Kineto's per-SM values) */
};

/* A plain argument key (kesc false) lies in storage of at least this many bytes (a writer may copy them all). */
#define PT_TRACE_KEY_ROOM 48

struct pt_trace_arg {
	struct pt_trace_str k; /* the key: plain text to put between quotes, or (kesc) any text to escape */
	bool kesc;
	uint8_t type;
	union {
		int64_t i;
		uint64_t u;
		double d;
		struct pt_trace_str s;
		int64_t v3[3];
	} v;
};

enum pt_trace_ph { PT_PH_X, PT_PH_C, PT_PH_S, PT_PH_F };

/* A kineto kernel carries up to 17 keys (cupti.md §7.4: External id, queued, device, context, stream,
 * correlation, registers, shared memory, blocks and warps per SM, grid, block, occupancy, graph and
 * node ids, channel and its type) */
#define PT_TRACE_MAX_ARGS 24

struct pt_trace_ev {
	uint8_t ph;
	uint8_t nargs;
	uint16_t cat;            /* X: index into pt_trace.cats */
	uint32_t row;            /* X, s, f: index into rows; C: into counters */
	uint32_t flow;           /* s, f: index into the flows (0 .. nflows - 1, in id order) */
	int64_t ts, dur;         /* dur: X only (>= 0) */
	struct pt_trace_str name; /* X, C */
	/*
	 * gkey != 0: the arguments begin with a group that is the same for
	 * every event with this gkey (1 .. nkeys, apart from the texts' keys).
	 * The first event of a group after a rewind carries its gn arguments in
	 * a[0 .. gn); later ones carry gn = 0 and only the arguments after the
	 * group, so a writer keeps what it made of the group the first time.
	 */
	uint32_t gkey;
	uint8_t gn;
	/* rkey != 0: a second group, the same way (rn arguments or none), at a[rat] (after the arguments before it) */
	uint32_t rkey;
	uint8_t rn, rat;
	struct pt_trace_arg a[PT_TRACE_MAX_ARGS];
};

struct pt_trace_proc {
	uint32_t pid;
	char *name;
	const char *labels;  /* process_labels: NULL none (kineto: "CPU" for a host process) */
	bool shown;          /* has a process_name entry */
	bool device;         /* kineto: a device process (its labels are its name), else labels "CPU" */
	uint32_t sort_index;
};

struct pt_trace_row {
	uint32_t pid, tid;
	int32_t sort;
	char *name;
};

struct pt_trace_counter {
	uint32_t pid, tid;
	bool own_row;        /* the first counter on a row of its own: that row is named "Counters" */
};

struct pt_trace_rank {
	uint32_t rank;
	int64_t offset_ns;
};

/* A device of "deviceProperties": id, name, then nkeys integer keys in the order given (Kineto's names). */
#define PT_TRACE_DEVPROP_KEYS 12
struct pt_trace_devprop {
	int64_t id;
	const char *name;    /* NULL: none */
	uint32_t nkeys;
	const char *key[PT_TRACE_DEVPROP_KEYS];
	uint64_t v[PT_TRACE_DEVPROP_KEYS];
};

struct pt_trace {
	enum pt_trace_profile profile;
	uint32_t rank;                 /* kineto: the rank of this file */
	/* distributedInfo of a file of one rank (kineto, or a viewer file of one rank): 0 / NULL unknown */
	int32_t world_size;
	const char *backend;
	const char *clock;             /* the export clock domain */
	int64_t base_ns;
	size_t nranks;
	struct pt_trace_rank *ranks;   /* ascending */
	size_t ndevprops;
	struct pt_trace_devprop *devprops; /* viewer: every device; kineto: the rank's */
	uint64_t overflow_events, unaligned_events, unanchored_samples, scope_skipped;
	size_t nprocs;
	struct pt_trace_proc *procs;
	size_t nrows;
	struct pt_trace_row *rows;
	size_t ncounters;
	struct pt_trace_counter *counters;
	size_t nflows;
	const char *const *cats;       /* category names */
	size_t ncats;
	uint32_t nkeys;                /* pt_trace_str keys are 1 .. nkeys */
	/* step boundaries: the distinct ts of the Steps slices, ascending, and the step of each */
	size_t nbounds;
	const int64_t *bounds;
	const uint32_t *bound_step;
	/* the events */
	bool (*next)(struct pt_trace *t, struct pt_trace_ev *ev);
	void (*rewind)(struct pt_trace *t);
	/* counter c's last sample delivered so far, at ts; false when there is none */
	bool (*counter_last)(struct pt_trace *t, uint32_t c, int64_t ts, struct pt_trace_ev *ev);
	/*
	 * NULL, or: did the events end early since the last rewind (an input
	 * read again as the events are made failed)? 0, or -1 with *e set: then
	 * what was written of them must not stay.
	 */
	int (*failed)(struct pt_trace *t, struct pt_err **e);
};

#endif
