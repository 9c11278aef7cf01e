"""The catalog in SQLite and in PostgreSQL, side by side (Benchmarks/catalog.sh).

Builds a library of COUNT PDFs as library_bench.py does, scans it (SQLite), times 1,000 searches
in one process (`folio library bench-search`: words and prefixes of catalogued titles, scores
alone, the search box's page of 50, and bookmarks too), moves the catalog into a PostgreSQL
cluster made for the run (`initdb` in a temporary folder, as an unprivileged user when run as
root, a loopback port), and times the same searches there.

Usage: catalog_bench.py FOLIO_BINARY CORPUS_DIR [COUNT]
"""
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_bench import build, pdfs, search_queries, search_timings  # noqa: E402


def server_programs():
    base = "/usr/lib/postgresql"
    for version in sorted((int(v) for v in os.listdir(base) if v.isdigit()), reverse=True):
        if os.access(f"{base}/{version}/bin/initdb", os.X_OK):
            return f"{base}/{version}/bin"
    raise SystemExit("PostgreSQL's server is not installed (Debian's postgresql package): run .ci/install-deps")


def start_postgres(work):
    """A cluster in WORK/pg (trust on loopback only): its port and a function that stops it."""
    programs = server_programs()
    data = os.path.join(work, "pg")
    os.makedirs(data)
    as_owner = ["runuser", "-u", "nobody", "--"] if os.getuid() == 0 else []
    if as_owner:
        shutil.chown(data, "nobody")
        os.chmod(work, 0o755)
    subprocess.run(as_owner + [f"{programs}/initdb", "-D", data, "-U", "folio", "--auth", "trust", "-E", "UTF8",
                               "--locale", "C.UTF-8", "--no-sync"], check=True, stdout=subprocess.DEVNULL)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = f"-h 127.0.0.1 -p {port} -k {data}"
    subprocess.run(as_owner + [f"{programs}/pg_ctl", "-D", data, "-o", options, "-l", os.path.join(data, "log"), "-w", "start"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(as_owner + [f"{programs}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "folio", "noty"], check=True)

    def stop():
        subprocess.run(as_owner + [f"{programs}/pg_ctl", "-D", data, "-m", "fast", "stop"], stdout=subprocess.DEVNULL)
    return port, stop


def main():
    folio, corpus = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    work = tempfile.mkdtemp(prefix="folio-catalog-bench-")
    stop = None
    try:
        folder = os.path.join(work, "Library")
        build(folder, pdfs(corpus), count)
        start = time.perf_counter()
        # Exit 1 names the corpus's unreadable files (catalogued by their names): expected.
        if subprocess.run([folio, "library", "scan", folder, "--quiet"], stderr=subprocess.DEVNULL).returncode not in (0, 1):
            raise SystemExit("folio library scan failed")
        scanned = time.perf_counter() - start
        db = sqlite3.connect(os.path.join(folder, ".folio", "library.sqlite"))
        entries = db.execute("SELECT count(*) FROM entry").fetchone()[0]
        db.close()
        query_file = search_queries(folder, work)
        print(f"{count} PDFs, {entries} entries (scores and bookmarks); SQLite scan {scanned:.1f} s; 2 cores")
        sqlite_timings = search_timings(folio, folder, query_file)

        port, stop = start_postgres(work)
        start = time.perf_counter()
        subprocess.run([folio, "library", "migrate", "--to", f"postgresql://folio@127.0.0.1:{port}/noty?sslmode=disable",
                        "--library", folder], check=True, stdout=subprocess.DEVNULL)
        moved = time.perf_counter() - start
        postgres_timings = search_timings(folio, folder, query_file)

        print(f"folio library migrate --to postgresql: {moved:.1f} s (copy, index, compare every row)")
        print(f"{'search (1,000 queries)':44} {'SQLite median':>14} {'p99':>8} {'PostgreSQL median':>18} {'p99':>8} {'results same':>13}")
        for label in sqlite_timings:
            one, other = sqlite_timings[label], postgres_timings[label]
            print(f"{label:44} {one['median_ms']:11.3f} ms {one['p99_ms']:5.2f} ms {other['median_ms']:15.3f} ms "
                  f"{other['p99_ms']:5.2f} ms {str(one['results'] == other['results']):>13}")
        print("goal: PostgreSQL's p99 under 20 ms at 100,000 scores")
    finally:
        if stop:
            stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
