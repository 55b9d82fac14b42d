# proftool dataset on a generated MindData dump, in every output format.
cat >desc.txt <<'D'
md-pipeline interval 10
md-op 3 ImageFolderOp workers 8 queue 100 sizes 90,100,95
md-op 2 MapOp workers 4 queue 100 children 3 sizes 40,40,40
md-op 1 MapOp workers 4 queue 100 children 2 sizes 85,85,85
md-op 0 BatchOp workers 1 children 1 no-metrics
md-devq 0 0 1 3 100
md-devq 0 1 1 2 100
md-devq 0 2 1 5 100
md-devq 1 64 1 0 100
md-devq 0 0 2 1 110
md-devq 0 1 2 2 110
md-devq 0 2 2 3 110
md-devq 1 64 2 5 110
md-devq 0 0 3 2 120
md-devq 0 1 3 2 120
md-devq 0 2 3 4 120
md-devq 1 64 3 64 120
md-cpu interval 100 stamps 100,200 device-idle 30,10 device-user 50,60 device-sys 10,20
md-cpu-op 1 user 70,80 sys 10,10
md-cpu-op 2 user 300,320 sys 20,40
md-cpu-op 3 user 5,5 sys 1,1
D
run proftool-gen desc.txt -o dump
run ls dump
run proftool dataset dump
run proftool dataset dump --format csv
run proftool dataset dump --format json
run proftool dataset dump --format jsonl
run proftool dataset dump --format csv --time-unit ms
run proftool dataset dump --format csv --hint hints.md_pipeline.rules=2020 --hint hints.md_queue.rules=2020
run proftool dataset dump --format csv --hint hints.md_pipeline.delta=0.6
run proftool import dump -o run.ptm
run 'proftool dump run.ptm | grep -v "^string"'
run 'proftool dataset run.ptm --format csv | md5sum; proftool dataset dump --format csv | md5sum'
