#!/usr/bin/env python3
"""Folio over HTTPS on a name that is not localhost (issue 54), in Debian's Chromium through
Playwright, as a musician's tablet on the local network would reach it:

- `folio serve --https` makes its local authority; curl trusts the server with the printed
  authority (`--cacert`) and refuses it without; Python's ssl module likewise.
- A browser whose NSS database (made by certutil, as docs/serving.md says) trusts the authority
  opens `https://ноты.test:PORT/` (a name in Cyrillic, mapped to 127.0.0.1 by Chromium's
  --host-resolver-rules): a secure context, cookies Secure, a service worker in control, the
  Screen Wake Lock and persistent storage offered; a score kept offline.
- The server stopped: the library and the kept score open from the device, every page drawn.
- A browser that does not trust the authority gets Chromium's certificate error.
- The trust page shows the fingerprint `folio serve` printed.

Usage: python3 Tests/Browser/https_e2e.py FOLIO [ARTIFACTS_DIR]
Screenshots go to ARTIFACTS_DIR (default .build/e2e-artifacts/https).
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import pikepdf
from playwright.sync_api import Error as PlaywrightError, sync_playwright, expect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BRAHMS, CHROMIUM, DEBUSSY, ROOT, Server, poll, rendered, run  # noqa: E402

NAME = "ноты.test"
ASCII = NAME.encode("idna").decode("ascii")


def serve_https(folio, library, tls):
    """`folio serve LIBRARY --https` on one port, stopped and started again as the test says."""
    return Server(folio, library, "--https", "--tls-dir", tls, "--allow-host", NAME,
                  ca=os.path.join(tls, "folio-ca.pem"), host="localhost")


def nss_home(ca=None):
    """A home folder whose NSS database (Chromium's on Linux) trusts `ca`, or nothing."""
    home = tempfile.mkdtemp(prefix="folio-home-")
    database = os.path.join(home, ".pki", "nssdb")
    os.makedirs(database)
    subprocess.run(["certutil", "-N", "-d", f"sql:{database}", "--empty-password"], check=True, capture_output=True)
    if ca:
        subprocess.run(["certutil", "-A", "-d", f"sql:{database}", "-t", "C,,", "-n", "Folio – ноты", "-i", ca],
                       check=True, capture_output=True)
    return home


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-https-")
    tls = os.path.join(tempfile.mkdtemp(prefix="folio-tls-"), "tls")
    for name in (DEBUSSY, BRAHMS):
        shutil.copy(os.path.join(ROOT, "Samples", name), library)
    server = serve_https(folio, library, tls).start()
    ca = os.path.join(tls, "folio-ca.pem")
    base = f"https://{NAME}:{server.port}"
    try:
        # curl and Python's ssl: trusted with the authority, refused without.
        trusted = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca,
                                  "--resolve", f"{ASCII}:{server.port}:127.0.0.1", f"https://{ASCII}:{server.port}/"],
                                 capture_output=True, text=True)
        assert trusted.stdout == "200", trusted
        untrusted = subprocess.run(["curl", "-sS", "-o", "/dev/null", f"https://localhost:{server.port}/"], capture_output=True, text=True)
        assert untrusted.returncode == 60, untrusted
        try:
            urllib.request.urlopen(f"https://localhost:{server.port}/", timeout=5)
            raise AssertionError("Python's default trust accepted Folio's authority")
        except urllib.error.URLError as error:
            assert isinstance(error.reason, ssl.SSLCertVerificationError), error
        fingerprint = subprocess.run(["openssl", "x509", "-in", ca, "-noout", "-fingerprint", "-sha256"],
                                     capture_output=True, text=True, check=True).stdout.strip().split("=")[1]
        assert f"fingerprint {fingerprint}" in server.output, server.output

        with sync_playwright() as playwright:
            # A device that never trusted the authority: Chromium's certificate error, no page.
            stranger = playwright.chromium.launch_persistent_context(
                tempfile.mkdtemp(prefix="folio-profile-"), executable_path=CHROMIUM, env={**os.environ, "HOME": nss_home()},
                args=["--no-sandbox", f"--host-resolver-rules=MAP {ASCII} 127.0.0.1"])
            try:
                stranger.new_page().goto(base + "/")
                raise AssertionError("an untrusted certificate was accepted")
            except PlaywrightError as error:
                assert "ERR_CERT_AUTHORITY_INVALID" in str(error), error
            stranger.close()

            home, profile = nss_home(ca), tempfile.mkdtemp(prefix="folio-profile-")

            def open_browser():
                context = playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, env={**os.environ, "HOME": home},
                    args=["--no-sandbox", f"--host-resolver-rules=MAP {ASCII} 127.0.0.1"], viewport={"width": 1024, "height": 900})
                return context, (context.pages[0] if context.pages else context.new_page())

            context, page = open_browser()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(base + "/")
            assert page.url.startswith(f"https://{ASCII}:"), page.url
            expect(page.locator("#scores li")).to_have_count(2)
            assert page.evaluate("() => window.isSecureContext")
            assert page.evaluate("() => 'wakeLock' in navigator && typeof navigator.storage.persist === 'function'")
            cookies = {cookie["name"]: cookie for cookie in context.cookies()}
            assert cookies["folio_csrf"]["secure"], cookies
            poll(page, "() => navigator.serviceWorker.ready.then(() => true)", lambda ready: ready, what="the service worker")
            page.reload()
            poll(page, "() => Boolean(navigator.serviceWorker.controller)", lambda value: value, what="a controlled page")
            # The trust page, with the fingerprint folio serve printed.
            page.goto(base + "/trust")
            expect(page.locator("[data-fingerprint]")).to_have_text(fingerprint)
            page.screenshot(path=f"{artifacts}/01-trust.png", full_page=True)
            # A score kept on the device.
            page.goto(base + "/")
            debussy = page.locator("#scores li", has_text="Clair de Lune").get_attribute("data-id")
            page.goto(f"{base}/scores/{debussy}")
            rendered(page, 1)
            page.click("#keep-offline")
            expect(page.locator("#offline-status")).to_contain_text("Available offline", timeout=20000)
            page.screenshot(path=f"{artifacts}/02-kept.png")

            # The server stopped; the browser closed and opened again: the library and the kept score, every page.
            server.stop()
            context.close()
            context, page = open_browser()
            page.goto(base + "/")
            expect(page.locator("#uploads")).to_contain_text("The server cannot be reached")
            expect(page.locator("#scores li.kept")).to_have_count(1)
            page.goto(f"{base}/scores/{debussy}")
            rendered(page, 1)
            pages = len(pikepdf.open(os.path.join(library, DEBUSSY)).pages)
            assert pages > 1, pages
            page.click("[data-tool=view]")
            page.locator("#overlay").focus()
            for number in range(2, pages + 1):
                page.keyboard.press("ArrowRight")
                rendered(page, number)
            page.screenshot(path=f"{artifacts}/03-offline-score.png")

            # Back: the same authority, the same certificate; the library is live again.
            server.start()
            page.goto(base + "/")
            expect(page.locator("#uploads")).not_to_contain_text("The server cannot be reached")
            assert not page.evaluate("() => document.body.classList.contains('offline')")
            assert errors == [], errors
            context.close()
    finally:
        server.stop()
        shutil.rmtree(library, ignore_errors=True)
    print(f"HTTPS on {NAME}: trusted through NSS, offline after a restart, {pages} pages drawn from the device")


if __name__ == "__main__":
    run(main, "e2e-artifacts/https")
