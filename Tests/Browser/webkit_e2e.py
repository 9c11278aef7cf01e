#!/usr/bin/env python3
"""A musician's evening in Safari's engine (issue 71): WebKitGTK through Debian's
webkit2gtk-driver and Selenium, an iPad's window (1024 × 1366 CSS px at 2 device px each).
Every page's uncaught errors, unhandled rejections and CSP violations from its first script on
(Assets/errors.js) are collected: none is allowed.

- The library: covers sized before they load (width and height given), search by a word of a
  Czech title; the header one row.
- A score: pages turned by key and by tap (ink on each), the header one row with the composer
  not cut to a letter; a text mark added (in the PDF once, read by pikepdf), deleted, and
  brought back by Undo.
- Perform across the setlist's three pieces (the piece's title changes, the last page reached);
  the screen's wake lock asked for on the first tap and granted ("on"), the note saying the
  screen may dim hidden then.
- Keep offline on the setlist: WebKitGTK offers no persistent storage, so the page says the
  browser may clear it and how to keep it (the Home Screen); a score of the kept setlist kept
  off again: the library warns that the setlist is no longer whole on the device, and keeping
  the setlist again ends the warning.
- The server stopped: the kept setlist opens in Perform from the device and its pages turn
  (ink); night mode darkens the page; the metronome lights its beat.

Usage: python3 Tests/Browser/webkit_e2e.py FOLIO [ARTIFACTS_DIR]
Screenshots go to ARTIFACTS_DIR (default .build/e2e-artifacts/webkit).
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pikepdf
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BRAHMS, DEBUSSY, GREENSLEEVES, ROOT, Server, page_errors, run, until, webkit  # noqa: E402

SETLIST = "Večer – 夕べ"
SETLIST_PATH = "Ve%C4%8Der%20%E2%80%93%20%E5%A4%95%E3%81%B9"
CZECH = "Ukolébavka – 子守歌"   # Brahms's title, in Czech and Japanese
# Whether the stage's first canvas holds ink (a blank page has none).
INKED = """const canvas = document.querySelector('#stage canvas'); if (!canvas || !canvas.width) return false;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let dark = 0; for (let i = 0; i < data.length; i += 64) if (data[i] + data[i + 1] + data[i + 2] < 300) dark += 1;
  return dark > 50;"""
HEADER = "return document.querySelector('header.bar').getBoundingClientRect().height"


def key(driver, name):
    ActionChains(driver).send_keys(name).perform()


def tap(driver, element, x_fraction=0.8):
    """A tap (pointer down and up) at `x_fraction` of `element`'s width, half-way down."""
    box = element.rect
    ActionChains(driver).move_to_element_with_offset(element, int(box["width"] * (x_fraction - 0.5)), 0).click().perform()


def shown(driver, page, what):
    """Waits until the stage shows `page` (data-rendered) with ink on it."""
    until(driver, f"return document.getElementById('stage')?.dataset.rendered", lambda value: value == str(page),
          what=f"{what}: page {page}")
    until(driver, INKED, bool, what=f"{what}: ink on page {page}")


def snap(driver, folder, name):
    """A screenshot once the page has painted what it shows now (two animation frames on)."""
    driver.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()))")
    driver.save_screenshot(f"{folder}/{name}.png")


def one_row(driver, where):
    """The page's header is one row (under 70 CSS px)."""
    header = driver.execute_script(HEADER)
    assert header < 70, f"{where}'s header took {header} px (two rows?)"


def free_texts(path):
    """The FreeText marks' words on the first page of the PDF at `path` (pikepdf)."""
    with pikepdf.open(path) as pdf:
        return [str(a.get("/Contents")) for a in pdf.pages[0].get("/Annots", []) if a.get("/Subtype") == "/FreeText"]


def no_errors(driver, where):
    errors = page_errors(driver)
    assert not errors, f"{where}: {errors}"


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-webkit-")
    for name in (DEBUSSY, BRAHMS, GREENSLEEVES):
        shutil.copy(os.path.join(ROOT, "Samples", name), library)
    debussy = os.path.join(library, DEBUSSY)
    subprocess.run([folio, "meta", "set", os.path.join(library, BRAHMS), "--title", CZECH], check=True, capture_output=True)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)
    for arguments in (["create", SETLIST], ["add", SETLIST, BRAHMS], ["add", SETLIST, GREENSLEEVES], ["add", SETLIST, DEBUSSY]):
        subprocess.run([folio, "setlist", *arguments, "--library", library], check=True, capture_output=True)
    with pikepdf.open(debussy) as pdf:
        pages = len(pdf.pages)
    listed = subprocess.run([folio, "library", "list", library, "--json"], check=True, capture_output=True, text=True).stdout
    ids = {entry["path"]: entry["id"] for entry in map(json.loads, listed.splitlines())}
    debussy_id, brahms_id = ids[DEBUSSY], ids[BRAHMS]
    server = Server(folio, library)
    server.start()
    started = time.time()
    try:
        with webkit(1024, 1366, 2) as driver:
            base = server.base
            # The library: covers sized before they load, search, one header row.
            driver.get(base + "/")
            covers = driver.execute_script(
                "return [...document.querySelectorAll('img.cover')].map((img) => [img.getAttribute('width'), img.getAttribute('height')])")
            assert covers and all(size == ["43", "60"] for size in covers), covers
            one_row(driver, "the library")
            search = driver.find_element(By.ID, "search")
            search.send_keys("ukolébavka")
            until(driver, "return [document.getElementById('search').value, [...document.querySelectorAll('#scores li .title')]"
                  ".map((t) => t.textContent)]", lambda found: found[1] == [CZECH], seconds=40, what="the search for a Czech word")
            snap(driver, artifacts, "01-library")
            no_errors(driver, "the library")

            # A score: keys and taps, one header row, a text mark added, deleted, undone.
            driver.get(f"{base}/scores/{debussy_id}")
            shown(driver, 1, "the score view")
            one_row(driver, "the score view")
            people = driver.execute_script("return document.querySelector('.bar .people').getBoundingClientRect().width")
            assert people >= 80, f"the composer cut to {people} px"
            overlay = driver.find_element(By.ID, "overlay")
            driver.execute_script("document.getElementById('overlay').focus()")
            key(driver, Keys.ARROW_RIGHT)
            shown(driver, 2, "ArrowRight")
            tap(driver, overlay, 0.8)
            shown(driver, 3, "a tap on the right")
            tap(driver, overlay, 0.1)
            shown(driver, 2, "a tap on the left")
            key(driver, Keys.END)
            shown(driver, pages, "End")
            key(driver, Keys.HOME)
            shown(driver, 1, "Home")
            snap(driver, artifacts, "02-score")
            # The tools' strip scrolls sideways to its Text button.
            text_tool = driver.find_element(By.CSS_SELECTOR, "[data-tool=freetext]")
            driver.execute_script("arguments[0].scrollIntoView({ block: 'nearest', inline: 'center' })", text_tool)
            text_tool.click()
            ActionChains(driver).move_to_element_with_offset(overlay, -200, -300).click().perform()
            until(driver, "return document.activeElement?.classList.contains('textentry')", bool, what="the text field")
            ActionChains(driver).send_keys("dolce – 甘く").send_keys(Keys.ENTER).perform()
            until(driver, "return [...document.querySelectorAll('#annotations li')].some((li) => li.textContent.includes('dolce – 甘く'))",
                  bool, what="the text mark listed")
            texts = free_texts(debussy)
            assert texts.count("dolce – 甘く") == 1, texts
            driver.execute_script("[...document.querySelectorAll('#annotations li')].find((li) => li.textContent.includes('dolce'))"
                                  ".querySelector('button:last-of-type').click()")   # Delete
            until(driver, "return [...document.querySelectorAll('#annotations li')].some((li) => li.textContent.includes('dolce'))",
                  lambda listed: listed is False, what="the text mark deleted")
            until(driver, "return document.getElementById('status').textContent", lambda said: "Undo brings it back" in said,
                  what="the deletion saved")
            driver.find_element(By.ID, "undo").click()
            until(driver, "return [...document.querySelectorAll('#annotations li')].some((li) => li.textContent.includes('dolce – 甘く'))",
                  bool, what="the text mark back after Undo")
            texts = free_texts(debussy)
            assert texts.count("dolce – 甘く") == 1, texts
            snap(driver, artifacts, "03-mark")
            no_errors(driver, "the score view")

            # Keep the setlist offline: the words for a browser that may clear it.
            driver.get(f"{base}/setlists/{SETLIST_PATH}")
            small = driver.execute_script("""return [...document.querySelectorAll('header a, header button, header input, main button, main a.button, main select')]
                .map((el) => [el.id || el.textContent.trim(), el.getBoundingClientRect()]).filter(([, r]) => r.width && (r.width < 44 || r.height < 44))
                .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
            assert not small, f"setlist controls under 44×44: {small}"
            until(driver, "return navigator.serviceWorker?.controller ? true : (location.reload(), false)", bool, seconds=30,
                  what="a service worker in control", every=1)
            driver.find_element(By.ID, "keep-offline").click()
            status = until(driver, "return document.getElementById('offline-status').dataset.kept ?? ''", bool, seconds=60,
                           what="the setlist kept")
            words = driver.find_element(By.ID, "offline-status").text
            persistent = driver.execute_script("return navigator.storage?.persisted ? navigator.storage.persisted() : false")
            if persistent:
                assert status == "until-removed" and "until you remove it" in words, words
            else:
                assert status == "may-be-cleared" and "Home Screen" in words, words
            snap(driver, artifacts, "04-kept")
            # A score of the setlist kept off again: the library warns before the gig.
            driver.get(f"{base}/scores/{brahms_id}")
            shown(driver, 1, "a kept score")
            until(driver, "return document.getElementById('keep-offline').getAttribute('aria-pressed')",
                  lambda pressed: pressed == "true", what="the score kept with its setlist")
            driver.find_element(By.ID, "panel-toggle").click()   # in portrait the panel opens over the page
            driver.find_element(By.ID, "keep-offline").click()
            until(driver, "return document.getElementById('keep-offline').getAttribute('aria-pressed')",
                  lambda pressed: pressed == "false", what="the score kept off")
            driver.get(base + "/")
            warning = until(driver, "return document.querySelector('.kept-warning[data-gaps]')?.textContent ?? ''", bool,
                            what="the warning of a setlist no longer whole")
            assert SETLIST in warning and "1 of its files" in warning, warning
            snap(driver, artifacts, "05-warning")
            driver.get(f"{base}/setlists/{SETLIST_PATH}")
            until(driver, "return document.getElementById('offline-status').dataset.kept ?? ''", bool, what="the setlist still kept")
            driver.find_element(By.ID, "keep-offline").click()   # off
            until(driver, "return document.getElementById('keep-offline').getAttribute('aria-pressed')", lambda p: p == "false",
                  what="the setlist kept off")
            driver.find_element(By.ID, "keep-offline").click()   # and on again: whole
            until(driver, "return document.getElementById('offline-status').dataset.kept ?? ''", bool, seconds=60,
                  what="the setlist kept again")
            driver.get(base + "/")
            time.sleep(1)
            assert driver.execute_script("return document.querySelector('.kept-warning[data-gaps]')?.dataset.gaps ?? '0'") == "0"
            no_errors(driver, "keeping offline")

            # Perform across the three pieces; the wake lock from the first tap.
            driver.get(f"{base}/setlists/{SETLIST_PATH}/perform")
            shown(driver, 1, "Perform")
            one_row(driver, "Perform")
            before = driver.execute_script("return document.getElementById('stage').dataset.awake ?? ''")
            first_piece = driver.execute_script("return document.getElementById('piece').textContent")
            stage = driver.find_element(By.ID, "stage")
            tap(driver, stage, 0.8)   # a tap turns the page, and asks for the wake lock
            shown(driver, 2, "a tap in Perform")
            awake = until(driver, "return document.getElementById('stage').dataset.awake ?? ''", lambda state: state == "on",
                          what=f"the wake lock after a tap (before it: {before!r})")
            assert driver.execute_script("return document.querySelector('.awake-note').hidden"), "the dim note still shown"
            print(f"wake lock: {before or 'not asked'} on load, {awake} after a tap")
            pieces = [first_piece, driver.execute_script("return document.getElementById('piece').textContent")]
            total = int(driver.execute_script("return document.getElementById('pageno').textContent").split("/")[1])
            for number in range(3, total + 1):
                key(driver, Keys.ARROW_RIGHT)
                shown(driver, number, "Perform")
                pieces.append(driver.execute_script("return document.getElementById('piece').textContent"))
            titles = list(dict.fromkeys(pieces))
            assert len(titles) == 3 and titles[0] == CZECH, titles
            snap(driver, artifacts, "06-perform-last")
            no_errors(driver, "Perform")

            # The server stopped: the kept setlist plays from the device; night; the metronome.
            server.stop()
            driver.get(f"{base}/setlists/{SETLIST_PATH}/perform")
            shown(driver, 1, "Perform offline")
            key(driver, Keys.ARROW_RIGHT)
            shown(driver, 2, "Perform offline")
            driver.find_element(By.ID, "night").click()
            until(driver, "return document.documentElement.hasAttribute('data-night')", bool, what="night mode")
            snap(driver, artifacts, "07-offline-night")
            driver.find_element(By.ID, "sound-toggle").click()
            driver.find_element(By.ID, "metronome-start").click()
            until(driver, "return document.getElementById('beat').className.includes('on')", bool, what="the beat light")
            driver.find_element(By.ID, "metronome-start").click()
            driver.find_element(By.ID, "night").click()
            no_errors(driver, "offline")
    finally:
        server.stop()
        shutil.rmtree(library, ignore_errors=True)
    print(f"the evening in WebKit: {time.time() - started:.0f} s")


if __name__ == "__main__":
    run(main, "e2e-artifacts/webkit")
