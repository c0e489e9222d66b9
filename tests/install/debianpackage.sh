#!/usr/bin/env bash
# tst_package: scripts/package.sh builds the .deb; its control fields declare what the programs need;
# it installs and runs (issue 33). Usage: debianpackage.sh SOURCE_DIR BUILD_DIR
# A real `apt-get install` changes the machine, so it runs only as root with CI=true or
# FOLIO_TEST_SYSTEM_INSTALL=1 (and is undone afterwards); otherwise the package is unpacked into a
# temporary folder and run from there. Exit 77 (skipped) when the packaging tools are missing,
# a failure under CI=true.
set -euo pipefail
src="$1"
build="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  if ! command -v "$tool" >/dev/null; then
    [ "${CI:-}" = true ] && fail "$tool is missing (scripts/packages.txt installs dpkg-dev)"
    echo "SKIP: $tool is missing (apt-get install dpkg-dev)"; exit 77
  fi
done
tmp="$(mktemp -d)"
installed=""
cleanup() {
  if [ -n "$installed" ]; then dpkg -r folio >/dev/null 2>&1 || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

deb="$(FOLIO_BUILD_DIR="$build" "$src/scripts/package.sh" "$tmp/out" 2>"$tmp/package.log" | tail -1)" || { cat "$tmp/package.log" >&2; fail "scripts/package.sh failed"; }
[ -f "$deb" ] || fail "no package written ($deb)"
echo "package: $(basename "$deb"), $(du -h "$deb" | cut -f1)"

depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
for need in libtorch libqt6core6 libqt6webenginecore6 libtesseract liblept libpoppler-qt6 libsentencepiece libxml2 \
            tesseract-ocr-eng libopenblas0-pthread libqt6sql6-sqlite qt6-qpa-plugins; do
  case "$depends" in *"$need"*) ;; *) fail "Depends does not name $need" ;; esac
done
contents="$(dpkg-deb -c "$deb")"
for f in ./usr/bin/folio-cli ./usr/bin/folio-cli-front ./usr/bin/folio-cli-engine ./usr/bin/folio-ocr-worker ./usr/share/folio/models/qs-drafter/drafter.json \
         ./usr/share/applications/io.folio.Folio.desktop ./usr/share/mime/packages/folio.xml \
         ./usr/share/metainfo/io.folio.Folio.metainfo.xml; do
  echo "$contents" | grep -q " $f\$" || fail "package lacks $f"
done

run_checks() { # $1: the bin folder, $2: the models folder the programs must report
  local cli="$1/folio-cli"
  (cd "$tmp" && env -u FOLIO_MODELS_DIR "$cli" info) >"$tmp/info.json" || fail "folio-cli info failed"
  grep -q "\"models\": \"$2\"" "$tmp/info.json" || fail "folio-cli reads its models elsewhere: $(cat "$tmp/info.json")"
  grep -q '"openblas": true' "$tmp/info.json" || fail "the packaged folio-cli does not run on OpenBLAS: $(cat "$tmp/info.json")"
  (cd "$tmp" && env -u FOLIO_MODELS_DIR "$cli" qs generate "$src/resources/samples/product-page.html") >"$tmp/qs.json" \
    || fail "packaged qs generate failed"
  grep -q '"question"' "$tmp/qs.json" || fail "packaged qs generate wrote no question"
}

if [ "$(id -u)" = 0 ] && { [ "${CI:-}" = true ] || [ "${FOLIO_TEST_SYSTEM_INSTALL:-}" = 1 ]; } && ! dpkg -s folio >/dev/null 2>&1; then
  installed=yes
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get install of the package failed"; }
  run_checks /usr/bin /usr/share/folio/models
  dpkg -r folio >/dev/null || fail "dpkg -r folio failed"
  installed=""
  [ ! -e /usr/bin/folio-cli ] || fail "/usr/bin/folio-cli left behind after removal"
  echo "installed with apt-get, ran, removed"
else
  dpkg-deb -x "$deb" "$tmp/root"
  run_checks "$tmp/root/usr/bin" "$tmp/root/usr/share/folio/models"
  echo "unpacked and ran (a system install runs as root with CI=true or FOLIO_TEST_SYSTEM_INSTALL=1)"
fi
