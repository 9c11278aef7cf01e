"""What every browser test of `folio serve` and the probe of the server share, written once: a
server on a free port over a library (started, waited for through `/healthz`, stopped by
SIGTERM and started again where a test is about the network), Chromium, a person's browser
context, polling a page, screenshots, file digests and the command-line runner.

    from harness import Server, launch, person, run

    def main(folio, artifacts):
        with Server(folio, library) as server, sync_playwright() as playwright:
            browser = launch(playwright)
            context, page = person(browser, errors)
            page.goto(server.base + "/")
"""
import contextlib
import hashlib
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# The bundled samples (Samples/), by file name.
DEBUSSY = "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf"
BRAHMS = "Brahms-Cancion_de_Cuna.pdf"
GREENSLEEVES = "Traditional-Greensleeves_hymntune.pdf"

# Whether the score view's canvas holds ink (a blank page has none).
INKED = """() => { const canvas = document.querySelector('#stage canvas'); if (!canvas || !canvas.width) return false;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let dark = 0; for (let i = 0; i < data.length; i += 64) if (data[i] + data[i + 1] + data[i + 2] < 300) dark += 1;
  return dark > 50; }"""


def free_port():
    """A TCP port nothing listens on now (the kernel's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`folio serve LIBRARY [EXTRA…]` on one port for the whole test: `start()` returns once
    `/healthz` answers (any status: the server listens), or fails with what the server printed
    when it ends first; `stop()` sends SIGTERM and returns the exit status. For HTTPS give the
    authority's PEM as `ca` (and `host`, the name its certificate holds). Everything the server
    prints is kept (`output`). As a context manager it is started and stopped around the block."""

    def __init__(self, folio, library, *extra, ca=None, host="127.0.0.1", port=None, start_timeout=60):
        self.folio, self.library, self.extra = folio, library, list(extra)
        self.port = port or free_port()
        self.ca, self.start_timeout = ca, start_timeout
        self.base = f"{'https' if ca else 'http'}://{host}:{self.port}"
        self.process = None
        self._log = tempfile.NamedTemporaryFile(prefix="folio-serve-", suffix=".log", delete=False)
        self._log.close()

    @property
    def output(self):
        """What the server printed (standard output and error) since it was first started."""
        with open(self._log.name, encoding="utf-8", errors="replace") as file:
            return file.read()

    @property
    def running(self):
        return self.process is not None and self.process.poll() is None

    def start(self):
        with open(self._log.name, "a", encoding="utf-8") as log:
            self.process = subprocess.Popen([self.folio, "serve", self.library, "--port", str(self.port), *self.extra],
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + self.start_timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"folio serve ended (exit {self.process.returncode}) before serving:\n{self.output}")
            try:
                # The authority's file is written by the server as it starts.
                context = ssl.create_default_context(cafile=self.ca) if self.ca else None
                urllib.request.urlopen(self.base + "/healthz", timeout=1, context=context).close()
                return self
            except urllib.error.HTTPError:
                return self   # listening; the library may be unwell, which the test will see
            except (urllib.error.URLError, OSError):
                time.sleep(0.05)
        self.stop()
        raise AssertionError(f"folio serve did not answer in {self.start_timeout} s:\n{self.output}")

    def stop(self, timeout=30):
        """SIGTERM, then the exit status (a server that does not stop in `timeout` s is killed and
        the test fails)."""
        if not self.running:
            return self.process.returncode if self.process else None
        self.process.terminate()
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"folio serve did not stop on SIGTERM in {timeout} s")

    def __enter__(self):
        return self.start()

    def __exit__(self, *_):
        if self.running:
            self.stop()
        os.unlink(self._log.name)


@contextlib.contextmanager
def serving(folio, library, extra=()):
    """`folio serve LIBRARY --rescan 1` (with `extra` arguments) while the block runs, its base URL
    given; then the server is stopped and the library folder removed."""
    try:
        with Server(folio, library, "--rescan", "1", *extra) as server:
            yield server.base
    finally:
        shutil.rmtree(library, ignore_errors=True)


def launch(playwright, *args):
    """Debian's Chromium through Playwright."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", *args])


MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"


def _xvfb(screen):
    """An Xvfb on a free display: (process, display number)."""
    for _ in range(5):
        # Xvfb picks a free display and writes its number; one that ends at once is started
        # again, saying why.
        read, write = os.pipe()
        said = tempfile.TemporaryFile()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                                pass_fds=(write,), stderr=said)
        os.close(write)
        # Read up to the line's end: Xvfb writes the number and the newline apart, and stops
        # ("Cannot write display number") when the pipe is closed between the two.
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                break
            answer += chunk
        os.close(read)
        display = answer.decode().strip()
        time.sleep(0.3)
        if display and xvfb.poll() is None:
            return xvfb, display
        xvfb.wait()
        said.seek(0)
        print(f"Xvfb ended at once (display {display!r}): {said.read().decode(errors='replace')[-500:]}", file=sys.stderr)
        time.sleep(0.5)
    raise AssertionError("Xvfb did not start")


@contextlib.contextmanager
def webkit(width=1024, height=1366, scale=2, tries=3):
    """WebKitGTK — Safari's engine, the only one on an iPad — driven by Selenium through Debian's
    webkit2gtk-driver (its MiniBrowser), in an Xvfb display of its own: a window of `width` ×
    `height` CSS px at `scale` device px each (2: an iPad's). Yields the driver; quits it and
    the display after the block. A browser that does not start within a minute (its display
    gone) is started again, `tries` times in all, never waited for without end."""
    import threading
    from selenium import webdriver
    from selenium.webdriver import WebKitGTKOptions
    from selenium.webdriver.webkitgtk.service import Service
    screen = f"{(width + 100) * scale}x{(height + 100) * scale}x24"
    driver = xvfb = None
    for attempt in range(1, tries + 1):
        xvfb, display = _xvfb(screen)
        env = dict(os.environ, DISPLAY=f":{display}", GDK_SCALE=str(scale), GDK_BACKEND="x11")
        options = WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = Service(env=env)
        watchdog = threading.Timer(60, lambda: service.process and service.process.kill())
        watchdog.start()
        try:
            driver = webdriver.WebKitGTK(options=options, service=service)
            break
        except Exception as error:
            print(f"WebKitGTK did not start (try {attempt} of {tries}): {type(error).__name__}", file=sys.stderr)
            xvfb.terminate()
            xvfb.wait()
            if attempt == tries:
                raise
        finally:
            watchdog.cancel()
    try:
        driver.set_window_size(width, height)
        yield driver
    finally:
        driver.quit()
        xvfb.terminate()
        xvfb.wait()


def until(driver, script, holds, seconds=20, what="a condition", every=0.05):
    """Runs `script` (a function body: `return …`) in the WebDriver `driver`'s page every `every`
    s until `holds(value)`; returns the value."""
    deadline = time.time() + seconds
    value = None
    while time.time() < deadline:
        try:
            value = driver.execute_script(script)
        except Exception as error:   # the page navigating meanwhile: asked again
            value = f"({type(error).__name__})"
        else:
            if holds(value):
                return value
        time.sleep(every)
    raise AssertionError(f"{what} did not happen in {seconds} s (last: {value})")


def page_errors(driver):
    """What the tab's pages recorded since it opened (Assets/errors.js): uncaught errors,
    unhandled rejections and CSP violations, as [{kind, text, page}]."""
    import json
    return json.loads(driver.execute_script("return sessionStorage.getItem('folio.errors') || '[]'"))


def person(browser, errors, **options):
    """A browser context of its own (one person: cookies, storage, service worker) and its page;
    every JavaScript error on the page is appended to `errors`."""
    context = browser.new_context(**({"viewport": {"width": 1100, "height": 900}} | options))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page


def poll(page, script, until, seconds=20, what="a condition", every=0.05):
    """Evaluates `script` in `page` every `every` s until `until(value)` holds; returns the
    value (CSP forbids wait_for_function's eval). A page navigating meanwhile is asked again."""
    from playwright.sync_api import Error as PlaywrightError
    deadline = time.time() + seconds
    value = None
    while time.time() < deadline:
        try:
            value = page.evaluate(script)
        except PlaywrightError as error:
            # The page is navigating (the condition may be that it does): ask the next one.
            if "Execution context was destroyed" not in str(error):
                raise
            value = None
        else:
            if until(value):
                return value
        time.sleep(every)
    raise AssertionError(f"{what} did not happen in {seconds} s (last: {value})")


def rendered(page, number):
    """Waits until the score view has drawn page `number` with ink on it."""
    page.wait_for_selector(f"#stage[data-rendered='{number}']", timeout=20000)
    poll(page, INKED, lambda inked: inked, what=f"ink on page {number}")


def drag(page, start, end, steps=5):
    """Press at `start`, move to `end`, release (page coordinates)."""
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def screenshot(page, folder, name):
    """`page` as `folder/name.png`, the folder made; returns the path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + ".png")
    page.screenshot(path=path)
    return path


def sha256(path):
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def run(main, artifacts):
    """Runs `main(FOLIO, ARTIFACTS_DIR)` from the command line's arguments (default: the release
    binary and `artifacts` under .build); prints '1 passed, 0 failed' or the failure and exits."""
    folio = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/folio")
    folder = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, ".build", artifacts)
    try:
        main(folio, folder)
    except Exception:
        traceback.print_exc()
        print("0 passed, 1 failed")
        sys.exit(1)
    print("1 passed, 0 failed")
