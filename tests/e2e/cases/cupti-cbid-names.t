# API calls whose cbid the dump does not name take the built-in table
# generated from CUPTI's headers (lib/cupti/cupti-cbid-names-*.c,
# scripts/gen-cupti-cbid-names); a name in the dump wins; an id beyond the
# table stays "<runtime cbid N>".
cat >n.cdtxt <<'D'
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
process rank=0 exe=app cmdline=app comm=app
cbid 2 4 myOwnName_v1
buffer
  rec RUNTIME cbid=3 start=1000000100 end=1000000200 processId=4242 threadId=4242 correlationId=1
  rec RUNTIME cbid=4 start=1000000300 end=1000000400 processId=4242 threadId=4242 correlationId=2
  rec RUNTIME cbid=200 start=1000000500 end=1000000600 processId=4242 threadId=4242 correlationId=3
  rec DRIVER cbid=8 start=1000000700 end=1000000800 processId=4242 threadId=4242 correlationId=4
  rec RUNTIME cbid=99999 start=1000000900 end=1000001000 processId=4242 threadId=4242 correlationId=5
  rec DRIVER cbid=99999 start=1000001100 end=1000001200 processId=4242 threadId=4242 correlationId=6
end-buffer
end
D
run proftool-gen cupti n.cdtxt -o n.cdump
run "proftool summary n.cdump --view api --format csv"
run "proftool timeline n.cdump -o - | grep -o '\"name\":\"[^\"]*\"' | sort -u"
run "cat \$SRC/lib/cupti/cupti-cbid-names*.c | grep -c '\['"
