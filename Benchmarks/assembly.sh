#!/usr/bin/env bash
# Benchmark: merge, split and images → PDF with Folio against qpdf --pages, pikepdf, pypdf and img2pdf.
# Usage: REPEAT=5 bash Benchmarks/assembly.sh   (FOLIO=path picks the binary)
set -euo pipefail
cd "$(dirname "$0")/.."
folio="${FOLIO:-}"
if [ -z "$folio" ]; then
    swift build -c release --product folio >/dev/null
    folio="$(swift build -c release --show-bin-path)/folio"
fi
python3 -c "import pypdf, img2pdf" 2>/dev/null || python3 -m pip install -q pypdf img2pdf
python3 Benchmarks/assembly_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-5}"
