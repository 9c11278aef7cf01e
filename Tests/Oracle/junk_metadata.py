#!/usr/bin/env python3
"""Writes copies of SOURCE into OUTDIR with the junk metadata real collections carry
(scanner and Office names, file-name titles, markup residue, misread keywords, Info and XMP
that disagree), and prints JSON {file: [rules expected]} for the lint test."""
import json
import os
import sys

import pikepdf

CASES = {
    "word.pdf": ({"/Title": "Microsoft Word - Etude_3.docx", "/Author": "Administrator"},
                 ["junk-value", "title-is-file-name", "junk-value"], None),
    "scan.pdf": ({"/Title": "CamScanner 03-12-2023 14.22", "/Author": "Johannes Brahms;  Clara Schumann",
                  "/Keywords": "Piano,, rating:x, forScore-rating:4, piano"},
                 ["junk-value", "doubled-separator", "doubled-separator", "special-keyword", "legacy-keyword",
                  "duplicate-value"], None),
    "markup.pdf": ({"/Title": "Tom &amp; Jerry \\bold{Rag}", "/Author": "Gabriel FaurÃ©", "/Subject": "  Lied  ",
                    "/Keywords": "difficulty:7"},
                   ["markup-residue", "whitespace", "markup-residue", "special-keyword"], None),
    "mismatch.pdf": ({"/Title": "Greensleeves", "/Author": "Traditional"}, ["info-xmp-mismatch"],
                     {"dc:title": "Green Sleeves"}),
    "Etude_in_C.pdf": ({"/Title": "Etude_in_C"}, ["title-is-file-name"], None),
    "clean.pdf": ({"/Title": "Après un rêve", "/Author": "Gabriel Fauré", "/Keywords": "Lied, rating:4"}, [], None),
}


def main(out, source):
    os.makedirs(out, exist_ok=True)
    expected = {}
    for name, (info, rules, xmp) in CASES.items():
        with pikepdf.open(source) as pdf:
            for key in list(pdf.docinfo.keys()):
                del pdf.docinfo[key]
            if "/Metadata" in pdf.Root:
                del pdf.Root["/Metadata"]
            for key, value in info.items():
                # UTF-16 with a BOM, so the text is read exactly as written (mojibake included).
                pdf.docinfo[key] = pikepdf.String(b"\xfe\xff" + value.encode("utf-16-be"))
            if xmp:
                with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
                    for key, value in xmp.items():
                        meta[key] = value
            pdf.save(os.path.join(out, name))
        expected[name] = rules
    json.dump(expected, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
