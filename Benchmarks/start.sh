#!/usr/bin/env bash
# Benchmark of how fast folio starts (not a test; issue 74): `folio --version` and
# `folio info --json FILE`, each run 200 times, for the development build (dynamic runtime) and
# the binary users install (Scripts/release's link: runtime inside, packed relocations, no
# exported symbols), beside `qpdf --version`, `qpdf --show-npages` and `pdfinfo` on the same file.
# FOLIO=path picks the development binary; FOLIO_RELEASE=path the installed one (else it is
# linked now by Scripts/release --from-build .build/release, the development build's objects).
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/folio-binary.sh && folio_binary
release="${FOLIO_RELEASE:-}"
if [ -z "$release" ]; then
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
    bash Scripts/release --from-build .build/release --out "$out" >/dev/null
    release="$out/folio"
fi
python3 Benchmarks/start_bench.py "$folio" "$release" "${FOLIO_CORPUS:-../shared/corpus}"
