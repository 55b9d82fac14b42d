/*
 * The stride probe of cupti.md §5.4/§8.1 against the installed libcupti (no
 * GPU needed): for every kind the layout table decodes, the stride libcupti's
 * own iterator gives must equal the size of the table's struct for that
 * library's version range. Kinds the table lacks are printed, not checked.
 * Exit 77 (skipped) when the library's version has no layout range.
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>

#include "cupti/cupti-layouts.h"

int main(void)
{
	uint32_t version = 0;
	if (cuptiGetVersion(&version) != CUPTI_SUCCESS) {
		puts("skipped: cuptiGetVersion failed");
		return 77;
	}
	if (pt_cl_range_of(version) < 0) {
		printf("skipped: no layout range for CUPTI %u yet\n", version);
		return 77;
	}
	static uint32_t buf[16384];
	int bad = 0;
	for (uint32_t k = 1; k < CUPTI_ACTIVITY_KIND_COUNT; k++) {
		for (size_t i = 0; i < sizeof(buf) / 4; i++)
			buf[i] = k;
		CUpti_Activity *r1 = NULL, *r2;
		uint32_t stride = 0;
		if (cuptiActivityGetNextRecord((uint8_t *)buf, sizeof(buf), &r1) == CUPTI_SUCCESS) {
			r2 = r1;
			if (cuptiActivityGetNextRecord((uint8_t *)buf, sizeof(buf), &r2) == CUPTI_SUCCESS)
				stride = (uint32_t)((uint8_t *)r2 - (uint8_t *)r1);
		}
		if (!pt_cl_fields(k)) {
			uint32_t want = pt_cl_other_stride(k);
			if (want && version >= 130000 && version <= 130099 && want != stride) {
				printf("kind %u %s: probed stride %u, spec says %u\n", k, pt_cl_kind_name(k), stride, want);
				bad = 1;
			}
			continue;
		}
		const struct pt_cl_layout *l = pt_cl_find(version, k, stride, NULL);
		printf("kind %2u %-22s stride %3u %s\n", k, pt_cl_kind_name(k), stride, l ? l->strct : "NO LAYOUT");
		if (!l)
			bad = 1;
	}
	return bad;
}
