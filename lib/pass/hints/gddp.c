/*
 * What USE_DDP and DDP_WITHOUT_NCCL read of a GPU .ptm file's host ranges
 * (util.c hx_ddp: per host, its ranges named DataParallel.forward and
 * DistributedDataParallel.forward, and whether one is named nccl:*), counted
 * as the streamed pass's first read passes the events (gstream.c, the steps'
 * scan hook): a byte per string, three counts per device.
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <string.h>

#include "model/model.h"
#include "support/xalloc.h"

enum { N_DP = 1, N_DDP = 2, N_NCCL = 4, N_SEEN = 8 };

static uint8_t name_mark(const char *s)
{
	static const char *const nc[] = { "nccl:broadcast", "nccl:reduce", "nccl:all_reduce", "nccl:all_gather",
					  "nccl:reduce_scatter", NULL };
	uint8_t k = N_SEEN | (!strcmp(s, "DataParallel.forward") ? N_DP : 0) |
		    (!strcmp(s, "DistributedDataParallel.forward") ? N_DDP : 0);
	for (size_t q = 0; nc[q]; q++)
		if (!strcmp(s, nc[q]))
			k |= N_NCCL;
	return k;
}

void hx_gddp_scan(struct hx_gddp *x, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_RANGE)
			continue;
		uint32_t nm = ev->name[i];
		if (nm >= x->nnm && nm < m->strings.n) {
			x->mark = pt_xrealloc(x->mark, m->strings.n);
			memset(x->mark + x->nnm, 0, m->strings.n - x->nnm);
			x->nnm = m->strings.n;
		}
		uint8_t one = 0, *k = nm < x->nnm ? &x->mark[nm] : &one;
		if (!*k)
			*k = name_mark(pt_model_strget(m, nm));
		if (!(*k & (N_DP | N_DDP | N_NCCL)))
			continue;
		uint32_t dv = m->tracks.v[ev->track[i]].device;
		if (dv >= x->ndev) {
			size_t n = m->devices.n > dv ? m->devices.n : dv + 1;
			x->dev = pt_xrealloc(x->dev, n * sizeof(*x->dev));
			memset(x->dev + x->ndev, 0, (n - x->ndev) * sizeof(*x->dev));
			x->ndev = n;
		}
		struct ddpfig *f = &x->dev[dv];
		f->dp += !!(*k & N_DP);
		f->ddp += !!(*k & N_DDP);
		f->nccl |= !!(*k & N_NCCL);
	}
}

void hx_gddp_rank(const struct hx_gddp *x, uint32_t host, struct hx_srank *sr)
{
	if (host < x->ndev)
		sr->ddp = x->dev[host];
}

void hx_gddp_free(struct hx_gddp *x)
{
	free(x->mark);
	free(x->dev);
	memset(x, 0, sizeof(*x));
}
