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
