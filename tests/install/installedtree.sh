#!/usr/bin/env bash
# tst_install: `cmake --install` into a fresh prefix, then the installed programs run from there with
# no source tree to fall back on for their models (issue 33). Usage: installedtree.sh BUILD_DIR
set -euo pipefail
build="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
fail() { echo "FAIL: $*" >&2; exit 1; }

for f in bin/folio-cli bin/folio-cli-front bin/folio-cli-engine bin/folio-ocr-worker bin/folio-spm-train share/folio/models/qs-drafter/drafter.json \
         share/folio/samples/phototest.tif share/mime/packages/folio.xml share/applications/io.folio.Folio.desktop \
         share/icons/hicolor/scalable/apps/io.folio.Folio.svg share/doc/folio/ATTRIBUTION.md share/metainfo/io.folio.Folio.metainfo.xml; do
  [ -e "$prefix/$f" ] || fail "cmake --install did not write $f"
done
grep -q '^MimeType=application/x-folio-project;' "$prefix/share/applications/io.folio.Folio.desktop" || fail "desktop entry names no MIME type"
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$prefix/share/applications/io.folio.Folio.desktop"; fi
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$prefix/share/mime/packages/folio.xml" || fail "MIME file is not XML"
# AppStream (issue 50): the installed metainfo is what software centres read.
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$prefix/share/metainfo/io.folio.Folio.metainfo.xml" >&2 || fail "installed metainfo does not validate"
elif [ "${CI:-}" = true ]; then
  fail "appstreamcli is missing (apt-get install appstream): the installed metainfo is unchecked"
fi

# Run from elsewhere, without the models' environment variable: the installed copy must be the one used.
cd "$tmp"
unset FOLIO_MODELS_DIR
cli="$prefix/bin/folio-cli"
info="$("$cli" info)"
echo "$info" | grep -q "\"models\": \"$prefix/share/folio/models\"" || fail "installed folio-cli reads its models elsewhere: $info"
# The shipped drafter drafts from the installed tree; OCR runs in the installed worker beside it.
"$cli" ocr "$prefix/share/folio/samples/phototest.tif" >"$tmp/phototest.json" || fail "installed ocr failed"
grep -q '"words"' "$tmp/phototest.json" || fail "ocr wrote no words"
"$cli" qs generate "$tmp/phototest.json" >"$tmp/qs.json" 2>"$tmp/qs.err" || { cat "$tmp/qs.err" >&2; fail "installed qs generate failed"; }
grep -q '"question"' "$tmp/qs.json" || fail "qs generate wrote no question"
"$cli" extract "$prefix/share/folio/samples/product-page.html" >"$tmp/fields.json" || fail "installed extract (shipped product model) failed"
if [ -x "$prefix/bin/folio" ]; then
  QT_QPA_PLATFORM=offscreen "$prefix/bin/folio" --version | grep -q "Folio\|folio" || fail "installed folio --version"
fi
echo "installed tree OK: $prefix"
