#!/usr/bin/env python3
"""How fast folio starts (not a test; issue 74): each command run RUNS times (200), alternating
round by round, wall time from spawn to exit (os.posix_spawn, waitpid), median and 90th
percentile in ms. The file: the corpus's Bach partita (5 pages, LilyPond's).

Usage: start_bench.py FOLIO_DEV FOLIO_RELEASE CORPUS_DIR
"""
import os
import statistics
import sys
import time

RUNS = int(os.environ.get("RUNS", "200"))


def once(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed")
    return elapsed * 1000


def main(dev, release, corpus):
    score = os.path.join(corpus, "scores", "Bach-Partita_in_a_minor_BWV_1013.pdf")
    commands = [
        ("folio --version (development build)", [dev, "--version"]),
        ("folio --version (installed: Scripts/release)", [release, "--version"]),
        ("folio info --json FILE (development build)", [dev, "info", "--json", score]),
        ("folio info --json FILE (installed)", [release, "info", "--json", score]),
        ("qpdf --version", ["/usr/bin/qpdf", "--version"]),
        ("qpdf --show-npages FILE", ["/usr/bin/qpdf", "--show-npages", score]),
        ("pdfinfo FILE", ["/usr/bin/pdfinfo", score]),
    ]
    times = {name: [] for name, _ in commands}
    for _ in range(RUNS):
        for name, argv in commands:
            times[name].append(once(argv))
    print(f"{RUNS} runs each, alternating; ms from spawn to exit")
    print(f"{'command':48} {'median':>8} {'p90':>8}")
    for name, _ in commands:
        values = sorted(times[name])
        print(f"{name:48} {statistics.median(values):8.2f} {values[int(len(values) * 0.9)]:8.2f}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
