# proftool steps and hints on several CUPTI dumps of one job, one per rank (hints.md §2.4, §3 Cluster,
# PP_RECEIVE; §6 case 10). Every dump numbers its correlation ids from 1, as every process does: a GPU
# belongs to the rank of its own process (pid), never to the first rank that used the same ids. For
# each rule a job that fires it and one that does not, in every output format with the other rules off
# (helpers: hints-rules.sh; times are µs after the start of the trace).
. "$SRC/tests/e2e/cases/hints-rules.sh"
rank() { # JOB RANK: start the dump of rank RANK (process 4242 + RANK, GPU RANK) of JOB, written to
	#   JOB/rankRANK.cdump by `finish "$O"`
	mkdir -p "$1"
	begin "$1.$2.cdtxt" 9 1 "$2"
	O=$1/rank$2.cdump
}

# RANK_SPREAD (case 10): one step per rank, FREE µs before a kernel of COMP µs. Computation 100, 102,
# 108 ms -> spread 7.74% warn (max on rank 2, min on rank 0); free and preparing 10.0, 10.2, 10.4 ms ->
# 3.92%, none. `even`: computation 100, 101, 102 ms -> 1.96%, none.
spread() { # JOB COMP0 COMP1 COMP2
	local r comp free
	for r in 0 1 2; do
		comp=$(($2 + 0)) free=$((10000 + r * 200))
		[ $r = 1 ] && comp=$3
		[ $r = 2 ] && comp=$4
		rank "$1" $r
		rng "ProfilerStep#1" 0 $((free + comp))
		kern gemm $free $((free + comp)) 0 1
		finish "$O"
	done
}
spread skew 100000 102000 108000
spread even 100000 101000 102000
# each GPU is its own rank's, although the three dumps use the same correlation ids
run proftool steps skew --format csv
run proftool steps skew
run "proftool export skew --table api --format csv | cut -d, -f1-6"
formats skew RANK_SPREAD
formats even RANK_SPREAD
# one rank alone
run "proftool hints skew --device 1 --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep RANK_SPREAD"

# RANK_STEP_GAP: two ranks, three 10 ms steps; the device starts steps 2 and 3 GAP µs after the step
# began (the previous step's work ends at its end). Gaps 1 and 2 ms: rank 1 waits 33.3% more than the
# mean -> warn; 1 and 1.1 ms -> 4.8%, none.
gaps() { # JOB GAP0 GAP1
	local r g s
	for r in 0 1; do
		g=$2
		[ $r = 1 ] && g=$3
		rank "$1" $r
		for s in 0 10000 20000; do
			rng "ProfilerStep#$((s / 10000 + 1))" $s $((s + 10000))
			if [ $s = 0 ]; then kern gemm 0 10000 0 1; else kern gemm $((s + g)) $((s + 10000)) $s $((s + 1)); fi
		done
		finish "$O"
	done
}
gaps gapskew 1000 2000
gaps gapeven 1000 1100
formats gapskew RANK_STEP_GAP
formats gapeven RANK_STEP_GAP

# PP_RECEIVE: rank 0 computes all of its 100 µs step; rank 1 receives (ncclKernel_SendRecv) for RECV µs
# before computing. RECV = 30: 30 of 200 µs of step time, 15.0% -> warn; RECV = 10: 5.0% -> none.
recv() { # JOB RECV
	rank "$1" 0
	rng "ProfilerStep#1" 0 100
	kern gemm 0 100 0 1
	finish "$O"
	rank "$1" 1
	rng "ProfilerStep#1" 0 100
	kern ncclKernel_SendRecv 0 "$2" 0 1 8
	kern gemm "$2" 100 1 2
	finish "$O"
}
recv recv30 30
recv recv10 10
formats recv30 PP_RECEIVE
formats recv10 PP_RECEIVE
