"""Where annotations drew, as four renderers see it: each page rendered by Poppler (pdftoppm),
MuPDF (PyMuPDF), PDFium (pypdfium2) and pdf.js in Chromium (pdfjs_render.py) at 2 px/pt before (BEFORE.pdf) and after (AFTER.pdf);
per renderer, the pixels that changed outside every annotation rectangle of the page (grown by
2 pt), and per rectangle the pixels darker than 128 inside it.
Usage: annot_ink.py BEFORE.pdf AFTER.pdf PAGE(0-based)
Prints {"rects": [[x0,y0,x1,y1] top-left, points], "renderers": {name: {"outside": n, "dark": [n per rect],
"changed": [pixels that changed, per rect]}}}."""
import io, json, os, subprocess, sys, tempfile
import pymupdf, pypdfium2
from PIL import Image, ImageChops

SCALE = 2
before, after, page_index = sys.argv[1], sys.argv[2], int(sys.argv[3])
document = pymupdf.open(after)
page = document[page_index]
rects = [list(a.rect) for a in page.annots() if a.type[1] == "FreeText"]

def poppler(path):
    out = subprocess.run(["pdftoppm", "-r", str(72 * SCALE), "-f", str(page_index + 1), "-l", str(page_index + 1),
                          "-png", path], capture_output=True, check=True).stdout
    return Image.open(io.BytesIO(out)).convert("L")

def mupdf(path):
    pix = pymupdf.open(path)[page_index].get_pixmap(matrix=pymupdf.Matrix(SCALE, SCALE), annots=True)
    return Image.frombytes("RGB", (pix.width, pix.height), pix.samples).convert("L")

def pdfium(path):
    pdf = pypdfium2.PdfDocument(path)
    return pdf[page_index].render(scale=SCALE, may_draw_forms=True).to_pil().convert("L")

def pdfjs_pair():
    """Both files in one Chromium."""
    with tempfile.TemporaryDirectory() as folder:
        a, b = os.path.join(folder, "a.png"), os.path.join(folder, "b.png")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pdfjs_render.py")
        subprocess.run([sys.executable, script, str(SCALE), str(page_index), before, a, after, b], check=True, capture_output=True)
        return Image.open(a).convert("L"), Image.open(b).convert("L")

pairs = [(name, lambda render=render: (render(before), render(after)))
         for name, render in [("poppler", poppler), ("mupdf", mupdf), ("pdfium", pdfium)]] + [("pdfjs", pdfjs_pair)]
result = {"rects": rects, "renderers": {}}
for name, render_both in pairs:
    a, b = render_both()
    if a.size != b.size:
        b = b.resize(a.size)
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > 40 else 0)
    mask = Image.new("L", diff.size, 255)
    for x0, y0, x1, y1 in rects:
        mask.paste(0, (int((x0 - 2) * SCALE), int((y0 - 2) * SCALE), int((x1 + 2) * SCALE) + 1, int((y1 + 2) * SCALE) + 1))
    outside = ImageChops.multiply(diff, mask).histogram()[255]
    dark, changed = [], []
    for x0, y0, x1, y1 in rects:
        box = (int(x0 * SCALE), int(y0 * SCALE), int(x1 * SCALE), int(y1 * SCALE))
        dark.append(sum(b.crop(box).point(lambda v: 255 if v < 128 else 0).histogram()[255:]))
        changed.append(diff.crop(box).histogram()[255])
    result["renderers"][name] = {"outside": outside, "dark": dark, "changed": changed}
print(json.dumps(result))
