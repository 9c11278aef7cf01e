#!/usr/bin/env python3
"""Page turns in the score view and in Perform, key to ink, in Debian's Chromium (not a test; issue 57).

The library: an anthology of every engraved score of the corpus (`folio merge` of
corpus/scores, Mutopia's LilyPond files: real pages with thousands of glyphs and links).
For each viewport (an iPad in portrait, 1024×1366 at 2× pixels, and a laptop, 1366×768) the
score is opened and turned 20 times by ArrowRight, one turn every 400 ms (a pedal at a
musician's pace), first with pages drawn ahead turned off (`localStorage['folio.drawAhead'] =
'off'`: each turn draws its page), then on (the next page drawn while the current one is
played, swapped in on the key) — the same build, the same pages, one run.

Key to ink: from the keydown event's time to the first animation frame whose callbacks run
after score.js put the page on the visible canvas (its `folio-page-shown` mark): that frame
paints the page. No canvas is read (a read would cost more than a frame). Prints the median
and the worst of the 20 turns per viewport and mode, and the ratio of the medians.

Perform: a setlist of the same 12 scores, one piece each (so the 20 turns cross from piece to
piece several times), played in performance mode, turned the same way (its `folio-page-shown`
mark is set when perform.js puts the pages on the stage).

Usage: pageturn_bench.py FOLIO_BINARY CORPUS_DIR
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "Browser"))
from serve_e2e import CHROMIUM, serving  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

TURNS = 20
PACE = 0.4

# Key times and frame times, collected in the page (no canvas read).
PROBE = """() => {
  window.folioTurns = { keys: [], frames: [] };
  document.addEventListener('keydown', (event) => { if (event.key === 'ArrowRight') folioTurns.keys.push(event.timeStamp); }, true);
  const frame = () => { folioTurns.frames.push(performance.now()); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""

RESULTS = """() => ({ keys: folioTurns.keys, frames: folioTurns.frames,
  shown: performance.getEntriesByName('folio-page-shown').map((mark) => ({ time: mark.startTime, page: mark.detail })) })"""


def turns(browser, base, address, focus, viewport, scale, ahead):
    context = browser.new_context(viewport=viewport, device_scale_factor=scale)
    context.add_init_script(f"localStorage.setItem('folio.drawAhead', '{'on' if ahead else 'off'}')")
    page = context.new_page()
    page.goto(base + address)
    page.wait_for_selector("#stage[data-rendered='1']", timeout=60000)
    time.sleep(1.5)   # the first page's neighbours drawn ahead (when on)
    page.evaluate(PROBE)
    page.locator(focus).focus()
    for _ in range(TURNS):
        page.keyboard.press("ArrowRight")
        time.sleep(PACE)
    page.wait_for_selector(f"#stage[data-rendered='{TURNS + 1}']", timeout=60000)
    data = page.evaluate(RESULTS)
    context.close()
    results = []
    for number, key in enumerate(data["keys"], start=2):
        shown = [mark["time"] for mark in data["shown"] if mark["page"] == number and mark["time"] >= key]
        if not shown:
            continue
        frame = next((at for at in data["frames"] if at >= shown[0]), None)
        if frame is not None:
            results.append(frame - key)
    return results


def main(folio, corpus):
    scores = sorted(os.path.join(corpus, "scores", name) for name in os.listdir(os.path.join(corpus, "scores"))
                    if name.endswith(".pdf"))
    library = tempfile.mkdtemp(prefix="folio-pageturn-")
    try:
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
        print(f"Anthology of {len(scores)} engraved scores: {count} pages, {os.path.getsize(anthology) / 1e6:.1f} MB; "
              f"{TURNS} turns by ArrowRight every {int(PACE * 1000)} ms\n")
        print("| view | viewport | pages drawn ahead | median key→ink (ms) | worst (ms) | turns measured |")
        print("| --- | --- | --- | --- | --- | --- |")
        with serving(folio, library) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(base + "/")
            score = page.locator("#scores li", has_text="Anthologie").first.get_attribute("data-id")
            page.close()
            views = (("score view", f"/scores/{score}", "#overlay"), ("Perform", "/setlists/Anthologie/perform", "#stage"))
            for view, address, focus in views:
                for name, viewport, scale in (("1024×1366 (2×)", {"width": 1024, "height": 1366}, 2),
                                              ("1366×768 (1×)", {"width": 1366, "height": 768}, 1)):
                    medians = {}
                    for ahead in (False, True):
                        measured = turns(browser, base, address, focus, viewport, scale, ahead)
                        medians[ahead] = statistics.median(measured) if measured else float("nan")
                        print(f"| {view} | {name} | {'on' if ahead else 'off'} | {medians[ahead]:.1f} | "
                              f"{max(measured) if measured else float('nan'):.1f} | {len(measured)} |")
                    print(f"| {view} | {name} | ratio off/on | {medians[False] / medians[True]:.1f}× | | |")
            browser.close()
    finally:
        shutil.rmtree(library, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
