#!/usr/bin/env python3
"""Renames the first table-of-contents entry of the 20 largest corpus files that have an
outline, with `folio toc rename` (one process per file: incremental, one object written,
copy + fsync + atomic rename) and with PyMuPDF (set_toc_item + saveIncr) and pikepdf
(open_outline + full save), in one run; prints ms/file, bytes appended and ratios to
Folio. Not a test.

Usage: toc_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import json
import subprocess
import sys

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
    doc.set_toc_item(0, title="Sonata No. 1 — «renamed»")
    doc.saveIncr()
    doc.close()
print(time.perf_counter() - start)
"""


def has_outline(folio):
    def keep(path):
        shown = subprocess.run([folio, "toc", "--json", path], capture_output=True, text=True)
        return shown.returncode == 0 and bool(json.loads(shown.stdout or "{}").get("entries"))
    return keep


def main():
    folio, files, _, repeat = setup(sys.argv, has_outline, "largest valid corpus files with an outline")
    results = [
        measure("folio toc rename (1 process/file)", files, repeat,
                lambda targets: sum(timed([folio, "toc", "rename", t, "1", "--title", TITLE]) for t in targets)),
        measure("PyMuPDF set_toc_item + saveIncr", files, repeat, in_process(PYMUPDF)),
        measure("pikepdf open_outline, full save", files, repeat, in_process(PIKEPDF)),
    ]
    report(results, files, 36, reference=0, label="vs folio")


if __name__ == "__main__":
    main()
