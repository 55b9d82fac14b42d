# LOW_DEVICE_UTIL on Paddle's statistic cases (hints.md §6 case 6): summary.md §8.2 has GPU0 busy
# 18.75% of the step window -> warn; §8.3 has 55.00% -> no hint.
for c in 1 2; do
	run proftool-gen cupti "'$SRC/tests/gen/cases/summary-case$c.cdtxt'" -o case$c.cdump
done
run 'proftool hints case1.cdump --format csv | grep LOW_DEVICE_UTIL'
run 'proftool summary case1.cdump --view device --format csv'
run 'proftool hints case2.cdump --format csv | grep -c LOW_DEVICE_UTIL'
run 'proftool summary case2.cdump --view device --format csv'
