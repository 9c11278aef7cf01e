#!/usr/bin/env python3
"""Folio with the server out of reach (issue 54, first part), in Debian's Chromium through
Playwright with a browser profile on disk, the server stopped and started again on its port:

- Installable: the manifest parses with no errors and Chromium finds nothing against
  installing it (its own installability check); a service worker controls the pages.
- "Keep offline" on a score and on a setlist: "Available offline" with the space it takes; a
  mark made on the server after keeping is seen online and kept with the rest.
- Server stopped: the library page opens from the device, says the server cannot be reached
  and how many kept scores can be opened, greys the rest; a kept score opens, every page
  draws (ink on the canvas), its marks list shows; the kept setlist plays in performance mode.
- The browser closed and opened again, the server still down: the kept score still opens.
- A server blip with a score open that was never kept: its pages still draw.
- Marks made offline wait on the device: a text added, a text edited and a bookmark added with
  the server down are shown at once ("3 changes not yet saved"), survive the browser being
  closed, and are sent when the server is back: the new text is in the PDF exactly once and
  the bookmark is in its XMP once (pikepdf), beside a
  mark the command line added meanwhile; the edit of a mark the command line deleted meanwhile
  is not applied but listed for the musician ("someone deleted the mark meanwhile", Discard).
- Server back: the library page is live again (no offline line).
- A blip where nothing is kept (service workers blocked, a large score whose later pages were
  never fetched): turning on stops at the first page that cannot be had — the page before it
  stays drawn, the counter stays, a notice on the stage says why; with the server back (a new
  process: a new CSRF token) that page draws without a reload, and a text mark typed then is
  saved (the token renewed) and is in the PDF exactly once (pikepdf).

Usage: python3 Tests/Browser/offline_e2e.py FOLIO [ARTIFACTS_DIR]
Screenshots go to ARTIFACTS_DIR (default .build/e2e-artifacts/offline).
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright, expect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BRAHMS, CHROMIUM, DEBUSSY, GREENSLEEVES, INKED, ROOT, Server, launch, poll, rendered, run  # noqa: E402

GIG = "Gig%20%E2%80%93%20%D0%9A%D0%BE%D0%BD%D1%86%D0%B5%D1%80%D1%82"


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-offline-")
    profile = tempfile.mkdtemp(prefix="folio-profile-")
    for name in (DEBUSSY, BRAHMS, GREENSLEEVES):
        shutil.copy(os.path.join(ROOT, "Samples", name), library)
    suite = os.path.join(library, "Abendmusik – 夕べの音楽.pdf")
    subprocess.run([folio, "merge", os.path.join(library, DEBUSSY), os.path.join(library, DEBUSSY),
                    "--output", suite, "--title", "Abendmusik – 夕べの音楽"], check=True, capture_output=True)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)
    subprocess.run([folio, "annot", "add", os.path.join(library, DEBUSSY), "--type", "freetext", "--page", "1",
                    "--rect", "60,60,220,90", "--text", "dolce – 甘く"], check=True, capture_output=True)
    # A large score: 24 pages, each drawing its own 256 KB of noise, so pdf.js fetches a page's
    # bytes only when it is turned to.
    big = os.path.join(library, "Große Sammlung – 大全集.pdf")
    subprocess.run([sys.executable, "-c", (
        "import os, sys, zlib, pikepdf\n"
        "pdf = pikepdf.new()\n"
        "for number in range(24):\n"
        "    noise = pikepdf.Stream(pdf, zlib.compress(os.urandom(256 * 256 * 4), 0))\n"
        "    noise.Type, noise.Subtype, noise.Width, noise.Height = pikepdf.Name.XObject, pikepdf.Name.Image, 512, 512\n"
        "    noise.ColorSpace, noise.BitsPerComponent, noise.Filter = pikepdf.Name.DeviceGray, 8, pikepdf.Name.FlateDecode\n"
        "    page = pdf.add_blank_page(page_size=(595, 842))\n"
        "    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Noise=noise))\n"
        "    page.Contents = pdf.make_stream(b'q 400 0 0 400 98 300 cm /Noise Do Q')\n"
        "pdf.docinfo['/Title'] = 'Große Sammlung – 大全集'\n"
        "pdf.save(sys.argv[1])\n"), big], check=True, capture_output=True)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)
    for arguments in (["create", "Gig – Концерт"], ["add", "Gig – Концерт", BRAHMS], ["add", "Gig – Концерт", GREENSLEEVES]):
        subprocess.run([folio, "setlist", *arguments, "--library", library], check=True, capture_output=True)
    server = Server(folio, library)
    server.start()
    try:
        with sync_playwright() as playwright:
            def open_browser():
                context = playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, args=["--no-sandbox"], viewport={"width": 1024, "height": 900})
                page = context.pages[0] if context.pages else context.new_page()
                return context, page

            context, page = open_browser()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            # Installable, and a service worker in control.
            page.goto(server.base + "/")
            poll(page, "() => navigator.serviceWorker.ready.then(() => true)", lambda ready: ready, what="the service worker")
            page.reload()
            poll(page, "() => Boolean(navigator.serviceWorker.controller)", lambda value: value, what="a controlled page")
            cdp = context.new_cdp_session(page)
            manifest = cdp.send("Page.getAppManifest")
            assert not manifest.get("errors"), manifest.get("errors")
            installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            assert installability == [], installability

            # Keep a score and a setlist offline.
            debussy = page.locator("#scores li", has_text="Clair de Lune").get_attribute("data-id")
            page.goto(f"{server.base}/scores/{debussy}")
            rendered(page, 1)
            page.click("#keep-offline")
            expect(page.locator("#offline-status")).to_contain_text("Available offline", timeout=20000)
            expect(page.locator("#offline-status")).to_contain_text("on this device")
            expect(page.locator("#keep-offline")).to_have_attribute("aria-pressed", "true")
            page.screenshot(path=f"{artifacts}/01-kept.png")
            # A mark made after keeping (by another device: the command line) is seen online, and kept.
            subprocess.run([folio, "annot", "add", os.path.join(library, DEBUSSY), "--type", "freetext", "--page", "1",
                            "--rect", "60,120,220,150", "--text", "rit. – 遅く"], check=True, capture_output=True)
            page.reload()
            rendered(page, 1)
            expect(page.locator("#annotations li", has_text="rit. – 遅く")).to_have_count(1)
            page.goto(f"{server.base}/setlists/Gig%20%E2%80%93%20%D0%9A%D0%BE%D0%BD%D1%86%D0%B5%D1%80%D1%82")
            page.click("#keep-offline")
            expect(page.locator("#offline-status")).to_contain_text("Available offline", timeout=20000)
            # A score opened, never kept: its whole file is kept among the recent ones.
            page.goto(server.base + "/")
            suite_id = page.locator("#scores li", has_text="Abendmusik").get_attribute("data-id")
            page.goto(f"{server.base}/scores/{suite_id}")
            rendered(page, 1)
            poll(page, "() => caches.open('folio-recent').then((c) => c.keys()).then((k) => k.map((r) => new URL(r.url).pathname))",
                 lambda paths: f"/api/scores/{suite_id}/pdf" in paths, what="the opened score kept among the recent")

            # A blip: the server stops with the suite open; every page still draws.
            server.stop()
            page.locator("#overlay").focus()
            for number in range(2, 9):
                page.keyboard.press("ArrowRight")
                rendered(page, number)
            page.screenshot(path=f"{artifacts}/02-blip-page-8.png")

            # Offline: the library from the device, what can be opened said.
            page.goto(server.base + "/")
            expect(page.locator("#uploads")).to_contain_text("The server cannot be reached: 3 scores kept on this device")
            expect(page.locator("#scores li.kept")).to_have_count(3)
            assert page.evaluate("() => document.body.classList.contains('offline')")
            page.screenshot(path=f"{artifacts}/03-library-offline.png")
            page.goto(f"{server.base}/scores/{debussy}")
            rendered(page, 1)
            expect(page.locator("#annotations li", has_text="dolce – 甘く")).to_have_count(1)
            expect(page.locator("#annotations li", has_text="rit. – 遅く")).to_have_count(1)
            # Marks made offline: a new text, and the words of a text changed.
            box = page.locator("#overlay").bounding_box()
            page.click("[data-tool=freetext]")
            page.mouse.click(box["x"] + 90, box["y"] + 300)
            page.keyboard.insert_text("attacca – オフライン")
            page.keyboard.press("Enter")
            expect(page.locator("#status")).to_contain_text("on this device")
            expect(page.locator(".pending-note")).to_have_text("1 change not yet saved")
            expect(page.locator("#annotations li.pending", has_text="attacca – オフライン")).to_have_count(1)
            page.locator("#annotations li", has_text="rit. – 遅く").get_by_role("button", name="Edit").click()
            page.keyboard.press("Control+A")
            page.keyboard.insert_text("rit. – ゆっくり")
            page.keyboard.press("Enter")
            expect(page.locator(".pending-note")).to_have_text("2 changes not yet saved")
            page.click("#tab-contents")
            page.fill("#add-bookmark [name=name]", "Coda – コーダ")
            page.fill("#add-bookmark [name=start]", "3")
            page.fill("#add-bookmark [name=end]", "4")
            page.press("#add-bookmark [name=name]", "Enter")
            expect(page.locator(".pending-note")).to_have_text("3 changes not yet saved")
            page.click("#tab-page")
            expect(page.locator("#annotations li.pending", has_text="Bookmark Coda – コーダ")).to_have_count(1)
            page.screenshot(path=f"{artifacts}/04a-marks-offline.png")
            # Meanwhile, on the machine: a mark added, and the text being edited deleted.
            subprocess.run([folio, "annot", "add", os.path.join(library, DEBUSSY), "--type", "freetext", "--page", "1",
                            "--rect", "60,180,220,210", "--text", "a tempo – CLI"], check=True, capture_output=True)
            listed = subprocess.run([folio, "annot", "list", os.path.join(library, DEBUSSY), "--json"], check=True,
                                    capture_output=True, text=True).stdout
            rit = [a["id"] for a in json.loads(listed)["annotations"] if a.get("contents") == "rit. – 遅く"]
            subprocess.run([folio, "annot", "remove", os.path.join(library, DEBUSSY), "--id", rit[0]], check=True, capture_output=True)
            page.click("[data-tool=view]")
            page.locator("#overlay").focus()
            for number in range(2, 5):
                page.keyboard.press("ArrowRight")
                rendered(page, number)
            page.screenshot(path=f"{artifacts}/04-score-offline.png")
            page.goto(f"{server.base}/setlists/Gig%20%E2%80%93%20%D0%9A%D0%BE%D0%BD%D1%86%D0%B5%D1%80%D1%82/perform")
            rendered(page, 1)
            page.keyboard.press("ArrowRight")
            rendered(page, 2)
            page.screenshot(path=f"{artifacts}/05-perform-offline.png")
            # The setlist's order changed offline: shown at once, waiting on the device.
            page.goto(f"{server.base}/setlists/{GIG}")
            expect(page.locator("#entries li")).to_have_count(2)
            second = page.locator("#entries li").nth(1).locator(".title").inner_text()
            page.locator("#entries li").nth(1).get_by_role("button", name=f"Move {second} up").click()
            expect(page.locator("#entries li").first.locator(".title")).to_have_text(second)
            expect(page.locator("main.builder .pending-note")).to_have_text("1 change not yet saved")
            page.screenshot(path=f"{artifacts}/05a-setlist-moved-offline.png")
            # Meanwhile, on the machine: a placeholder put first in the setlist.
            subprocess.run([folio, "setlist", "add", "Gig – Концерт", "--placeholder", "Pause – 休憩", "--at", "1", "--library", library],
                           check=True, capture_output=True)

            # The browser closed and opened again, the server still down.
            context.close()
            context, page = open_browser()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server.base}/scores/{debussy}")
            rendered(page, 1)
            expect(page.locator(".pending-note")).to_have_text("3 changes not yet saved")
            page.screenshot(path=f"{artifacts}/06-reopened-offline.png")

            # The server back: what waited is sent, through the edit path, once.
            server.start()
            expect(page.locator(".pending-note")).to_have_text("1 could not be saved: see the marks list", timeout=30000)
            assert page.locator("#stage").get_attribute("data-pending") == "0"
            counts = subprocess.run([sys.executable, "-c", (
                "import sys, json, pikepdf\n"
                "pdf = pikepdf.open(sys.argv[1])\n"
                "texts = [str(a.get('/Contents', '')) for p in pdf.pages for a in p.get('/Annots', [])]\n"
                "print(json.dumps({t: texts.count(t) for t in sys.argv[2:]}))"),
                os.path.join(library, DEBUSSY), "attacca – オフライン", "a tempo – CLI", "rit. – ゆっくり", "rit. – 遅く"],
                check=True, capture_output=True, text=True).stdout
            assert json.loads(counts) == {"attacca – オフライン": 1, "a tempo – CLI": 1, "rit. – ゆっくり": 0, "rit. – 遅く": 0}, counts
            xmp = subprocess.run([sys.executable, "-c", (
                "import sys, pikepdf\n"
                "pdf = pikepdf.open(sys.argv[1])\n"
                "print(pdf.Root.Metadata.read_bytes().decode('utf-8').count(sys.argv[2]))"),
                os.path.join(library, DEBUSSY), "Coda – コーダ"], check=True, capture_output=True, text=True).stdout.strip()
            assert xmp == "1", f"the bookmark is in the XMP {xmp} times"
            conflict = page.locator("#annotations li.conflict")
            expect(conflict).to_contain_text("someone deleted the mark meanwhile")
            expect(page.locator("#annotations li", has_text="attacca – オフライン")).to_have_count(1)
            page.screenshot(path=f"{artifacts}/06a-sent.png")
            conflict.get_by_role("button", name="Discard").click()
            expect(page.locator(".pending-note")).to_be_hidden()

            # The setlist's move, sent on the setlist as it is now: the piece moved before the
            # other piece, the placeholder added meanwhile kept first.
            page.goto(f"{server.base}/setlists/{GIG}")
            expect(page.locator("#status")).to_contain_text("All changes saved (1 made while offline)", timeout=20000)
            expect(page.locator("main.builder .pending-note")).to_be_hidden()
            shown = subprocess.run([folio, "setlist", "show", "Gig – Концерт", "--json", "--library", library],
                                   check=True, capture_output=True, text=True).stdout
            titles = [entry["title"] for entry in json.loads(shown)["entries"]]
            assert titles[0] == "Pause – 休憩" and titles[1] == second and len(titles) == 3, titles
            expect(page.locator("#entries li").nth(1).locator(".title")).to_have_text(second)

            # The server back: the library is live again.
            page.goto(server.base + "/")
            expect(page.locator("#scores li.kept")).to_have_count(3)
            time.sleep(1)
            assert not page.evaluate("() => document.body.classList.contains('offline')"), "still offline with the server back"
            assert "cannot be reached" not in page.locator("#uploads").text_content()
            # Forgotten again: nothing kept of the score.
            page.goto(f"{server.base}/scores/{debussy}")
            rendered(page, 1)
            page.click("#keep-offline")
            expect(page.locator("#keep-offline")).to_have_attribute("aria-pressed", "false")
            kept = page.evaluate("() => caches.open('folio-kept').then((c) => c.keys()).then((k) => k.map((r) => new URL(r.url).pathname))")
            assert f"/api/scores/{debussy}/pdf" not in kept, kept
            assert not errors, f"browser errors: {errors}"
            context.close()

            # A blip with nothing kept: no service worker, a large score's later pages never fetched.
            browser = launch(playwright)
            plain = browser.new_context(service_workers="block", viewport={"width": 1024, "height": 900})
            page = plain.new_page()
            page.on("pageerror", lambda error: errors.append(f"{error} {error.stack}"))
            page.goto(server.base + "/")
            big_id = page.locator("#scores li", has_text="Große Sammlung").get_attribute("data-id")
            page.goto(f"{server.base}/scores/{big_id}")
            rendered(page, 1)
            page.evaluate("() => { window.folioSamePage = true; }")
            server.stop()
            page.locator("#overlay").focus()
            for _ in range(24):
                page.keyboard.press("ArrowRight")
                time.sleep(0.3)
                if page.locator(".page-notice").is_visible():
                    break
            expect(page.locator(".page-notice")).to_contain_text("could not be loaded: the server is out of reach", timeout=25000)
            missed = int(page.locator("#stage").get_attribute("data-missed"))
            assert missed > 1, missed
            shown = page.locator("#stage").get_attribute("data-rendered")
            assert shown == str(missed - 1), (shown, missed)
            expect(page.locator("#pageno")).to_have_text(f"{missed - 1} / 24")
            assert page.evaluate(INKED), "the page shown before the blip was blanked"
            page.screenshot(path=f"{artifacts}/07-blip-notice.png")
            server.start()
            page.wait_for_selector(f"#stage[data-rendered='{missed}']", timeout=30000)
            expect(page.locator(".page-notice")).to_be_hidden()
            assert page.evaluate("() => window.folioSamePage === true"), "the page was reloaded"
            # The server's new token is taken on the way: a mark typed now is saved, once.
            box = page.locator("#overlay").bounding_box()
            page.click("[data-tool=freetext]")
            page.mouse.click(box["x"] + 80, box["y"] + 80)
            page.keyboard.insert_text("attacca – すぐに")
            page.keyboard.press("Enter")
            expect(page.locator("#annotations li", has_text="attacca – すぐに")).to_have_count(1, timeout=15000)
            page.screenshot(path=f"{artifacts}/08-blip-recovered.png")
            found = subprocess.run([sys.executable, "-c", (
                "import sys, pikepdf\n"
                "pdf = pikepdf.open(sys.argv[1])\n"
                "print(sum(1 for p in pdf.pages for a in p.get('/Annots', []) if str(a.get('/Contents', '')) == sys.argv[2]))"),
                big, "attacca – すぐに"], check=True, capture_output=True, text=True).stdout.strip()
            assert found == "1", f"the mark is in the PDF {found} times"
            assert not errors, f"browser errors: {errors}"
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(library, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    run(main, "e2e-artifacts/offline")
