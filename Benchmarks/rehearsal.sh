#!/usr/bin/env bash
# Rehearsal broadcast: one leader and FOLLOWERS followers (Python websockets clients on
# loopback) on `folio serve`; MOVES page turns; the latency from the leader's send to the last
# follower's receipt, median and p99 — against a relay written with Python's websockets
# (its broadcast helper) carrying the same messages (see rehearsal_bench.py).
# Usage: FOLLOWERS=50 MOVES=200 bash Benchmarks/rehearsal.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
folio="${FOLIO:-$root/.build/release/folio}"
[ -x "$folio" ] || (cd "$root" && swift build -c release --product folio >/dev/null)
python3 "$here/rehearsal_bench.py" "$folio" "${FOLLOWERS:-50}" "${MOVES:-200}"
