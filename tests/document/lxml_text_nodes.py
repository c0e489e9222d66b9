#!/usr/bin/python3
"""Reference text-node sequence of HTML files, computed with lxml (Debian python3-lxml).

Usage: lxml_text_nodes.py FILE...   -> JSON {"FILE": ["text", ...], ...} on stdout.

"Text node sequence" (the same definition as folio::textNodeSequence, document/htmlloader.h):
parse with lxml.html's HTMLParser given the charset chosen by the documented rule (BOM, else
<meta charset>/http-equiv in the first 64 KiB, else UTF-8 when the bytes decode, else
windows-1252; implemented again here, independently of the C++ code). We do not let libxml2
guess: libxml2 2.9 switches encoding only when it meets the <meta>, so text before it (often
the <title>) comes out as mojibake; the loader fixes that on purpose. Then walk root.iter() in document order and take, for every node, its .text (elements
only: not comment/PI content, not <script>/<style> content) then, after its subtree, its .tail
(for elements, comments and PIs alike; skipped when the parent is <script>/<style>). Each string
is whitespace-normalised (runs of " \\t\\n\\r\\f" -> one space, trimmed); empty ones are dropped.
.gz files are inflated first.
"""
import gzip
import json
import re
import sys

import lxml.etree as etree
import lxml.html

WS = re.compile(r"[ \t\n\r\f]+")
RAW = {"script", "style"}


def norm(s):
    return WS.sub(" ", s).strip(" ")


def tag_of(el):
    return el.tag.lower() if isinstance(el.tag, str) else None


META = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']*([^\"'\s;/>]+)", re.I)
BOMS = [(b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\x00\x00", "utf-32le"), (b"\x00\x00\xfe\xff", "utf-32be"),
        (b"\xff\xfe", "utf-16le"), (b"\xfe\xff", "utf-16be")]


def known(name):
    import codecs
    try:
        codecs.lookup(name)
        return True
    except LookupError:
        return False


def charset(data):
    for bom, name in BOMS:
        if data.startswith(bom):
            return name, data[len(bom):]
    m = META.search(data[:65536])
    if m:
        name = m.group(1).decode("ascii", "replace").lower()
        if not name.startswith(("utf-16", "utf-32")) and known(name):
            return name, data
    try:
        data.decode("utf-8")
        return "utf-8", data
    except UnicodeDecodeError:
        return "windows-1252", data


def text_nodes(data):
    name, data = charset(data)
    parser = lxml.html.HTMLParser(encoding=name)
    root = etree.fromstring(data, parser) if data.strip() else None
    if root is None:
        return []
    # The document's top-level siblings (comments before <html>) carry tails too.
    out = []

    def emit(s):
        if s:
            n = norm(s)
            if n:
                out.append(n)

    # Explicit stack (iter() gives start order only; we need tails after subtrees).
    top = [root]
    prev = root.getprevious()
    while prev is not None:
        top.insert(0, prev)
        prev = prev.getprevious()
    nxt = root.getnext()
    while nxt is not None:
        top.append(nxt)
        nxt = nxt.getnext()
    stack = [(n, False) for n in reversed(top)]
    while stack:
        node, done = stack.pop()
        is_element = isinstance(node.tag, str)
        if done:
            parent = node.getparent()
            if parent is None or tag_of(parent) not in RAW:
                emit(node.tail)
            continue
        stack.append((node, True))
        if is_element:
            if tag_of(node) not in RAW:
                emit(node.text)
            for child in reversed(list(node)):
                stack.append((child, False))
    return out


def main(paths):
    result = {}
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            data = f.read()
        try:
            result[path] = text_nodes(data)
        except Exception as e:  # report, do not hide: the C++ test fails on it
            result[path] = {"error": str(e)}
    json.dump(result, sys.stdout, ensure_ascii=True)  # Qt's JSON reader drops raw U+FEFF


if __name__ == "__main__":
    main(sys.argv[1:])
