# proftool summary's memcpy view of a GPU rank with host ranges read as a stream sums each runtime
# copy call as it comes, its copies' time and bytes from the read of the calls (proftool-summary(1)
# MEMORY): the same bytes as --in-memory, which loads the model whole, in every format, with steps
# and time windows, on a Kineto trace of 1,000 steps (twelve event batches) where a call's copies lie
# apart with another call's between them, a copy starts before its call, a call launches nothing and
# a memory-manipulation range holds a copy call; and on a generated trace of three event batches.
# The steps' own names are not output names: ProfilerStep ranges of equal start and end on a thread
# sort by name as the whole load sorts them. A truncated model fails as the whole load does.
cat > mk.sh <<'SH'
# mk.sh STEPS: the Kineto trace m.json
ev() { printf '{"ph": "X", "cat": "%s", "name": "%s", "pid": 4, "tid": %s, "ts": %s, "dur": %s, "args": {%s}},\n' "$@"; }
cpy() { printf '{"ph": "X", "cat": "gpu_%s", "name": "%s", "pid": 0, "tid": 7, "ts": %s, "dur": %s, "args": {"device": 0, "stream": 7, "correlation": %s, "bytes": %s}},\n' "$@"; }
{
	echo '{"schemaVersion": 1, "baseTimeNanoseconds": 1000000000, "traceEvents": ['
	for s in $(seq 1 $1); do
		b=$(( (s - 1) * 1000 )) c=$(( s * 10 ))
		ev user_annotation "ProfilerStep#$s" 10 $b 1000 ''
		ev user_annotation 'staging_memcpy' 10 $((b + 20)) 300 ''
		ev cuda_runtime cudaMemcpyAsync 10 $((b + 30)) 10 "\"correlation\": $c"
		ev cuda_runtime cudaMemsetAsync 10 $((b + 400)) 5 "\"correlation\": $((c + 1))"
		ev cuda_runtime cudaMemcpyAsync 10 $((b + 500)) $((s % 7 + 4)) "\"correlation\": $((c + 2))"
		ev cuda_runtime cudaMemcpy 20 $((b + 600)) 6 "\"correlation\": $((c + 3))"
		cpy memcpy 'Memcpy HtoD (Pageable -> Device)' $((b + 15)) $((s % 5 + 20)) $((c + 2)) $((s * 4096))
		cpy memcpy 'Memcpy HtoD (Pageable -> Device)' $((b + 40)) 30 $c 8192
		cpy memset 'Memset (Device)' $((b + 410)) 10 $((c + 1)) 512
		cpy memcpy 'Memcpy DtoD (Device -> Device)' $((b + 450)) $((s % 3 + 25)) $c 2048
		cpy memcpy 'Memcpy HtoD (Pageable -> Device)' $((b + 520)) 20 $((c + 2)) 1024
	done
	# two steps of equal start and end on a thread
	ev user_annotation "ProfilerStep#$(($1 + 2))" 10 $(($1 * 1000)) 500 ''
	ev user_annotation "ProfilerStep#$(($1 + 1))" 10 $(($1 * 1000)) 500 ''
	ev cuda_runtime cudaMemcpyAsync 10 $(($1 * 1000 + 10)) 7 "\"correlation\": 1"
	cpy memcpy 'Memcpy HtoD (Pageable -> Device)' $(($1 * 1000 + 20)) 40 1 100
	echo '{"ph": "i", "s": "t", "name": "end", "pid": 4, "tid": 10, "ts": '$(($1 * 1000 + 999))'}'
	echo ']}'
} >m.json
SH
run 'bash mk.sh 1000 && proftool import m.json -o m.ptm 2>/dev/null && echo imported'
proftool-gen kineto "$SRC"/testdata/kineto/train-current.ktdesc -o k.pt.trace.json --scale 3M >/dev/null
run 'proftool import k.pt.trace.json -o k.ptm 2>/dev/null && echo imported'
run proftool summary m.ptm --view memcpy --steps 3-5
run "for f in m k; do for w in memcpy overview all; do for v in '' '--format csv' '--format json' '--steps 2' '--steps 2-3 --format csv' '--time-window 0:1.5ms' '--time-window 1ms:300ms --format json'; do proftool summary \$f.ptm --view \$w \$v > a.txt 2>&1; ra=\$?; proftool summary \$f.ptm --in-memory --view \$w \$v > b.txt 2>&1; rb=\$?; cmp -s a.txt b.txt && [ \$ra = \$rb ] && echo \"same: \$f \$w \$v (exit \$ra)\" || echo \"DIFFERS: \$f \$w \$v\"; done; done; done"
# a truncated model: the error names the file and the offset, exit 1, as a full read's
run 'head -c $(( $(stat -c %s m.ptm) * 2 / 3 )) m.ptm > cut.ptm; for v in "--view memcpy" "--view all"; do proftool summary cut.ptm $v; echo "exit $?"; proftool summary cut.ptm --in-memory $v; echo "exit $?"; done'
