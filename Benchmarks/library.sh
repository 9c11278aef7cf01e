#!/usr/bin/env bash
# Benchmark: catalog a library of COUNT PDFs (hard-linked copies of the corpus in nested
# folders; default 10000): first scan, rescan with nothing changed, search latency over
# 1,000 queries in one process; compared in the same run with `exiftool -r -json` and a
# Python loop (pikepdf) writing the same fields into SQLite. Wall time, files/s, peak memory.
# MIX=1: a mixed library, four in ten files engraved scores (issue 57; COUNT=3000 as there).
set -euo pipefail
cd "$(dirname "$0")/.."
# FOLIO=path picks the binary.
. Benchmarks/folio-binary.sh && folio_binary
python3 Benchmarks/library_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}" "${COUNT:-10000}" "${REPEAT:-3}"
