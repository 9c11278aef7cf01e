#!/usr/bin/env python3
"""Times `folio info` against established tools over the whole corpus, in one run.

Each contender reads, for every PDF: page count, encryption and the Info fields (the
Python loops also check for XMP). Each is run REPEAT times; the median wall time is
reported with files/s and the ratio to Folio. Not a test: numbers depend on the machine.

Usage: info_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import os
import statistics
import subprocess
import sys
import time

PIKEPDF_LOOP = r"""
import sys, pikepdf
for path in sys.argv[1:]:
    try:
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            _ = (len(pdf.pages), pdf.is_encrypted, str(info.get("/Title", "")), str(info.get("/Author", "")),
                 "/Metadata" in pdf.Root)
    except Exception:
        pass
"""

PYMUPDF_LOOP = r"""
import sys, fitz
fitz.TOOLS.mupdf_display_errors(False)
for path in sys.argv[1:]:
    try:
        with fitz.open(path) as doc:
            _ = (doc.page_count, doc.is_encrypted, doc.metadata, doc.xref_xml_metadata())
    except Exception:
        pass
"""


def timed(command, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    folio, corpus = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    files = sorted(os.path.join(root, name) for root, _, names in os.walk(corpus)
                   for name in names if name.lower().endswith(".pdf"))
    # Both cores, one process per file; a 10 s cap per file because pdfinfo 22.12 spins
    # forever on qpdf/shared-unnamed-field.pdf.
    per_file = lambda tool: ["xargs", "-P", "2", "-n", "1", "timeout", "10"] + tool
    stdin_files = "\n".join(files)

    def run_xargs(tool, repeat):
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(per_file(tool), input=stdin_files.encode(), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    contenders = [
        ("folio info (2 cores)", lambda: timed([folio, "info", "--json"] + files, repeat)),
        ("folio info (1 core)", lambda: timed(["taskset", "-c", "0", folio, "info", "--json"] + files, repeat)),
        ("pikepdf loop (1 core)", lambda: timed([sys.executable, "-c", PIKEPDF_LOOP] + files, repeat)),
        ("PyMuPDF loop (1 core)", lambda: timed([sys.executable, "-c", PYMUPDF_LOOP] + files, repeat)),
        ("exiftool -fast (1 process)", lambda: timed(["exiftool", "-fast", "-PDF:all"] + files, 1)),
        ("qpdf --show-npages (xargs -P2)", lambda: run_xargs(["qpdf", "--show-npages"], 1)),
        ("pdfinfo (xargs -P2)", lambda: run_xargs(["pdfinfo"], 1)),
    ]
    results = []
    for name, run in contenders:
        seconds = run()
        results.append((name, seconds))
        print(f"  measured {name}: {seconds:.3f} s", file=sys.stderr)
    folio_seconds = results[0][1]
    folio_one_core = results[1][1]
    print(f"{len(files)} files, median of {repeat} runs (exiftool, qpdf, pdfinfo: 1 run)")
    print(f"{'tool':34} {'seconds':>9} {'files/s':>10} {'ms/file':>9} {'vs folio 2c':>12} {'vs folio 1c':>12}")
    for name, seconds in results:
        print(f"{name:34} {seconds:9.3f} {len(files) / seconds:10.0f} {1000 * seconds / len(files):9.3f} "
              f"{seconds / folio_seconds:11.1f}x {seconds / folio_one_core:11.1f}x")
    others = [s for n, s in results[2:]]
    print(f"fastest other tool: {min(others) / folio_seconds:.1f}x slower than folio (2 cores), "
          f"{min(others) / folio_one_core:.1f}x slower than folio on one core")


if __name__ == "__main__":
    main()
