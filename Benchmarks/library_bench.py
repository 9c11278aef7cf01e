#!/usr/bin/env python3
"""Library catalog speed, in one run (not a test).

Builds a library of COUNT PDFs (hard links to the corpus's files in 100 nested folders, so
every path is a file of its own), then measures:
1. Folio: `folio library scan` (first scan: every file opened, read in parallel, stored in
   SQLite with FTS), the rescan with nothing changed, and 1,000 searches in one process
   (`folio library bench-search`: words from the catalogued titles, prefixes, composers).
2. exiftool: `exiftool -json -fast2` (Info and XMP of every file; no catalog) over at most
   1,000 of the files, its time scaled to COUNT (it reads about 8 files/s here).
3. pikepdf: a Python loop (two processes, one per core) reading Info, page count and the
   outline's top titles into SQLite; and the same loop reading what Folio's catalog keeps
   besides (the whole outline with pages, annotation counts by subtype, XMP fields, the
   fingerprint).
Folio's scans and both loops alternate, REPEAT times each. Wall time (median of REPEAT),
files/s and peak resident memory (ru_maxrss of the child; the larger of the loop's two).

With MIX=1 the library is mixed as a musician's is (issue 57): four in ten files are
engraved scores — the corpus's Mutopia scores and 200 engraved-score-like files pikepdf
writes (4 to 24 pages, 50 to 3,000 LilyPond point-and-click links and highlights, every
other file in object streams) — and the rest every other corpus file: scans, office
exports, object streams, damaged and encrypted files.

Usage: library_bench.py FOLIO_BINARY CORPUS_DIR [COUNT] [REPEAT]   (MIX=1: the mixed library)
"""
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

# What both pikepdf loops share (in place of their #ROWS line): rows written 64 to a transaction.
BATCHED_ROWS = r"""
rows = []
def keep(row):
    rows.append(row)
    if len(rows) == 64:
        flush()
def flush():
    if rows:
        db.executemany("INSERT OR REPLACE INTO score VALUES (" + ", ".join("?" * len(rows[0])) + ")", rows)
        db.commit()
        rows.clear()
"""

PIKEPDF_LOOP = r"""
import sqlite3, sys, pikepdf
db = sqlite3.connect(sys.argv[1], timeout=60)
db.execute("CREATE TABLE IF NOT EXISTS score (path TEXT PRIMARY KEY, title, author, subject, keywords, pages, bookmarks)")
#ROWS
for path in open(sys.argv[2], encoding="utf-8").read().splitlines():
    try:
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            with pdf.open_outline() as outline:
                titles = [item.title for item in outline.root]
            keep((path, str(info.get("/Title", "")), str(info.get("/Author", "")), str(info.get("/Subject", "")),
                  str(info.get("/Keywords", "")), len(pdf.pages), "\n".join(titles)))
    except Exception:
        keep((path, None, None, None, None, None, None))
flush()
"""

# The same loop reading what Folio's catalog keeps of each file besides: the whole outline
# with each bookmark's page, annotation counts by subtype, the XMP fields forScore falls back
# to, and the fingerprint (SHA-256 of the size and the first and last 64 KiB).
PIKEPDF_CATALOG_LOOP = r"""
import hashlib, os, sqlite3, sys, pikepdf
db = sqlite3.connect(sys.argv[1], timeout=60)
db.execute("CREATE TABLE IF NOT EXISTS score (path TEXT PRIMARY KEY, fingerprint, title, author, subject, keywords, "
           "xmp, pages, annotations, bookmarks)")
#ROWS
def fingerprint(path):
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        head = handle.read(65536)
        tail = b""
        if size > 65536:
            handle.seek(max(65536, size - 65536))
            tail = handle.read(65536)
    return hashlib.sha256(str(size).encode() + head + tail).hexdigest()
def page_of(pdf, numbers, destination):
    if isinstance(destination, (pikepdf.String, str, pikepdf.Name)):
        try:
            names = pikepdf.NameTree(pdf.Root.Names.Dests)
            destination = names[str(destination)]
        except Exception:
            return None
    if isinstance(destination, pikepdf.Dictionary):
        destination = destination.get("/D")
    if isinstance(destination, pikepdf.Array) and len(destination) > 0 and isinstance(destination[0], pikepdf.Dictionary):
        return numbers.get(destination[0].objgen)
    return None
def target(item):
    try:
        return item.destination if item.destination is not None else (item.action or {}).get("/D")
    except pikepdf.OutlineStructureError:
        return None
for path in open(sys.argv[2], encoding="utf-8").read().splitlines():
    try:
        stamp = fingerprint(path)
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            meta = pdf.open_metadata()
            xmp = "\n".join(str(meta.get(key, "")) for key in ("dc:title", "dc:creator", "dc:description", "pdf:Keywords"))
            numbers, counts = {}, {}
            for index, page in enumerate(pdf.pages):
                numbers.setdefault(page.objgen, index)
                for annotation in page.obj.get("/Annots", []):
                    if not isinstance(annotation, pikepdf.Dictionary):
                        continue
                    subtype = str(annotation.get("/Subtype", "/Unknown"))
                    counts[subtype] = counts.get(subtype, 0) + 1
            bookmarks = []
            with pdf.open_outline() as outline:
                pending = list(reversed(list(outline.root)))  # a stack: the tree in reading order
                while pending:
                    item = pending.pop()
                    bookmarks.append(f"{item.title}\t{page_of(pdf, numbers, target(item))}")
                    pending.extend(reversed(list(item.children)))
            keep((path, stamp, str(info.get("/Title", "")), str(info.get("/Author", "")), str(info.get("/Subject", "")),
                  str(info.get("/Keywords", "")), xmp, len(pdf.pages), str(sorted(counts.items())), "\n".join(bookmarks)))
    except Exception:
        keep((path, None, None, None, None, None, None, None, None, None))
flush()
"""


def pdfs(corpus):
    found = []
    for base, _, files in os.walk(corpus):
        found += [os.path.join(base, name) for name in files if name.lower().endswith(".pdf")]
    return sorted(found)


def mixed(corpus, work):
    """The mixed library's distinct files, repeated so that engraved scores are four in ten."""
    from annot_bench import engraved
    everything = pdfs(corpus)
    scores = [path for path in everything if os.sep + "scores" + os.sep in path]
    rest = [path for path in everything if path not in scores]
    made = []
    for number, (files, links) in enumerate(((60, 50), (60, 120), (40, 600), (30, 1200), (10, 3000))):
        made += engraved(os.path.join(work, f"engraved-{number}"), files, links, pages=4 + 5 * number)
    engraved_files = scores + made
    # rest : engraved = 6 : 4, each list cycled to its share.
    share = max(1, round(len(rest) * 4 / 6))
    return rest + [engraved_files[index % len(engraved_files)] for index in range(share)]


def build(folder, sources, count):
    paths = []
    for index in range(count):
        shelf = os.path.join(folder, f"Shelf {index % 100:02d}", f"Box {index % 7}")
        os.makedirs(shelf, exist_ok=True)
        target = os.path.join(shelf, f"score {index:05d}.pdf")
        os.link(sources[index % len(sources)], target)
        paths.append(target)
    return paths


def search_queries(folder, work):
    """1,000 queries (seeded): words and prefixes of the catalogued titles, a third with a second
    word; written to WORK/queries.txt, whose path is returned."""
    db = sqlite3.connect(os.path.join(folder, ".folio", "library.sqlite"))
    words = sorted({w for (t,) in db.execute("SELECT title FROM entry") for w in t.split() if w.isalpha() and len(w) > 3})
    db.close()
    rng = random.Random(7)
    queries = [rng.choice(words)[: rng.choice([3, 4, 6, 20])] + (" " + rng.choice(words) if rng.random() < 0.3 else "")
               for _ in range(1000)]
    query_file = os.path.join(work, "queries.txt")
    with open(query_file, "w") as handle:
        handle.write("\n".join(queries) + "\n")
    return query_file


def search_timings(folio, folder, query_file):
    """`folio library bench-search` over the queries: scores alone, the search box's page, bookmarks too."""
    timings = {}
    for label, extra in (("scores, all results", []), ("scores, first 50 (the search box's page)", ["--limit", "50"]),
                         ("with bookmarks, first 50", ["--limit", "50", "--bookmarks"])):
        timings[label] = json.loads(subprocess.run([folio, "library", "bench-search", folder, "--queries", query_file] + extra,
                                                   check=True, capture_output=True, text=True).stdout)
    return timings


def run(command):
    """Wall seconds and peak RSS (MiB) of one child process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main():
    folio, corpus = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    work = tempfile.mkdtemp(prefix="folio-library-bench-")
    try:
        folder = os.path.join(work, "Library")
        sources = mixed(corpus, work) if os.environ.get("MIX") else pdfs(corpus)
        paths = build(folder, sources, count)
        kind = "a mixed library: 4 in 10 engraved scores" if os.environ.get("MIX") else "corpus files"
        print(f"{count} PDFs ({len(set(sources))} distinct files, {kind}, hard-linked) in {folder}; 2 cores")
        results = {}

        # The pikepdf loops' paths go in files: 100,000 of them do not fit a command line.
        half = len(paths) // 2
        lists = []
        for number, chunk in enumerate((paths[:half], paths[half:])):
            lists.append(os.path.join(work, f"pikepdf-paths-{number}.txt"))
            with open(lists[-1], "w", encoding="utf-8") as handle:
                handle.write("\n".join(chunk) + "\n")

        def pikepdf_loop(program):
            """Wall seconds and the larger peak of two processes, one per core."""
            database = os.path.join(work, "pikepdf.sqlite")
            if os.path.exists(database):
                os.remove(database)
            start = time.perf_counter()
            children = [subprocess.Popen([sys.executable, "-c", program.replace("#ROWS\n", BATCHED_ROWS), database, listing],
                                         stderr=subprocess.DEVNULL)
                        for listing in lists]
            peak = 0
            for child in children:
                _, _, usage = os.wait4(child.pid, 0)
                peak = max(peak, usage.ru_maxrss / 1024)
            return time.perf_counter() - start, peak

        # Alternating runs, so that a slower minute of the machine weighs on all alike.
        scans, rescans, peaks, narrow, catalog = [], [], [], [], []
        for _ in range(repeat):
            shutil.rmtree(os.path.join(folder, ".folio"), ignore_errors=True)
            elapsed, peak, _ = run([folio, "library", "scan", folder, "--quiet"])
            scans.append(elapsed)
            peaks.append(peak)
            rescans.append(run([folio, "library", "scan", folder, "--quiet"])[0])
            narrow.append(pikepdf_loop(PIKEPDF_LOOP))
            catalog.append(pikepdf_loop(PIKEPDF_CATALOG_LOOP))
        results["folio scan"] = (statistics.median(scans), max(peaks))
        results["folio rescan (nothing changed)"] = (statistics.median(rescans), None)

        query_file = search_queries(folder, work)
        timings = search_timings(folio, folder, query_file)

        # exiftool reads about 8 files/s here: a sample of at most 1,000 files, its time scaled to COUNT.
        sample = paths[: min(count, 1000)]
        listing = os.path.join(work, "exiftool-files.txt")
        with open(listing, "w") as handle:
            handle.write("\n".join(sample) + "\n")
        seconds, peak, _ = run(["exiftool", "-json", "-fast2", "-q", "-q", "-@", listing])
        label = "exiftool -json" + ("" if len(sample) == count else f" ({len(sample)} files, scaled)")
        results[label] = (seconds * count / len(sample), peak)

        results["pikepdf loop: Info, pages, outline titles"] = (statistics.median(t for t, _ in narrow), max(p for _, p in narrow))
        results["pikepdf loop: the catalog's fields"] = (statistics.median(t for t, _ in catalog), max(p for _, p in catalog))

        base = results["folio scan"][0]
        print(f"{'':44} {'wall s':>8} {'files/s':>9} {'peak MiB':>9} {'vs folio':>9}")
        for name, (seconds, peak) in results.items():
            ratio = "" if name.startswith("folio") else f"{seconds / base:8.2f}x"
            peak_text = f"{peak:9.1f}" if peak is not None else f"{'':>9}"
            print(f"{name:44} {seconds:8.2f} {count / seconds:9.0f} {peak_text} {ratio:>9}")
        for label, timing in timings.items():
            print(f"search over {count} scores, {label}: {timing['queries']} queries, median {timing['median_ms']:.3f} ms, "
                  f"p99 {timing['p99_ms']:.3f} ms, max {timing['max_ms']:.3f} ms ({timing['results']} results)")
        print("goals: first scan < 10 s, rescan < 0.5 s, peak memory < 200 MiB, search p99 < 5 ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
