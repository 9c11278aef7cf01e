#!/usr/bin/env bash
# Benchmark of `folio info` against pdfinfo, qpdf, exiftool, pikepdf and PyMuPDF.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product folio >/dev/null
python3 Benchmarks/info_bench.py "$(swift build -c release --show-bin-path)/folio" "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-5}"
