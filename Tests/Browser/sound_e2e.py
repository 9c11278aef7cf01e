#!/usr/bin/env python3
"""Sound in Debian's Chromium through Playwright (issue 33): a WAV linked to a score plays (its
currentTime advances), its A–B loop returns to A, speed changes keep the pitch, K plays and
pauses; a library recording is linked and unlinked from the sound bar; the metronome's beats,
scheduled on the AudioContext's clock, stay within 1 ms of the tempo's grid over 100 beats,
accent each bar's first beat, light the beat, count in one bar before the recording, stop when
the page is hidden, and play the user's WAV sample once it is uploaded (its length as ffprobe
measures it); in performance mode each piece's recording is queued as the piece opens.
Recordings are made by ffmpeg, read back by ffprobe; the catalog's links by `folio tracks list`.

Usage: python3 Tests/Browser/sound_e2e.py FOLIO [ARTIFACTS_DIR]
Screenshots go to ARTIFACTS_DIR (default .build/e2e-artifacts/sound).
Prints '1 passed, 0 failed' or '0 passed, 1 failed' and exits accordingly."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from playwright.sync_api import sync_playwright, expect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, launch, poll, run, serving  # noqa: E402

SOUND = "document.getElementById('sound').sound"


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", *args], check=True)


def duration(path):
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json", path],
                           capture_output=True, text=True, check=True)
    return float(json.loads(probe.stdout)["format"]["duration"])


def tracks(folio, library, score):
    listed = subprocess.run([folio, "tracks", "list", score, "--json", "--library", library],
                            capture_output=True, text=True, check=True)
    return [json.loads(line) for line in listed.stdout.splitlines()]


def main(folio, artifacts):
    os.makedirs(artifacts, exist_ok=True)
    library = tempfile.mkdtemp(prefix="folio-sound-")
    for name in ("Brahms-Cancion_de_Cuna.pdf", "Traditional-Greensleeves_hymntune.pdf"):
        shutil.copy(os.path.join(ROOT, "Samples", name), library)
    recordings = os.path.join(library, "Nahrávky")
    os.makedirs(recordings)
    lullaby = os.path.join(recordings, "Ukolébavka – Колыбельная.wav")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=20", "-ar", "22050", "-ac", "1", lullaby)
    greensleeves = os.path.join(recordings, "Greensleeves – Πράσινα μανίκια.flac")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=330:duration=20", greensleeves)
    spare = os.path.join(recordings, "Ensayo – リハーサル.wav")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=550:duration=5", spare)
    click = os.path.join(tempfile.mkdtemp(prefix="folio-click-"), "dřevěný blok.wav")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=2000:duration=0.07", "-ar", "44100", "-ac", "1", click)
    brahms, green = "Brahms-Cancion_de_Cuna.pdf", "Traditional-Greensleeves_hymntune.pdf"
    subprocess.run([folio, "meta", "set", os.path.join(library, brahms), "--tempo", "72", "--time-signature", "3/4"],
                   check=True, capture_output=True)
    subprocess.run([folio, "library", "scan", library], check=True, capture_output=True)   # only a scan makes a catalog
    for args in (["tracks", "link", brahms, "Nahrávky/Ukolébavka – Колыбельная.wav", "--a", "2", "--b", "3.5"],
                 ["tracks", "link", green, "Nahrávky/Greensleeves – Πράσινα μανίκια.flac", "--offset", "1"],
                 ["setlist", "create", "Večer"], ["setlist", "add", "Večer", brahms], ["setlist", "add", "Večer", green]):
        subprocess.run([folio, *args, "--library", library], check=True, capture_output=True)
    wav_track = tracks(folio, library, brahms)[0]
    flac_track = tracks(folio, library, green)[0]

    with serving(folio, library) as base:
        # Byte ranges over a recording, as the browser seeks: the bytes of the file.
        request = urllib.request.Request(f"{base}/api/audio/{wav_track['audio']}", headers={"Range": "bytes=100-199"})
        with urllib.request.urlopen(request) as response:
            assert response.status == 206 and response.headers["Content-Type"] == "audio/wav", response.headers
            with open(lullaby, "rb") as file:
                assert response.read() == file.read()[100:200]
        with sync_playwright() as playwright:
            browser = launch(playwright, "--autoplay-policy=no-user-gesture-required")
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

            # The score view: the sound bar opens by itself (a recording is linked), the metronome
            # takes the score's tempo and time signature.
            page.goto(f"{base}/")
            page.click("#scores li a:has-text('Cancion')")
            page.wait_for_selector("#stage[data-rendered='1']")
            expect(page.locator("#sound")).to_be_visible()
            expect(page.locator("#track option:checked")).to_have_text("Ukolébavka – Колыбельная.wav")
            expect(page.locator("#bpm")).to_have_value("72")
            expect(page.locator("#beats")).to_have_value("3")
            expect(page.locator("#loop")).to_be_checked()
            expect(page.locator("#loop-range")).to_have_text("0:02.0–0:03.5")

            # It plays: currentTime advances; the loop returns to A and never runs past B.
            page.click("#play")
            times = []
            deadline = time.time() + 15
            while time.time() < deadline:
                state = page.evaluate(f"({{ t: {SOUND}.player.audio.currentTime, loops: {SOUND}.player.loops }})")
                times.append(state["t"])
                if state["loops"] >= 2:
                    break
                time.sleep(0.03)
            assert max(times) > 2.2, f"the recording did not advance: {times[-5:]}"
            assert page.evaluate(f"{SOUND}.player.loops") >= 2, "the loop did not return to A twice"
            assert max(times) < 3.5 + 0.25, f"played past B: {max(times)}"
            assert min(times[len(times) // 2:]) >= 2 - 0.05, "after the loop began, it played before A"
            expect(page.locator("#play")).to_have_attribute("aria-label", "Pause")
            page.screenshot(path=f"{artifacts}/1-playing-loop.png")

            # Speed 75 %, pitch kept; K pauses.
            page.locator("#speed").evaluate("(e) => { e.value = 75; e.dispatchEvent(new Event('input', { bubbles: true })); }")
            assert page.evaluate(f"[{SOUND}.player.audio.playbackRate, {SOUND}.player.audio.preservesPitch]") == [0.75, True]
            expect(page.locator("#speed-value")).to_have_text("75 %")
            page.locator("#overlay").focus()
            page.keyboard.press("k")
            poll(page, f"{SOUND}.player.audio.paused", bool, what="K pausing")

            # The metronome at 400 bpm for 100 beats: every beat on the grid of the audio clock.
            page.fill("#bpm", "400")
            page.dispatch_event("#bpm", "change")
            page.click("#metronome-start")
            lit = poll(page, "document.getElementById('beat').className", lambda c: "on" in c, what="the beat light")
            beats = poll(page, f"{SOUND}.metronome.beats", lambda b: len(b) >= 100, seconds=30, what="100 beats")[:100]
            played_to = poll(page, f"{SOUND}.metronome.context.currentTime", lambda t: t > beats[99]["time"], what="the clock")
            page.click("#metronome-start")
            interval = 60 / 400
            worst = max(abs(beat["time"] - beats[0]["time"] - i * interval) for i, beat in enumerate(beats))
            assert worst < 0.001, f"a beat is {worst * 1000:.3f} ms off the grid"
            assert [beat["accent"] for beat in beats[:6]] == [True, False, False, True, False, False], beats[:6]
            assert all(beat["kind"] == "click" for beat in beats)
            print(f"100 beats at 400 bpm: worst {worst * 1e6:.1f} µs off the grid; clock reached {played_to:.2f} s; light {lit}")

            # Count-in: one bar (3 beats) before the recording starts.
            page.evaluate(f"{SOUND}.player.seek(2)")
            before = page.evaluate(f"{SOUND}.metronome.beats.length")
            page.check("#count-in")
            page.click("#play")
            poll(page, f"!{SOUND}.player.audio.paused", bool, what="playing after the count-in")
            counted = page.evaluate(f"{SOUND}.metronome.beats").copy()[before:]
            assert len(counted) == 3 and counted[0]["accent"] and not counted[1]["accent"], counted
            started = page.evaluate(f"{SOUND}.metronome.context.currentTime")
            assert started >= counted[0]["time"] + 3 * interval - 0.01, (started, counted)
            page.keyboard.press("k")
            page.uncheck("#count-in")

            # The user's sample: uploaded once, then the sound of every beat.
            page.set_input_files("#sample-file", click)
            expect(page.locator("#sound-status")).to_contain_text("Sample kept: dřevěný blok.wav")
            with urllib.request.urlopen(f"{base}/api/metronome/sample") as response, open(click, "rb") as file:
                assert response.read() == file.read(), "the server keeps other bytes than the sample sent"
            before = page.evaluate(f"{SOUND}.metronome.beats.length")
            page.click("#metronome-start")
            poll(page, f"{SOUND}.metronome.beats.length", lambda n: n >= before + 8, what="beats with the sample")
            sampled = page.evaluate(f"{SOUND}.metronome.beats")[before:before + 8]
            assert all(beat["kind"] == "sample" for beat in sampled), sampled
            assert abs(sampled[0]["duration"] - duration(click)) < 0.001, (sampled[0], duration(click))
            page.screenshot(path=f"{artifacts}/2-metronome-sample.png")

            # Hidden: silent.
            page.evaluate("Object.defineProperty(document, 'hidden', { value: true, configurable: true });"
                          "document.dispatchEvent(new Event('visibilitychange'))")
            assert page.evaluate(f"{SOUND}.metronome.running") is False, "the metronome kept clicking on a hidden page"
            expect(page.locator("#sound-status")).to_contain_text("page was hidden")
            page.evaluate("delete document.hidden")

            # Link a library recording from the bar, then unlink it (the catalog as folio tracks sees it).
            page.select_option("#link-audio", label="Nahrávky/Ensayo – リハーサル.wav")
            expect(page.locator("#sound-status")).to_contain_text("Linked Ensayo – リハーサル.wav")
            assert [t["file"] for t in tracks(folio, library, brahms)] == [
                "Nahrávky/Ukolébavka – Колыбельная.wav", "Nahrávky/Ensayo – リハーサル.wav"]
            page.screenshot(path=f"{artifacts}/3-linked.png")
            page.click("#unlink")
            expect(page.locator("#sound-status")).to_contain_text("Unlinked Ensayo")
            assert [t["file"] for t in tracks(folio, library, brahms)] == ["Nahrávky/Ukolébavka – Колыбельная.wav"]

            # Performance mode: the first piece's recording queued, then the next piece's.
            page.goto(f"{base}/setlists/Ve%C4%8Der/perform")
            page.wait_for_selector("#stage[data-rendered='1']")
            expect(page.locator("#sound")).to_be_visible()
            poll(page, f"{SOUND}.player.track && {SOUND}.player.track.id", lambda i: i == wav_track["id"], what="the first piece's track")
            pages = page.evaluate("document.getElementById('pageno').textContent")
            brahms_pages = int(subprocess.run(["pdfinfo", os.path.join(library, brahms)], capture_output=True, text=True)
                               .stdout.split("Pages:")[1].split()[0])
            for _ in range(brahms_pages):
                page.keyboard.press("ArrowRight")
            poll(page, f"{SOUND}.player.track && {SOUND}.player.track.id", lambda i: i == flac_track["id"], what="the next piece's track")
            assert page.evaluate(f"{SOUND}.player.audio.src").endswith(f"/api/audio/{flac_track['audio']}")
            expect(page.locator("#track option:checked")).to_have_text("Greensleeves – Πράσινα μανίκια.flac")
            page.locator("#speed").evaluate("(e) => { e.value = 125; e.dispatchEvent(new Event('input', { bubbles: true })); }")
            poll(page, f"{SOUND}.player.audio.currentTime", lambda t: abs(t - 1) < 0.01, what="the offset")
            # The speed chosen holds for the next piece's recording.
            page.keyboard.press("ArrowLeft")
            poll(page, f"{SOUND}.player.track.id", lambda i: i == wav_track["id"], what="the first piece's track again")
            assert page.evaluate(f"{SOUND}.player.audio.playbackRate") == 1.25, "the speed shown is not the speed played"
            page.keyboard.press("ArrowRight")
            page.screenshot(path=f"{artifacts}/4-perform-queued.png")
            print(f"performance mode: {pages} → piece 2 queued the FLAC at its 1 s offset")
            assert not errors, errors
            browser.close()


if __name__ == "__main__":
    run(main, "e2e-artifacts/sound")
