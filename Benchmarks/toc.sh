#!/usr/bin/env bash
# Benchmark: rename one table-of-contents entry with `folio toc rename` vs PyMuPDF and pikepdf.
set -euo pipefail
cd "$(dirname "$0")/.."
# Statically linked Swift runtime: process start-up drops from ~16 to ~9 ms.
swift build -c release --product folio --static-swift-stdlib --scratch-path .build-static >/dev/null
python3 Benchmarks/toc_bench.py "$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/folio" "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-3}"
