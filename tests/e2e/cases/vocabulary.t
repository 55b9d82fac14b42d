# One vocabulary (proftool(1) OUTPUT, Vocabulary): device time is device_* in CSV and "Device" in
# text for GPU and NPU alike, min before max, device_id, import --input-format (import --format a
# deprecated synonym that warns once), titles from view names, one name form in every format.
A=$SRC/testdata/ascend/sample
C=$SRC/testdata/cupti/real-13.0-h200-vecadd.cdump

# import --input-format picks the importer; the deprecated --format gives the same model and warns
# once however often it is given; both reject what is not an importer's name
run "proftool import --input-format ascend $A -o new.ptm 2>/dev/null && echo imported"
run "proftool import --format ascend --format ascend $A -o old.ptm >/dev/null 2>err; cat err; cmp new.ptm old.ptm && echo same model"
run proftool import --input-format cupti $A -o x.ptm
run proftool import --input-format bogus $A -o x.ptm
run proftool import --format bogus $A -o x.ptm
run "proftool import -h | grep -A1 -e '--input-format' -e '--format'"

# device time: the same column names on NPU and GPU data, min before max
run "proftool summary new.ptm --view kernel,optype --format csv -o v1/ && head -qn1 v1/kernel.csv v1/optype.csv"
run "proftool summary $C --view kernel,model,operator,userdefined,memcpy --format csv -o v2/ && for v in kernel model operator userdefined memcpy; do head -n1 v2/\$v.csv; done"
run "proftool summary new.ptm --view aicpu,kernel | grep -E 'Total|^-'"
run "proftool summary $C --view overview | grep -E 'Time|^-'"
run "proftool summary $C --view overview --format csv | cut -d, -f2 | sort -u"

# --sorted-by: the device-* keys are synonyms of the gpu-* keys; a key that is neither is refused
run 'for k in total avg min max; do a=$(proftool summary new.ptm --view kernel --sorted-by gpu-$k --format csv); b=$(proftool summary new.ptm --view kernel --sorted-by device-$k --format csv); [ "$a" = "$b" ] && echo "device-$k = gpu-$k" || echo "device-$k DIFFERS"; done'
run "proftool summary new.ptm --view kernel --sorted-by device-total | sed -n 5,7p"
run proftool summary new.ptm --view kernel --sorted-by device-median

# device_id where a device is meant; the device view's label column is device_name
run "proftool summary new.ptm --view device,distributed --format csv -o v3/ && head -qn1 v3/device.csv v3/distributed.csv"
run "proftool steps $C --format csv | head -1"
run "proftool perf new.ptm --format csv | head -1"

# titles are the view names
run "proftool summary new.ptm --view all 2>/dev/null | grep -E '^-+[A-Z][a-z]+(: [a-z ]+)?-+$' | tr -d -"

# one name form: text with --wide prints the kernel names CSV holds (templated kernels keep their
# argument lists)
run "proftool summary $C --view kernel --format csv > k.csv; proftool summary $C --view kernel --wide > k.txt; python3 -c 'import csv; n = [r[\"name\"] for r in csv.DictReader(open(\"k.csv\"))]; t = open(\"k.txt\").read(); print(sum(x in t for x in n), \"of\", len(n), \"CSV names in the --wide text\")'"
run "proftool summary $C --view kernel --wide | grep -o 'void scaleBy<float>[^ ]*'"
