/*
 * bench-sqlite FILE: libsqlite3 alone on an Nsight Systems export (the ceiling of the nsys
 * importer, which reads with it): the importer's queries (the same tables and columns, rowid
 * first), opened as it opens the file (read-only, immutable, no mutex, the same cache), every
 * row stepped and every value taken by type and integer, nothing else done. Prints the rows.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

static const char *const queries[] = {
	"SELECT rowid, start, \"end\", eventClass, globalTid, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME",
	"SELECT rowid, start, \"end\", deviceId, streamId, correlationId, globalPid, demangledName, shortName, gridX, "
	"gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, dynamicSharedMemory "
	"FROM CUPTI_ACTIVITY_KIND_KERNEL",
	"SELECT rowid, start, \"end\", deviceId, streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind, "
	"srcDeviceId, dstDeviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY",
	"SELECT rowid, start, \"end\", deviceId, streamId, correlationId, globalPid, bytes, memKind "
	"FROM CUPTI_ACTIVITY_KIND_MEMSET",
	"SELECT rowid, start, \"end\", deviceId, streamId, correlationId, globalPid, syncType, eventId "
	"FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
	"SELECT rowid, start, \"end\", eventType, rangeId, text, globalTid, textId, domainId FROM NVTX_EVENTS",
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: bench-sqlite FILE.sqlite\n");
		return 2;
	}
	char uri[4096];
	snprintf(uri, sizeof(uri), "file:%s?immutable=1", argv[1]);
	sqlite3 *db;
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL)) {
		fprintf(stderr, "bench-sqlite: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	sqlite3_exec(db, "PRAGMA cache_size=-16384", NULL, NULL, NULL);
	uint64_t rows = 0, sum = 0;
	for (size_t q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, queries[q], -1, &st, NULL))
			continue; /* a table the export lacks */
		int nc = sqlite3_column_count(st);
		while (sqlite3_step(st) == SQLITE_ROW) {
			rows++;
			for (int i = 0; i < nc; i++) {
				sqlite3_value *v = sqlite3_column_value(st, i);
				if (sqlite3_value_type(v) == SQLITE_INTEGER)
					sum += (uint64_t)sqlite3_value_int64(v);
			}
		}
		sqlite3_finalize(st);
	}
	printf("%llu rows (checksum %llu)\n", (unsigned long long)rows, (unsigned long long)sum);
	sqlite3_close(db);
	return 0;
}
