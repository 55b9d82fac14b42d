# proftool summary: the api and gpu views count every API and activity record of a dump exactly once
# (issue #12). A description with 300 launches, 120 copies (three directions), 60 fills and 40
# synchronizations on two threads and two streams; the view totals are compared with the records.
{
	echo 'header cupti=130001 pid=77 flags=default-clock,rewritten,system-tids'
	echo 'kinds default'
	echo 'clock cupti=1 real=1'
	echo 'process rank=3 exe=app cmdline=app comm=app'
	echo 'buffer'
	echo '  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7'
	echo '  range UserRange "ProfilerStep#1" start=1000000 end=9000000 thread=77 id=1'
	t=1000100 c=1
	for i in $(seq 1 520); do
		tid=$((77 + i % 2)) s=$((7 + i % 2)) d=$((i % 7 * 10 + 5))
		if [ $((i % 13)) -eq 0 ]; then
			echo "  rec RUNTIME cbid=131 start=$t end=$((t + d + 40)) processId=77 threadId=$tid correlationId=$c"
		elif [ $((i % 4)) -eq 1 ]; then
			echo "  rec RUNTIME cbid=41 start=$t end=$((t + d)) processId=77 threadId=$tid correlationId=$c"
			echo "  rec MEMCPY copyKind=$((i % 3 + 1)) srcKind=2 dstKind=3 bytes=$((i * 100)) start=$((t + 50)) end=$((t + 50 + d)) deviceId=0 contextId=1 streamId=$s correlationId=$c"
		elif [ $((i % 8)) -eq 2 ]; then
			echo "  rec RUNTIME cbid=51 start=$t end=$((t + 5)) processId=77 threadId=$tid correlationId=$c"
			echo "  rec MEMSET value=0 bytes=$((i * 10)) start=$((t + 20)) end=$((t + 20 + d)) deviceId=0 contextId=1 streamId=$s correlationId=$c memoryKind=3"
		else
			echo "  rec RUNTIME cbid=211 start=$t end=$((t + 7)) processId=77 threadId=$tid correlationId=$c"
			echo "  rec CONCURRENT_KERNEL start=$((t + 30 + i % 5)) end=$((t + 130 + i)) deviceId=0 contextId=1 streamId=$s correlationId=$c name=\"k$((i % 5))\""
		fi
		t=$((t + 500)) c=$((c + 1))
	done
	echo 'end-buffer'
	echo 'clock cupti=9000000 real=9000000 reason=2'
	echo 'end'
} > many.cdtxt
run proftool-gen cupti many.cdtxt -o many.cdump
run proftool import many.cdump -o many.ptm
run "rm -rf v; proftool summary many.ptm --view api,gpu --format csv -o v/ && tail -n +1 v/*.csv"
# records: API calls and durations from `export --table api`, kernels from `export --table kernels`,
# copies and fills from the description; totals from the views must be equal
run 'proftool export many.ptm --table api --format csv | awk -F, "NR>1 {n++; s+=\$5} END {print \"api records\", n, s}"'
run 'proftool summary many.ptm --view api --format csv | awk -F, "NR>1 {n+=\$3; s+=\$4} END {print \"api view   \", n, s}"'
run 'proftool export many.ptm --table kernels --format csv | awk -F, "NR>1 {n++; s+=\$6} END {print \"kernel records\", n, s}"'
run 'proftool summary many.ptm --view gpu --format csv | awk -F, "NR>1 && \$2==\"kernel\" {n+=\$4; s+=\$5} END {print \"gpu view kernels\", n, s}"'
run 'awk "/rec MEMCPY|rec MEMSET/ {for (i=1;i<=NF;i++) {if (\$i ~ /^start=/) a=substr(\$i,7); if (\$i ~ /^end=/) b=substr(\$i,5)} n++; s+=b-a} END {print \"copy+fill records\", n, s}" many.cdtxt'
run 'proftool summary many.ptm --view gpu --format csv | awk -F, "NR>1 && \$2!=\"kernel\" {n+=\$4; s+=\$5} END {print \"gpu view copies+fills\", n, s}"'
run 'proftool summary many.ptm --view gpu --format csv | awk -F, "NR>1 {n+=\$11} END {print \"launch pairs\", n}"'
