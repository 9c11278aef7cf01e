#!/usr/bin/env bash
# Benchmark of page turns in the score view (not a test): key to ink over 20 turns at two
# viewports, pages drawn ahead off and on, in Debian's Chromium (Playwright). Needs chromium,
# playwright (PyPI) and pdfinfo (poppler-utils).
set -euo pipefail
cd "$(dirname "$0")/.."
# FOLIO=path picks the binary.
. Benchmarks/folio-binary.sh && folio_binary
python3 Benchmarks/pageturn_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}"
