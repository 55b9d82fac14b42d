/*
 * Inside the steps pass: what pass-steps.c (the step windows and the
 * `steps` tables) and pass-steps-cover.c (launch anchors and coverage)
 * share. Not for other passes: they use pass-steps.h.
 */
#ifndef PT_PASS_STEPS_INT_H
#define PT_PASS_STEPS_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "pass/pass-steps.h"

/* A GPU activity: the device work a launch makes. */
static inline bool pt_steps_is_activity(uint8_t k)
{
	return k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET;
}

/* GPU devices without a recorded process (by_pid false): owner[dev] becomes the index into
 * hosts[0..nh) of the host whose API calls launched most of the device's activities (correlation
 * ids are per process: they vote only when the pid is unknown); ties keep the lower index. */
void pt_steps_vote_hosts(const struct pt_model *m, const uint32_t *hosts, size_t nh, const bool *by_pid,
			 uint32_t *owner);

/* The span of each rank's device data, and the kept steps it meets
 * (after the steps are selected): has_dev, dev_s, dev_e, covered, nkept, ncovered. */
void pt_steps_cover(const struct pt_model *m, struct pt_rank_steps *rs, size_t n);

#endif
