# Usage errors and malformed input of proftool steps.
run proftool steps
run proftool steps --steps 3-1 x
run proftool steps --steps a-b x
run proftool steps --time-window 5 x
run proftool steps --time-window 1.5ns: x
run proftool steps --format xml x
run proftool steps /nonexistent/job
run 'mkdir empty && proftool steps empty'
run proftool steps '$SRC/testdata/ascend/sample' --step-pattern "'('"
# a step trace cut in the middle of a record, and one with an all-zero record
run 'mkdir cut && head -c 250 $SRC/testdata/ascend/sample/training_trace.46.dev.profiler_default_tag.0.slice_0 > cut/training_trace.46.dev.profiler_default_tag.0.slice_0 && proftool steps cut --format csv'
run 'mkdir zero && head -c 4 /dev/zero > /dev/null && { head -c 60 $SRC/testdata/ascend/sample/training_trace.46.dev.profiler_default_tag.0.slice_0; head -c 20 /dev/zero; tail -c +61 $SRC/testdata/ascend/sample/training_trace.46.dev.profiler_default_tag.0.slice_0; } > zero/training_trace.46.dev.profiler_default_tag.0.slice_0 && proftool steps zero --format csv --steps 1-2'
run 'proftool steps $SRC/testdata/ascend/sample > /dev/full'
