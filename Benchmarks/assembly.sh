#!/usr/bin/env bash
# Benchmark: merge, split, images → PDF and text → PDF with Folio against qpdf --pages, pikepdf, pypdf,
# img2pdf and fpdf2.
# Usage: REPEAT=5 bash Benchmarks/assembly.sh   (FOLIO=path picks the binary)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/folio-binary.sh && folio_binary
python3 -c "import pypdf, img2pdf, fpdf" 2>/dev/null || python3 -m pip install -q pypdf img2pdf fpdf2
python3 Benchmarks/assembly_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-5}"
