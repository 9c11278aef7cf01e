#!/usr/bin/env bash
# Benchmark of sixty music stands opening one score at once (not a test): wrk against
# `folio serve` and Debian's nginx serving the same file, in one run — the whole PDF, 64 KiB
# ranges, a page's marks (afresh and with If-None-Match), the score list. Needs wrk and nginx
# (Debian's packages). FOLIO=path picks the binary; FOLIO_SEED the ranges' offsets.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/folio-binary.sh && folio_binary
python3 Benchmarks/stands_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}"
