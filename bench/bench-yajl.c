/*
 * bench-yajl FILE: yajl alone on a JSON file (the ceiling of the Kineto importer, which
 * parses with yajl): the text read in 1 MiB pieces and parsed with callbacks that take
 * every number, string and key and do nothing, strings not validated (as the importer).
 */
#include <stdio.h>
#include <yajl/yajl_parse.h>

static int num(void *c, const char *s, size_t n)
{
	(void)c, (void)s, (void)n;
	return 1;
}
static int str(void *c, const unsigned char *s, size_t n)
{
	(void)c, (void)s, (void)n;
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: bench-yajl FILE\n", stderr);
		return 2;
	}
	yajl_callbacks cb = { 0 };
	cb.yajl_number = num;
	cb.yajl_string = str;
	cb.yajl_map_key = str;
	yajl_handle h = yajl_alloc(&cb, NULL, NULL);
	yajl_config(h, yajl_dont_validate_strings, 1);
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	static unsigned char buf[1 << 20];
	size_t r;
	int rc = 0;
	while (!rc && (r = fread(buf, 1, sizeof(buf), f)) > 0)
		rc = yajl_parse(h, buf, r) != yajl_status_ok;
	if (!rc)
		rc = yajl_complete_parse(h) != yajl_status_ok;
	fclose(f);
	yajl_free(h);
	if (rc)
		fputs("bench-yajl: invalid JSON\n", stderr);
	return rc;
}
