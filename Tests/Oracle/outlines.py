#!/usr/bin/env python3
"""Outline trees of the corpus as PyMuPDF and pikepdf read them.

For every PDF below the corpus folder whose outline PyMuPDF or pikepdf can read and is not
empty, prints (as one JSON map keyed by the path relative to the corpus):
  fitz   PyMuPDF's get_toc(simple=False): [level (1-based), title, page (1-based, -1 none),
         uri or null, file or null] per entry, in document order
  pike   pikepdf's outline walked depth-first: [depth (0-based), title] per entry
  password  the password used
Errors of either tool are recorded as fitz_error / pike_error.

Usage: outlines.py CORPUS_DIR > outlines.json
"""
import json
import sys

import fitz
import pikepdf

from oracle import corpus_files

fitz.TOOLS.mupdf_display_errors(False)


def by_fitz(path, password):
    document = fitz.open(path)
    try:
        if document.needs_pass:
            document.authenticate(password or "")
        entries = []
        for entry in document.get_toc(simple=False):
            level, title, page, details = entry[0], entry[1], entry[2], entry[3] if len(entry) > 3 else {}
            uri = details.get("uri") if isinstance(details, dict) else None
            target = details.get("file") if isinstance(details, dict) else None
            entries.append([level, title, page, uri, target])
        return entries
    finally:
        document.close()


def by_pike(path, password):
    entries = []
    with pikepdf.open(path, password=password or "") as pdf:
        with pdf.open_outline() as outline:
            def walk(items, depth):
                for item in items:
                    entries.append([depth, item.title])
                    walk(item.children, depth + 1)
            walk(outline.root, 0)
    return entries


def main():
    corpus = sys.argv[1]
    answers = {}
    for path, rel, password in corpus_files(corpus):
        entry = {"password": password}
        try:
            entry["fitz"] = by_fitz(path, password)
        except Exception as error:  # recorded, the test decides
            entry["fitz_error"] = str(error)[:200]
        try:
            entry["pike"] = by_pike(path, password)
        except Exception as error:  # recorded, the test decides
            entry["pike_error"] = str(error)[:200]
        if entry.get("fitz") or entry.get("pike"):
            answers[rel] = entry
    json.dump(answers, sys.stdout, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
