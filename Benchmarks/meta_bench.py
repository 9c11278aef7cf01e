#!/usr/bin/env python3
"""Writes score metadata (title, composer, genre, keywords) on the 20 largest corpus files
with `folio meta set` (Info + XMP, incremental, atomic) and with exiftool and pikepdf, in
one run, and prints ms/file, bytes appended and ratios. Not a test.

Usage: meta_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]
"""
import os
import statistics
import sys

from write_bench import in_process, largest, measure, timed

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
    folio, corpus = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    files = largest(corpus, 20, folio)
    sizes = [os.path.getsize(f) for f in files]
    print(f"{len(files)} largest valid corpus files, {min(sizes) / 1e6:.2f} to {max(sizes) / 1e6:.2f} MB, "
          f"median of {repeat} rounds")
    results = [
        measure("folio meta set (1 process/file)", files, repeat,
                lambda targets: sum(timed([folio, "meta", "set", t] + FOLIO_ARGUMENTS) for t in targets)),
        measure("folio meta set (1 process)", files, repeat,
                lambda targets: timed([folio, "meta", "set"] + targets + FOLIO_ARGUMENTS)),
        measure("exiftool -Title= -Author= -Keywords=", files, repeat,
                lambda targets: timed(["exiftool", "-q", "-overwrite_original"] + EXIFTOOL_ARGUMENTS + targets)),
        measure("pikepdf docinfo+XMP, full save", files, repeat, in_process(PIKEPDF)),
    ]
    folio_ms = 1000 * results[1][1] / len(files)
    print(f"{'tool':38} {'ms/file':>9} {'appended B/file':>16} {'vs folio (1 process)':>21}")
    for name, seconds, appended in results:
        ms = 1000 * seconds / len(files)
        print(f"{name:38} {ms:9.2f} {appended:16.0f} {ms / folio_ms:20.1f}x")


if __name__ == "__main__":
    main()
