/*
 * chrome-check FILE...: check Chrome trace files with tests/unit/chrome-check.h
 * and print one summary line per file. Exit 0 when all pass, 1 otherwise.
 * The e2e timeline cases build it with: cc tests/chrome-check.c -ljansson -lz -lm
 */
#include "unit/chrome-check.h"

int main(int argc, char **argv)
{
	int bad = 0;
	for (int a = 1; a < argc; a++) {
		struct chrome_check r;
		if (chrome_check_file(argv[a], &r, 0)) {
			printf("%s: FAIL: %s\n", argv[a], r.err);
			bad = 1;
			continue;
		}
		printf("%s: ok: events=%zu M=%zu X=%zu C=%zu s=%zu f=%zu pids=%zu tids=%zu\n", argv[a], r.events, r.m, r.x,
		       r.c, r.s, r.f, r.pids, r.tids);
	}
	return bad;
}
