#!/usr/bin/env python3
"""Changes one Info field on the 20 largest corpus files with Folio (incremental) and with
established tools, in one run, and prints ms/file, bytes appended and ratios.

Contenders: folio set-info (incremental, copy + fsync + atomic rename; per file and in one
process), pikepdf (full save),
pypdf (incremental writer), PyMuPDF (saveIncr) and exiftool -Title= (incremental).
Each works on fresh copies; the median of REPEAT rounds is reported. Not a test.

Usage: write_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PIKEPDF = r"""
import sys, time, pikepdf
start = time.perf_counter()
for path in sys.argv[1:]:
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.docinfo["/Title"] = "Benchmark Title"
        pdf.save(path)
print(time.perf_counter() - start)
"""

PYPDF = r"""
import sys, time, pypdf
start = time.perf_counter()
for path in sys.argv[1:]:
    writer = pypdf.PdfWriter(path, incremental=True)
    writer.add_metadata({"/Title": "Benchmark Title"})
    with open(path, "wb") as handle:
        writer.write(handle)
print(time.perf_counter() - start)
"""

PYMUPDF = r"""
import sys, time, fitz
fitz.TOOLS.mupdf_display_errors(False)
start = time.perf_counter()
for path in sys.argv[1:]:
    doc = fitz.open(path)
    metadata = doc.metadata or {}
    metadata["title"] = "Benchmark Title"
    doc.set_metadata(metadata)
    doc.saveIncr()
    doc.close()
print(time.perf_counter() - start)
"""


def largest(corpus, count, folio, keep=None):
    """The `count` largest corpus files every contender can open without a password (and
    that `keep`, when given, accepts)."""
    files = sorted((os.path.getsize(os.path.join(root, name)), os.path.join(root, name))
                   for root, _, names in os.walk(corpus) for name in names if name.lower().endswith(".pdf"))
    chosen = []
    for size, path in reversed(files):
        if subprocess.run(["qpdf", "--check", path], capture_output=True).returncode != 0:
            continue
        if subprocess.run([folio, "info", path], capture_output=True).returncode != 0:
            continue
        if keep is not None and not keep(path):
            continue
        chosen.append(path)
        if len(chosen) == count:
            break
    return chosen


def copies(files, directory):
    result = []
    for index, path in enumerate(files):
        target = os.path.join(directory, f"{index}.pdf")
        shutil.copyfile(path, target)
        result.append(target)
    return result


def measure(name, files, repeat, run):
    times, appended = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as directory:
            targets = copies(files, directory)
            before = sum(os.path.getsize(t) for t in targets)
            seconds = run(targets)
            after = sum(os.path.getsize(t) for t in targets)
            times.append(seconds)
            appended.append((after - before) / len(targets))
    return name, statistics.median(times), statistics.median(appended)


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def in_process(script):
    def run(targets):
        result = subprocess.run([sys.executable, "-c", script] + targets, capture_output=True, text=True)
        try:
            return float(result.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return float("nan")
    return run


def setup(argv, keep=None, what="largest valid corpus files"):
    """FOLIO_BINARY CORPUS_DIR [REPEAT] -> (folio, files, sizes, repeat), after printing what is measured."""
    folio, corpus = argv[1], argv[2]
    repeat = int(argv[3]) if len(argv) > 3 else 3
    files = largest(corpus, 20, folio, keep(folio) if keep else None)
    sizes = [os.path.getsize(f) for f in files]
    print(f"{len(files)} {what}, {min(sizes) / 1e6:.2f} to {max(sizes) / 1e6:.2f} MB, "
          f"median of {repeat} rounds")
    return folio, files, sizes, repeat


def report(results, files, width, reference=1, label="vs folio (1 process)"):
    """Prints ms/file, bytes appended and the ratio to results[reference] (by default Folio in one process)."""
    folio_ms = 1000 * results[reference][1] / len(files)
    print(f"{'tool':{width}} {'ms/file':>9} {'appended B/file':>16} {label:>21}")
    for name, seconds, appended in results:
        ms = 1000 * seconds / len(files)
        print(f"{name:{width}} {ms:9.2f} {appended:16.0f} {ms / folio_ms:20.1f}x")


def main():
    folio, files, sizes, repeat = setup(sys.argv)

    def folio_run(targets):
        # One process per file, as a user would run it: process start-up included.
        return sum(timed([folio, "set-info", t, "--entry", "Title=Benchmark Title"]) for t in targets)

    def exiftool_run(targets):
        return timed(["exiftool", "-q", "-overwrite_original", "-Title=Benchmark Title"] + targets)

    def folio_batch(targets):
        return timed([folio, "set-info", "--entry", "Title=Benchmark Title"] + targets)

    results = [
        measure("folio set-info (1 process/file)", files, repeat, folio_run),
        measure("folio set-info (1 process)", files, repeat, folio_batch),
        measure("exiftool -Title= (1 process)", files, repeat, exiftool_run),
        measure("PyMuPDF saveIncr (in process)", files, repeat, in_process(PYMUPDF)),
        measure("pikepdf full save (in process)", files, repeat, in_process(PIKEPDF)),
        measure("pypdf incremental (in process)", files, repeat, in_process(PYPDF)),
    ]
    report(results, files, 34)
    # Time against size: an incremental save should not grow with the file.
    per_file = []
    with tempfile.TemporaryDirectory() as directory:
        for target, size in zip(copies(files, directory), sizes):
            per_file.append((size, 1000 * min(timed([folio, "set-info", target, "--entry", f"Title=T{i}"]) for i in range(3))))
    small = statistics.median(ms for size, ms in per_file[len(per_file) // 2:])
    large = statistics.median(ms for size, ms in per_file[:len(per_file) // 2])
    print(f"folio ms/file, larger half {large:.2f} vs smaller half {small:.2f} (sizes {sizes[-1] / 1e6:.2f}-{sizes[0] / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
