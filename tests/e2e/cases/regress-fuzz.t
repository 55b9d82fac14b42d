# Inputs that once crashed or tripped a sanitizer (testdata/regress/README.md
# says what each one found and which fix made it pass). Each directory is
# imported as a job, each .ptm is read; the transcript shows exit status and
# messages, and that the model of a successful import dumps cleanly.
for d in "$SRC"/testdata/regress/*/; do
	d=${d%/}
	n=$(basename "$d")
	run proftool import "'$d'" -o "$n.ptm"
	[ -f "$n.ptm" ] && run "proftool dump $n.ptm >/dev/null"
done
for f in "$SRC"/testdata/regress/*.ptm; do
	[ -f "$f" ] || continue
	run proftool info "'$f'"
done
# The memory pass on memory-size-overflow (tests/fuzz/README.md, finding 7):
# tensor sizes near 2^64 and static memory near ±2^63 are summed exactly and
# clamped to int64, in every view and format
for by in op time pool; do
	for f in table csv json; do
		run proftool memory memory-size-overflow.ptm --by $by --format $f
	done
done
