# proftool summary: usage errors and bad input.
run proftool summary
run proftool summary --view nope x.ptm
run proftool summary --sorted-by size x.ptm
run proftool summary --top -1 x.ptm
run 'proftool summary --name "(" x.ptm'
run proftool summary --steps 3-x x.ptm
run proftool summary /nonexistent/model.ptm
run 'printf "PTM\0garbage" > bad.ptm; proftool summary bad.ptm'
run 'head -c 100 /dev/zero > zero.ptm; proftool summary zero.ptm'
