#!/usr/bin/env python3
"""Annotation speed, in one run (not a test):

1. Add one FreeText ("Cut to bar 48", 12 pt, in a 200 x 40 box) and one Ink stroke to the
   first page of each of the 20 largest corpus files every contender can annotate: Folio
   (`folio annot add` twice, one process each; `folio annot import` of both, one process
   per file and one for all files: incremental, appearance streams, synced saves by the
   automatic save path), PyMuPDF (add_freetext_annot, add_ink_annot, saveIncr, no fsync)
   and pypdf (FreeText and Ink dictionaries, incremental writer). Prints ms/file, bytes
   appended and ratios.
2. List every annotation of every corpus file that opens without a password: Folio
   (`folio annot list --json`, one process for all files), PyMuPDF (annots, links, widgets
   with their rect, type, info and colours) and pikepdf (the raw /Annots entries).

Usage: annot_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from write_bench import in_process, measure, report, setup, timed

PYMUPDF_ADD = r"""
import sys, time, pymupdf
pymupdf.TOOLS.mupdf_display_errors(False)
start = time.perf_counter()
for path in sys.argv[1:]:
    doc = pymupdf.open(path)
    page = doc[0]
    page.add_freetext_annot(pymupdf.Rect(50, 50, 250, 90), "Cut to bar 48", fontsize=12)
    page.add_ink_annot([[(100, 200), (120, 210), (140, 205), (160, 220)]])
    doc.saveIncr()
    doc.close()
print(time.perf_counter() - start)
"""

PYPDF_ADD = r"""
import sys, time
from pypdf import PdfWriter
from pypdf.annotations import FreeText
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject
start = time.perf_counter()
for path in sys.argv[1:]:
    writer = PdfWriter(path, incremental=True)
    box = writer.pages[0].mediabox
    top = float(box.top)
    writer.add_annotation(0, FreeText(text="Cut to bar 48", rect=(50, top - 90, 250, top - 50), font_size="12pt"))
    ink = DictionaryObject({NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Ink"),
                            NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (98, top - 222, 162, top - 198)]),
                            NameObject("/InkList"): ArrayObject([ArrayObject([FloatObject(v) for v in
                                (100, top - 200, 120, top - 210, 140, top - 205, 160, top - 220)])])})
    writer.add_annotation(0, ink)
    with open(path, "wb") as out:
        writer.write(out)
print(time.perf_counter() - start)
"""

PYMUPDF_LIST = r"""
import sys, time, pymupdf
pymupdf.TOOLS.mupdf_display_errors(False)
start = time.perf_counter()
count = 0
for path in sys.argv[1:]:
    try:
        doc = pymupdf.open(path)
        for page in doc:
            for annot in page.annots():
                _ = (annot.type, annot.rect, annot.info, annot.colors, annot.opacity); count += 1
            for link in page.links():
                _ = link["from"]; count += 1
            for widget in page.widgets():
                _ = widget.rect; count += 1
    except Exception:
        pass
print(count, file=sys.stderr)
print(time.perf_counter() - start)
"""

PIKEPDF_LIST = r"""
import sys, time, pikepdf
start = time.perf_counter()
count = 0
for path in sys.argv[1:]:
    try:
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                annots = page.obj.get("/Annots")
                if isinstance(annots, pikepdf.Array):
                    for annot in annots:
                        if isinstance(annot, pikepdf.Dictionary):
                            _ = (annot.get("/Subtype"), annot.get("/Rect"), annot.get("/Contents"), annot.get("/T"),
                                 annot.get("/C"), annot.get("/NM"), annot.get("/M")); count += 1
    except Exception:
        pass
print(count, file=sys.stderr)
print(time.perf_counter() - start)
"""


def annotatable(folio):
    """Files every contender annotates without an error."""
    def keep(path):
        with tempfile.TemporaryDirectory() as directory:
            target = os.path.join(directory, "probe.pdf")
            for script in (PYMUPDF_ADD, PYPDF_ADD):
                shutil.copyfile(path, target)
                if subprocess.run([sys.executable, "-c", script, target], capture_output=True).returncode != 0:
                    return False
            shutil.copyfile(path, target)
            return folio_add(folio, target) == 0
    return keep


def folio_add(folio, target):
    first = subprocess.run([folio, "annot", "add", target, "--page", "1", "--type", "freetext",
                            "--rect", "50,50,200,40", "--text", "Cut to bar 48"], capture_output=True).returncode
    second = subprocess.run([folio, "annot", "add", target, "--page", "1", "--type", "ink",
                             "--stroke", "100,200,120,210,140,205,160,220"], capture_output=True).returncode
    return first or second


MARKS = {"format": "folio-annotations", "version": 1, "annotations": [
    {"page": 1, "subtype": "FreeText", "rect": [50, 50, 250, 90], "contents": "Cut to bar 48", "fontSize": 12},
    {"page": 1, "subtype": "Ink", "rect": [98, 98, 162, 122], "inkList": [[100, 100, 120, 110, 140, 105, 160, 120]]}]}


def corpus_files(corpus):
    return sorted(os.path.join(root, name) for root, _, names in os.walk(corpus)
                  for name in names if name.lower().endswith(".pdf"))


def listing(name, command_or_script, files, repeat, folio=None, prefix=()):
    times = []
    for _ in range(repeat):
        if folio:
            start = time.perf_counter()
            subprocess.run(list(prefix) + [folio, "annot", "list", "--json"] + files, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        else:
            times.append(in_process(command_or_script)(files))
    return name, statistics.median(times)


def main():
    folio, files, _, repeat = setup(sys.argv, annotatable, "largest valid corpus files every contender can annotate")
    marks_directory = tempfile.mkdtemp()
    marks = os.path.join(marks_directory, "marks.json")
    with open(marks, "w") as handle:
        json.dump(MARKS, handle)
    results = [
        measure("folio annot add ×2 (1 process/annotation)", files, repeat,
                lambda targets: sum(timed([folio, "annot", "add", t, "--page", "1", "--type", "freetext", "--rect",
                                           "50,50,200,40", "--text", "Cut to bar 48"])
                                    + timed([folio, "annot", "add", t, "--page", "1", "--type", "ink", "--stroke",
                                             "100,200,120,210,140,205,160,220"]) for t in targets)),
        measure("folio annot import, both in 1 save (1 process/file)", files, repeat,
                lambda targets: sum(timed([folio, "annot", "import", t, "--from", marks]) for t in targets)),
        measure("folio annot import, every file in 1 process", files, repeat,
                lambda targets: timed([folio, "annot", "import", "--from", marks] + targets)),
        measure("PyMuPDF 2 annots + saveIncr (1 process)", files, repeat, in_process(PYMUPDF_ADD)),
        measure("PyMuPDF (1 process/file)", files, repeat,
                lambda targets: sum(timed([sys.executable, "-c", PYMUPDF_ADD, t]) for t in targets)),
        measure("pypdf 2 annots, incremental (1 process)", files, repeat, in_process(PYPDF_ADD)),
        measure("folio --version ×2 (start-up only)", files, repeat,
                lambda targets: sum(timed([folio, "--version"]) + timed([folio, "--version"]) for _ in targets)),
    ]
    report(results, files, 52, reference=2, label="vs folio (1 process)")
    shutil.rmtree(marks_directory)

    everything = corpus_files(sys.argv[2])
    readable = [f for f in everything if subprocess.run([folio, "info", f], capture_output=True).returncode == 0]
    print(f"\nlist every annotation of {len(readable)} corpus files, median of {repeat} rounds")
    rows = [listing("folio annot list --json (1 process, all cores)", None, readable, repeat, folio=folio),
            listing("folio annot list --json (1 process, 1 core)", None, readable, repeat, folio=folio,
                    prefix=("taskset", "-c", "0")),
            listing("PyMuPDF annots/links/widgets (1 process)", PYMUPDF_LIST, readable, repeat),
            listing("pikepdf raw /Annots (1 process)", PIKEPDF_LIST, readable, repeat)]
    reference = rows[0][1]
    print(f"{'tool':48} {'ms/file':>9} {'vs folio':>9}")
    for name, seconds in rows:
        print(f"{name:48} {1000 * seconds / len(readable):9.3f} {seconds / reference:8.1f}x")


if __name__ == "__main__":
    main()
