#!/usr/bin/env python3
"""The page turn is one rule (turns.js) in the three views that turn pages — the score view,
Perform and a rehearsal's follower — checked in Debian's Chromium through Playwright: in
one-page, two-page and half-page mode each view goes to the same last page on End, stays
there on a further turn, gets there by turning on from the first page, and goes back to page 1
on Home, and gets there by exactly as many quick turns as lead there (none lost, none queued).
The expected last page comes from pikepdf's page count: the last page alone, or with
two pages side by side the last two (the view's page is the first of them). The follower's own
turns are whole pages; its two-page mode is the leader's.

Usage: python3 Tests/Browser/turns_e2e.py FOLIO [ARTIFACTS_DIR]
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

import pikepdf
from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import DEBUSSY, ROOT, launch, person, poll, run, screenshot, serving  # noqa: E402

SETLIST = "Zkouška – リハーサル"
RENDERED = "document.getElementById('stage').dataset.rendered"
MODES = ("one page", "two pages", "half turns")


def expected_last(pages, mode):
    return str(pages - 1 if mode == "two pages" else pages)


def choose(page, mode):
    """Sets the view's mode with its buttons (two pages and half turns exclude each other)."""
    for button, wanted in (("#two", mode == "two pages"), ("#half", mode == "half turns")):
        if (page.get_attribute(button, "aria-pressed") == "true") != wanted:
            page.click(button)


def ends(page, focus, pages, mode, what):
    """End, a turn past it, Home, then turning on from page 1: where each led, checked."""
    last = expected_last(pages, mode)
    page.locator(focus).focus()
    page.keyboard.press("End")
    poll(page, RENDERED, lambda value: value == last, what=f"{what}, {mode}: End at {last}")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert page.evaluate(RENDERED) == last, f"{what}, {mode}: a turn past the end moved to {page.evaluate(RENDERED)}"
    page.keyboard.press("Home")
    poll(page, RENDERED, lambda value: value == "1", what=f"{what}, {mode}: Home at 1")
    for _ in range(2 * pages + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(60)
    poll(page, RENDERED, lambda value: value == last, what=f"{what}, {mode}: turning on ends at {last}")
    # Turns faster than pages draw, exactly as many as lead to the last page: none is lost
    # (each counts from the page last asked for, not the one drawn) and none waits in a queue.
    page.keyboard.press("Home")
    poll(page, RENDERED, lambda value: value == "1", what=f"{what}, {mode}: Home at 1 again")
    presses = exact_turns(pages, mode)
    # A slow tablet: the page's CPU throttled twentyfold, so every turn comes while a page draws.
    slow = page.context.new_cdp_session(page)
    slow.send("Emulation.setCPUThrottlingRate", {"rate": 20})
    try:
        for _ in range(presses):
            page.keyboard.press("ArrowRight")
        poll(page, RENDERED, lambda value: value == last, seconds=120, what=f"{what}, {mode}: {presses} quick turns end at {last}")
    finally:
        slow.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        slow.detach()
    return last


def exact_turns(pages, mode):
    """How many turns lead from page 1 to the last page: a page each; two pages at a time up to
    the last two; a half turn and a whole page for each page."""
    if mode == "two pages":
        return (pages - 1) // 2
    return 2 * (pages - 1) if mode == "half turns" else pages - 1


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-turns-")
    shutil.copy(os.path.join(ROOT, "Samples", DEBUSSY), library)
    pages = len(pikepdf.open(os.path.join(library, DEBUSSY)).pages)
    assert pages >= 3, pages
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)
    for arguments in (["create", SETLIST], ["add", SETLIST, DEBUSSY]):
        subprocess.run([folio, "setlist", *arguments, "--library", library], check=True, capture_output=True)
    found = {}
    with serving(folio, library) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        errors = []
        _, score = person(browser, errors)
        score.goto(base + "/")
        identifier = score.locator("#scores li", has_text="Clair de Lune").get_attribute("data-id")
        _, perform = person(browser, errors)
        for view, page, address, focus in (("score view", score, f"/scores/{identifier}", "#overlay"),
                                           ("Perform", perform, f"/setlists/{urllib.parse.quote(SETLIST)}/perform", "#stage")):
            page.goto(base + address)
            poll(page, RENDERED, lambda value: value == "1", what=f"the {view}'s first page")
            for mode in MODES:
                choose(page, mode)
                found[(view, mode)] = ends(page, focus, pages, mode, view)
            screenshot(page, artifacts, view.replace(" ", "-") + "-last")

        # A rehearsal led from the score view; the follower turns on its own, then rejoins.
        choose(score, "one page")
        score.locator("#overlay").focus()
        score.keyboard.press("Home")
        poll(score, RENDERED, lambda value: value == "1", what="the leader back on page 1")
        score.click("#rehearse")
        poll(score, "document.querySelector('#rehearsal .code')?.textContent ?? ''", lambda value: len(value) == 6, what="a code")
        join = score.locator("#rehearsal .join").get_attribute("href")
        _, follower = person(browser, errors)
        follower.goto(join)
        follower.fill("#join input[name=name]", "Jiří – 次郎")
        follower.fill("#join input[name=instrument]", "Violin I")
        follower.click("#join button[type=submit]")
        poll(follower, RENDERED, lambda value: value == "1", what="the follower's first page")
        for mode in MODES:
            choose(score, mode)
            two = "true" if mode == "two pages" else "false"
            poll(follower, "document.getElementById('stage').dataset.two", lambda value: value == two, what=f"the follower in {mode}")
            found[("follower", mode)] = ends(follower, "#stage", pages, "two pages" if mode == "two pages" else "one page", "follower")
            follower.click("#rejoin")
        screenshot(follower, artifacts, "follower")
        assert errors == [], errors

    for mode in MODES:
        answers = {view: found[(view, mode)] for view in ("score view", "Perform", "follower")}
        assert len(set(answers.values())) == 1, f"{mode}: the views disagree on the last page: {answers}"
    print(f"turns: the score view, Perform and a follower agree on the last page of {pages} in "
          + ", ".join(f"{mode} ({found[('Perform', mode)]})" for mode in MODES))


if __name__ == "__main__":
    run(main, "e2e-artifacts/turns")
