# proftool hints, rule by rule, on generated single-process CUPTI dumps: the step-time and idle-time
# rules (hints.md §2.1, §2.2, §3; §6 cases 1, 2, 6, 8, 14). For each rule a dump that fires it and one
# that does not, each in every output format with the other rules off; further severities in CSV only
# (helpers: hints-rules.sh; times are µs after the start of the trace).
. "$SRC/tests/e2e/cases/hints-rules.sh"

# INPUT_BOUND (case 1, steps of 100 µs): per step a Dataloader range of L µs at the step start that no
# device work or runtime call overlaps, then a kernel to the step end. L = 25 -> crit, 10 -> warn, 4 -> none.
for L in 25 10 4; do
	begin input$L.cdtxt
	for s in 0 100 200 300; do
		rng "ProfilerStep#$((s / 100 + 1))" $s $((s + 100))
		rng "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__" $s $((s + L))
		kern gemm $((s + L)) $((s + 100)) $((s + L)) $((s + L + 1))
	done
	finish
done
formats input25.cdump INPUT_BOUND
one input10.cdump INPUT_BOUND
formats input4.cdump INPUT_BOUND

# UNEXPLAINED_TIME (case 2): one 100 µs step, a kernel [0,50), a host range [50,E), nothing after E:
# E = 80 -> other_pct 20.0 warn, 95 -> 5.0 info, 100 -> none
for E in 80 95 100; do
	begin unexplained$E.cdtxt
	rng "ProfilerStep#1" 0 100
	kern gemm 0 50 0 1
	rng "optimizer.step" 50 $E
	finish
done
formats unexplained80.cdump UNEXPLAINED_TIME
one unexplained95.cdump UNEXPLAINED_TIME
formats unexplained100.cdump UNEXPLAINED_TIME

# LOW_DEVICE_UTIL (case 6): summary.md §8.2 (GPU 0 busy 18.75% of the window) -> warn; §8.3 (55.00%) -> none
for c in 1 2; do
	run proftool-gen cupti "'$SRC/tests/gen/cases/summary-case$c.cdtxt'" -o case$c.cdump
done
formats case1.cdump LOW_DEVICE_UTIL
formats case2.cdump LOW_DEVICE_UTIL

# DEVICE_IDLE (case 8, W = [0,1000)): k1 [0,100); k2 [400,500) launched at 350, after the gap [100,400)
# began (host_wait); k3 [510,900) launched at 300 (gap [500,510) of 10 us < 30 us: kernel_wait); the tail
# [900,1000) is other. Idle 41.0%, host_wait 73.2% -> warn host_wait; with hints.idle.class_pct=80 -> info.
begin idle8.cdtxt
rng "ProfilerStep#1" 0 1000
kern k1 0 100 0 1
kern k2 400 500 350 360
kern k3 510 900 300 310
finish
formats idle8.cdump DEVICE_IDLE
one 'idle8.cdump --hint hints.idle.class_pct=80' DEVICE_IDLE
# ten kernels of 90 us launched up front: ten gaps of 10 us, the tail one too (kernel_wait: 100 us, all of
# the idle time, 10.0% of W) -> warn kernel_wait
begin backtoback.cdtxt
rng "ProfilerStep#1" 0 1000
for i in 0 1 2 3 4 5 6 7 8 9; do kern k$i $((i * 100)) $((i * 100 + 90)) $i $((i + 1)); done
finish
one backtoback.cdump DEVICE_IDLE
# one kernel [0,500), then nothing: the idle half is other -> warn other; [0,950): idle 5% -> none
for E in 500 950; do
	begin tail$E.cdtxt
	rng "ProfilerStep#1" 0 1000
	kern k1 0 $E 0 1
	finish
done
one tail500.cdump DEVICE_IDLE
formats tail950.cdump DEVICE_IDLE

# MEM_OPS_CRITICAL (case 14, step [0,100)): computation [0,50), HtoD copy [40,70), memset [68,74),
# collective [80,90): memcpy_t 20 + memset_t 4 -> 24.0% warn, HtoD 83.3%. The copy at [50,58) and no
# memset -> 8.0% info; at [10,40) (hidden by the kernel) -> 0, none.
memops() { # NAME COPY_START COPY_END MEMSET
	begin $1.cdtxt
	rng "ProfilerStep#1" 0 100
	kern gemm 0 50 0 1
	copy "$2" "$3" 1 2
	[ "$4" = memset ] && fill 68 74 2 3
	kern ncclKernel_AllReduce 80 90 3 4
	finish
}
memops mem24 40 70 memset
memops mem8 50 58 no
memops mem0 10 40 no
formats mem24.cdump MEM_OPS_CRITICAL
one mem8.cdump MEM_OPS_CRITICAL
formats mem0.cdump MEM_OPS_CRITICAL
