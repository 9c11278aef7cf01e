#!/usr/bin/env python3
"""What a save costs against the size of the file, per save path (not a test):

1. Generated one-page PDFs of 1, 10, 100 and 500 MB (the page draws nothing; a stream of
   random bytes stands for a big scan). On each: `folio meta set` and `folio annot add`,
   one process per save, by every path this machine has: copy, journal, auto, and clone
   when an XFS image with reflink can be mounted (root); against exiftool (-Title=, writes
   a new file) and PyMuPDF (set_metadata / add_freetext_annot, then saveIncr: in place,
   no fsync, timed inside one Python process). Each row: the median ms of REPEAT saves on
   the same file, as an editor saving again and again would.
2. The 20 largest corpus files, one process for all: `folio meta set` (auto, journal) vs
   pikepdf's full save.

Usage: save_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT] [SIZES_MB]
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from write_bench import PIKEPDF, in_process, largest, measure, timed

# One PyMuPDF save per round, timed inside the process; OPERATION edits the open `doc`.
PYMUPDF_SAVES = r"""
import sys, time, pymupdf
pymupdf.TOOLS.mupdf_display_errors(False)
path, repeat = sys.argv[1], int(sys.argv[2])
times = []
for i in range(repeat):
    start = time.perf_counter()
    doc = pymupdf.open(path)
    OPERATION
    doc.saveIncr()
    doc.close()
    times.append(time.perf_counter() - start)
print(" ".join(str(t) for t in times))
"""
PYMUPDF_META = PYMUPDF_SAVES.replace("OPERATION", 'doc.set_metadata({**(doc.metadata or {}), "title": f"Benchmark {i}"})')
PYMUPDF_ANNOT = PYMUPDF_SAVES.replace(
    "OPERATION", 'doc[0].add_freetext_annot(pymupdf.Rect(50, 50, 250, 90), f"Cut to bar {i}", fontsize=12)')


def generate(path, megabytes):
    """A valid one-page PDF with an unused stream of `megabytes` MB of random bytes."""
    size = megabytes << 20
    with open(path, "wb") as out:
        offsets = []
        out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

        def obj(number, body):
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
        obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        obj(3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> /PieceInfo << /Scan 4 0 R >> >>")
        offsets.append(out.tell())
        out.write(b"4 0 obj\n<< /Length %d >>\nstream\n" % size)
        chunk = 16 << 20
        for start in range(0, size, chunk):
            out.write(os.urandom(min(chunk, size - start)))
        out.write(b"\nendstream\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 5\n0000000000 65535 f \n")
        for offset in offsets:
            out.write(b"%010d 00000 n \n" % offset)
        out.write(b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref)


def median_ms(times):
    return 1000 * statistics.median(times)


def folio_saves(folio, path, command, method, repeat):
    times = []
    for i in range(repeat):
        if command == "meta":
            arguments = [folio, "meta", "set", path, "--title", f"Benchmark {i}"]
        else:
            arguments = [folio, "annot", "add", path, "--page", "1", "--type", "freetext", "--rect", "50,50,200,40",
                         "--text", f"Cut to bar {i}", "--size", "12"]
        if method:
            arguments += ["--save-method", method]
        times.append(timed(arguments))
    return median_ms(times)


def pymupdf_saves(script, path, repeat):
    result = subprocess.run([sys.executable, "-c", script, path, str(repeat)], capture_output=True, text=True)
    try:
        return median_ms([float(t) for t in result.stdout.split()])
    except ValueError:
        return float("nan")


def exiftool_saves(path, repeat):
    return median_ms([timed(["exiftool", "-q", "-overwrite_original", f"-Title=Benchmark {i}", path])
                      for i in range(repeat)])


def mount_reflink(base):
    """An XFS image with reflink mounted at base/xfs, or None with the reason printed."""
    image, mountpoint = os.path.join(base, "xfs.img"), os.path.join(base, "xfs")
    os.makedirs(mountpoint)
    with open(image, "wb") as handle:
        handle.truncate(2 << 30)
    for command in (["mkfs.xfs", "-q", "-m", "reflink=1", image], ["mount", "-o", "loop", image, mountpoint]):
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            print(f"(no clone rows: {' '.join(command[:1])} failed: {result.stderr.strip()[:120]})")
            return None
    return mountpoint


def main():
    folio, corpus = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    sizes = [int(s) for s in (sys.argv[4] if len(sys.argv) > 4 else "1,10,100,500").split(",")]
    startup = median_ms([timed([folio, "--version"]) for _ in range(10)])
    print(f"Part 1: ms per save (median of {repeat}), one process per folio save; folio start-up alone {startup:.1f} ms")
    base = tempfile.mkdtemp(dir=os.environ.get("BENCH_DIR"))
    reflink = mount_reflink(base)
    try:
        rows = {}
        for megabytes in sizes:
            source = os.path.join(base, f"{megabytes}.pdf")
            generate(source, megabytes)

            def fresh(folder=base):
                target = os.path.join(folder, f"work-{megabytes}.pdf")
                shutil.copyfile(source, target)
                return target
            for command in ("meta", "annot"):
                for method in ("copy", "journal", "auto"):
                    target = fresh()
                    rows.setdefault(f"folio {command} --save-method {method}", {})[megabytes] = \
                        folio_saves(folio, target, command, method, repeat)
                    os.remove(target)
                if reflink:
                    target = fresh(reflink)
                    rows.setdefault(f"folio {command} --save-method clone (XFS)", {})[megabytes] = \
                        folio_saves(folio, target, command, "clone", repeat)
                    os.remove(target)
                target = fresh()
                script = PYMUPDF_META if command == "meta" else PYMUPDF_ANNOT
                rows.setdefault(f"PyMuPDF {command} + saveIncr (in process)", {})[megabytes] = \
                    pymupdf_saves(script, target, repeat)
                os.remove(target)
            target = fresh()
            rows.setdefault("exiftool -Title= (new file)", {})[megabytes] = exiftool_saves(target, repeat)
            os.remove(target)
            os.remove(source)
        header = "".join(f"{f'{m} MB':>10}" for m in sizes)
        print(f"{'':44}{header}{'largest/smallest':>18}")
        for name, values in rows.items():
            cells = "".join(f"{values[m]:10.1f}" for m in sizes)
            print(f"{name:44}{cells}{values[sizes[-1]] / values[sizes[0]]:17.1f}x")
    finally:
        if reflink:
            subprocess.run(["umount", reflink], check=False)
        shutil.rmtree(base, ignore_errors=True)

    files = largest(corpus, 20, folio)
    total = sum(os.path.getsize(f) for f in files)
    print(f"\nPart 2: the {len(files)} largest corpus files ({total / len(files) / 1e6:.2f} MB on average), "
          f"one process for all, median of {repeat} rounds")
    results = [
        measure("folio meta set (auto)", files, repeat,
                lambda targets: timed([folio, "meta", "set", "--title", "Benchmark Title"] + targets)),
        measure("folio meta set --save-method journal", files, repeat,
                lambda targets: timed([folio, "meta", "set", "--title", "Benchmark Title", "--save-method",
                                       "journal"] + targets)),
        measure("folio meta set --save-method copy", files, repeat,
                lambda targets: timed([folio, "meta", "set", "--title", "Benchmark Title", "--save-method",
                                       "copy"] + targets)),
        measure("pikepdf full save (in process)", files, repeat, in_process(PIKEPDF)),
    ]
    pikepdf_ms = 1000 * results[-1][1] / len(files)
    print(f"{'tool':40} {'ms/file':>9} {'appended B/file':>16} {'pikepdf / this':>15}")
    for name, seconds, appended in results:
        ms = 1000 * seconds / len(files)
        print(f"{name:40} {ms:9.2f} {appended:16.0f} {pikepdf_ms / ms:14.1f}x")


if __name__ == "__main__":
    main()
