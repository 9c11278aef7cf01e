#!/usr/bin/env bash
# Benchmark: one library of COUNT PDFs (default 100000, hard-linked copies of the corpus) with
# its catalog in SQLite and, moved by `folio library migrate`, in PostgreSQL 15 (Debian's,
# started here in a temporary folder): search latency over the same 1,000 queries on both, side
# by side, and what the move costs (issue 73; its goal: p99 under 20 ms at 100,000 scores).
set -euo pipefail
cd "$(dirname "$0")/.."
# FOLIO=path picks the binary.
. Benchmarks/folio-binary.sh && folio_binary
python3 Benchmarks/catalog_bench.py "$folio" "${FOLIO_CORPUS:-../shared/corpus}" "${COUNT:-100000}"
