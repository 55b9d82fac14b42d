/*
 * peak-rss CMD [ARG...]: run CMD, its output to /dev/null, and print its peak
 * resident set size in KiB (ru_maxrss from wait4). A small C program, so that
 * the image the child had before exec (counted in ru_maxrss) is this one's
 * few hundred KiB, not a Python interpreter's. Exit status: CMD's, or 127.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: peak-rss CMD [ARG...]\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("peak-rss: fork");
		return 127;
	}
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("peak-rss: wait4");
		return 127;
	}
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}
