# Helper of the hostile-*.t cases (sourced by them; not a case itself).
#
# limited KiB CMD...: run CMD under `ulimit -v`; an ASan build reserves
# terabytes of address space for its shadow, so there the limit is ASan's
# max_allocation_size_mb instead (any single larger allocation is a report);
# under valgrind (tests/valgrind-e2e) no limit applies
limited() {
	local kb=$1
	shift
	if grep -q -a -e valgrind "$PROFTOOL" 2>/dev/null; then
		"$@"
	elif grep -q -a -e __asan_init "$PROFTOOL" 2>/dev/null; then
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=$((kb / 1024)):allocator_may_return_null=0" "$@"
	else
		(ulimit -v "$kb" && "$@")
	fi
}
