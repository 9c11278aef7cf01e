#!/usr/bin/env python3
"""Folio installed as a user installs it, tested as a user uses it, never from the build tree.

A fresh Debian 12 root is made with debootstrap (minbase); the package is installed there with
`apt-get install ./folio_….deb`, Debian's packages fetched as on a user's machine. Then, inside
that root only: the package's user, state folder, token and unit are checked; the unit's own
ExecStart (its Environment= and /etc/default/folio expanded as systemd does) runs `folio serve`
from /usr/bin as the user folio on a library inside the root, and `/healthz`, `/`, `/api/scores`,
a score's PDF, a page's picture (Poppler's pdftoppm, a dependency) and pdf.js (libjs-pdf) are read
back over HTTPS, trusting the authority the server made; SIGTERM stops it with exit 0. Then
`folio --version`, `man folio` and a bash completion; an upgrade keeps the library, the catalog
and the token; a removal and a purge leave the library byte for byte.

Usage: python3 Tests/Install/install_e2e.py DEB [WORK]
  WORK (default: a temporary folder) keeps the root; with FOLIO_INSTALL_KEEP_IMAGE_ROOT=1 a copy
  of the root taken right after the installation is left in WORK/image-root for Scripts/image.
  FOLIO_DEBIAN_MIRROR: the mirror (default http://deb.debian.org/debian).
"""
import hashlib
import http.client
import json
import os
import re
import shlex
import shutil
import ssl
import subprocess
import sys
import tempfile
import time

from checks import SAMPLES, expect, free_port, serve_in_root, sha256, stop
# Names in three scripts, as musicians' libraries have them.
LIBRARY_NAMES = {"Brahms-Cancion_de_Cuna.pdf": "Brahms – Wiegenlied.pdf",
                 "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf": "Дебюсси/Clair de lune.pdf",
                 "Traditional-Greensleeves_hymntune.pdf": "民謡/Greensleeves.pdf"}
started = time.time()


def log(message):
    print(f"[{time.time() - started:6.1f} s] {message}", flush=True)


def run(*command, check=True, capture=False, env=None, timeout=900):
    result = subprocess.run(command, check=False, text=True, env=env, timeout=timeout,
                            stdout=subprocess.PIPE if capture else None, stderr=subprocess.STDOUT if capture else None)
    if check and result.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(command)} exited {result.returncode}\n{result.stdout or ''}")
    return result


def inside(root, *command, check=True, capture=True, user=None):
    """A command run in the root (chroot), as `user` when given, with a plain environment."""
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive"}
    prefix = ["chroot"] + ([f"--userspec={user}:{user}"] if user else []) + [root]
    if user:
        env["HOME"] = "/var/lib/folio"
    return run(*prefix, *command, check=check, capture=capture, env=env)


def unit_command(root, port):
    """The unit's ExecStart with its variables expanded as systemd expands them: Environment=
    lines first, then /etc/default/folio over them; ${VAR} one word, $VAR split at spaces."""
    environment, exec_start = {}, None
    with open(os.path.join(root, "lib/systemd/system/folio.service"), encoding="utf-8") as unit:
        for line in unit:
            line = line.strip()
            if line.startswith("Environment="):
                for assignment in shlex.split(line[len("Environment="):]):
                    key, _, value = assignment.partition("=")
                    environment[key] = value
            elif line.startswith("ExecStart="):
                exec_start = line[len("ExecStart="):]
    with open(os.path.join(root, "etc/default/folio"), encoding="utf-8") as defaults:
        for line in defaults:
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, value = line.partition("=")
                environment[key] = shlex.split(value)[0] if value else ""
    environment["FOLIO_PORT"] = str(port)
    words = []
    for word in exec_start.split():
        braced = re.fullmatch(r"\$\{(\w+)\}", word)
        plain = re.fullmatch(r"\$(\w+)", word)
        if braced:
            words.append(environment.get(braced.group(1), ""))
        elif plain:
            words += environment.get(plain.group(1), "").split()
        else:
            words.append(word)
    return words, environment


class Server:
    """The service's command run in the root as the user folio, reached over HTTPS with the
    local authority the server made inside the root."""

    def __init__(self, root, port):
        self.root, self.port = root, port
        command, self.environment = unit_command(root, port)
        log(f"ExecStart: {' '.join(command)}")
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/var/lib/folio"}
        self.process, _ = serve_in_root(root, command, env, port)
        authority = os.path.join(root, "var/lib/folio/tls/folio-ca.pem")
        self.tls = ssl.create_default_context(cafile=authority)
        self.tls.check_hostname = False   # the certificate names this machine; the authority is what is checked
        with open(os.path.join(root, "var/lib/folio/token"), encoding="utf-8") as token:
            self.token = token.readline().strip()

    def request(self, path, token=True, method="GET"):
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=60, context=self.tls)
        headers = {"Host": f"localhost:{self.port}"}
        if token:
            headers["Authorization"] = f"Bearer {self.token}"
        connection.request(method, path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), body

    def stop(self):
        return stop(self.process)


def make_root(root, mirror):
    if os.path.exists(os.path.join(root, "usr/bin/apt-get")):
        log(f"reusing the Debian root in {root}")
        return
    log(f"debootstrap bookworm (minbase) from {mirror}")
    run("debootstrap", "--variant=minbase", "bookworm", root, mirror, capture=True)
    with open(os.path.join(root, "etc/apt/sources.list"), "w", encoding="utf-8") as sources:
        sources.write(f"deb {mirror} bookworm main\ndeb {mirror} bookworm-updates main\n")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    deb = os.path.abspath(sys.argv[1])
    work = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="folio-install-")
    os.makedirs(work, exist_ok=True)
    if os.geteuid() != 0:
        raise SystemExit("install_e2e needs root (debootstrap and chroot)")
    mirror = os.environ.get("FOLIO_DEBIAN_MIRROR", "http://deb.debian.org/debian")
    root = os.path.join(work, "root")
    make_root(root, mirror)
    package = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Version"], check=True, capture_output=True, text=True).stdout.split("\n")
    version = package[1].split(": ", 1)[1]
    log(f"apt-get install ./{os.path.basename(deb)} (version {version})")
    shutil.copy(deb, os.path.join(root, "tmp", os.path.basename(deb)))
    inside(root, "apt-get", "update", "-qq")
    inside(root, "apt-get", "install", "-y", "-qq", "--no-install-recommends", f"/tmp/{os.path.basename(deb)}")
    if os.environ.get("FOLIO_INSTALL_KEEP_IMAGE_ROOT") == "1":
        image_root = os.path.join(work, "image-root")
        shutil.rmtree(image_root, ignore_errors=True)
        run("cp", "-a", root, image_root)
        log(f"the installed root copied to {image_root} for the image")

    # As on any Linux system: a static Swift binary reads its arguments from /proc/self/cmdline.
    proc = os.path.join(root, "proc")
    if not os.path.ismount(proc):
        run("mount", "-t", "proc", "proc", proc)
    try:
        check(root, deb, version, work)
    finally:
        run("umount", proc, check=False)
    log("install_e2e: all passed")


def check(root, deb, version, work):
    print("The package's files and what its scripts made:")
    expect(os.access(os.path.join(root, "usr/bin/folio"), os.X_OK), "/usr/bin/folio is installed")
    passwd = inside(root, "getent", "passwd", "folio").stdout
    expect(passwd.startswith("folio:") and ":/var/lib/folio:" in passwd and "nologin" in passwd, "a system user folio, home /var/lib/folio, no shell")
    token = os.stat(os.path.join(root, "var/lib/folio/token"))
    expect(token.st_mode & 0o777 == 0o600 and token.st_size >= 33, f"the token is private (mode {oct(token.st_mode & 0o777)})")
    expect(os.path.isfile(os.path.join(root, "etc/default/folio")), "/etc/default/folio is installed (a conffile)")
    expect("/etc/default/folio" in inside(root, "dpkg-query", "--control-show", "folio", "conffiles").stdout, "dpkg knows it as a conffile")
    linked = run("ldd", os.path.join(root, "usr/bin/folio"), capture=True).stdout
    expect("libswiftCore" not in linked and "libFoundation" not in linked, "the Swift runtime is inside the binary")

    print("folio --version, man, a completion:")
    expect(inside(root, "folio", "--version").stdout.strip() == version.split("+")[0].split("~")[0], f"folio --version says {version}")
    inside(root, "apt-get", "install", "-y", "-qq", "--no-install-recommends", "man-db", "bash-completion")
    manual = inside(root, "man", "-P", "cat", "folio").stdout
    expect("library" in manual and "serve" in manual, "man folio names its commands")
    manual = inside(root, "man", "-P", "cat", "folio.library.search").stdout
    expect("Dvořák" in manual or "dvořák" in manual.lower(), "man folio.library.search keeps UTF-8 (Dvořák)")
    # The help's paragraphs stay paragraphs: the examples and the exit codes each begin one.
    for start in ("Examples: folio library search", "Exit codes: 0 found"):
        expect(re.search(r"\n[ \t]*\n[ \t]+" + re.escape(start), manual), f"man folio.library.search: '{start}' begins a paragraph")
    completion = inside(root, "bash", "-c", "source /usr/share/bash-completion/completions/folio; "
                        "COMP_WORDS=(folio lib); COMP_CWORD=1; COMP_LINE='folio lib'; COMP_POINT=9; _folio; echo \"${COMPREPLY[*]}\"").stdout
    expect("library" in completion, f"bash completes 'folio lib' to library ({completion.strip()})")

    print("The service's command, as the user folio, on a library inside the root:")
    library = os.path.join(root, "var/lib/folio/library")
    for sample, name in LIBRARY_NAMES.items():
        os.makedirs(os.path.dirname(os.path.join(library, name)), exist_ok=True)
        shutil.copy(os.path.join(SAMPLES, sample), os.path.join(library, name))
    inside(root, "chown", "-R", "folio:folio", "/var/lib/folio/library")
    before = {name: sha256(os.path.join(library, name)) for name in LIBRARY_NAMES.values()}
    server = Server(root, free_port())
    try:
        status, headers, body = server.request("/healthz", token=False)
        expect(status == 200 and body == b"ok\n", "/healthz answers ok without the token")
        status, _, _ = server.request("/api/scores", token=False)
        expect(status == 401, "the library asks for the token")
        status, _, body = server.request("/")
        expect(status == 200 and b"<html" in body.lower(), "/ is the library page")
        status, _, body = server.request("/api/scores")
        scores = json.loads(body)["scores"]
        expect(status == 200 and sorted(score["path"] for score in scores) == sorted(LIBRARY_NAMES.values()),
               f"/api/scores lists the library's {len(scores)} scores, names in three scripts")
        debussy = next(score for score in scores if score["path"].startswith("Дебюсси"))
        status, _, body = server.request(f"/api/scores/{debussy['id']}/pdf")
        expect(status == 200 and hashlib.sha256(body).hexdigest() == before["Дебюсси/Clair de lune.pdf"], "a score's PDF comes back byte for byte")
        status, headers, body = server.request(f"/api/scores/{debussy['id']}/pages/1/image?height=400")
        expect(status == 200 and body.startswith(b"\x89PNG"), f"page 1 comes back as a picture ({len(body)} bytes, by pdftoppm)")
        status, _, body = server.request("/pdfjs/pdf.js")
        expect(status == 200 and len(body) > 100_000, "pdf.js comes from libjs-pdf")
    finally:
        code = server.stop()
    expect(code == 0, f"SIGTERM stops the server with exit 0 ({code})")

    print("A helper that is only recommended, missing:")
    rtf = os.path.join(root, "tmp", "Serenáda – セレナーデ.rtf")
    with open(rtf, "w", encoding="utf-8") as file:
        file.write("{\\rtf1\\ansi Seren\\'e1da}\n")
    os.chmod(rtf, 0o644)
    added = inside(root, "folio", "add", "/tmp/Serenáda – セレナーデ.rtf", "--library", "/var/lib/folio/library", check=False, user="folio")
    expect(added.returncode == 69 and "libreoffice-writer-nogui" in added.stdout and "Fatal error" not in added.stdout
           and "Stack" not in added.stdout, f"adding an RTF without LibreOffice says what to install, exit 69 as docs/saves.md says ({added.stdout.strip()[:160]})")

    print("An upgrade keeps the library, the catalog and the token, and migrates the catalog:")
    token_before = sha256(os.path.join(root, "var/lib/folio/token"))
    inside(root, "folio", "setlist", "create", "Koncert – 演奏会", "--library", "/var/lib/folio/library", user="folio")
    inside(root, "folio", "members", "add", "Zoë Král", "--role", "librarian", "--library", "/var/lib/folio/library", user="folio")
    catalog = os.path.join(library, ".folio/library.sqlite")
    # The catalog taken back to the form before member keys (v15), as an older Folio left it.
    run("python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.executescript("
        "\"DROP INDEX member_key; ALTER TABLE member DROP COLUMN key; ALTER TABLE undo_step DROP COLUMN authorKey; "
        "DELETE FROM grdb_migrations WHERE identifier = 'v16';\"); db.commit()", catalog)
    newer = os.path.join(work, "newer")
    shutil.rmtree(newer, ignore_errors=True)
    run("dpkg-deb", "-R", deb, newer)
    control = os.path.join(newer, "DEBIAN/control")
    with open(control, encoding="utf-8") as file:
        text = file.read()
    with open(control, "w", encoding="utf-8") as file:
        file.write(re.sub(r"^Version: .*$", f"Version: {version}+upgrade1", text, flags=re.M))
    upgrade = os.path.join(root, "tmp", f"folio_{version}+upgrade1.deb")
    run("dpkg-deb", "--root-owner-group", "-Zgzip", "-z1", "--build", newer, upgrade, capture=True)
    inside(root, "apt-get", "install", "-y", "-qq", "--no-install-recommends", f"/tmp/{os.path.basename(upgrade)}")
    expect(inside(root, "dpkg-query", "-W", "-f", "${Version}", "folio").stdout == f"{version}+upgrade1", "the newer version is installed")
    expect({name: sha256(os.path.join(library, name)) for name in LIBRARY_NAMES.values()} == before, "the library's files are unchanged")
    expect(sha256(os.path.join(root, "var/lib/folio/token")) == token_before, "the token is kept")
    listed = inside(root, "folio", "library", "list", "--library", "/var/lib/folio/library", "--json", user="folio").stdout
    expect(len([line for line in listed.splitlines() if line.startswith("{")]) == 3, "the catalog still opens and lists 3 scores")
    migrated = run("python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); print("
                   "db.execute(\"SELECT COUNT(*) FROM grdb_migrations WHERE identifier = 'v16'\").fetchone()[0], "
                   "db.execute('SELECT name, length(key) FROM member').fetchall(), db.execute('SELECT name FROM setlist').fetchall())",
                   catalog, capture=True).stdout.strip()
    expect(migrated == "1 [('Zoë Král', 32)] [('Koncert – 演奏会',)]", f"the catalog was migrated, its member and setlist kept ({migrated})")

    print("Removal and purge leave the library:")
    inside(root, "apt-get", "remove", "-y", "-qq", "folio")
    expect(not os.path.exists(os.path.join(root, "usr/bin/folio")), "apt-get remove removes /usr/bin/folio")
    inside(root, "apt-get", "purge", "-y", "-qq", "folio")
    expect(not os.path.exists(os.path.join(root, "etc/default/folio")), "purge removes /etc/default/folio")
    expect({name: sha256(os.path.join(library, name)) for name in LIBRARY_NAMES.values()} == before, "the library is byte for byte as it was")
    expect(os.path.isfile(os.path.join(library, ".folio/library.sqlite")), "its catalog stays")


if __name__ == "__main__":
    main()
