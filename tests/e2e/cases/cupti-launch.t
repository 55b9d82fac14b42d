# CUPTI: a generated dump -> model -> kernels/api tables in every format, dump and info.
run proftool-gen cupti '$SRC/testdata/cupti/launch.cdtxt' -o app.cdump
run proftool import app.cdump -o app.ptm
run proftool export app.ptm --table kernels --format csv
run proftool export app.ptm --table api --format csv
run proftool export app.ptm --table kernels --format table
run proftool export app.ptm --table api --format json
run proftool export app.ptm --table kernels --format jsonl
run proftool export app.cdump --table kernels --device 0 --format csv
run proftool dump app.ptm
run proftool info app.ptm
