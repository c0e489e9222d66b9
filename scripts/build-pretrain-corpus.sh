#!/usr/bin/env bash
# Assembles Folio's unlabelled pretraining corpus (issue 16; CORPUS.md says what it holds and under
# which licences) into OUT (default ./build/pretrain-corpus):
#   OUT/pdf/        the PDF manuals of Debian documentation packages (text layers: words and boxes
#                   without OCR): r-doc-pdf (the R manuals, including the full reference manual),
#                   libtasn1-doc, shared-mime-info — installed here if missing
#   OUT/funsd-train.folio   FUNSD's 149 training forms, words and boxes only (its labels are not used
#                   by pretraining; the 50 test forms are never included)
#   OUT/scans/      with --with-scans: the tesseract-testing pages and the SROIE receipt images of
#                   ../shared (OCR'd while the corpus is read: minutes per hundred pages on 2 cores)
# Usage: scripts/build-pretrain-corpus.sh [OUT] [--with-scans]
# Then:  folio-cli pretrain --corpus OUT/pdf --corpus OUT/funsd-train.folio [--corpus OUT/scans] --out DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build/pretrain-corpus}"
scans=0
[ "${2:-}" = "--with-scans" ] && scans=1
cli="${FOLIO_BUILD_DIR:-$root/build}/bin/folio-cli"
shared="${FOLIO_SHARED_DIR:-$root/../shared}"
[ -x "$cli" ] || { echo "build-pretrain-corpus: $cli not built (scripts/build.sh folio-cli)" >&2; exit 1; }

missing=()
for p in r-doc-pdf libtasn1-doc shared-mime-info; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=(); [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

rm -rf "$out" && mkdir -p "$out/pdf"
# fullrefman.pdf holds refman.pdf: take the full one and the other manuals once each.
for f in /usr/share/R/doc/manual/*.pdf /usr/share/doc/libtasn1-doc/libtasn1.pdf \
         /usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf; do
  [ -f "$f" ] || continue
  [ "$(basename "$f")" = refman.pdf ] && continue
  cp "$(readlink -f "$f")" "$out/pdf/$(basename "$f")"
done

funsd="$shared/data/funsd/dataset/training_data/annotations"
[ -d "$funsd" ] || { echo "build-pretrain-corpus: $funsd missing" >&2; exit 1; }
"$cli" --quiet import --format funsd --project "$out/funsd-train.folio" --create "$funsd"/*.json > /dev/null

if [ "$scans" = 1 ]; then
  mkdir -p "$out/scans"
  cp "$shared"/data/tesseract-testing/testing/*.{tif,png} "$out/scans/" 2>/dev/null || true
  find "$shared/data/sroie-subset" -iname '*.jpg' -exec cp {} "$out/scans/" \; 2>/dev/null || true
fi
echo "build-pretrain-corpus: $(ls "$out/pdf" | wc -l) PDFs, FUNSD train in $out/funsd-train.folio$([ "$scans" = 1 ] && echo ", $(ls "$out/scans" | wc -l) scans") -> $out" >&2
