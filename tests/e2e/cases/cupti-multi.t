# CUPTI: several dumps of one job (one per rank) import into one model, one device set per process.
for r in 0 1; do
cat >rank$r.cdtxt <<EOD
header cupti=130001 pid=$((100 + r)) flags=default-clock,rewritten,system-tids
kinds default
clock cupti=5000000000 real=5000000000
process rank=$r world_size=2 comm=train
buffer
  rec RUNTIME cbid=211 start=5000000100 end=5000000300 processId=$((100 + r)) threadId=$((100 + r)) correlationId=3
  rec CONCURRENT_KERNEL start=5000000400 end=5000000900 deviceId=$r contextId=1 streamId=7 correlationId=3 name="ncclKernel_AllReduce" gridX=2 gridY=1 gridZ=1 blockX=512 blockY=1 blockZ=1
end-buffer
end
EOD
done
mkdir job
run proftool-gen cupti rank0.cdtxt -o job/cupti-host-100.cdump
run proftool-gen cupti rank1.cdtxt -o job/cupti-host-101.cdump
run proftool import job -o job.ptm
run proftool export job.ptm --table kernels --format csv
run proftool export job.ptm --table api --format csv
run proftool dump job.ptm
