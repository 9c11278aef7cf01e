#!/usr/bin/env bash
# Benchmark of page turns (not a test): key to ink in the score view and in Perform, at three
# paces, at an iPad's window, in Debian's Chromium (Playwright) and in WebKitGTK (Safari's
# engine: webkit2gtk-driver, Selenium, Xvfb). Needs chromium, playwright and selenium (PyPI),
# webkit2gtk-driver, xvfb and pdfinfo (poppler-utils). FOLIO_ENGINES=chromium|webkit: one only.
set -euo pipefail
cd "$(dirname "$0")/.."
# FOLIO=path picks the binary.
. Benchmarks/folio-binary.sh && folio_binary
python3 Benchmarks/pageturn_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}"
