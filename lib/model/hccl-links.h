/*
 * HCCL link statistics (ascend.md §3.10) from the HCCL trace events of the
 * model (struct pt_hccl_task): shared derived data for the hints pass
 * (SLOW_LINK and the rank table's per-link bandwidth).
 */
#ifndef PT_HCCL_LINKS_H
#define PT_HCCL_LINKS_H
#include <stddef.h>
#include <stdint.h>

struct pt_ivset;
struct pt_model;

struct pt_hccl_link {
	uint32_t src, dst;  /* ranks after the rules of §3.10 (LOCAL swapped, 0xffffffff = the other rank) */
	uint32_t type;      /* string id of the transport type (RDMA, SDMA, HCCS, ...) */
	int64_t time_ns;    /* SDMA: Σ dur of Reduce Inline and Memcpy; RDMA: Σ dur of the transfer triples */
	int64_t wait_ns;    /* RDMA: Σ dur of the triples' Notify Wait; 0 otherwise */
	uint64_t size;      /* bytes */
	uint64_t count;     /* events (SDMA) or transfers (RDMA) counted */
};

/*
 * Add the links of device index dev to *v (n entries, cap capacity; entries
 * with the same (src, dst, type) accumulate), over the executions (HCCL
 * files) whose first event starts in W, or all of them when W is NULL.
 *  - A link is keyed by its ranks: "src rank" and "dst rank", 0xffffffff
 *    replaced by the other rank, swapped for LOCAL transport.
 *  - RDMA: per execution, link and tid, consecutive triples (RDMASend,
 *    RDMASend, Notify Wait) of the link's RDMA and LOCAL events are one
 *    transfer: time += the three durations, wait += the third, size += the
 *    two sizes. LOCAL events join a link only when it has RDMA events.
 *  - Every other transport type (SDMA, and HCCS, PCIE, ... by the same
 *    rule): time and size summed over the Reduce Inline and Memcpy events.
 */
void pt_hccl_links_add(const struct pt_model *m, uint32_t dev, const struct pt_ivset *W, struct pt_hccl_link **v,
		       size_t *n, size_t *cap);

/* Bandwidth in KB/ms (10^3 bytes per 10^6 ns), 0 when size or time is 0. */
double pt_hccl_link_kb_per_ms(const struct pt_hccl_link *l);

#endif
