# Helper of the streamed kineto profile cases (timeline-kineto-stream.t, timeline-kineto-gpuann-stream.t,
# timeline-kineto-ranks-nolink-stream.t; copied beside their models; not a case itself).
# same.sh MODEL OPTIONS...: the streamed files (and messages, exit status) and the in-memory ones; with
# COUNT (a grep -o pattern) and WHAT set, how many of COUNT the streamed files hold, named WHAT
m=$1; shift
rm -rf a b
proftool timeline $m --profile kineto "$@" -o a > a.txt 2>&1; ra=$?
proftool timeline $m --profile kineto "$@" --in-memory -o b > b.txt 2>&1; rb=$?
ok=1
for f in a/* b/*; do [ -e a/${f#*/} ] && [ -e b/${f#*/} ] && cmp -s a/${f#*/} b/${f#*/} || ok=0; done
n=${COUNT:+, $(cat a/* | grep -o "$COUNT" | wc -l) $WHAT}
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $m $* (exit $ra, $(ls a | wc -l) files$n)" || echo "DIFFERS: $m $*"
