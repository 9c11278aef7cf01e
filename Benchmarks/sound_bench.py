#!/usr/bin/env python3
"""Audio cataloguing speed, in one run (not a test).

Builds a library of COUNT recordings made by ffmpeg (10 s each, MP3, FLAC, Ogg, M4A and WAV
in turn, each a tone of its own so no two share a fingerprint, in 20 folders, with Czech,
Greek and Japanese names), then measures what tells each file's format by its content:
1. Folio: `folio library scan` on the folder (first scan: each file's head sniffed, its
   fingerprint read, stored in SQLite), and the rescan with nothing changed.
2. exiftool: `exiftool -fast2 -json -FileType -r` (the format by content; no catalog).
3. ffprobe: one `ffprobe -show_entries format=format_name` per file (what a shell script
   calling the usual tool would do).
Wall time (median of REPEAT) and files/s; the formats the three tell are compared.

Usage: sound_bench.py FOLIO_BINARY [COUNT] [REPEAT]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(command, repeat, before=None):
    times = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    folio = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    library = tempfile.mkdtemp(prefix="folio-sound-bench-")
    formats = ["mp3", "flac", "ogg", "m4a", "wav"]
    names = ["Vltava", "Ελεγεία", "子守歌", "Dobrú noc", "Largo"]
    files = []
    for index in range(count):
        folder = os.path.join(library, f"Nahrávky {index % 20:02d}")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{index:04d} {names[index % 5]}.{formats[index % 5]}")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        f"sine=frequency={200 + index}:duration=10", path], check=True)
        files.append(path)
    size = sum(os.path.getsize(path) for path in files)
    print(f"{count} recordings, {size / 1e6:.1f} MB")
    catalog = os.path.join(library, ".folio")
    first = timed([folio, "library", "scan", library, "--quiet"], repeat, lambda: shutil.rmtree(catalog, ignore_errors=True))
    again = timed([folio, "library", "scan", library, "--quiet"], repeat)
    listed = subprocess.run([folio, "tracks", "list", "--audio", "--json", "--library", library],
                            capture_output=True, text=True, check=True)
    kinds = {os.path.join(library, item["path"]): item["kind"]
             for item in map(json.loads, listed.stdout.splitlines())}
    exif = timed(["exiftool", "-fast2", "-json", "-FileType", "-r", library], repeat)
    exif_out = json.loads(subprocess.run(["exiftool", "-fast2", "-json", "-FileType", "-r", library],
                                         capture_output=True, text=True).stdout)
    start = time.perf_counter()
    probed = {}
    for path in files:
        out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=format_name", "-of", "json", path],
                             capture_output=True, text=True, check=True).stdout
        probed[path] = json.loads(out)["format"]["format_name"]
    ffprobe = time.perf_counter() - start
    print(f"Folio told {len(kinds)} of {count}; exiftool {len(exif_out)}; ffprobe {len(probed)}")
    agree = sum(1 for path in files if kinds.get(path) in probed[path].split(","))
    print(f"Folio's format agrees with ffprobe's for {agree} of {count}")
    print("| tool | what | median s | files/s | vs Folio |")
    print("| --- | --- | --- | --- | --- |")
    for tool, what, seconds in [("folio library scan", "first scan (sniff, fingerprint, SQLite)", first),
                                ("folio library scan", "rescan, nothing changed", again),
                                ("exiftool -fast2 -FileType -r", "format by content", exif),
                                ("ffprobe per file", "format by content (one run)", ffprobe)]:
        print(f"| {tool} | {what} | {seconds:.3f} | {count / seconds:.0f} | {seconds / first:.1f}× |")
    shutil.rmtree(library)


if __name__ == "__main__":
    main()
