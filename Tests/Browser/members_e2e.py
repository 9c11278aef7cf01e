#!/usr/bin/env python3
"""An ensemble sharing one Folio (issue 56), in Debian's Chromium through Playwright, one
browser context per person:

- The librarian (made with `folio members add`) is sent to the login page, logs in, and on the
  members page adds two players: each gets an invitation link and its QR code.
- Each player opens their link, sets a password, lands in the library under their own name,
  without the librarian's controls ("Add scores").
- Player A adds a text mark: in the PDF (pikepdf) with A's name as its author (/T), in A's
  layer (an optional content group named "Anna Nováková — Violin II"). Player B is not shown it,
  nor after A's instrument changes (the layer keeps its name, the server knows it is A's):
  not in B's marks list, its layer unchecked in B's layer menu (pdf.js does not draw it); the
  librarian is shown it.
- The conductor's mark is everyone's to see: B sees it, tries to delete it, is refused (the
  refusal said on the page), the file byte-identical. The librarian takes A's mark back from the
  score's history (filtered to A), keeping the conductor's mark made after it; a player is not
  shown the history.
- The conductor leads a rehearsal; B joins with one tap ("Follow as Борис Иванов — Viola").
- A shared device: with the server stopped, B marks the score (the change waits on the device
  in B's name) and logs out, told that one change waits. The server back, A logs in on that
  device: B's change is neither shown to A nor sent in A's name; once B logs in there again it
  is saved, as B's, in B's layer.
- An invitation used once does not work again; logging out leads back to the login page.

Usage: python3 Tests/Browser/members_e2e.py FOLIO [ARTIFACTS_DIR]
Screenshots go to ARTIFACTS_DIR (default .build/e2e-artifacts/members).
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pikepdf
from PIL import Image
from playwright.sync_api import sync_playwright, expect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BRAHMS, DEBUSSY, ROOT, Server, launch, person, poll, rendered, run, sha256  # noqa: E402

LIBRARIAN, LIBRARIAN_PASSWORD = "Zoë Král", "knihovnice 2026"
CONDUCTOR, CONDUCTOR_PASSWORD = "李雷", "指揮者のパスワード"
ANNA, BORIS = "Anna Nováková", "Борис Иванов"


def authors(path):
    with pikepdf.open(path) as pdf:
        return [str(annotation.get("/T", "")) for page in pdf.pages for annotation in page.get("/Annots", [])
                if annotation.get("/Subtype") == "/FreeText"]


def layers(path):
    with pikepdf.open(path) as pdf:
        return {str(annotation.Contents): str(annotation.OC.Name) for page in pdf.pages for annotation in page.get("/Annots", [])
                if annotation.get("/Subtype") == "/FreeText" and "/OC" in annotation}


def red(page, area):
    """Pixels of the page's screenshot in `area` (x, y, width, height) that are a mark's red."""
    picture = Image.open(io.BytesIO(page.screenshot(clip=dict(zip(("x", "y", "width", "height"), area))))).convert("RGB")
    return sum(1 for r, g, b in picture.getdata() if r > 150 and g < 110 and b < 110)


def log_in(page, base, name, password):
    page.goto(base + "/")
    assert "/login" in page.url, page.url
    page.fill("#login [name=name]", name)
    page.fill("#login [name=password]", password)
    page.click("#login button[type=submit]")
    page.wait_for_url(base + "/")


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-members-")
    for name in (DEBUSSY, BRAHMS):
        shutil.copy(os.path.join(ROOT, "Samples", name), library)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)
    secret = library + ".pw"
    with open(secret, "w", encoding="utf-8") as file:
        file.write(LIBRARIAN_PASSWORD + "\n")
    subprocess.run([folio, "members", "add", LIBRARIAN, "--role", "librarian", "--password-file", secret, "--library", library],
                   check=True, capture_output=True)
    with open(secret, "w", encoding="utf-8") as file:
        file.write(CONDUCTOR_PASSWORD + "\n")
    subprocess.run([folio, "members", "add", CONDUCTOR, "--role", "conductor", "--password-file", secret, "--library", library],
                   check=True, capture_output=True)
    server = Server(folio, library).start()
    base = server.base
    score = os.path.join(library, DEBUSSY)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            errors = []

            def mark(page, text, at):
                area = page.locator("#overlay").bounding_box()
                page.click("[data-tool=freetext]")
                page.mouse.click(area["x"] + at[0], area["y"] + at[1])
                page.keyboard.insert_text(text)
                page.keyboard.press("Enter")

            # The librarian logs in and invites two players.
            _, librarian = person(browser, errors)
            log_in(librarian, base, LIBRARIAN, LIBRARIAN_PASSWORD)
            expect(librarian.locator("#who")).to_contain_text(f"{LIBRARIAN} · librarian")
            librarian.click("#who a[href='/members']")
            librarian.wait_for_url(base + "/members")
            librarian.wait_for_load_state("load")
            links = {}
            for name, instrument in ((ANNA, "Violin II"), (BORIS, "Viola")):
                librarian.fill("#add-member [name=name]", name)
                librarian.fill("#add-member [name=instrument]", instrument)
                librarian.click("#add-member button[type=submit]")
                expect(librarian.locator("#invitation-link")).to_contain_text(f"Invitation for {name}")
                links[name] = librarian.locator("#invitation-link a").get_attribute("href")
                assert "/invite/" in links[name], links
                poll(librarian, "() => document.querySelector('#invitation-link img.qr')?.naturalWidth ?? 0",
                     lambda width: width > 100, what="the QR code drawn")
            expect(librarian.locator("#member-list tbody tr")).to_have_count(4)
            librarian.screenshot(path=f"{artifacts}/01-members.png", full_page=True)

            # Each player sets a password through their link and lands in the library as themselves.
            players = {}
            for name, password in ((ANNA, "housle a smyčec"), (BORIS, "альт и смычок")):
                _, page = person(browser, errors)
                page.goto(links[name])
                expect(page.locator("h2")).to_have_text(f"Welcome, {name}")
                page.fill("#invitation [name=password]", password)
                page.fill("#invitation [name=again]", password)
                page.click("#invitation button[type=submit]")
                page.wait_for_url(base + "/")
                expect(page.locator("#who")).to_contain_text(f"{name} · player")
                expect(page.locator("label.button", has_text="Add scores")).to_be_hidden()
                players[name] = page
            players[ANNA].screenshot(path=f"{artifacts}/02-player-library.png")

            # Anna marks the Debussy: the mark is hers in the file.
            anna = players[ANNA]
            debussy = anna.locator("#scores li", has_text="Clair de Lune").get_attribute("data-id")
            anna.goto(f"{base}/scores/{debussy}")
            rendered(anna, 1)
            box = anna.locator("#overlay").bounding_box()
            anna.click("[data-tool=freetext]")
            anna.mouse.click(box["x"] + 120, box["y"] + 200)
            anna.keyboard.insert_text("smyčcem dolů – 弓")
            anna.keyboard.press("Enter")
            expect(anna.locator("#annotations li", has_text="smyčcem dolů – 弓")).to_have_count(1)
            # Where her text is drawn (the text box starts at the click).
            where = (box["x"] + 110, box["y"] + 185, 160, 40)
            poll(anna, "() => 1", lambda _: red(anna, where) > 30, what="Anna's mark drawn for her")
            poll(anna, "() => 1", lambda _: ANNA in authors(score), what="Anna's mark in the file", seconds=10)

            assert layers(score)["smyčcem dolů – 弓"] == f"{ANNA} — Violin II", layers(score)

            # The conductor marks page 1 too: everyone sees that.
            _, conductor = person(browser, errors)
            log_in(conductor, base, CONDUCTOR, CONDUCTOR_PASSWORD)
            conductor.goto(f"{base}/scores/{debussy}")
            rendered(conductor, 1)
            conductor.click("[data-tool=freetext]")
            area = conductor.locator("#overlay").bounding_box()
            conductor.mouse.click(area["x"] + 300, area["y"] + 420)
            conductor.keyboard.insert_text("attacca – 指揮")
            conductor.keyboard.press("Enter")
            expect(conductor.locator("#annotations li", has_text="attacca – 指揮")).to_have_count(1)
            expect(conductor.locator("#annotations li", has_text="smyčcem dolů – 弓")).to_have_count(0)
            poll(conductor, "() => 1", lambda _: layers(score).get("attacca – 指揮") == f"{CONDUCTOR} — conductor",
                 what="the conductor's mark in their layer", seconds=10)

            # Boris is not shown Anna's mark (nor does pdf.js draw its layer), sees the conductor's,
            # and may not delete it: refused, said, the file untouched.
            boris = players[BORIS]
            boris.goto(f"{base}/scores/{debussy}")
            rendered(boris, 1)
            expect(boris.locator("#annotations li", has_text="attacca – 指揮")).to_have_count(1)
            expect(boris.locator("#annotations li", has_text="smyčcem dolů – 弓")).to_have_count(0)
            expect(boris.locator("#layers")).to_be_visible()
            boris.click("#layers summary")
            expect(boris.locator("#layers label", has_text=f"{ANNA} — Violin II").locator("input")).not_to_be_checked()
            expect(boris.locator("#layers label", has_text=f"{CONDUCTOR} — conductor").locator("input")).to_be_checked()
            assert red(boris, where) < 5, f"Anna's mark drawn on Boris's page ({red(boris, where)} red pixels)"
            boris.screenshot(path=f"{artifacts}/03-layers.png")
            before = sha256(score)
            boris.locator("#annotations li", has_text="attacca – 指揮").get_by_role("button", name="Delete").click()
            expect(boris.locator("#status")).to_contain_text("Not saved: only the librarian may change or remove another’s mark")
            assert sha256(score) == before, "a refused delete changed the file"
            boris.screenshot(path=f"{artifacts}/04-refused.png")

            expect(boris.locator("#history")).to_be_hidden()

            # Anna now plays the viola: her earlier mark stays hers and hidden from Boris, though
            # her layer keeps the name it was made with (the server names it for this file).
            instrument = """async ([name, instrument]) => {
              const { members } = await (await fetch('/api/members')).json();
              const token = document.querySelector('meta[name=folio-csrf]').content;
              const anna = members.find((member) => member.name === name);
              const answer = await fetch(`/api/members/${anna.id}`, { method: 'PATCH', body: JSON.stringify({ instrument }),
                headers: { 'X-Folio-CSRF': token, 'Content-Type': 'application/json' } });
              return answer.status; }"""
            assert librarian.evaluate(instrument, [ANNA, "Viola"]) == 200
            boris.reload()
            rendered(boris, 1)
            expect(boris.locator("#annotations li", has_text="attacca – 指揮")).to_have_count(1)
            expect(boris.locator("#annotations li", has_text="smyčcem dolů – 弓")).to_have_count(0)
            boris.click("#layers summary")
            expect(boris.locator("#layers label", has_text=f"{ANNA} — Violin II").locator("input")).not_to_be_checked()
            assert red(boris, where) < 5, f"Anna's mark drawn on Boris's page after her new instrument ({red(boris, where)} red pixels)"
            assert librarian.evaluate(instrument, [ANNA, "Violin II"]) == 200

            # The librarian takes Anna's mark back from the score's history; the conductor's,
            # made after it, stays.
            librarian.goto(f"{base}/scores/{debussy}")
            rendered(librarian, 1)
            librarian.click("#tab-details")
            librarian.click("#history summary")
            expect(librarian.locator("#history-member option", has_text=ANNA)).to_have_count(1)
            librarian.select_option("#history-member", ANNA)
            expect(librarian.locator("#history-list li")).to_have_count(1)
            expect(librarian.locator("#history-list li")).to_contain_text("Added a text")
            librarian.screenshot(path=f"{artifacts}/05-history.png")
            librarian.locator("#history-list li").get_by_role("button", name="Take back").click()
            expect(librarian.locator("#status")).to_contain_text("Taken back: Added a text")
            poll(librarian, "() => 1", lambda _: ANNA not in authors(score), what="Anna's mark gone from the file", seconds=10)
            assert layers(score) == {"attacca – 指揮": f"{CONDUCTOR} — conductor"}, layers(score)
            librarian.click("#tab-page")
            expect(librarian.locator("#annotations li", has_text="smyčcem dolů – 弓")).to_have_count(0)
            expect(librarian.locator("#annotations li", has_text="attacca – 指揮")).to_have_count(1)

            # The conductor leads a rehearsal; Boris, logged in, joins with one tap as himself.
            conductor.click("#rehearse")
            poll(conductor, "document.querySelector('#rehearsal .code')?.textContent ?? ''", lambda value: len(value) == 6, what="a code")
            join = conductor.locator("#rehearsal .join").get_attribute("href")
            boris.goto(join)
            follow = boris.locator("#join button[type=submit]")
            expect(follow).to_have_text(f"Follow as {BORIS} — Viola")
            expect(boris.locator("#join input[name=name]")).to_be_hidden()
            follow.click()
            poll(conductor, "document.getElementById('rehearsal').dataset.following", lambda value: value == "1", what="Boris following")
            expect(conductor.locator("#rehearsal")).to_contain_text(f"{BORIS} (Viola)")
            boris.screenshot(path=f"{artifacts}/06-one-tap.png")

            # A shared device: the server stopped, Boris marks the score; the change waits in his
            # name; he logs out and is told it waits.
            boris.goto(f"{base}/scores/{debussy}")
            rendered(boris, 1)
            poll(boris, "() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)", lambda value: value,
                 what="the service worker in charge")
            boris.goto(base + "/")   # the library, now kept by the service worker
            expect(boris.locator("#who")).to_contain_text(f"{BORIS} · player")
            boris.goto(f"{base}/scores/{debussy}")
            rendered(boris, 1)
            server.stop()
            mark(boris, "Bratsche – альт", (200, 300))
            poll(boris, "document.getElementById('stage').dataset.pending ?? ''", lambda value: value == "1", what="Boris's change waiting")
            told = []

            def answer(dialog):
                told.append(dialog.message)
                dialog.accept()

            boris.once("dialog", answer)
            boris.goto(base + "/")   # the library as the device kept it
            expect(boris.locator("#who")).to_contain_text(f"{BORIS} · offline")
            boris.click("#log-out")
            poll(boris, "() => 1", lambda _: bool(told), what="the logout warning")
            assert "1 change you made offline is not saved yet" in told[0], told
            boris.wait_for_url(base + "/login")
            boris.wait_for_load_state("load")
            server.start()
            # Anna logs in on Boris's device: his change is not hers to see or to send.
            boris.goto(base + "/login")
            poll(boris, "localStorage.getItem('folio-logout')", lambda value: value is None, what="the session left offline ended")
            boris.fill("#login [name=name]", ANNA)
            boris.fill("#login [name=password]", "housle a smyčec")
            boris.click("#login button[type=submit]")
            boris.wait_for_url(base + "/")
            expect(boris.locator("#who")).to_contain_text(f"{ANNA} · player")
            boris.goto(f"{base}/scores/{debussy}")
            rendered(boris, 1)
            expect(boris.locator(".pending-note")).to_contain_text("1 change by another member waits for them to log in here")
            assert boris.evaluate("document.getElementById('stage').dataset.pending") == "0"
            time.sleep(1.5)
            assert "Bratsche – альт" not in layers(score), layers(score)
            boris.screenshot(path=f"{artifacts}/07-shared-device.png")
            boris.goto(base + "/")
            boris.click("#log-out")
            boris.wait_for_url(base + "/login")
            # Boris again: his change is saved, as his, in his layer.
            boris.fill("#login [name=name]", BORIS)
            boris.fill("#login [name=password]", "альт и смычок")
            boris.click("#login button[type=submit]")
            boris.wait_for_url(base + "/")
            boris.goto(f"{base}/scores/{debussy}")
            rendered(boris, 1)
            poll(boris, "() => 1", lambda _: layers(score).get("Bratsche – альт") == f"{BORIS} — Viola",
                 what="Boris's offline mark saved in his layer", seconds=15)
            assert BORIS in authors(score), authors(score)

            # An invitation works once; logging out ends the session.
            _, stranger = person(browser, errors)
            stranger.goto(links[ANNA])
            expect(stranger.locator("main")).to_contain_text("used already")
            anna.goto(base + "/")
            anna.click("#log-out")
            anna.wait_for_url(base + "/login")
            anna.goto(base + "/")
            assert "/login" in anna.url, anna.url
            assert errors == [], errors
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(library, ignore_errors=True)
        os.remove(secret)
    print("members: a librarian, a conductor and two players in four contexts; a player's mark in their layer, "
          "hidden from the other; the conductor's shown to all, refused to a player; the player's taken back from the history "
          "by the librarian; one-tap rehearsal join; a shared device's offline change saved only as its maker's")


if __name__ == "__main__":
    run(main, "e2e-artifacts/members")
