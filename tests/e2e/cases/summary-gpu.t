# proftool summary: the gpu, api and memcpy views (summary.md §3.11, §3.12, §8.7) on a generated CUPTI dump.
run proftool-gen cupti "'$SRC/tests/gen/cases/summary-gpu.cdtxt'" -o gpu.cdump
run proftool summary gpu.cdump --view gpu,api --time-unit ns
run proftool summary gpu.cdump --view device,overview,memcpy,gpu,api --format csv
run proftool summary gpu.cdump --view memcpy --time-unit ns
run proftool summary gpu.cdump --view gpu,api --no-demangle --format jsonl
# cutoff 0 us: every pair with a positive queue delay is an outlier (2, 1, 0, 1, 1)
run proftool summary gpu.cdump --view gpu --hint hints.launch.queue_delay_us=0 --hint hints.launch.runtime_us=0.015 --time-unit ns
run proftool summary gpu.cdump --view api --sorted-by cpu-min --time-unit ns
run proftool summary gpu.cdump --view gpu --sorted-by calls --name 'CUDA' --top 2 --format csv
run proftool summary gpu.cdump --view kernel,gpu,api --time-window 0:300ns --format csv
run proftool summary gpu.cdump --view api --hint hints.launch.queue_delay_us=x
run proftool summary gpu.cdump --view api --hint queue=1
run 'proftool summary gpu.cdump --comm-pattern "("'
# malformed and truncated dumps
run 'head -c 40 gpu.cdump > short.cdump; proftool summary short.cdump'
run 'head -c 900 gpu.cdump > cut.cdump; proftool summary cut.cdump --view api,gpu --format csv'
