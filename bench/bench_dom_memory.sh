#!/bin/sh
# Peak memory and output of `folio-cli dom` against the input size (issue 18), with lxml parsing
# the same page in the same run as the baseline users would otherwise run (peak RSS of
# `python3 -c "lxml.html.parse(...)"` walking every element; not getpath() of each, which is
# quadratic on the deep page: it ran for over 8 minutes there).
# Pages: 100,000 unclosed <div><span>x (deep), and N copies of a 281-byte section (sections).
# Usage: bench/bench_dom_memory.sh BUILD_DIR [SECTION_COPIES="13200 132000"]
set -eu
BUILD=${1:?build dir}; COPIES=${2:-13200 132000}
CLI="$BUILD/bin/folio-cli"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
/usr/bin/python3 - "$WORK" $COPIES <<'PY'
import sys
work = sys.argv[1]
open(f"{work}/deep.html", "w").write("<html><body>" + "<div><span>x" * 100000 + "</body></html>")
section = ("<section><h2>Section title here</h2><p>A paragraph of ordinary words for the page.</p>"
           "<p>Another paragraph with a few more words in it.</p><ul><li>one item</li><li>two item</li>"
           "<li>three item</li></ul></section>\n")
for n in sys.argv[2:]:
    open(f"{work}/sections-{n}.html", "w").write("<html><body>" + section * int(n) + "</body></html>")
PY
printf '%-22s %9s %10s %8s %10s %8s %7s %12s %8s\n' page input peak_RSS RSS/in JSON_out out/in wall lxml_RSS ours/lxml
for PAGE in "$WORK"/deep.html "$WORK"/sections-*.html; do
    IN=$(stat -c %s "$PAGE")
    /usr/bin/time -f "%M %e" -o "$WORK/time" "$CLI" -q dom --compact "$PAGE" > "$WORK/out.json"
    read -r KB WALL < "$WORK/time"
    OUT=$(stat -c %s "$WORK/out.json")
    /usr/bin/time -f "%M" -o "$WORK/ltime" /usr/bin/python3 -c "
import lxml.html, sys
t = lxml.html.parse(sys.argv[1]); r = t.getroot()
n = sum(1 for e in r.iter())
" "$PAGE"
    LKB=$(cat "$WORK/ltime")
    python3 -c "
import sys
name, i, kb, o, wall, lkb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
print(f'{name:22s} {i/1e6:7.1f}MB {kb/1024:8.0f}MB {kb*1024/i:7.0f}x {o/1e6:8.1f}MB {o/i:7.1f}x {wall:6.1f}s {lkb/1024:10.0f}MB {kb/lkb:7.2f}x')
" "$(basename "$PAGE")" "$IN" "$KB" "$OUT" "$WALL" "$LKB"
done
