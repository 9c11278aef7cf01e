"""What the tests of the installed package and the image share: a check that prints what it
found or stops the test naming it, where the repository's samples are, serving in a root and
stopping by SIGTERM; a free port and a file's digest come from the browser tests' harness."""
import os
import signal
import socket
import subprocess
import sys
import time

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SAMPLES = os.path.join(REPOSITORY, "Samples")
sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "Browser"))
from harness import free_port, sha256  # noqa: E402,F401  (re-exported for the install tests)


def expect(condition, message):
    if not condition:
        raise SystemExit(f"FAIL: {message}")
    print(f"  ok: {message}", flush=True)


def serve_in_root(root, command, environment, port):
    """`command` (the folio serve line) run in `root` by chroot as the user folio; returns the
    process and the line where it says where it serves, once its port takes connections."""
    process = subprocess.Popen(["chroot", "--userspec=folio:folio", root, *command], cwd="/", env=environment,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output, serving = [], None
    deadline = time.time() + 60
    while time.time() < deadline and serving is None:
        line = process.stdout.readline()
        if not line:
            break
        output.append(line)
        if line.startswith("Folio is serving"):
            serving = line.strip()
    if serving is None:
        process.kill()
        raise SystemExit("FAIL: folio serve did not start in the root:\n" + "".join(output))
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return process, serving


def stop(process):
    """SIGTERM, as systemd and container runtimes stop it; the exit code, or None after 20 s."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        return None
