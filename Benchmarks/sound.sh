#!/usr/bin/env bash
# Audio cataloguing: `folio library scan` over COUNT recordings made by ffmpeg, against
# exiftool and ffprobe telling the same files' formats (see sound_bench.py).
# Usage: COUNT=500 REPEAT=3 bash Benchmarks/sound.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
folio="${FOLIO:-$root/.build/release/folio}"
[ -x "$folio" ] || (cd "$root" && swift build -c release --product folio >/dev/null)
python3 "$here/sound_bench.py" "$folio" "${COUNT:-500}" "${REPEAT:-3}"
