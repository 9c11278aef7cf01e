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
