/*
 * Ascend memory curve figures (ascend.md §3.13), derived from the memory
 * graphs of the model: a graph's peak and its node, and the time of a node.
 * Shared derived data for the hints pass (MEMORY_NEAR_CAPACITY).
 */
#ifndef PT_ASCEND_MEMORY_H
#define PT_ASCEND_MEMORY_H
#include <stdbool.h>
#include <stdint.h>

struct pt_model;

struct pt_amem_peak {
	int64_t peak;      /* max used[i] (bytes); static_mem for a graph without nodes */
	int64_t peak_node; /* the first node index reaching it, -1 without nodes */
	uint32_t node;     /* mem_nodes index of that node, UINT32_MAX without nodes */
};

/* Peak of graph g (index into m->mem_graphs) by the curve rules of §3.13. */
void pt_amem_graph_peak(const struct pt_model *m, uint32_t g, struct pt_amem_peak *out);

/*
 * Time of a curve point (§3.13 "Time"): the first start of an execution on
 * device index dev whose op's last name segment equals `node_name`. False
 * when no execution has that name.
 */
bool pt_amem_node_start(const struct pt_model *m, uint32_t dev, const char *node_name, int64_t *start);

/* Does an execution named task_name run node_name (its last name segment equals it, as above)? */
bool pt_amem_node_is(const char *task_name, const char *node_name);

/*
 * The peak of device index dev: that of its graph with the largest peak (the
 * first such) in *best, that graph's index in *graph, and the largest total_mem
 * of its graphs in *cap. False when the device has no memory graph.
 */
bool pt_amem_device_peak(const struct pt_model *m, uint32_t dev, struct pt_amem_peak *best, uint32_t *graph,
			 uint64_t *cap);

#endif
