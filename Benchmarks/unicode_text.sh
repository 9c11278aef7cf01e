#!/usr/bin/env bash
# Benchmark: FreeText in Czech and Japanese, 1, 10 and 100 to a page, with Folio (embedded
# subsets of DejaVu Sans and Droid Sans Fallback) vs PyMuPDF's insert_textbox with the same
# font files. Not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product folio >/dev/null
python3 Benchmarks/unicode_text_bench.py "$(swift build -c release --show-bin-path)/folio" "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-5}"
