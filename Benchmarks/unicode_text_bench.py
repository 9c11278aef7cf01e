#!/usr/bin/env python3
"""Unicode text on a score, in one run (not a test): 1, 10 and 100 FreeText annotations of
Czech ("Dvořák: ritardando, přidej"), Japanese ("ゆっくり、歌うように") and Arabic ("ببطء بلا
تسرع") on the first page of a corpus score. (Folio joins the Arabic letters and draws the line
right to left; PyMuPDF's insert_textbox draws them unjoined, in the order typed.)

- Folio: `folio annot import` of an exchange file holding them (one process: read, draw
  each appearance, subset and embed the fonts it needs, one synced incremental save).
- PyMuPDF: `insert_textbox` of the same texts in the same rectangles with the same font
  file (DejaVu Sans or Droid Sans Fallback; PyMuPDF subsets on save with subset_fonts),
  then an incremental save. (It writes page content, not annotations: the closest it has.)

Prints the median time of REPEAT runs and the bytes each adds, and Folio's ratio.
Usage: unicode_text_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DROID = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
TEXTS = {"Czech": ("Dvořák: ritardando, přidej", DEJAVU), "Japanese": ("ゆっくり、歌うように", DROID),
         "Arabic": ("ببطء بلا تسرع", DEJAVU)}

PYMUPDF = r"""
import json, sys, time, pymupdf
path, text, font, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
start = time.perf_counter()
doc = pymupdf.open(path)
page = doc[0]
for index in range(count):
    x, y = 20 + (index % 4) * 140, 20 + (index // 4) * 28
    page.insert_textbox(pymupdf.Rect(x, y, x + 135, y + 24), text, fontsize=10, fontname="F0", fontfile=font)
doc.subset_fonts()
doc.saveIncr()
print(time.perf_counter() - start)
"""


def exchange(text, count):
    items = []
    for index in range(count):
        x, y = 20 + (index % 4) * 140, 20 + (index // 4) * 28
        items.append({"page": 1, "subtype": "FreeText", "rect": [x, 800 - y - 24, x + 135, 800 - y],
                      "contents": text, "fontSize": 10})
    return {"format": "folio-annotations", "version": 1, "annotations": items}


def main():
    folio, corpus = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    score = os.path.join(corpus, "scores", "Bach-Partita_in_a_minor_BWV_1013.pdf")
    work = tempfile.mkdtemp(prefix="folio-unicode-bench-")
    print(f"Score: {os.path.basename(score)} ({os.path.getsize(score)} bytes); median of {repeat} runs\n")
    print("| text | annotations | Folio ms | Folio bytes added | PyMuPDF ms | PyMuPDF bytes added | time ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    try:
        for name, (text, font) in TEXTS.items():
            for count in (1, 10, 100):
                marks = os.path.join(work, "marks.json")
                with open(marks, "w", encoding="utf-8") as out:
                    json.dump(exchange(text, count), out, ensure_ascii=False)
                folio_times, mupdf_times = [], []
                for _ in range(repeat):
                    target = os.path.join(work, "folio.pdf")
                    shutil.copyfile(score, target)
                    start = time.perf_counter()
                    subprocess.run([folio, "annot", "import", target, "--from", marks], check=True,
                                   stdout=subprocess.DEVNULL)
                    folio_times.append(time.perf_counter() - start)
                    folio_bytes = os.path.getsize(target) - os.path.getsize(score)
                    target = os.path.join(work, "mupdf.pdf")
                    shutil.copyfile(score, target)
                    start = time.perf_counter()
                    subprocess.run([sys.executable, "-c", PYMUPDF, target, text, font, str(count)], check=True,
                                   stdout=subprocess.DEVNULL)
                    mupdf_times.append(time.perf_counter() - start)
                    mupdf_bytes = os.path.getsize(target) - os.path.getsize(score)
                f, m = statistics.median(folio_times) * 1000, statistics.median(mupdf_times) * 1000
                print(f"| {name} | {count} | {f:.0f} | {folio_bytes} | {m:.0f} | {mupdf_bytes} | {f / m:.2f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
