#!/usr/bin/env python3
"""The viewer on a music stand (issue 55), in Debian's Chromium through Playwright: an iPad in
portrait (1024×1366, touch) and a laptop (1366×768).

- The library names its composers where LilyPond put them (the Info dictionary's /Composer,
  /Arranger: the bundled samples are Mutopia's LilyPond scores), found by search, the files
  untouched; two scores of one title told apart by their paths; a row's duration; a search
  that finds nothing says so with the query.
- Every visible control is at least 44×44 CSS px on the touch screen (the library, the score
  view with its panel and sound bar, performance mode).
- In portrait the side panel is closed and opens over the page (the page keeps its size);
  full screen leaves the page alone: at least 90 % of the viewport's width.
- Night mode darkens the drawn page (mean luminance of the stage's screenshot) and is
  remembered over a reload.
- A half turn splits at a gap between systems: the drawn rows either side of the rule are
  blank. Its rule, dragged, moves the cut: kept in the file (pikepdf reads the split) and
  drawn there; "Auto" gives the page back to the gap found.
- The setlist shows each piece's composers and duration and the set's total time; a note typed
  on an entry is kept and shown beside the piece's title in performance mode.
- Performance mode: a long title never wraps the header; the whole page is on screen; a
  smaller sheet (a page cropped to 420 pt) is drawn at the same scale as the A4 pages, not
  blown up; the screen is kept awake (Screen Wake Lock).
- Landscape: the panel beside the page folds away, the page's room grows, and it stays folded
  over a reload.
- Pages drawn ahead: a page swapped in on a turn is pixel for pixel the page drawn on the turn
  (drawing ahead turned off), in the score view and in Perform across two pieces, and after the
  window changes size a turn draws at the new size.
- The metronome in 9/8 beats three dotted beats a bar (subdivided in three when asked, evenly
  spaced on the audio clock); its beat light is large enough to see from a stand.

Usage: python3 Tests/Browser/stand_e2e.py FOLIO [ARTIFACTS_DIR]
Screenshots go to ARTIFACTS_DIR (default .build/e2e-artifacts/stand).
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageStat
from playwright.sync_api import sync_playwright, expect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BRAHMS, DEBUSSY, GREENSLEEVES, ROOT, drag, launch, poll, run, serving, sha256  # noqa: E402

LONG_TITLE = ("Suite bergamasque, L. 75: III. Clair de lune — Měsíční svit — 月の光 — "
              "Лунный свет (Andante très expressif, con sordina)")

# Every control a finger must hit; controls kept visually hidden (the file inputs inside a
# label that is the visible button) are measured by that label.
CONTROLS = """() => [...document.querySelectorAll(
    'button, select, summary, a.button, label.button, [role="tab"], input:not([type="hidden"]), #setlists a, .scores a')]
  .filter((e) => !e.closest('.visually-hidden') && !e.classList.contains('visually-hidden'))
  .filter((e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && r.bottom > 0 && r.top < innerHeight; })
  .map((e) => { const r = e.getBoundingClientRect();
    return { what: e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30) || e.tagName,
             width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 }; })"""


def folio_run(folio, *arguments):
    subprocess.run([folio, *arguments], check=True, capture_output=True)


def small_controls(page, where):
    controls = page.evaluate(CONTROLS)
    assert len(controls) >= 5, f"{where}: only {controls} measured"
    return [c for c in controls if c["width"] < 44 or c["height"] < 44]


def luminance(page, selector):
    """The mean luminance (0–255) of the element's screenshot."""
    shot = Image.open(io.BytesIO(page.locator(selector).screenshot())).convert("L")
    return ImageStat.Stat(shot).mean[0]


def page_box(page):
    return page.evaluate("() => { const r = document.querySelector('#stage canvas').getBoundingClientRect(); "
                         "return { width: r.width, height: r.height, bottom: r.bottom, innerWidth, innerHeight }; }")


def pikepdf_half_turns(path):
    """The file's folioscore:halfTurns items, as pikepdf reads its XMP."""
    script = ("import sys, re, pikepdf\n"
              "with pikepdf.open(sys.argv[1]) as pdf:\n"
              "    meta = pdf.Root.get('/Metadata')\n"
              "    text = meta.read_bytes().decode('utf-8') if meta is not None else ''\n"
              "block = re.search(r'halfTurns>(.*?)</folioscore:halfTurns', text, re.S)\n"
              "print('\\n'.join(re.findall(r'<rdf:li>([^<]*)</rdf:li>', block.group(1))) if block else '')\n")
    out = subprocess.run([sys.executable, "-c", script, path], check=True, capture_output=True, text=True).stdout
    return [line for line in out.split("\n") if line]


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-stand-")
    for name in os.listdir(os.path.join(ROOT, "Samples")):
        if name.endswith(".pdf"):
            shutil.copy(os.path.join(ROOT, "Samples", name), library)
    # Two nocturnes of one title, by Chopin and by Field, as LilyPond writes composers.
    for folder, composer in (("Chopin", "Frédéric Chopin (1810-1849)"), ("Field", "John Field")):
        os.makedirs(os.path.join(library, folder))
        copy = os.path.join(library, folder, "Nocturne.pdf")
        shutil.copy(os.path.join(ROOT, "Samples", "Traditional-Greensleeves_hymntune.pdf"), copy)
        folio_run(folio, "set-info", copy, "--entry", "Title=Nocturne – Ноктюрн", "--entry", f"Composer={composer}")
    folio_run(folio, "meta", "set", os.path.join(library, DEBUSSY), "--duration", "5:07", "--time-signature", "9/8", "--tempo", "150")
    brahms_before = sha256(os.path.join(library, BRAHMS))
    folio_run(folio, "library", "scan", library)   # only a scan makes a catalog
    assert sha256(os.path.join(library, BRAHMS)) == brahms_before, "the scan changed a file"
    long_piece = os.path.join(library, "Lange Suite.pdf")
    shutil.copy(os.path.join(library, DEBUSSY), long_piece)
    folio_run(folio, "meta", "set", long_piece, "--title", LONG_TITLE)
    # A smaller sheet: Greensleeves cropped to 420 pt wide (an A5-like part among A4 scores).
    small_sheet = os.path.join(library, "Kleines Blatt.pdf")
    shutil.copy(os.path.join(library, GREENSLEEVES), small_sheet)
    folio_run(folio, "pages", "crop", small_sheet, "--box", "80,240,420,595")
    folio_run(folio, "library", "scan", library)
    for arguments in (["create", "Abendkonzert"], ["add", "Abendkonzert", "Lange Suite.pdf"], ["add", "Abendkonzert", BRAHMS],
                      ["add", "Abendkonzert", "Kleines Blatt.pdf"]):
        folio_run(folio, "setlist", *arguments, "--library", library)

    with serving(folio, library) as base, sync_playwright() as playwright:
        browser = launch(playwright, "--autoplay-policy=no-user-gesture-required")
        errors = []
        ipad = browser.new_context(viewport={"width": 1024, "height": 1366}, has_touch=True, is_mobile=True)
        page = ipad.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        assert page.evaluate("() => matchMedia('(pointer: coarse)').matches"), "no touch screen emulated"

        # The library: composers where LilyPond wrote them, a duration, two nocturnes told apart.
        page.goto(base + "/")
        brahms = page.locator("#scores li", has_text="Cancion de Cuna")
        expect(brahms.locator(".people")).to_have_text("Johannes Brahms · arr. Diego F. Guillen")
        expect(brahms.locator(".people .composers")).to_have_text("Johannes Brahms")
        expect(page.locator("#scores li", has_text="Clair de Lune").first.locator(".facts")).to_contain_text("5:07")
        nocturnes = page.locator("#scores li", has_text="Nocturne – Ноктюрн")
        expect(nocturnes).to_have_count(2)
        expect(nocturnes.locator(".path")).to_have_text(["Chopin/Nocturne.pdf", "Field/Nocturne.pdf"])
        expect(nocturnes.locator(".people")).to_have_text(["Frédéric Chopin", "John Field"])
        page.screenshot(path=f"{artifacts}/01-library.png")
        small = small_controls(page, "library")
        assert not small, f"library controls under 44×44: {small}"
        page.fill("#search", "brahms")
        expect(page.locator("#scores li")).to_have_count(1)
        expect(page.locator("#scores li .title")).to_have_text("Cancion de Cuna")
        page.fill("#search", "Guillen")
        expect(page.locator("#scores li .title")).to_have_text("Cancion de Cuna")
        page.fill("#search", "chopin")
        expect(page.locator("#scores li .path")).to_have_count(0)   # one nocturne: no path needed
        expect(page.locator("#scores li .people")).to_have_text("Frédéric Chopin")
        page.fill("#search", "Шостакович")
        expect(page.locator("#count")).to_have_text("No scores match “Шостакович”")
        expect(page.locator("#scores li")).to_have_count(0)
        page.screenshot(path=f"{artifacts}/02-no-match.png")

        # The score view in portrait: the panel closed, opened over the page, big targets.
        page.goto(base + "/")
        href = page.locator("#scores li a", has_text="Clair de Lune").first.get_attribute("href")
        page.goto(base + href)
        page.wait_for_selector("#stage[data-rendered='1']")
        expect(page.locator("#panel-toggle")).to_have_attribute("aria-expanded", "false")
        expect(page.locator("#side-panel")).to_be_hidden()
        before = page_box(page)
        page.screenshot(path=f"{artifacts}/03-portrait.png")
        page.click("#panel-toggle")
        expect(page.locator("#side-panel")).to_be_visible()
        assert page.evaluate("() => getComputedStyle(document.getElementById('side-panel')).position") == "absolute"
        assert abs(page_box(page)["width"] - before["width"]) < 1, "the panel over the page resized it"
        page.click("#tab-contents")
        page.click("#sound-toggle")
        expect(page.locator("#sound")).to_be_visible()
        page.screenshot(path=f"{artifacts}/04-panel-and-sound.png")
        small = small_controls(page, "score view")
        assert not small, f"score view controls under 44×44: {small}"
        page.click("#tab-page")
        small = small_controls(page, "score view, page tab")
        assert not small, f"score view controls under 44×44: {small}"
        page.click("#sound-toggle")
        page.locator("#overlay").dispatch_event("pointerdown")
        expect(page.locator("#side-panel")).to_be_hidden()

        # Full screen: the page alone, at least 90 % of the width; Esc brings the header back.
        page.click("#fullscreen")
        expect(page.locator("header.bar")).to_be_hidden()
        poll(page, "() => document.querySelector('#stage canvas').getBoundingClientRect().width",
             lambda width: width >= 0.9 * 1024, what="the page at 90 % of the width in full screen")
        box = page_box(page)
        assert box["bottom"] <= box["innerHeight"] + 1, f"the page runs off the screen: {box}"
        page.screenshot(path=f"{artifacts}/05-full-screen.png")
        page.click("#leave-fullscreen")
        expect(page.locator("header.bar")).to_be_visible()

        # Night: the page light on dark, remembered.
        day = luminance(page, "#stage")
        page.click("#night")
        expect(page.locator("#night")).to_have_attribute("aria-pressed", "true")
        night = luminance(page, "#stage")
        assert day > 180 and night < 80, f"mean luminance by day {day:.0f}, by night {night:.0f}"
        page.screenshot(path=f"{artifacts}/06-night.png")
        page.reload()
        page.wait_for_selector("#stage[data-rendered='1']")
        expect(page.locator("#night")).to_have_attribute("aria-pressed", "true")
        assert luminance(page, "#stage") < 80, "night mode forgotten"
        page.click("#night")

        # A half turn splits between systems: the rows either side of the rule hold no ink.
        page.click("#half")
        page.click("#next")
        poll(page, "() => document.getElementById('page').dataset.split || ''", lambda split: split != "",
             what="a half turn")
        blank = page.evaluate("""() => {
            const canvas = document.getElementById('page'), ratio = devicePixelRatio || 1;
            const split = Number(canvas.dataset.split.split(' ')[0]), top = Number(canvas.dataset.rule);
            const context = canvas.getContext('2d');
            const row = (y) => { const d = context.getImageData(0, y, canvas.width, 1).data;
              for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 600) return false; return true; };
            const rule = Math.ceil(2 * ratio) + 1;
            return { split, above: [3, 6].map((d) => row(top - rule - d)), below: [3, 6].map((d) => row(top + rule + d)) };
        }""")
        assert all(blank["above"]) and all(blank["below"]), f"a staff cut by the half turn: {blank}"
        assert 0.25 <= blank["split"] <= 0.75, blank
        page.screenshot(path=f"{artifacts}/07-half-turn.png")

        # The musician moves the cut: the rule dragged 80 px down is kept in the file for page 1.
        handle = page.locator("#split-handle")
        expect(handle).to_be_visible()
        expect(handle.locator(".split-auto")).to_be_hidden()
        rule_before = int(page.evaluate("() => document.getElementById('page').dataset.rule"))
        box = handle.bounding_box()
        middle = (box["x"] + box["width"] / 3, box["y"] + box["height"] / 2)
        drag(page, middle, (middle[0], middle[1] + 80), steps=8)
        expect(page.locator("#status")).to_contain_text("Half-turn cut moved")
        poll(page, "() => Number(document.getElementById('page').dataset.rule)", lambda rule: rule > rule_before,
             what="the rule drawn lower")
        moved = pikepdf_half_turns(os.path.join(library, DEBUSSY))
        assert len(moved) == 1 and moved[0].startswith("1="), moved
        kept = float(moved[0][2:])
        drawn = [float(part) for part in page.evaluate("() => document.getElementById('page').dataset.split").split()]
        assert drawn == [kept, kept], (drawn, kept)
        assert kept > blank["split"], (kept, blank)
        page.screenshot(path=f"{artifacts}/07b-half-turn-moved.png")
        page.click("#split-handle .split-auto")
        expect(page.locator("#status")).to_contain_text("found from the page again")
        poll(page, "() => document.getElementById('page').dataset.split", lambda split: split and float(split.split()[0]) == blank["split"],
             what="the cut found from the page again")
        assert pikepdf_half_turns(os.path.join(library, DEBUSSY)) == [], "the reset left a split in the file"
        page.click("#half")
        expect(handle).to_be_hidden()

        # The setlist in musicians' words: composers and durations per piece, the set's total time.
        page.goto(base + "/setlists/Abendkonzert")
        expect(page.locator("#entries li").first).to_contain_text("Claude Debussy · 5:07")
        expect(page.locator("#entries li").nth(1)).to_contain_text("Johannes Brahms · arr. Diego F. Guillen · score")
        expect(page.locator("#total")).to_have_text("Total 5:07 · 2 without a duration")
        small = small_controls(page, "setlist")
        assert not small, f"setlist controls under 44×44: {small}"
        # A note on the second entry, kept over a reload.
        note = page.locator("#entries li").nth(1).locator(".entry-note")
        note.fill("attacca — 続けて")
        note.press("Enter")
        expect(page.locator("#status")).to_contain_text("Noted Cancion de Cuna")
        page.reload()
        expect(page.locator("#entries li").nth(1).locator(".entry-note")).to_have_value("attacca — 続けて")
        # forScore's 4SS has no notes: the page says what its download leaves out.
        expect(page.locator("#not-carried")).to_have_text(
            'The 4SS leaves out: 2. Cancion de Cuna: its note "attacca — 続けて" is not carried (a 4SS has no notes)')
        page.screenshot(path=f"{artifacts}/08a-setlist.png")

        # Performance mode: one header row under a long title, the whole page on screen.
        page.goto(base + "/setlists/Abendkonzert/perform")
        page.wait_for_selector("#stage[data-rendered='1']")
        header = page.evaluate("() => document.querySelector('header.bar').getBoundingClientRect().height")
        assert header < 70, f"the header took {header} px"
        box = page_box(page)
        assert box["bottom"] <= box["innerHeight"] + 1, f"the page runs off the screen: {box}"
        small = small_controls(page, "performance mode")
        assert not small, f"performance mode controls under 44×44: {small}"
        page.screenshot(path=f"{artifacts}/08-perform.png")
        awake = poll(page, "() => document.getElementById('stage').dataset.awake || ''", lambda state: state != "",
                     what="the wake lock asked for")
        assert awake == "on", f"the screen may sleep: {awake}"
        a4_width = page.evaluate("() => document.querySelector('#stage canvas').getBoundingClientRect().width")
        # The second piece, with its note beside its title.
        page.keyboard.press("End")
        page.wait_for_selector("#stage[data-rendered='6']")
        small_width = page.evaluate("() => document.querySelector('#stage canvas').getBoundingClientRect().width")
        assert abs(small_width / a4_width - 420 / 595.28) < 0.02, f"the small sheet drawn {small_width} px beside A4's {a4_width}"
        page.screenshot(path=f"{artifacts}/08b-perform-small-sheet.png")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#stage[data-rendered='5']")
        expect(page.locator("#piece")).to_have_text("Cancion de Cuna — attacca — 続けて")
        page.keyboard.press("Home")
        page.wait_for_selector("#stage[data-rendered='1']")
        page.click("#fullscreen")
        poll(page, "() => document.querySelector('#stage canvas').getBoundingClientRect().width",
             lambda width: width >= 0.9 * 1024, what="the performed page at 90 % of the width in full screen")
        page.screenshot(path=f"{artifacts}/09-perform-full-screen.png")
        ipad.close()

        # A laptop: the panel beside the page folds away, and stays folded.
        laptop = browser.new_context(viewport={"width": 1366, "height": 768})
        page = laptop.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + href)
        page.wait_for_selector("#stage[data-rendered='1']")
        expect(page.locator("#side-panel")).to_be_visible()
        room = page.evaluate("() => document.getElementById('stage').clientWidth")
        page.click("#panel-toggle")
        expect(page.locator("#side-panel")).to_be_hidden()
        poll(page, "() => document.getElementById('stage').clientWidth", lambda width: width >= room + 200,
             what="the stage taking the panel's room")
        page.reload()
        page.wait_for_selector("#stage[data-rendered='1']")
        expect(page.locator("#side-panel")).to_be_hidden()
        page.screenshot(path=f"{artifacts}/10-laptop-folded.png")

        # Drawn ahead, then swapped in: the same pixels as the page drawn on the turn.
        def turned_page(context_page):
            context_page.locator("#overlay").focus()
            context_page.keyboard.press("ArrowRight")
            context_page.wait_for_selector("#stage[data-rendered='2']")
            return context_page.evaluate("() => { const c = document.getElementById('page'); return [c.width, c.height, c.toDataURL()]; }")
        time.sleep(1.5)   # page 2 drawn ahead meanwhile
        swapped = turned_page(page)
        plain = browser.new_context(viewport={"width": 1366, "height": 768})
        plain.add_init_script("localStorage.setItem('folio.drawAhead', 'off'); localStorage.setItem('folio.panel', 'closed')")
        other = plain.new_page()
        other.goto(base + href)
        other.wait_for_selector("#stage[data-rendered='1']")
        drawn = turned_page(other)
        plain.close()
        assert swapped[:2] == drawn[:2] and swapped[2] == drawn[2], f"the page drawn ahead differs: {swapped[:2]} against {drawn[:2]}"
        # Perform draws ahead too, across pieces: the next piece's first page, swapped in on the
        # turn from the last page of the first, has the pixels of that page drawn on the turn.
        def next_piece(context_page):
            context_page.goto(base + "/setlists/Abendkonzert/perform?piece=1&page=4")
            context_page.wait_for_selector("#stage[data-rendered='4']")
            time.sleep(1.5)   # page 5 (the Brahms) drawn ahead meanwhile
            context_page.locator("#stage").focus()
            context_page.keyboard.press("ArrowRight")
            context_page.wait_for_selector("#stage[data-rendered='5']")
            return context_page.evaluate("() => { const c = document.querySelector('#stage canvas'); "
                                         "return [c.width, c.height, c.toDataURL(), document.getElementById('stage').dataset.drawn]; }")
        ahead_piece = next_piece(page)
        plain = browser.new_context(viewport={"width": 1366, "height": 768})
        plain.add_init_script("localStorage.setItem('folio.drawAhead', 'off'); localStorage.setItem('folio.panel', 'closed')")
        on_turn = next_piece(plain.new_page())
        plain.close()
        assert ahead_piece[3] == "ahead" and on_turn[3] == "on the turn", (ahead_piece[3], on_turn[3])
        assert ahead_piece[:3] == on_turn[:3], f"the next piece drawn ahead differs: {ahead_piece[:2]} against {on_turn[:2]}"
        page.goto(base + href)
        page.wait_for_selector("#stage[data-rendered='1']")
        page.locator("#overlay").focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#stage[data-rendered='2']")
        # A new size: the next turn draws for it, not from the pages drawn for the old one.
        page.set_viewport_size({"width": 900, "height": 700})
        poll(page, "() => document.getElementById('page').getBoundingClientRect().height",
             lambda height: 0 < height <= 700, what="the page drawn for the smaller window")
        time.sleep(1.5)
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#stage[data-rendered='3']")
        box = page.evaluate("() => { const c = document.getElementById('page').getBoundingClientRect(); "
                            "const s = document.getElementById('stage'); return [c.height, s.clientHeight]; }")
        assert box[0] <= box[1], f"page 3 drawn for the old size: {box}"
        page.set_viewport_size({"width": 1366, "height": 768})
        page.keyboard.press("Home")
        page.wait_for_selector("#stage[data-rendered='1']")

        # The metronome in 9/8: three dotted beats a bar, each divided in three when asked.
        page.click("#sound-toggle")
        expect(page.locator("#beats")).to_have_value("3")
        expect(page.locator("#beat-unit")).to_have_text("♩.")
        page.check("#subdivide")
        page.click("#metronome-start")
        sound = "document.getElementById('sound').sound.metronome"
        poll(page, f"{sound}.beats.length", lambda n: n >= 19, what="two bars of 9/8")
        page.click("#metronome-start")
        beats = page.evaluate(f"{sound}.beats.slice(0, 19).map((b) => [b.time, b.accent, b.sub])")
        kinds = ["accent" if accent else "sub" if sub else "beat" for _, accent, sub in beats]
        assert kinds[:10] == ["accent", "sub", "sub", "beat", "sub", "sub", "beat", "sub", "sub", "accent"], kinds
        steps = [later[0] - earlier[0] for earlier, later in zip(beats, beats[1:])]
        assert all(abs(step - 60 / 150 / 3) < 1e-6 for step in steps), steps   # a dotted beat at 150 is three eighths
        light = page.locator("#beat").bounding_box()
        assert light["width"] >= 32 and light["height"] >= 32, light
        page.screenshot(path=f"{artifacts}/11-metronome-9-8.png")
        assert not errors, f"browser errors: {errors}"
        browser.close()


if __name__ == "__main__":
    run(main, "e2e-artifacts/stand")
