#!/usr/bin/env bash
# Benchmark: add a FreeText and an Ink annotation with Folio vs PyMuPDF and pypdf, and list
# every corpus file's annotations with Folio vs PyMuPDF and pikepdf.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import pypdf" 2>/dev/null || python3 -m pip install -q pypdf
# Statically linked Swift runtime: process start-up drops from ~16 to ~9 ms. FOLIO=path picks the binary;
# LIST_ONLY=1 times only the listings.
folio="${FOLIO:-}"
if [ -z "$folio" ]; then
    swift build -c release --product folio --static-swift-stdlib --scratch-path .build-static >/dev/null
    folio="$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/folio"
fi
python3 Benchmarks/annot_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-3}"
