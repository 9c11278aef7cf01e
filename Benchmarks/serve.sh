#!/usr/bin/env bash
# Benchmark of `folio serve` (not a test): search requests/s and latency percentiles with wrk
# on a library of COUNT scores (default 10000); annotation save latency (median, p99) on the
# 20 largest corpus files, against PyMuPDF's incremental save of the same annotation; time to
# the first rendered page of a 20-page score in Debian's Chromium (Playwright).
# Needs wrk (Debian), pymupdf and playwright (PyPI), chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# FOLIO=path picks the binary.
. Benchmarks/folio-binary.sh && folio_binary
python3 Benchmarks/serve_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}" "${COUNT:-10000}"
