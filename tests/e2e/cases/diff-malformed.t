# proftool diff: bad operands, bad options and inputs that cannot be compared.
run proftool-gen '$SRC/tests/gen/cases/diff-pair.desc' -o base --perturbed test
run proftool diff base
run proftool diff base test extra
run proftool diff - -
run proftool diff base test --by nope
run proftool diff base test --top -1
run proftool diff base test --sorted-by gpu-total
run proftool diff base test --match fuzzy
run proftool diff base test --fail-on-regression abc
run proftool diff base test --fail-on-regression -5
run proftool diff base test --base-steps 3-x
run proftool diff base test --test-steps ''
run proftool diff base test --format xml
# a missing side names the file; nothing is written to -o
run proftool diff base /nonexistent/job -o out.csv --format csv
run "test -e out.csv && echo out.csv exists || echo no out.csv"
run proftool diff /nonexistent/job test
# a truncated model
run "proftool import base -o base.ptm 2>/dev/null && head -c 300 base.ptm >cut.ptm && proftool diff cut.ptm base.ptm"
# NPU data against GPU data
run proftool-gen cupti '$SRC/testdata/cupti/launch.cdtxt' -o app.cdump
run proftool diff base app.cdump --format csv
run proftool diff app.cdump base.ptm --by kernel
# --fail-on-regression needs steps on both sides: a job without a step trace
cat >nosteps.desc <<'DESC'
device 0
op Default/Cast-op1 type Cast stream 5 task 3 dur 10us
DESC
run "proftool-gen nosteps.desc -o nosteps && proftool diff nosteps nosteps --fail-on-regression 1 --format csv"
run proftool diff nosteps nosteps
# an unknown perturbation is a generator error naming the line
cat >badperturb.desc <<'DESC'
op Default/Cast-op1 type Cast stream 5 task 3 dur 10us
perturb scale Default/Nope-op2 2
DESC
run proftool-gen badperturb.desc -o b1 --perturbed b2
cat >badfactor.desc <<'DESC'
op Default/Cast-op1 type Cast stream 5 task 3 dur 10us
perturb scale Default/Cast-op1 1.2345678
DESC
run proftool-gen badfactor.desc -o b1 --perturbed b2
run proftool-gen badfactor.desc -o b1 --print-delta=x
# Ascend data has no API calls: an empty result says why
run proftool diff base test --by api
