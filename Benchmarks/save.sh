#!/usr/bin/env bash
# Benchmark: the cost of a save against file size, per save path (copy, journal, auto, and
# clone on an XFS image when it can be mounted), vs exiftool and PyMuPDF; then the 20
# largest corpus files in one process vs pikepdf's full save.
# SIZES=1,10,100,500 REPEAT=5 by default; BENCH_DIR picks the folder (its filesystem).
set -euo pipefail
cd "$(dirname "$0")/.."
# Statically linked Swift runtime: process start-up drops from ~16 to ~9 ms.
swift build -c release --product folio --static-swift-stdlib --scratch-path .build-static >/dev/null
python3 Benchmarks/save_bench.py "$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/folio" \
    "${FOLIO_CORPUS:-../shared/corpus}" "${REPEAT:-5}" "${SIZES:-1,10,100,500}"
