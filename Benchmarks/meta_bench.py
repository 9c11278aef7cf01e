#!/usr/bin/env python3
"""Writes score metadata (title, composer, genre, keywords) on the 20 largest corpus files
with `folio meta set` (Info + XMP, incremental, atomic) and with exiftool and pikepdf, in
one run, and prints ms/file, bytes appended and ratios. Not a test.

Usage: meta_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import sys

from write_bench import in_process, measure, report, setup, timed

PIKEPDF = r"""
import sys, time, pikepdf
start = time.perf_counter()
for path in sys.argv[1:]:
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        with pdf.open_metadata() as meta:  # keeps XMP in step with docinfo, as Folio does
            meta["dc:title"] = "Nocturne Op. 90 № 2"
            meta["dc:creator"] = ["Frédéric Chopin"]
            meta["dc:description"] = "Romantic"
            meta["pdf:Keywords"] = "Recital, rating:4, keysf:4, keymi:1"
        pdf.docinfo["/Title"] = "Nocturne Op. 90 № 2"
        pdf.docinfo["/Author"] = "Frédéric Chopin"
        pdf.docinfo["/Subject"] = "Romantic"
        pdf.docinfo["/Keywords"] = "Recital, rating:4, keysf:4, keymi:1"
        pdf.save(path)
print(time.perf_counter() - start)
"""

FOLIO_ARGUMENTS = ["--title", "Nocturne Op. 90 № 2", "--composer", "Frédéric Chopin", "--genre", "Romantic",
                   "--tag", "Recital", "--rating", "4", "--key", "C# minor"]
EXIFTOOL_ARGUMENTS = ["-Title=Nocturne Op. 90 № 2", "-Author=Frédéric Chopin", "-Subject=Romantic",
                      "-Keywords=Recital, rating:4, keysf:4, keymi:1"]


def main():
    folio, files, _, repeat = setup(sys.argv)
    results = [
        measure("folio meta set (1 process/file)", files, repeat,
                lambda targets: sum(timed([folio, "meta", "set", t] + FOLIO_ARGUMENTS) for t in targets)),
        measure("folio meta set (1 process)", files, repeat,
                lambda targets: timed([folio, "meta", "set"] + targets + FOLIO_ARGUMENTS)),
        measure("exiftool -Title= -Author= -Keywords=", files, repeat,
                lambda targets: timed(["exiftool", "-q", "-overwrite_original"] + EXIFTOOL_ARGUMENTS + targets)),
        measure("pikepdf docinfo+XMP, full save", files, repeat, in_process(PIKEPDF)),
    ]
    report(results, files, 38)


if __name__ == "__main__":
    main()
