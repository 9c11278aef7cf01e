#!/usr/bin/env python3
"""Page turns in the score view and in Perform, key to ink, in Debian's Chromium (Playwright)
and in WebKitGTK — Safari's engine — through webkit2gtk-driver and Selenium (not a test;
issues 57 and 71).

The library: an anthology of every engraved score of the corpus (`folio merge` of
corpus/scores, Mutopia's LilyPond files: real pages with thousands of glyphs and links), and a
setlist of the same scores, one piece each, for Perform (its turns cross from piece to piece).
Everything at an iPad's window: 1024×1366 CSS px at 2 device px each. Three paces, by
ArrowRight, pages drawn ahead on (the build as shipped):

- steady: 20 turns, one every 1.2 s (a musician reading);
- brisk: 20 turns, one every 0.4 s (the pace issue 57 measured);
- flip: 10 turns, one every 0.4 s, then nothing: the time from the last key to the last page
  on screen, and whether any page in between was put on screen after it.

Key to ink: from the keydown event's time to the first animation frame whose callbacks run
after the view put the page on screen (its `folio-page-shown` mark, set for the quick draft as
for the sharp page): that frame paints it. No canvas is read. `FOLIO_ENGINES=chromium` or
`=webkit` runs one engine only.

Usage: pageturn_bench.py FOLIO_BINARY CORPUS_DIR
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "Browser"))
from harness import launch, serving, webkit  # noqa: E402

PACES = (("steady", 20, 1.2), ("brisk", 20, 0.4), ("flip", 10, 0.4))

# Key times, frame times and the pages put on screen, collected in the page (no canvas read).
PROBE = """
  window.folioTurns = { keys: [], frames: [] };
  document.addEventListener('keydown', (event) => { if (event.key === 'ArrowRight') folioTurns.keys.push(event.timeStamp); }, true);
  const frame = () => { folioTurns.frames.push(performance.now()); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  performance.clearMarks('folio-page-shown');"""
RESULTS = """return { keys: folioTurns.keys, frames: folioTurns.frames,
  shown: performance.getEntriesByName('folio-page-shown').map((mark) => ({ time: mark.startTime, page: mark.detail })) }"""
RENDERED = "return document.getElementById('stage').dataset.rendered ?? ''"


class Chromium:
    """Playwright's Chromium, one context per run."""
    name = "Chromium"

    def __init__(self, playwright):
        self.browser = launch(playwright)

    def open(self, address):
        self.context = self.browser.new_context(viewport={"width": 1024, "height": 1366}, device_scale_factor=2)
        self.page = self.context.new_page()
        self.page.goto(address)

    def run(self, script):
        return self.page.evaluate(f"() => {{ {script} }}")

    def focus(self, selector):
        self.page.locator(selector).focus()

    def press(self):
        self.page.keyboard.press("ArrowRight")

    def close(self):
        self.context.close()

    def quit(self):
        self.browser.close()


class WebKit:
    """WebKitGTK through Selenium, one browser (its own Xvfb display) per run."""
    name = "WebKitGTK"

    def open(self, address):
        self.manager = webkit(1024, 1366, 2)
        self.driver = self.manager.__enter__()
        self.driver.get(address)

    def run(self, script):
        return self.driver.execute_script(script)

    def focus(self, selector):
        self.driver.execute_script(f"document.querySelector('{selector}').focus()")

    def press(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        ActionChains(self.driver).send_keys(Keys.ARROW_RIGHT).perform()

    def close(self):
        self.manager.__exit__(None, None, None)

    def quit(self):
        pass


def wait(browser, condition, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = browser.run(RENDERED)
        if condition(value):
            return value
        time.sleep(0.05)
    raise AssertionError(f"the view did not get there in {seconds} s (last: {value})")


def turns(browser, address, focus, count, pace):
    """Key to ink of each of `count` turns `pace` s apart; and, for the last page, the time from
    the last key to its ink and whether another page was put on screen after it."""
    browser.open(address)
    try:
        wait(browser, lambda value: value == "1")
        time.sleep(3)   # the first page's neighbours drawn ahead
        browser.run(PROBE)
        browser.focus(focus)
        for _ in range(count):
            browser.press()
            time.sleep(pace)
        wait(browser, lambda value: value == str(count + 1))
        time.sleep(0.5)
        data = browser.run(RESULTS)
    finally:
        browser.close()
    ink = []
    for number, key in enumerate(data["keys"], start=2):
        shown = [mark["time"] for mark in data["shown"] if mark["page"] == number and mark["time"] >= key]
        frame = next((at for at in data["frames"] if shown and at >= shown[0]), None)
        ink.append(frame - key if frame is not None else None)
    last = count + 1
    first_last = next((index for index, mark in enumerate(data["shown"]) if mark["page"] == last), None)
    late = [mark["page"] for mark in data["shown"][first_last + 1:] if mark["page"] != last] if first_last is not None else []
    return ink, late


def main(folio, corpus):
    scores = sorted(os.path.join(corpus, "scores", name) for name in os.listdir(os.path.join(corpus, "scores"))
                    if name.endswith(".pdf"))
    engines = os.environ.get("FOLIO_ENGINES", "chromium,webkit").split(",")
    library = tempfile.mkdtemp(prefix="folio-pageturn-")
    anthology = os.path.join(library, "Anthologie.pdf")
    subprocess.run([folio, "merge", *scores, "--output", anthology, "--title", "Anthologie"], check=True, capture_output=True)
    pages = subprocess.run(["pdfinfo", anthology], capture_output=True, text=True).stdout
    count = next(int(line.split()[-1]) for line in pages.splitlines() if line.startswith("Pages:"))
    pieces = os.path.join(library, "pieces")
    os.makedirs(pieces)
    for score in scores:
        shutil.copy(score, pieces)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)
    subprocess.run([folio, "setlist", "create", "Anthologie", "--library", library], check=True, capture_output=True)
    for score in scores:
        subprocess.run([folio, "setlist", "add", "Anthologie", "pieces/" + os.path.basename(score), "--library", library],
                       check=True, capture_output=True)
    listed = subprocess.run([folio, "library", "list", library, "--json"], capture_output=True, text=True, check=True).stdout
    score = next(entry["id"] for entry in map(json.loads, listed.splitlines()) if entry.get("title") == "Anthologie")
    print(f"Anthology of {len(scores)} engraved scores: {count} pages, {os.path.getsize(anthology) / 1e6:.1f} MB; "
          f"1024×1366 CSS px at 2× pixels, pages drawn ahead\n")
    print("| engine | view | pace | median key→ink (ms) | worst (ms) | turns | last page after the last key (ms) | pages shown after the last |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    with serving(folio, library) as base:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            browsers = []
            if "chromium" in engines:
                browsers.append(Chromium(playwright))
            if "webkit" in engines:
                browsers.append(WebKit())
            for browser in browsers:
                for view, address, focus in (("score view", f"/scores/{score}", "#overlay"),
                                             ("Perform", "/setlists/Anthologie/perform", "#stage")):
                    for pace_name, turns_count, pace in PACES:
                        ink, late = turns(browser, base + address, focus, turns_count, pace)
                        measured = [value for value in ink if value is not None]
                        median = statistics.median(measured) if measured else float("nan")
                        worst = max(measured) if measured else float("nan")
                        last = f"{ink[-1]:.0f}" if ink and ink[-1] is not None else "—"
                        print(f"| {browser.name} | {view} | {pace_name} ({turns_count} × {int(pace * 1000)} ms) | {median:.0f} | "
                              f"{worst:.0f} | {len(measured)} | {last} | {late or 'none'} |", flush=True)
                browser.quit()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
