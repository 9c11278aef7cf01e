#!/usr/bin/env bash
# forScore's files: import of a generated 4SB archive of COUNT scores (time, peak memory),
# and a 4SS import of a SETLIST-entry setlist against a library of LIBRARY scores.
# Usage: COUNT=1000 SETLIST=500 LIBRARY=10000 bash Benchmarks/forscore.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
count="${COUNT:-1000}"; entries="${SETLIST:-500}"; library="${LIBRARY:-10000}"
corpus="${FOLIO_CORPUS:-$root/../shared/corpus}"
folio="${FOLIO:-$root/.build/release/folio}"
[ -x "$folio" ] || (cd "$root" && swift build -c release --product folio >/dev/null)
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
python3 - "$work" "$count" "$entries" "$library" "$corpus/scores" <<'PY'
import gzip, os, plistlib, random, shutil, sys
work, count, entries, library, scores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
pdfs = sorted(os.path.join(scores, f) for f in os.listdir(scores) if f.endswith(".pdf"))
blobs = [open(p, "rb").read() for p in pdfs]
def record(name, data):
    packed = gzip.compress(data, compresslevel=1); raw = name.encode()
    return f"{len(raw):>16}{len(packed):>16}".encode() + raw + packed
meta = {"&SYS;setlists": ["Gig"]}
names = [f"Piece {i:05d} – Étude.pdf" for i in range(count)]
for i, n in enumerate(names):
    meta[n + "|title"] = f"Étude {i}"; meta[n + "|composer"] = "Carcassi"; meta[n + "|rating"] = 3
    meta[n + "|1|textAnnotations"] = [{"text": "p dolce", "fontSize": 12, "origin": "{0.1, 0.1}", "size": "{0.2, 0.04}"}]
meta["&SET;Gig"] = [{"Title": f"Étude {i}", "FilePath": n} for i, n in enumerate(names[:50])]
with open(os.path.join(work, "archive.4sb"), "wb") as out:
    out.write(b"<--4SBV03-->" + record("Archive.4sb", plistlib.dumps(meta, fmt=plistlib.FMT_BINARY)))
    for i, n in enumerate(names):
        out.write(record("{%DOCUMENTS_DIR%}/" + n, blobs[i % len(blobs)]))
lib = os.path.join(work, "lib"); os.makedirs(lib)
for i in range(library):
    os.link(pdfs[i % len(pdfs)], os.path.join(lib, f"Score {i:05d}.pdf"))
rows = ['<?xml version="1.0" encoding="UTF-8" ?>', '<forScore kind="setlist" version="1.0" title="Big">']
for i in range(entries):
    j = random.Random(i).randrange(library)
    rows.append(f'<score title="S{j}" path="{"score" if i % 2 else "Score"} {j:05d}.pdf" />')
rows.append("</forScore>")
open(os.path.join(work, "big.4ss"), "w").write("\n".join(rows))
PY
echo "archive: $count scores, $(du -h "$work/archive.4sb" | cut -f1)"
/usr/bin/time -f "import-4sb: %e s, peak %M KiB" "$folio" import-4sb "$work/archive.4sb" "$work/out" >/dev/null
"$folio" library scan "$work/lib" >/dev/null
/usr/bin/time -f "setlist import ($entries entries, $library scores): %e s, peak %M KiB" \
    "$folio" setlist import "$work/big.4ss" --library "$work/lib" >/dev/null
python3 - "$work/archive.4sb" <<'PY'
import gzip, sys, time
# Reference: reading every record with Python's gzip (no PDF opened or written).
start = time.time(); data = open(sys.argv[1], "rb").read(); pos = 12; n = 0
while pos < len(data):
    a = int(data[pos:pos+16]); b = int(data[pos+16:pos+32]); pos += 32 + a
    gzip.decompress(data[pos:pos+b]); pos += b; n += 1
print(f"python gzip walk of {n} records (reference, no PDF work): {time.time() - start:.2f} s")
PY
