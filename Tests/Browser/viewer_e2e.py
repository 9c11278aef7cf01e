#!/usr/bin/env python3
"""The score viewer as musicians use it, in Debian's Chromium through Playwright, at 1024×768
(issue 32): settings for new marks (a red 4 pt rectangle and a serif-italic text, read back
with PyMuPDF and pikepdf, remembered after a reload); touch: a long press places a text, a
long press dragged on draws a rectangle, a swipe left on a mark in the list deletes it and Undo
brings it back, two fingers zoom; an engraver's point-and-click links hidden behind a count
and `folio lint --fix` removing them (qpdf clean, pikepdf sees none); bookmarks added,
renamed and moved above another (read back from the XMP by pikepdf in that order); a jump
link made with the Link tool, followed, and Back; fit width; the title whole beside the tools;
the library's search, a score's page and a setlist's piece and page kept over a reload.

Usage: python3 Tests/Browser/viewer_e2e.py FOLIO [ARTIFACTS_DIR]
Screenshots of every step go to ARTIFACTS_DIR (default .build/e2e-artifacts/viewer).
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pikepdf
import pymupdf
from playwright.sync_api import sync_playwright, expect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, drag, launch, poll, run, serving  # noqa: E402

RED = (0xD6 / 255, 0x28 / 255, 0x28 / 255)


def engrave_point_and_click(path, per_page=300):
    """Adds LilyPond's point-and-click links (textedit: to the engraver's file) over page 1."""
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        page = pdf.pages[0]
        annots = page.obj.get("/Annots") or pikepdf.Array()
        for i in range(per_page):
            x, y = 60 + (i % 40) * 12, 200 + (i // 40) * 30
            annots.append(pdf.make_indirect(pikepdf.Dictionary(
                Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[x, y, x + 8, y + 10], Border=[0, 0, 0],
                A=pikepdf.Dictionary(S=pikepdf.Name.URI,
                                     URI=pikepdf.String(f"textedit:///home/anča/Ukolébavka.ly:{i + 1}:4:5")))))
        page.obj.Annots = annots
        pdf.save(path)


def textedit_links(path):
    with pikepdf.open(path) as pdf:
        return sum(1 for page in pdf.pages for annot in page.obj.get("/Annots", [])
                   if annot.get("/Subtype") == "/Link" and "/A" in annot
                   and str(annot.A.get("/URI", "")).startswith("textedit:"))


def qpdf_clean(path):
    check = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True)
    assert check.returncode == 0 and "No syntax or stream encoding errors found" in check.stdout, check.stdout + check.stderr


def set_value(locator, value):
    """A range input's value, as a person sliding it would set it (fill refuses ranges)."""
    locator.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }", value)


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-viewer-")
    for name in os.listdir(os.path.join(ROOT, "Samples")):
        if name.endswith(".pdf"):
            shutil.copy(os.path.join(ROOT, "Samples", name), library)
    brahms = os.path.join(library, "Brahms-Cancion_de_Cuna.pdf")
    debussy = os.path.join(library, "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
    engrave_point_and_click(brahms)
    subprocess.run([folio, "set-info", debussy, "--entry", "Title=Clair de lune — Měsíční svit (Suite bergamasque)"],
                   check=True, capture_output=True)
    suite = os.path.join(library, "Večerní suita.pdf")
    subprocess.run([folio, "merge", debussy, brahms, os.path.join(library, "Traditional-Greensleeves_hymntune.pdf"),
                    "--output", suite, "--title", "Večerní suita"], check=True, capture_output=True)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)   # only a scan makes a catalog
    for args in (["create", "Koncert"], ["add", "Koncert", "Brahms-Cancion_de_Cuna.pdf"],
                 ["add", "Koncert", "Traditional-Greensleeves_hymntune.pdf"], ["add", "Koncert", "Večerní suita.pdf"]):
        subprocess.run([folio, "setlist", *args, "--library", library], check=True, capture_output=True)
    with serving(folio, library) as base:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

            def touch(kind, *points):
                cdp.send("Input.dispatchTouchEvent", {
                    "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

            # The page a score opens on shows at once as the server's picture, where pdf.js will
            # draw it: with pdf.js held back, the picture of page 2 (pdftoppm's, 1,200 pixels
            # high) is shown fitted at the top of the stage; once pdf.js has drawn, it is gone.
            held = context.new_page()
            held.route("**/pdfjs/pdf.js", lambda route: route.abort())
            held.goto(base + "/")
            href = held.locator("#scores li a", has_text="Večerní").get_attribute("href")
            held.goto(base + href + "?page=2")
            picture = held.locator("#first-page")
            expect(picture).to_have_attribute("src", re.compile(r"/pages/2/image$"))
            poll(held, "() => document.getElementById('first-page').naturalHeight", lambda height: height == 1200,
                 what="the page's picture, 1200 pixels high")
            box = picture.bounding_box()
            stage = held.locator("#stage").bounding_box()
            assert box and stage and box["height"] >= stage["height"] - 25 and abs(box["y"] - stage["y"] - 10) < 2, (box, stage)
            held.screenshot(path=f"{artifacts}/0-first-page-picture.png")
            held.close()
            page.goto(base + href + "?page=2")
            page.wait_for_selector("#stage[data-rendered='2']")
            expect(page.locator("#first-page")).to_have_count(0)

            # The library's search stays in the address over a reload.
            page.goto(base + "/")
            page.fill("#search", "cuna")
            expect(page.locator("#scores li")).to_have_count(1)
            expect(page).to_have_url(re.compile(r"\?q=cuna$"))
            page.reload()
            expect(page.locator("#search")).to_have_value("cuna")
            expect(page.locator("#scores li")).to_have_count(1)
            page.screenshot(path=f"{artifacts}/1-library-search-kept.png")

            # An engraved score: its 300 point-and-click links are counted, not listed among the marks.
            page.click("#scores li a")
            page.wait_for_selector("#stage[data-rendered='1']")
            expect(page.locator("#annotations li")).to_have_text(["No marks on this page."])
            expect(page.locator("#others-count")).to_have_text("Links and form fields (304, 300 point-and-click)")
            expect(page.locator("#others")).to_be_hidden()
            page.screenshot(path=f"{artifacts}/2-links-hidden.png")
            page.check("#show-others")
            # The first 200 of 304 (the footer's 4 web links, then 196 of the engraver's), and a count of the rest.
            expect(page.locator("#others li", has_text="Point-and-click: textedit:///home/anča/Ukolébavka.ly")).to_have_count(196)
            expect(page.locator("#others li", has_text="Link: http")).to_have_count(4)
            expect(page.locator("#others li").last).to_have_text("and 104 more")
            page.screenshot(path=f"{artifacts}/3-links-shown.png")
            lint = subprocess.run([folio, "lint", brahms], capture_output=True, text=True)
            assert lint.returncode == 2 and "300 point-and-click links" in lint.stdout and "/home/anča/Ukolébavka.ly" in lint.stdout, lint
            fixed = subprocess.run([folio, "lint", brahms, "--fix"], capture_output=True, text=True)
            assert fixed.returncode == 0, fixed
            assert textedit_links(brahms) == 0, "pikepdf still sees point-and-click links"
            qpdf_clean(brahms)
            page.reload()
            page.wait_for_selector("#stage[data-rendered='1']")
            expect(page.locator("#others-count")).to_have_text("Links and form fields (4)")
            page.screenshot(path=f"{artifacts}/4-lint-fixed.png")

            # Settings for new marks: red, 4 pt; a serif-italic 18 pt text.
            page.goto(base + "/")
            page.fill("#search", "měsíční")
            page.click("#scores li a:has-text('Clair de lune — Měsíční svit')")
            page.wait_for_selector("#stage[data-rendered='1']")
            title = page.locator("#title")
            # One header row at 1024 px: a long title may be cut short, never to a letter, and a
            # tap shows it whole.
            header = page.evaluate("() => document.querySelector('header.bar').getBoundingClientRect().height")
            assert header < 70, f"the header took {header} px"
            assert title.evaluate("(e) => e.clientWidth") >= 100, "the title cut to a letter"
            title.click()
            assert title.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), "the title not whole after a tap"
            title.click()
            page.screenshot(path=f"{artifacts}/5-title-whole.png")
            page.click("#mark-settings summary")
            page.click("#mark-settings .color[data-color='#1d4ed8']")
            page.click("#mark-settings .color[data-color='#d62828']")
            set_value(page.locator("#setting-width"), "4")
            page.fill("#setting-size", "18")
            page.locator("#setting-size").dispatch_event("change")
            page.select_option("#setting-font", "serif-italic")
            expect(page.locator("output[for=setting-width]")).to_have_text("4 pt")
            page.screenshot(path=f"{artifacts}/6-settings.png")
            page.click("#mark-settings summary")
            box = page.locator("#overlay").bounding_box()
            x, y = box["x"], box["y"]
            page.click("[data-tool=square]")
            drag(page, (x + 60, y + 60), (x + 200, y + 120))
            expect(page.locator("#status")).to_have_text("Rectangle saved")
            page.click("[data-tool=freetext]")
            page.mouse.click(x + 60, y + 200)
            page.keyboard.type("dolce — něžně")
            page.keyboard.press("Enter")
            expect(page.locator("#annotations li", has_text="dolce — něžně")).to_have_count(1)
            with pymupdf.open(debussy) as document:
                first = document[0]  # kept: an annotation needs its page alive
                squares = [a for a in first.annots() if a.type[1] == "Square"]
                assert len(squares) == 1, squares
                stroke = squares[0].colors["stroke"]
                assert all(abs(a - b) < 0.01 for a, b in zip(stroke, RED)), stroke
                assert abs(squares[0].border["width"] - 4) < 0.01, squares[0].border
            with pikepdf.open(debussy) as pdf:
                text = next(a for a in pdf.pages[0].Annots if a.get("/Subtype") == "/FreeText")
                assert "18" in str(text.DA), str(text.DA)
                fonts = text.AP.N.Resources.Font
                names = [str(fonts[key].BaseFont) for key in fonts.keys()]
                assert any("DejaVuSerif-Italic" in name for name in names), names
            page.screenshot(path=f"{artifacts}/7-red-4pt.png")
            page.reload()
            page.wait_for_selector("#stage[data-rendered='1']")
            expect(page.locator("#setting-width")).to_have_value("4")
            expect(page.locator("#setting-font")).to_have_value("serif-italic")

            # Touch: a long press places a text; pressed and dragged, a rectangle; a swipe left
            # on a mark in the list deletes it, Undo brings it back.
            page.click("[data-tool=view]")
            page.keyboard.press("ArrowRight")
            page.wait_for_selector("#stage[data-rendered='2']")
            box = page.locator("#overlay").bounding_box()
            x, y = box["x"], box["y"]
            touch("touchStart", (x + 80, y + 300))
            time.sleep(0.8)
            touch("touchEnd")
            expect(page.locator("input.textentry")).to_be_focused()
            page.keyboard.type("Tempo I — Темп")
            page.keyboard.press("Enter")
            expect(page.locator("#annotations li", has_text="Tempo I — Темп")).to_have_count(1)
            touch("touchStart", (x + 100, y + 400))
            time.sleep(0.8)
            for step in range(1, 8):
                touch("touchMove", (x + 100 + step * 20, y + 400 + step * 8))
            touch("touchEnd")
            expect(page.locator("#annotations li", has_text="Box")).to_have_count(1)
            page.screenshot(path=f"{artifacts}/8-long-press.png")
            item = page.locator("#annotations li", has_text="Box").bounding_box()
            start = (item["x"] + item["width"] * 0.5, item["y"] + item["height"] / 2)
            touch("touchStart", start)
            for step in range(1, 8):
                touch("touchMove", (start[0] - step * 25, start[1]))
            touch("touchEnd")
            expect(page.locator("#annotations li", has_text="Box")).to_have_count(0)
            expect(page.locator("#status")).to_contain_text("Undo")
            page.screenshot(path=f"{artifacts}/9-swiped.png")
            page.click("#undo")
            expect(page.locator("#annotations li", has_text="Box")).to_have_count(1)

            # Bookmarks by hand: add two, rename one, move the second above the first.
            page.click("#tab-contents")
            page.select_option("#bookmark-order", "custom")
            page.fill("#add-bookmark [name=name]", "Coda — Кода")
            page.fill("#add-bookmark [name=start]", "3")
            page.fill("#add-bookmark [name=end]", "4")
            page.click("#add-bookmark button")
            expect(page.locator("#bookmarks li", has_text="Coda — Кода")).to_have_count(1)
            page.fill("#add-bookmark [name=name]", "Začátek")
            page.fill("#add-bookmark [name=start]", "1")
            page.click("#add-bookmark button")
            expect(page.locator("#bookmarks li", has_text="Začátek")).to_have_count(1)
            page.click("#bookmarks li:has-text('Coda') button:has-text('Rename')")
            page.fill("#bookmarks li input", "Coda — Кода (da capo)")
            page.keyboard.press("Enter")
            expect(page.locator("#bookmarks li", has_text="(da capo)")).to_have_count(1)
            page.drag_and_drop("#bookmarks li:has-text('Začátek')", "#bookmarks li:has-text('Coda')")
            expect(page.locator("#bookmarks li .jump").first).to_contain_text("Začátek")
            page.screenshot(path=f"{artifacts}/10-bookmarks.png")
            with pikepdf.open(debussy) as pdf:
                xmp = pdf.open_metadata()
                listed = json.loads(str(xmp["{http://pspdfkit.com/pdf/xmp/1.0/}Bookmarks"]))
            assert [b["name"] for b in listed] == ["Začátek", "Coda — Кода (da capo)"], listed
            assert [b["sortKey"] for b in listed] == [0, 1], listed
            assert [b["action"]["pageIndex"] for b in listed] == [0, 2], listed
            page.select_option("#bookmark-order", "page")
            expect(page.locator("#bookmarks li .jump").first).to_contain_text("Začátek")

            # A jump link: the Link tool over a sign on page 4, to page 2; followed, then Back.
            page.click("#tab-page")
            page.keyboard.press("End")
            page.wait_for_selector("#stage[data-rendered='4']")
            box = page.locator("#overlay").bounding_box()
            x, y = box["x"], box["y"]
            page.click("[data-tool=link]")
            others = page.locator("#others-count").text_content()
            drag(page, (x + 300, y + 100), (x + 360, y + 140))
            expect(page.locator("input.textentry")).to_be_focused()
            page.keyboard.type("2")
            page.keyboard.press("Enter")
            expect(page.locator("#status")).to_have_text("Link to page 2 saved")
            # The status comes before the page is shown again with its links: wait until they are counted.
            expect(page.locator("#others-count")).not_to_have_text(others)
            with pymupdf.open(debussy) as document:
                last = document[3]
                jumps = [link for link in last.get_links() if link["kind"] == pymupdf.LINK_GOTO]
                assert [link["page"] for link in jumps] == [1], jumps
            page.click("[data-tool=view]")
            page.mouse.click(x + 330, y + 120)
            page.wait_for_selector("#stage[data-rendered='2']")
            expect(page.locator("#link-back")).to_have_text("↩ Back to p. 4")
            page.screenshot(path=f"{artifacts}/11-link-followed.png")
            page.click("#link-back")
            page.wait_for_selector("#stage[data-rendered='4']")
            expect(page.locator("#link-back")).to_be_hidden()
            page.screenshot(path=f"{artifacts}/12-link-back.png")

            # Fit width: the page as wide as the stage, scrolled down; a pinch zooms.
            page.click("#fit-width")
            page.wait_for_function("() => true")
            stage = page.locator("#stage")
            for _ in range(50):
                if stage.evaluate("(s) => s.scrollHeight > s.clientHeight + 50"):
                    break
                time.sleep(0.1)
            assert stage.evaluate("(s) => document.getElementById('page').clientWidth >= s.clientWidth - 40"), "not fitted to the width"
            stage.evaluate("(s) => { s.scrollTop = s.scrollHeight; }")
            page.screenshot(path=f"{artifacts}/13-fit-width.png")
            page.click("#fit-width")
            box = page.locator("#overlay").bounding_box()
            middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            touch("touchStart", (middle[0] - 40, middle[1]), (middle[0] + 40, middle[1]))
            for step in range(1, 8):
                touch("touchMove", (middle[0] - 40 - step * 15, middle[1]), (middle[0] + 40 + step * 15, middle[1]))
            touch("touchEnd")
            expect(page.locator("#stage")).to_have_attribute("data-zoom", re.compile(r"^(1\.[5-9]|2|3)"))
            page.screenshot(path=f"{artifacts}/14-pinched.png")

            # A setlist's place: page 5 of its third piece, kept over a reload.
            page.goto(base + "/setlists/Koncert")
            page.click("text=Perform")
            page.wait_for_selector("#stage[data-rendered='1']")
            for _ in range(6):
                page.keyboard.press("PageDown")
            page.wait_for_selector("#stage[data-rendered='7']")
            expect(page).to_have_url(re.compile(r"\?piece=3&page=5$"))
            page.reload()
            page.wait_for_selector("#stage[data-rendered='7']")
            expect(page.locator("#piece")).to_have_text("Večerní suita")
            expect(page.locator("#pageno")).to_have_text("7 / 8")
            page.screenshot(path=f"{artifacts}/15-setlist-place.png")
            assert not errors, f"browser errors: {errors}"
            browser.close()
        qpdf_clean(debussy)


if __name__ == "__main__":
    run(main, "e2e-artifacts/viewer")
