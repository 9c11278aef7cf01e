"""What the tests of the installed package and the image share: a check that prints what it
found or stops the test naming it, a free port, where the repository's samples are."""
import os
import socket

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SAMPLES = os.path.join(REPOSITORY, "Samples")


def expect(condition, message):
    if not condition:
        raise SystemExit(f"FAIL: {message}")
    print(f"  ok: {message}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_in_root(root, command, environment, port):
    """`command` (the folio serve line) run in `root` by chroot as the user folio; returns the
    process and the line where it says where it serves, once its port takes connections."""
    import subprocess
    import time
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
    import signal
    import subprocess
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        return None
