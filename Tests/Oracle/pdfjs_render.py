"""Renders one page of PDFs with pdf.js (Debian's libjs-pdf) in Chromium (Debian's chromium,
driven by Playwright), annotations' appearance streams included, as a fourth renderer beside
Poppler, MuPDF and PDFium.
Usage: pdfjs_render.py SCALE PAGE(0-based) IN.pdf OUT.png [IN.pdf OUT.png ...]
Writes each page as a PNG; exit 0 when every one was drawn."""
import base64, functools, http.server, os, shutil, sys, tempfile, threading
from playwright.sync_api import sync_playwright

PDFJS = "/usr/share/javascript/pdf/build"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
scale, page_index = float(sys.argv[1]), int(sys.argv[2])
pairs = list(zip(sys.argv[3::2], sys.argv[4::2]))

root = tempfile.mkdtemp(prefix="folio-pdfjs-")
for name in ("pdf.js", "pdf.worker.js"):
    os.symlink(os.path.join(PDFJS, name), os.path.join(root, name))
for index, (pdf, _) in enumerate(pairs):
    shutil.copy(pdf, os.path.join(root, f"{index}.pdf"))
with open(os.path.join(root, "index.html"), "w") as page:
    page.write("""<!doctype html><meta charset="utf-8"><script src="pdf.js"></script>
<script>
pdfjsLib.GlobalWorkerOptions.workerSrc = 'pdf.worker.js';
async function render(url, index, scale) {
  const pdf = await pdfjsLib.getDocument({url}).promise;
  const page = await pdf.getPage(index + 1);
  const viewport = page.getViewport({scale});
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(viewport.width); canvas.height = Math.round(viewport.height);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white'; context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({canvasContext: context, viewport, annotationMode: pdfjsLib.AnnotationMode.ENABLE}).promise;
  return canvas.toDataURL('image/png');
}
</script>""")

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

handler = functools.partial(Quiet, directory=root)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
try:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        tab = browser.new_page()
        tab.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        for index, (_, out) in enumerate(pairs):
            data = tab.evaluate("([u, i, s]) => render(u, i, s)", [f"{index}.pdf", page_index, scale])
            with open(out, "wb") as png:
                png.write(base64.b64decode(data.split(",", 1)[1]))
        browser.close()
finally:
    server.shutdown()
    shutil.rmtree(root, ignore_errors=True)
