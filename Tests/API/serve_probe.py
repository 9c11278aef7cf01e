#!/usr/bin/env python3
"""The probe of `folio serve` from outside, run against the release binary: what one request
may cost the server and what guessing gets an attacker.

- A 250 MiB PDF is uploaded, streamed from disk; the server's resident memory is sampled
  from /proc every 10 ms and must grow by less than 64 MiB (it once held uploads whole, twice).
  pikepdf reads the stored file and its bytes equal what was sent.
- One-line texts of 100 KB to 1 MB are uploaded and typeset; 1 MB must take under a second
  (it once took minutes: wrapping was quadratic).
- Wrong passwords are sent as fast as one client can: after 20 the client is banned (429),
  so guesses per second collapse; the rate is printed.
- Two names for one score (NFC and NFD) are uploaded; both are listed, and the server keeps
  answering after a restart.
- Numbers at their extremes (page -2^63, 2^63-1, 1e300…) in every integer parameter and in a
  forScore archive's metadata: answered with 4xx, the server still up.
- Archive bombs (a 4SB whose one file inflates to 1 GiB, a 4SC that does, a 4SB whose metadata
  does), three at once: each refused, the server's peak memory printed and under 256 MiB above idle.
- 1,100 idle sockets from one address: a normal request from another is answered at once;
  the idle ones and a slowloris (a byte a second) are closed after the first head's 10 s.
- Wrong passwords from 200 rotating addresses for ten seconds: the global allowance bounds
  the checks (60 at once, 30 a minute after), printed per second.
- 40 page pictures asked for at once (each at another height, so each is drawn), then SIGTERM:
  beyond 2 drawing and 4 waiting they are 503, a cross-site one 403, and the server stops within
  20 s (pictures once kept it running for over a minute).
- A library with members: 16 clients flood made-up invitations while the librarian's listing
  stays under 50 ms (median); 7 routes in 6 spellings (`//`, `/./`, `%2F`, `%73`, `x/..`) sent
  cross-site are never answered; a player cannot borrow another's mark name (409); a player's
  private mark stays hidden from another after a new instrument, a removal and a new member of
  the same name, and no red pixel of it is in the other's picture of the page; one member's 40
  rehearsal sockets hold one place; names with a look-alike letter or an invisible one are refused.

Usage: python3 Tests/API/serve_probe.py FOLIO
Prints the measures and '1 passed, 0 failed' or '0 passed, 1 failed', and exits accordingly."""
import base64
import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import unicodedata
import urllib.parse

import gzip
import plistlib
import resource
import zlib

import pikepdf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Browser"))
import harness  # noqa: E402
from harness import ROOT  # noqa: E402


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Server(harness.Server):
    """`folio serve LIBRARY --rescan 0 [EXTRA…]`, started (harness.Server), with raw HTTP at hand."""

    def __init__(self, folio, library, *extra):
        super().__init__(folio, library, "--rescan", "0", *extra)
        self.start()

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def request(self, method, path, body=None, headers=None):
        connection = self.connection()
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), data

    def csrf(self):
        status, headers, page = self.request("GET", "/")
        token = re.search(rb'name="folio-csrf" content="([0-9a-f]+)"', page).group(1).decode()
        return {"X-Folio-CSRF": token, "Cookie": f"folio_csrf={token}"}


def big_pdf(path, size):
    """A valid PDF of about `size` bytes: one page and one large unfiltered stream."""
    with open(path, "wb") as out:
        offsets = {}
        out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        def obj(number, text):
            offsets[number] = out.tell()
            out.write(f"{number} 0 obj\n{text}\nendobj\n".encode())
        obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
        obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /PieceInfo << /Folio << /Data 4 0 R >> >> >>")
        offsets[4] = out.tell()
        length = size - 4096
        out.write(f"4 0 obj\n<< /Length {length} >>\nstream\n".encode())
        chunk = os.urandom(1 << 20)
        written = 0
        while written < length:
            part = chunk[: min(len(chunk), length - written)]
            out.write(part)
            written += len(part)
        out.write(b"\nendstream\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 5\n0000000000 65535 f \n")
        for number in range(1, 5):
            out.write(f"{offsets[number]:010d} 00000 n \n".encode())
        out.write(f"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())


def upload(server, headers, name, path=None, data=None):
    connection = server.connection()
    query = urllib.parse.quote(name)
    if path:
        size = os.path.getsize(path)
        with open(path, "rb") as body:
            connection.request("POST", f"/api/uploads?name={query}", body=body,
                               headers={**headers, "Content-Length": str(size)})
            response = connection.getresponse()
    else:
        connection.request("POST", f"/api/uploads?name={query}", body=data, headers=headers)
        response = connection.getresponse()
    answer = response.read()
    connection.close()
    return response.status, answer


def memory_per_upload(folio, work):
    library = os.path.join(work, "memory")
    os.makedirs(library)
    source = os.path.join(work, "big.pdf")
    big_pdf(source, 250 << 20)
    server = Server(folio, library)
    try:
        headers = server.csrf()
        baseline = rss_kib(server.process.pid)
        peak = [baseline]
        done = threading.Event()
        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], rss_kib(server.process.pid))
                time.sleep(0.01)
        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.monotonic()
        status, answer = upload(server, headers, "Велика партитура.pdf", path=source)
        took = time.monotonic() - started
        done.set()
        sampler.join()
        assert status == 201, (status, answer[:300])
        stored = os.path.join(library, json.loads(answer)["score"]["path"])
        with open(stored, "rb") as a, open(source, "rb") as b:
            assert hashlib.sha256(a.read()).digest() == hashlib.sha256(b.read()).digest(), "the stored bytes differ"
        with pikepdf.open(stored) as pdf:
            assert len(pdf.pages) == 1
        growth = (peak[0] - baseline) / 1024
        print(f"250 MiB upload: {took:.2f} s, server RSS {baseline / 1024:.1f} MiB before, peak growth {growth:.1f} MiB (limit 64)")
        assert growth < 64, f"RSS grew by {growth:.1f} MiB"
        assert os.listdir(os.path.join(library, ".folio", "uploads")) == [], "a part file stayed behind"
    finally:
        server.stop()


def text_sizes(folio, work):
    library = os.path.join(work, "text")
    os.makedirs(library)
    server = Server(folio, library)
    try:
        headers = server.csrf()
        phrase = "Für Elise – dolce cantabile, ritardando a tempo "
        times = {}
        for size in (100_000, 200_000, 400_000, 1_000_000):
            text = (phrase * (size // len(phrase.encode()) + 1)).encode()[:size].decode("utf-8", "ignore")
            started = time.monotonic()
            status, answer = upload(server, headers, f"line-{size}.txt", data=text.encode())
            times[size] = time.monotonic() - started
            assert status == 201, (size, status, answer[:300])
        print("one-line text upload: " + ", ".join(f"{size // 1000} KB {took:.2f} s" for size, took in times.items()))
        # Ten times the text may take about ten times as long, never a hundred (one line of
        # text once took time quadratic in its length); compared within the run, not to a
        # fixed second, which a slower machine missed (1.08 s here).
        assert times[1_000_000] < max(1.0, 25 * times[100_000]), f"1 MB took {times[1_000_000]:.2f} s, 100 KB {times[100_000]:.2f} s"
    finally:
        server.stop()


def password_server(folio, work, name, password):
    """A server of an empty library `name` asking for `password` (kept in a private file)."""
    library = os.path.join(work, name)
    os.makedirs(library)
    secret = os.path.join(work, name + "-password")
    with open(secret, "w") as f:
        f.write(password + "\n")
    os.chmod(secret, 0o600)
    return Server(folio, library, "--password-file", secret)


def flood(server, connections, seconds, method, path, headers, body=None, meanwhile=None):
    """`connections` clients each sending `method path()` as fast as one connection can for
    `seconds`, while `meanwhile()` (if given) runs here; the statuses of every request."""
    statuses = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    def send():
        connection = server.connection()
        while time.monotonic() < stop:
            connection.request(method, path(), body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            with lock:
                statuses.append(response.status)
        connection.close()
    threads = [threading.Thread(target=send) for _ in range(connections)]
    for thread in threads:
        thread.start()
    if meanwhile:
        meanwhile(stop)
    for thread in threads:
        thread.join()
    return statuses


def guesses(folio, work):
    server = password_server(folio, work, "guess", "Dvořák – Humoreska ♭")
    try:
        wrong = {"Authorization": "Basic " + base64.b64encode(b":guess").decode()}
        started = time.monotonic()
        statuses = flood(server, 16, 10, "GET", lambda: "/api/facets", wrong)
        took = time.monotonic() - started
        answered = statuses.count(401)
        print(f"password guessing, 16 connections for {took:.0f} s: {len(statuses)} requests, {answered} wrong passwords "
              f"checked ({answered / took:.1f} per second), {statuses.count(429)} refused as banned")
        assert 20 <= answered <= 20 + 16, answered
        assert set(statuses) == {401, 429}, set(statuses)
        right = {"Authorization": "Basic " + base64.b64encode("me:Dvořák – Humoreska ♭".encode()).decode()}
        status, _, _ = server.request("GET", "/api/facets", headers=right)
        assert status == 429, f"the ban holds for the right password too ({status})"
    finally:
        server.stop()


def run_together(threads):
    """Starts the threads at once and waits for all of them."""
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def sample_library(work, name, sample, as_name=None):
    """A library folder `name` holding one of the bundled samples (under `as_name` when given)."""
    library = os.path.join(work, name)
    os.makedirs(library)
    shutil.copy(os.path.join(ROOT, "Samples", sample), os.path.join(library, as_name or sample))
    return library


def sample_peak(pid, done, peak):
    while not done.is_set():
        try:
            peak[0] = max(peak[0], rss_kib(pid))
        except (OSError, RuntimeError):
            return
        time.sleep(0.01)


def gzip_zeros(size):
    """One gzip member of `size` zero bytes, made a piece at a time."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    piece = bytes(1 << 20)
    parts = [packer.compress(piece) for _ in range(size >> 20)]
    return b"".join(parts) + packer.flush()


def archive(records):
    """A forScore 4SB (archive kind) of (name, already gzipped bytes) records."""
    out = bytearray(b"<--4SBV03-->")
    for name, packed in records:
        encoded = name.encode()
        out += str(len(encoded)).rjust(16).encode() + str(len(packed)).rjust(16).encode() + encoded + packed
    return bytes(out)


def extremes_and_bombs(folio, work):
    library = sample_library(work, "bombs", "Brahms-Cancion_de_Cuna.pdf", "Píseň.pdf")
    server = Server(folio, library)
    try:
        headers = server.csrf()
        status, _, listing = server.request("GET", "/api/scores?limit=10")
        score = json.loads(listing)["scores"][0]["id"]
        _, answer_headers, _ = server.request("GET", f"/api/scores/{score}/annotations")
        headers["If-Match"] = answer_headers["ETag"]   # so that edits reach the page check
        answered = []
        for value in ("-9223372036854775808", "9223372036854775807", "-1", "0", "1e300", "99999999999999999999"):
            for path in (f"/api/scores/{score}/annotations?page={value}", f"/api/scores?rating={value}",
                         f"/api/scores?limit={value}", f"/api/scores/{score}/pages/{urllib.parse.quote(value)}/image",
                         f"/api/scores/{score}/pages/1/image?height={value}"):
                status, _, _ = server.request("GET", path, headers={"Origin": "http://attacker.example"})
                answered.append(status)
            for kind in ('"type":"freetext","text":"Ahoj – 你好"', '"type":"square"'):
                body = '{%s,"page":%s,"rect":[10,10,50,20]}' % (kind, value)
                status, _, _ = server.request("POST", f"/api/scores/{score}/annotations", body=body.encode(),
                                              headers={**headers, "Content-Type": "application/json"})
                answered.append(status)
        assert server.process.poll() is None, "the server stopped"
        assert all(status < 500 for status in answered), answered
        # The 126-byte archive of issue 51: minutes 1e300, rating 1e19.
        metadata = plistlib.dumps({"a.pdf|minutes": 1e300, "a.pdf|rating": 1e19, "a.pdf|seconds": 2 ** 62}, fmt=plistlib.FMT_BINARY)
        tiny = archive([("Archive", gzip.compress(metadata))])
        status, answer = upload(server, headers, "Krajnosti.4sb", data=tiny)
        assert server.process.poll() is None, "the server stopped on extreme metadata"
        print(f"extreme numbers: {len(answered)} requests answered {sorted(set(answered))}; a {len(tiny)}-byte archive "
              f"with minutes 1e300 answered {status}; the server is up")
        # Bombs, three at once, each from a small upload.
        zeros = gzip_zeros(1 << 30)
        bombs = {
            "Bomba.4sb": archive([("Archive", gzip.compress(plistlib.dumps({}, fmt=plistlib.FMT_BINARY))),
                                  ("{%DOCUMENTS_DIR%}/Nuly.pdf", zeros)]),
            "Bomba.4sc": zeros,
            "Metadata.4sb": archive([("Archive", zeros)]),
        }
        baseline = rss_kib(server.process.pid)
        peak = [baseline]
        done = threading.Event()
        sampler = threading.Thread(target=sample_peak, args=(server.process.pid, done, peak))
        sampler.start()
        results = {}
        def send(name):
            results[name] = upload(server, headers, name, data=bombs[name])[0]
        started = time.monotonic()
        senders = [threading.Thread(target=send, args=(name,)) for name in bombs]
        run_together(senders)
        took = time.monotonic() - started
        done.set()
        sampler.join()
        growth = (peak[0] - baseline) / 1024
        sizes = ", ".join(f"{name} {len(data) / 1e6:.1f} MB → {results[name]}" for name, data in bombs.items())
        print(f"archive bombs of 1 GiB each, three at once: {sizes}; {took:.1f} s, server RSS {baseline / 1024:.1f} MiB before, "
              f"peak growth {growth:.1f} MiB (limit 256)")
        assert server.process.poll() is None, "the server stopped"
        assert all(400 <= status < 500 or status == 503 for status in results.values()), results
        assert growth < 256, f"RSS grew by {growth:.1f} MiB"
        assert sorted(os.listdir(library)) == [".folio", "Píseň.pdf"], os.listdir(library)
    finally:
        server.stop()


def idle_sockets(folio, work):
    library = sample_library(work, "sockets", "Brahms-Cancion_de_Cuna.pdf")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    server = Server(folio, library)
    sockets = []
    try:
        for _ in range(1100):
            client = socket.socket()
            client.bind(("127.0.0.2", 0))
            client.connect(("127.0.0.1", server.port))
            sockets.append(client)
        started = time.monotonic()
        status, _, _ = server.request("GET", "/api/facets")
        answered = time.monotonic() - started
        assert status == 200, status
        slow = socket.socket()
        slow.bind(("127.0.0.3", 0))
        slow.connect(("127.0.0.1", server.port))
        opened = time.monotonic()
        closed_after = None
        for byte in b"GET /api/facets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40:
            try:
                slow.send(bytes([byte]))
                slow.settimeout(1)
                if slow.recv(1) == b"":
                    closed_after = time.monotonic() - opened
                    break
            except socket.timeout:
                continue
            except OSError:
                closed_after = time.monotonic() - opened
                break
        def closed(client):
            client.settimeout(0.01)
            try:
                return client.recv(1) == b""
            except socket.timeout:
                return False
            except OSError:
                return True
        left = sum(1 for client in sockets if not closed(client))
        print(f"1,100 idle sockets from one address: a request from another answered in {answered * 1000:.0f} ms; "
              f"slowloris closed after {closed_after if closed_after is None else round(closed_after, 1)} s; "
              f"{left} idle sockets still open after {time.monotonic() - started:.0f} s")
        assert answered < 2, answered
        assert closed_after is not None and closed_after < 15, closed_after
        assert left == 0, left
    finally:
        for client in sockets:
            client.close()
        server.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def rotated_guesses(folio, work):
    server = password_server(folio, work, "rotated", "Janáček – Po zarostlém chodníčku")
    try:
        wrong = {"Authorization": "Basic " + base64.b64encode(b":guess").decode(), "Host": f"127.0.0.1:{server.port}"}
        statuses = []
        lock = threading.Lock()
        started = time.monotonic()
        def guess(worker):
            sent = 0
            while time.monotonic() - started < 10:
                source = f"127.0.{worker}.{sent % 200 + 2}"
                sent += 1
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(source, 0))
                connection.request("GET", "/api/facets", headers=wrong)
                response = connection.getresponse()
                response.read()
                connection.close()
                with lock:
                    statuses.append(response.status)
        threads = [threading.Thread(target=guess, args=(worker,)) for worker in range(1, 9)]
        run_together(threads)
        took = time.monotonic() - started
        checked = statuses.count(401)
        print(f"password guessing from 1,600 rotating addresses for {took:.0f} s: {len(statuses)} requests, {checked} wrong "
              f"passwords checked ({checked / took:.1f} per second), {statuses.count(429)} refused while guessing pauses")
        assert checked <= 60 + 30 * took / 60 + 8, checked
        assert set(statuses) <= {401, 429}, set(statuses)
    finally:
        server.stop()


def pictures_and_shutdown(folio, work):
    library = sample_library(work, "pictures", "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
    server = Server(folio, library)
    stopped = False
    try:
        status, _, listing = server.request("GET", "/api/scores?limit=10")
        score = json.loads(listing)["scores"][0]["id"]
        status, _, _ = server.request("GET", f"/api/scores/{score}/pages/1/image?height=300", headers={"Sec-Fetch-Site": "cross-site"})
        assert status == 403, f"a cross-site picture was {status}"
        statuses = []
        lock = threading.Lock()
        def ask(height):
            try:
                answer = server.request("GET", f"/api/scores/{score}/pages/{height % 4 + 1}/image?height={height}")[0]
            except OSError:
                answer = "closed"
            with lock:
                statuses.append(answer)
        askers = [threading.Thread(target=ask, args=(1000 + index,)) for index in range(40)]
        for thread in askers:
            thread.start()
        time.sleep(0.3)
        started = time.monotonic()
        server.process.terminate()
        server.process.wait(timeout=60)
        took = time.monotonic() - started
        stopped = True
        for thread in askers:
            thread.join()
        print(f"40 page pictures at once, then SIGTERM: {statuses.count(200)} drawn, {statuses.count(503)} refused as busy, "
              f"{len(statuses) - statuses.count(200) - statuses.count(503)} cut by the stop; stopped in {took:.1f} s")
        assert statuses.count(503) > 0, statuses
        assert took < 20, took
        pages = os.path.join(library, ".folio", "pages")
        drafts = [name for name in (os.listdir(pages) if os.path.isdir(pages) else []) if ".part-" in name]
        print(f"  drafts of pictures cut by the stop: {len(drafts)} (removed at the next start)")
    finally:
        if not stopped:
            server.stop()


def two_forms(folio, work):
    library = os.path.join(work, "names")
    os.makedirs(library)
    sample = os.path.join(ROOT, "Samples", "Brahms-Cancion_de_Cuna.pdf")
    with open(sample, "rb") as f:
        pdf = f.read()
    for attempt in range(2):
        server = Server(folio, library)
        try:
            if attempt == 0:
                headers = server.csrf()
                for form in ("NFC", "NFD"):
                    status, answer = upload(server, headers, unicodedata.normalize(form, "Étude – Dvořák.pdf"), data=pdf)
                    assert status == 201, (form, status, answer[:200])
            status, _, listing = server.request("GET", "/api/scores?limit=100")
            paths = sorted(score["path"] for score in json.loads(listing)["scores"])
            assert status == 200 and len(paths) == 2, paths
        finally:
            server.stop()
    print(f"two Unicode forms of one name: both kept ({' | '.join(paths)}), the server restarts and lists them")


def members_library(folio, work):
    """A library of the samples with an ensemble: Zoë the librarian, Li the conductor, Anna and
    Boris players; returns the folder and each member's password."""
    library = os.path.join(work, "ensemble")
    os.makedirs(library)
    for name in os.listdir(os.path.join(ROOT, "Samples")):
        if name.endswith(".pdf"):
            shutil.copy(os.path.join(ROOT, "Samples", name), library)
    subprocess.run([folio, "library", "scan", library], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    passwords = {"Zoë Král": "knihovnice 2026", "李雷": "指揮者のパスワード", "Anna Nováková": "housle a smyčec", "Boris": "альт и смычок"}
    roles = {"Zoë Král": ["--role", "librarian"], "李雷": ["--role", "conductor"], "Anna Nováková": ["--instrument", "Violin II"],
             "Boris": ["--instrument", "Viola"]}
    for name, password in passwords.items():
        secret = os.path.join(work, hashlib.sha256(name.encode()).hexdigest()[:12] + ".pw")
        with open(secret, "w") as f:
            f.write(password + "\n")
        os.chmod(secret, 0o600)
        subprocess.run([folio, "members", "add", name, *roles[name], "--password-file", secret, "--library", library],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return library, passwords


def log_in(server, name, password):
    """Headers of `name` logged in: the CSRF token with its cookie and the session's cookie."""
    status, _, page = server.request("GET", "/login")
    token = re.search(rb'name="folio-csrf" content="([0-9a-f]+)"', page).group(1).decode()
    headers = {"X-Folio-CSRF": token, "Cookie": f"folio_csrf={token}", "Content-Type": "application/json"}
    status, answer, body = server.request("POST", "/api/session", json.dumps({"name": name, "password": password}).encode(), headers)
    assert status == 200, (name, status, body[:200])
    session = answer["Set-Cookie"].split(";")[0]
    return {**headers, "Cookie": headers["Cookie"] + "; " + session}


def red_pixels(png):
    """How many strongly red pixels a PNG has (a player's red square)."""
    from PIL import Image
    import io
    pixels = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    return sum(1 for i in range(0, len(pixels), 3) if pixels[i] > 180 and pixels[i + 1] < 80 and pixels[i + 2] < 80)


def members_rights(folio, work):
    """What a member's rights promise, held from outside: the invitation flood, the double-slash
    door, the borrowed mark name, layers that follow the person, pictures per person, one
    rehearsal place per person, and names that disguise another."""
    library, passwords = members_library(folio, work)
    server = Server(folio, library)
    try:
        zoe = log_in(server, "Zoë Král", passwords["Zoë Král"])
        anna = log_in(server, "Anna Nováková", passwords["Anna Nováková"])
        boris = log_in(server, "Boris", passwords["Boris"])
        li = log_in(server, "李雷", passwords["李雷"])
        status, _, listing = server.request("GET", "/api/scores?q=debussy", headers=zoe)
        score = json.loads(listing)["scores"][0]["id"]

        # 16 clients post made-up invitations; the librarian's listing stays quick.
        took = []
        def listing(stop):
            time.sleep(0.5)
            while time.monotonic() < stop - 0.2:
                started = time.monotonic()
                status, _, _ = server.request("GET", "/api/scores", headers=zoe)
                took.append((time.monotonic() - started) * 1000)
                assert status == 200, status
        anonymous = {key: value for key, value in anna.items() if key != "Cookie"} | {"Cookie": anna["Cookie"].split(";")[0]}
        made_up = lambda: "/api/invitations/" + base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
        invited = flood(server, 16, 4, "POST", made_up, anonymous, body='{"password":"hádám heslo"}'.encode(), meanwhile=listing)
        took.sort()
        print(f"invitation flood, 16 clients for 4 s: {len(invited)} made-up tokens ({invited.count(404)} looked up, "
              f"{invited.count(429)} refused as guessing); the librarian's listing median {took[len(took) // 2]:.1f} ms, "
              f"max {took[-1]:.1f} ms over {len(took)}")
        assert set(invited) <= {404, 429} and invited.count(404) <= 40, (set(invited), invited.count(404))
        assert took[len(took) // 2] < 50, took

        # Every spelling of a path is judged as the router routes it, cross-site too.
        cross = {"Sec-Fetch-Site": "cross-site", "Cookie": zoe["Cookie"]}
        answers = {}
        for path in (f"/api/scores/{score}/cover", f"/api/scores/{score}/pages/1/image?height=2399", f"/api/scores/{score}/4sc",
                     f"/api/scores/{score}/handout", f"/api/scores/{score}/pdf", f"/api/scores/{score}/annotations", "/api/session"):
            for spelling in (path, "/" + path, path.replace("/api/", "/./api/"), path.replace("/api/", "/api%2F"),
                             path.replace("/api/scores", "/api/%73cores"), path.replace("/api/", "/api/x/../")):
                status, headers, body = server.request("GET", spelling, headers=cross)
                answers[spelling] = status
                assert status in (308, 400, 403, 404), (spelling, status, body[:100])
                if status == 308:
                    status, _, _ = server.request("GET", headers["Location"], headers=cross)
                    assert status == 403, (spelling, headers["Location"], status)
        print(f"cross-site in 6 spellings of 7 routes: {sorted(set(answers.values()))}, none answered")

        # Anna's mark's name is hers: Boris cannot borrow it on another page.
        def post_mark(headers, body):
            status, answer, _ = server.request("GET", f"/api/scores/{score}/annotations?page=1", headers=headers)
            return server.request("POST", f"/api/scores/{score}/annotations", json.dumps(body).encode(),
                                  headers | {"If-Match": answer["ETag"]})
        status, _, body = post_mark(anna, {"type": "freetext", "page": 1, "rect": [40, 40, 220, 24], "text": "dolce – něžně",
                                           "name": "anna-0001"})
        assert status == 201, body
        anna_mark = json.loads(body)["id"]
        status, _, body = post_mark(boris, {"type": "freetext", "page": 2, "rect": [40, 40, 220, 24], "text": "мой", "name": "anna-0001"})
        assert status == 409, (status, body)
        status, _, body = server.request("GET", f"/api/scores/{score}/annotations?page=1", headers=anna)
        assert any(mark["id"] == anna_mark for mark in json.loads(body)["annotations"]), body

        # Boris's private red square: hidden from Anna, and from her picture of the page.
        status, _, body = post_mark(boris, {"type": "square", "page": 1, "rect": [30, 100, 420, 300], "color": "#ff0000", "width": 24})
        assert status == 201, body
        square = json.loads(body)["id"]
        def sees(headers):
            status, _, body = server.request("GET", f"/api/scores/{score}/annotations?page=1", headers=headers)
            return {mark["id"] for mark in json.loads(body)["annotations"]}
        assert square not in sees(anna) and square in sees(zoe)
        anna_picture = server.request("GET", f"/api/scores/{score}/pages/1/image?height=600", headers=anna)[2]
        zoe_picture = server.request("GET", f"/api/scores/{score}/pages/1/image?height=600", headers=zoe)[2]
        print(f"pictures of page 1: {red_pixels(anna_picture)} red pixels as Anna, {red_pixels(zoe_picture)} as the librarian")
        assert red_pixels(anna_picture) == 0 and red_pixels(zoe_picture) > 1000

        # The layer follows the person: Boris's new instrument, then Boris removed and another Boris added.
        members = json.loads(server.request("GET", "/api/members", headers=zoe)[2])["members"]
        boris_id = next(member["id"] for member in members if member["name"] == "Boris")
        status, _, body = server.request("PATCH", f"/api/members/{boris_id}", json.dumps({"instrument": "Viola 2"}).encode(), zoe)
        assert status == 200, (status, body)
        assert square not in sees(anna), "a new instrument keeps Boris's marks his own"
        status, _, body = server.request("DELETE", f"/api/members/{boris_id}", None, zoe)
        assert status in (200, 204), (status, body)
        status, _, body = server.request("POST", "/api/members", json.dumps({"name": "boris", "instrument": "Viola"}).encode(), zoe)
        assert status == 201, (status, body)
        assert square not in sees(anna) and square in sees(zoe), "a removed member's layer stays theirs"
        print("Boris's private mark: hidden from Anna after his instrument changed, after he left, after a new boris came")

        # A rehearsal: Anna's 40 ids hold one place.
        status, _, body = server.request("POST", "/api/rehearsals", json.dumps({"score": score, "leader": "李雷"}).encode(), li)
        assert status == 201, (status, body)
        code = json.loads(body)["code"]
        import asyncio
        import websockets
        async def fill():
            url = f"ws://127.0.0.1:{server.port}/api/rehearsals/{code}/socket"
            sockets = []
            for index in range(40):
                sockets.append(await websockets.connect(f"{url}?member=anna-tab-{index:04d}", origin=f"http://127.0.0.1:{server.port}",
                                                        additional_headers={"Cookie": anna["Cookie"]}))
            status, _, body = server.request("GET", f"/api/rehearsals/{code}", headers=anna)
            for socket_ in sockets:
                await socket_.close()
            return json.loads(body)["members"]
        members = asyncio.run(fill())
        print(f"one member opened 40 rehearsal sockets with 40 ids: {members} place(s) held")
        assert members == 1, members

        # Names that disguise another are refused.
        refused = []
        for name in ("\u0410nna Nováková", "Anna\u2060", "\u202eannA", "An\u00adna", "A" + "\u0301" * 100_000):
            status, _, _ = server.request("POST", "/api/members", json.dumps({"name": name}).encode(), zoe)
            refused.append(status)
        assert set(refused) == {400}, refused
        print(f"names disguising another member refused: {refused}")
    finally:
        server.stop()


def main(folio):
    work = tempfile.mkdtemp(prefix="folio-probe-")
    try:
        if os.environ.get("PROBE_ONLY"):   # one part alone, while working on it: PROBE_ONLY=members_rights
            globals()[os.environ["PROBE_ONLY"]](folio, work)
            return
        memory_per_upload(folio, work)
        text_sizes(folio, work)
        guesses(folio, work)
        two_forms(folio, work)
        extremes_and_bombs(folio, work)
        idle_sockets(folio, work)
        rotated_guesses(folio, work)
        pictures_and_shutdown(folio, work)
        members_rights(folio, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main(os.path.abspath(sys.argv[1]))
    except Exception:
        traceback.print_exc()
        print("0 passed, 1 failed")
        sys.exit(1)
    print("1 passed, 0 failed")
