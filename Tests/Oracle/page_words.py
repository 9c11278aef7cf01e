#!/usr/bin/env python3
"""The words of each file's first page as PyMuPDF extracts them: {path: [words]} (JSON).
What the page's content shows: annotations and form fields taken off first (in memory),
the page's /Rotate set to 0, invisible text (alpha 0: an OCR layer) and lines not read
left to right along the page left out. Words are runs of letters (any script), lowercased;
a file PyMuPDF cannot open, or whose first page it cannot read, is left out. Ligatures and
Arabic and Hebrew presentation forms count as the letters they stand for (NFKC).

Usage: page_words.py FILE..."""
import json
import re
import sys
import unicodedata

import pymupdf

WORD = re.compile(r"[^\W\d_]+")


def main(paths):
    pymupdf.TOOLS.mupdf_display_errors(False)
    answers = {}
    for path in paths:
        try:
            with pymupdf.open(path) as document:
                if document.needs_pass or document.page_count == 0:
                    continue
                page = document[0]
                for widget in list(page.widgets()):
                    page.delete_widget(widget)
                for annotation in list(page.annots()):
                    page.delete_annot(annotation)
                page.set_rotation(0)
                text = page.get_text("dict", flags=pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES)
        except Exception:   # noqa: BLE001 — a damaged file is simply not compared
            continue
        words = []
        for block in text["blocks"]:
            for line in block.get("lines", []):
                if line["dir"][0] < 0.98:
                    continue
                shown = "".join(span["text"] for span in line["spans"] if span.get("alpha", 255) > 0)
                shown = "".join(unicodedata.normalize("NFKC", c) if 0xFB00 <= ord(c) <= 0xFDFF or 0xFE70 <= ord(c) <= 0xFEFF
                                else c for c in shown)
                words += [word.lower() for word in WORD.findall(shown)]
        answers[path] = words
    json.dump(answers, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1:])
