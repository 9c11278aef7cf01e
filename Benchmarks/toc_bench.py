#!/usr/bin/env python3
"""Renames the first table-of-contents entry of the 20 largest corpus files that have an
outline, with `folio toc rename` (one process per file: incremental, one object written,
copy + fsync + atomic rename) and with PyMuPDF (get_toc, set_toc, saveIncr) and pikepdf
(open_outline + full save), in one run; prints ms/file, bytes appended and ratios to
Folio. Not a test.

Usage: toc_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from write_bench import in_process, measure, report, setup, timed

TITLE = "Sonata No. 1 — «renamed»"

PIKEPDF = r"""
import sys, time, pikepdf
start = time.perf_counter()
for path in sys.argv[1:]:
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        with pdf.open_outline() as outline:
            outline.root[0].title = "Sonata No. 1 — «renamed»"
        pdf.save(path)
print(time.perf_counter() - start)
"""

PYMUPDF = r"""
import sys, time, fitz
fitz.TOOLS.mupdf_display_errors(False)
start = time.perf_counter()
for path in sys.argv[1:]:
    doc = fitz.open(path)
    toc = doc.get_toc(simple=False)  # set_toc_item fails on most corpus outlines
    toc[0][1] = "Sonata No. 1 — «renamed»"
    doc.set_toc(toc)
    doc.saveIncr()
    doc.close()
print(time.perf_counter() - start)
"""


def has_outline(folio):
    """Files with an outline that every contender renames without an error (PyMuPDF cannot
    save a file it had to repair incrementally, for one)."""
    def keep(path):
        shown = subprocess.run([folio, "toc", "--json", path], capture_output=True, text=True)
        if shown.returncode != 0 or not json.loads(shown.stdout or "{}").get("entries"):
            return False
        with tempfile.TemporaryDirectory() as directory:
            for script in (PYMUPDF, PIKEPDF):
                target = os.path.join(directory, "probe.pdf")
                shutil.copyfile(path, target)
                if subprocess.run([sys.executable, "-c", script, target], capture_output=True).returncode != 0:
                    return False
        return True
    return keep


def per_process(script):
    """The script run once per file, as a shell loop over files would run it."""
    return lambda targets: sum(timed([sys.executable, "-c", script, target]) for target in targets)


def main():
    folio, files, _, repeat = setup(sys.argv, has_outline,
                                    "largest valid corpus files with an outline every contender can rename")
    results = [
        measure("folio toc rename (1 process/file)", files, repeat,
                lambda targets: sum(timed([folio, "toc", "rename", t, "1", "--title", TITLE]) for t in targets)),
        measure("PyMuPDF set_toc + saveIncr (1 process)", files, repeat, in_process(PYMUPDF)),
        measure("PyMuPDF (1 process/file)", files, repeat, per_process(PYMUPDF)),
        measure("pikepdf open_outline, full save (1 process)", files, repeat, in_process(PIKEPDF)),
        measure("pikepdf (1 process/file)", files, repeat, per_process(PIKEPDF)),
        # What Folio spends before reading any file: process start-up of the static binary.
        measure("folio --version (1 process/file)", files, repeat,
                lambda targets: sum(timed([folio, "--version"]) for _ in targets)),
    ]
    report(results, files, 44, reference=0, label="vs folio")


if __name__ == "__main__":
    main()
