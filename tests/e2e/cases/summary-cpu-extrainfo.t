# CPU(Process) and CPU(System) of the Device view from the run CPU utilisation markers of a CUPTI
# dump (summary.md §3.1, §8.0; cupti.md, domain ExtraInfo): Paddle's statistic case 1 gives 102.00
# and 68.00; the values survive a model file and every format; repeats and bad markers are counted
# (tests/gen/cases/cupti-extrainfo.cdtxt) and a bad one never gives a row.
run proftool-gen cupti "'$SRC/tests/gen/cases/summary-case1.cdtxt'" -o case1.cdump
run proftool summary case1.cdump --view device
run proftool summary case1.cdump --view device --format json
run "proftool import case1.cdump -o case1.ptm 2>/dev/null && proftool summary case1.ptm --view device --format csv"
run "proftool dump case1.ptm | grep -o 'cpu_[a-z]*=[0-9.]*'"
# not point events: the markers add no event, no thread row in the timeline
run "proftool info case1.cdump | grep -E '^events '"
run "proftool timeline case1.cdump -o - | grep -c 'Cpu Utilization'"
# malformed: the later process value in time wins, every system value is bad
run proftool-gen cupti "'$SRC/tests/gen/cases/cupti-extrainfo.cdtxt'" -o bad.cdump
run proftool summary bad.cdump --view device --format csv
run "proftool info bad.cdump | grep extra_info"
run "proftool summary bad.cdump --view userdefined --format csv | cut -d, -f1-4"
