#!/usr/bin/env python3
"""Sixty music stands opening one score at once (not a test; issue 74): wrk (2 threads, 60
connections, 10 s each) against `folio serve` and, for the file's bytes, against Debian's
nginx (`sendfile on`) serving the same file from the same folder, in one run, on loopback.

The score: an anthology of the corpus's engraved scores (`folio merge`), with 40 text marks on
its first page (added through `folio annot add`, so the marks listing has work to do). Rows:

- the whole PDF (folio's `/api/scores/ID/pdf`, nginx's file);
- pdf.js's 64 KiB ranges at random offsets (the same offsets for both);
- the marks of page 1 (`/api/scores/ID/annotations?page=1`), asked for afresh;
- the same, asked for again with the tag each stand already has (`If-None-Match`: 304);
- the score list (`/api/scores`);
- a 20 MB scan (pikepdf writes it: one page, an uncompressed image of random bytes), whole.

Prints requests/s, latency p50/p99 and wrk's socket errors, and folio's share of nginx's rate;
then folio's resident memory at start and at its peak (`VmHWM`). wrk shares the 2 cores with
the servers.

Usage: stands_bench.py FOLIO_BINARY CORPUS_DIR
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "Browser"))
from harness import Server, free_port  # noqa: E402
from wrk_load import wrk  # noqa: E402

SEED = int(os.environ.get("FOLIO_SEED", "74"))


def lua_file(folder, name, body):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as file:
        file.write(body)
    return path


SCAN = r"""
import random, sys, pikepdf
random.seed(int(sys.argv[2]))
pdf = pikepdf.new()
pdf.add_blank_page(page_size=(595, 842))
image = pdf.make_stream(random.randbytes(20_000_000), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                        Width=4000, Height=5000, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
pdf.pages[0].Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
pdf.docinfo["/Title"] = "Sken – スキャン"
pdf.save(sys.argv[1], compress_streams=False)
"""


def resident(pid, field):
    """`field` (VmRSS, VmHWM) of process `pid` in KiB."""
    with open(f"/proc/{pid}/status", encoding="utf-8") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))


def main(folio, corpus):
    random.seed(SEED)
    print(f"seed {SEED}")
    scores = sorted(os.path.join(corpus, "scores", name) for name in os.listdir(os.path.join(corpus, "scores"))
                    if name.endswith(".pdf"))
    work = tempfile.mkdtemp(prefix="folio-stands-")
    library = os.path.join(work, "library")
    os.makedirs(library)
    for folder in (work, library):   # nginx's workers (another user) read the file too
        os.chmod(folder, 0o755)
    anthology = os.path.join(library, "Anthologie.pdf")
    subprocess.run([folio, "merge", *scores, "--output", anthology, "--title", "Anthologie"], check=True, capture_output=True)
    for index in range(40):
        subprocess.run([folio, "annot", "add", anthology, "--type", "freetext", "--page", "1",
                        "--rect", f"{30 + (index % 4) * 130},{40 + (index // 4) * 60},120,20",
                        "--text", f"Takt {index + 1} – dolce · ドルチェ"], check=True, capture_output=True)
    size = os.path.getsize(anthology)
    subprocess.run([sys.executable, "-c", SCAN, os.path.join(library, "Sken.pdf"), str(SEED)], check=True)
    os.chmod(os.path.join(library, "Sken.pdf"), 0o644)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)
    listed = subprocess.run([folio, "library", "list", library, "--json"], capture_output=True, text=True, check=True).stdout
    ids = {entry.get("path"): entry["id"] for entry in map(json.loads, listed.splitlines())}
    score, scan = ids["Anthologie.pdf"], ids["Sken.pdf"]

    port = free_port()
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w", encoding="utf-8") as file:
        file.write(f"""worker_processes 2; daemon off; pid {work}/nginx.pid; error_log {work}/nginx.err;
events {{ worker_connections 1024; }}
http {{ access_log off; sendfile on; tcp_nodelay on; keepalive_requests 100000;
  types {{ application/pdf pdf; }}
  server {{ listen 127.0.0.1:{port}; root {library}; }} }}
""")
    nginx = subprocess.Popen(["nginx", "-c", conf, "-p", work], stderr=subprocess.DEVNULL)
    offsets = [random.randrange(0, max(1, size - 65536)) for _ in range(256)]
    ranges = lua_file(work, "ranges.lua", "local offsets = {" + ",".join(map(str, offsets)) + "}\nlocal counter = 0\n"
                      "request = function()\n  counter = counter + 1\n  local first = offsets[(counter % #offsets) + 1]\n"
                      "  return wrk.format('GET', nil, { Range = 'bytes=' .. first .. '-' .. (first + 65535) })\nend\n")
    try:
        with Server(folio, library, "--rescan", "1") as server:
            base = server.base
            memory = {"at start": resident(server.process.pid, "VmRSS")}
            with urllib.request.urlopen(f"{base}/api/scores/{score}/annotations?page=1") as answer:
                tag = answer.headers["ETag"]
                marks = len(json.load(answer)["annotations"])
            again = lua_file(work, "again.lua", "wrk.headers['If-None-Match'] = '" + tag.replace("'", "\\'") + "'\n")
            print(f"Anthology of {len(scores)} engraved scores: {size / 1e6:.1f} MB, {marks} marks on page 1; "
                  "wrk -t2 -c60 -d10s, loopback\n")
            print("| what 60 stands ask for | nginx | folio serve | folio / nginx |")
            print("| --- | --- | --- | --- |")
            rows = (("the whole PDF", f"{base}/api/scores/{score}/pdf", f"http://127.0.0.1:{port}/Anthologie.pdf", None),
                    ("64 KiB ranges at random offsets", f"{base}/api/scores/{score}/pdf", f"http://127.0.0.1:{port}/Anthologie.pdf", ranges),
                    ("the marks of page 1", f"{base}/api/scores/{score}/annotations?page=1", None, None),
                    ("the marks of page 1, asked again (If-None-Match → 304)", f"{base}/api/scores/{score}/annotations?page=1", None, again),
                    ("the score list", f"{base}/api/scores", None, None),
                    ("a 20 MB scan, whole", f"{base}/api/scores/{scan}/pdf", f"http://127.0.0.1:{port}/Sken.pdf", None))
            def cell(run):
                return f"{run['rate']:,.0f} req/s, p50 {run.get('50%', '?')}, p99 {run.get('99%', '?')} (errors: {run['errors']})"
            for label, folio_url, nginx_url, lua in rows:
                n = wrk(nginx_url, 60, 10, ranges if lua == ranges else None) if nginx_url else None
                f = wrk(folio_url, 60, 10, lua)
                ratio = f"{f['rate'] / n['rate']:.2f}×" if n else ""
                print(f"| {label} | {cell(n) if n else '—'} | {cell(f)} | {ratio} |", flush=True)
            memory["at its peak"] = resident(server.process.pid, "VmHWM")
            print("\nfolio serve's resident memory: " + ", ".join(f"{kb / 1024:,.0f} MB {when}" for when, kb in memory.items()))
    finally:
        nginx.terminate()
        nginx.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
