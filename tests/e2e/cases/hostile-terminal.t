# Names that would drive a terminal (issue 29.13): op names and types with
# ESC sequences (clear screen, window title, colour), BEL, DEL and the UTF-8
# C1 control CSI print as \xHH text in text tables and hint text; CSV keeps
# the exact bytes (shown here through cat -v). A cut at 60 characters never
# splits an escape. Also: -o onto a symbolic link writes the link's target,
# and a replaced file keeps its mode.
printf '%s\n' 'device 0' 'era text backend vm' >esc.desc
printf 'op "Default/evil\033[2J\033]0;pwned\007-op1" type "Mat\033[31mMul" stream 3 task 1 dur 50us\n' >>esc.desc
printf 'op "Default/del\177\302\233-op2" type Add stream 3 task 2 dur 3us\n' >>esc.desc
printf 'op "Default/long-name-that-is-cut-at-sixty-characters-of-t\033\033\033-op3" type Cast stream 3 task 3 dur 4us\n' >>esc.desc
printf '%s\n' 'steps 2 stream 3' >>esc.desc
proftool-gen esc.desc -o job >/dev/null
proftool import --hwts-freq 100 job -o esc.ptm 2>/dev/null
run proftool summary esc.ptm --view operator
run proftool summary esc.ptm --view optype
run proftool export --table ops --format table esc.ptm
run proftool flops esc.ptm
# the type column (a detail column of the default text) escaped too
run "proftool flops esc.ptm --wide | cut -c1-100 | sed 's/ *$//'"
run proftool hints esc.ptm
run "proftool export --table ops esc.ptm | cat -v"
# -o onto a symbolic link: the target is written, the link stays; a 0600 file stays 0600
echo secret >target
chmod 600 target
ln -s target link
run "proftool info esc.ptm -o link; readlink link; stat -c %a target; head -1 target"
# a link with no target creates it; a loop of links is an error, and nothing is written
ln -s made dangling
ln -s loop loop
run "proftool info esc.ptm -o dangling; readlink dangling; head -1 made"
run "proftool info esc.ptm -o loop; readlink loop; ls | grep -c tmp"
