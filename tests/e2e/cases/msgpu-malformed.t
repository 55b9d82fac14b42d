# A malformed MindSpore GPU profiler directory fails the import naming the file and the
# line (exit 1, no model file written): a bad line, a truncated file, unknown columns,
# units or tags, a missing start_time_<d>.txt, bad step-trace points.
M='$SRC/testdata/msgpu'
fresh() { rm -rf d && mkdir d && cp "$SRC/testdata/msgpu/${1:-lenet}"/* d/ && chmod u+w d/*; }
case_() { run "proftool import d -o out.ptm; echo rc=\$?; ls out.ptm* 2>/dev/null"; }
fresh; echo 'not a kernel line' >>d/activity_execute_timestamp_0.txt; case_
fresh; printf 'k;7;1600000000001009000;-1.5\n' >>d/activity_execute_timestamp_0.txt; case_
fresh; printf 'k;x7;1600000000001009000;1.5\n' >>d/activity_execute_timestamp_0.txt; case_
fresh; printf 'k;7;1600000000001009000;1.5us\n' >>d/activity_execute_timestamp_0.txt; case_
fresh; printf 'k;7;9999999999999999999;1.5\n' >>d/activity_execute_timestamp_0.txt; case_
# truncated inside its last line
fresh; s=$(stat -c %s d/activity_execute_timestamp_0.txt); truncate -s $((s - 12)) d/activity_execute_timestamp_0.txt; case_
fresh; s=$(stat -c %s d/step_trace_profiling_0.txt); truncate -s $((s - 30)) d/step_trace_profiling_0.txt; case_
fresh; sed -i '1s/op_total_time(us)/op_total_time(ms)/' d/gpu_op_detail_info_0.csv; case_
fresh; sed -i '1s/,min_duration(us)//' d/gpu_activity_data_0.csv; case_
fresh; sed -i '2s/^\([^,]*\),[^,]*,/\1,/' d/gpu_op_type_info_0.csv; case_
fresh; sed -i 's/(ns):/(us):/' d/start_time_0.txt; case_
fresh; sed -i '2d' d/start_time_0.txt; case_
fresh; rm d/start_time_0.txt; case_
fresh; rm d/activity_execute_timestamp_0.txt; case_
fresh; sed -i '3s/;GpuOps;/;HostCpuOps;/' d/gpu_op_execute_timestamp_0.txt; case_
fresh; sed -i '2s/ 1600/ x1600/' d/gpu_op_execute_timestamp_0.txt; case_
fresh; sed -i '2s/,/;/' d/step_trace_profiling_0.txt; case_
fresh; sed -i '3,$d' d/step_trace_profiling_0.txt; case_
fresh lenet-mindrt; sed -i '2s/ Default\/AllReduce-op50,\([0-9]*\),/ Default\/AllReduce-op50,\1;/' d/step_trace_profiling_0.txt; case_
fresh lenet-mindrt; sed -i '3s/^[^ ]* //' d/step_trace_profiling_0.txt; case_
# blank lines and CRLF line ends are accepted
fresh; sed -i 's/$/\r/' d/activity_execute_timestamp_0.txt d/gpu_op_execute_timestamp_0.txt; echo >>d/activity_execute_timestamp_0.txt
run "proftool summary d --view kernel --format csv | md5sum; proftool summary $M/lenet --view kernel --format csv | md5sum"
