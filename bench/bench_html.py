#!/usr/bin/python3
"""HTML parse throughput: folio's loader (bench_html) against lxml on the same files, same run.

Usage: bench/bench_html.py BUILD_DIR [--repeat N]
Files: every HTML page under ../shared/data (product-extraction-benchmark, swde-book-subset,
websrc-sample), inflated in memory before timing. Both sides: best of N passes over all files.
  lxml parse       = lxml.html.HTMLParser over the bytes (libxml2 tree only; what lxml does
                     before Python touches a node)
  lxml parse+text  = the same plus walking .text/.tail of every node and normalising white space
                     (tests/document/lxml_text_nodes.py's definition: comparable to what
                     folio's loader produces: nodes, XPaths, normalised text, words)
  folio            = folio::loadHtmlBytes: libxml2 parse + Document nodes/XPaths/attributes/
                     text/words/sections
Also a synthetic 50,000-node page (bench_html builds the same page as below).
"""
import glob
import gzip
import json
import os
import re
import subprocess
import sys
import time

import lxml.etree as etree
import lxml.html

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared", "data")
WS = re.compile(r"[ \t\n\r\f]+")


def pages():
    out = []
    for sub in ("product-extraction-benchmark", "swde-book-subset", "websrc-sample"):
        for path in glob.glob(os.path.join(SHARED, sub, "**", "*"), recursive=True):
            if path.endswith((".html", ".htm", ".html.gz")):
                out.append(path)
    return sorted(out)


def read(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        return f.read()


def lxml_parse(data):
    return etree.fromstring(data, lxml.html.HTMLParser())


def lxml_text(data):
    root = lxml_parse(data)
    n = 0
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag not in ("script", "style") and el.text:
            n += bool(WS.sub(" ", el.text).strip())
        if el.tail:
            n += bool(WS.sub(" ", el.tail).strip())
    return n


def best_of(fn, items, repeat):
    best = 1e30
    for _ in range(repeat):
        t = time.perf_counter()
        for d in items:
            fn(d)
        best = min(best, time.perf_counter() - t)
    return best


def synthetic(items):
    parts = [b"<html><head><title>synthetic</title></head><body><h1>List</h1><ul>"]
    for i in range(items):
        parts.append(b'<li class="row">item ' + str(i).encode() + b" <b>bold</b></li>")
    parts.append(b"</ul></body></html>")
    return b"".join(parts)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "build")
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--repeat" else 3
    files = pages()
    data = [read(p) for p in files]
    mb = sum(len(d) for d in data) / 1e6
    exe = os.path.join(build, "bench", "bench_html")
    ours = json.loads(subprocess.check_output([exe, "--repeat", str(repeat)] + files))
    t_parse = best_of(lxml_parse, data, repeat)
    t_text = best_of(lxml_text, data, repeat)
    synth = synthetic(12500)
    t_synth = best_of(lxml_text, [synth], repeat)
    print(f"{len(files)} pages, {mb:.1f} MB of HTML, best of {repeat}")
    print(f"lxml parse       : {t_parse:.3f} s  {mb / t_parse:6.1f} MB/s")
    print(f"lxml parse+text  : {t_text:.3f} s  {mb / t_text:6.1f} MB/s")
    print(f"folio loader     : {ours['seconds']:.3f} s  {mb / ours['seconds']:6.1f} MB/s  "
          f"({ours['nodes']:.0f} nodes, {ours['words']:.0f} words)")
    print(f"ratio folio / lxml parse      : {t_parse / ours['seconds']:.2f}x throughput")
    print(f"ratio folio / lxml parse+text : {t_text / ours['seconds']:.2f}x throughput")
    print(f"synthetic page ({ours['synthetic_nodes']} nodes, {ours['synthetic_bytes'] / 1e6:.2f} MB): "
          f"folio {ours['synthetic_seconds'] * 1000:.1f} ms, lxml parse+text {t_synth * 1000:.1f} ms")


if __name__ == "__main__":
    main()
