/*
 * LD_PRELOAD shim for tests/e2e/cases/hostile-signals.t: when the program
 * renames a "*.tmp.*" file into place (pt_out_commit), first send it the
 * signal PT_TEST_SIGNAL (a number). The signal thus arrives at a known point,
 * while the temporary file exists and is complete, with no timing involved.
 * Build: cc -shared -fPIC -o signal-at-rename.so signal-at-rename.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	const char *sig = getenv("PT_TEST_SIGNAL");
	if (sig && strstr(from, ".tmp."))
		kill(getpid(), atoi(sig));
	if (!real)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	return real(from, to);
}
