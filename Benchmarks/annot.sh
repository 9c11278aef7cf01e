#!/usr/bin/env bash
# Benchmark: add a FreeText and an Ink annotation with Folio vs PyMuPDF and pypdf, and list
# every corpus file's annotations with Folio vs PyMuPDF and pikepdf.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import pypdf" 2>/dev/null || python3 -m pip install -q pypdf
# FOLIO=path picks the binary (else a statically linked release build); LIST_ONLY=1 times only the listings.
. Benchmarks/folio-binary.sh && folio_binary static
python3 Benchmarks/annot_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-3}"
