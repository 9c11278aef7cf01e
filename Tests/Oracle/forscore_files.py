"""Builds forScore 4SB archives/backups and 4SC containers in the publicly documented
layout (Python's plistlib and gzip, no Folio code) and checks what `folio import-4sb` /
`import-4sc` wrote with pikepdf, PyMuPDF and pdftoppm.

make-4sb OUT KIND PDF...   KIND archive|backup; prints the expectations as JSON
make-4sc OUT PDF           prints the expectations as JSON
check DIR EXPECT.json      prints {"problems": [...]} (empty when every value read back)
make-canvas OUT PDF        a PDF of pages of several sizes (Letter, A4, landscape, cropped,
                           turned, zoomed) and an archive marking each on forScore's canvas
check-canvas PDF EXPECT.json   where Poppler, MuPDF and PDFium show the marks, layers toggled
make-sound OUT PDF AUDIO   an archive of the PDF and a recording its Tracks link (with a loop)

forScore's canvas, after the public decodings: 2160 x 2824 pixels for every page; the page as
shown (after its crop) scaled to fit, centred across when narrower, at the top when wider.
"""
import gzip, io, json, os, plistlib, subprocess, sys, unicodedata

import pymupdf as fitz
import pikepdf
from PIL import Image, ImageDraw


def record(name, data):
    packed = gzip.compress(data)
    raw = name.encode("utf-8")
    return f"{len(raw):>16}{len(packed):>16}".encode("ascii") + raw + packed


CANVAS = (2160, 2824)


def canvas_region(width, height, canvas=CANVAS):
    """Where a page shown width x height lies on the canvas: (x, y, scale)."""
    scale = min(canvas[0] / width, canvas[1] / height)
    return (canvas[0] - width * scale) / 2, 0.0, scale


def png_bytes(image):
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def layer_png(width, height):
    """A transparent canvas with one opaque red bar over the page's top-left quarter."""
    image = Image.new("RGBA", CANVAS, (0, 0, 0, 0))
    x, y, scale = canvas_region(width, height)
    box = [x + width * 0.1 * scale, y + height * 0.1 * scale, x + width * 0.5 * scale, y + height * 0.2 * scale]
    ImageDraw.Draw(image).rectangle([round(v) for v in box], fill=(255, 0, 0, 255))
    return png_bytes(image)


def plan(pdfs):
    """Per file: a (NFD) name, metadata, bookmarks, a text box, a drawing layer."""
    files = []
    for index, pdf in enumerate(pdfs):
        pages = len(pikepdf.open(pdf).pages)
        name = unicodedata.normalize("NFD", ["Dvořák – Humoreska.pdf", "Satie – Gymnopédie.pdf", "Plain.pdf"][index % 3])
        files.append({
            "source": pdf, "name": name, "pages": pages,
            "title": ["Humoreska Nr. 7", "Gymnopédie № 1", "Plain piece"][index % 3],
            "composer": ["Antonín Dvořák", "Erik Satie", "Anon"][index % 3],
            "genre": "Romantic, Piano", "keywords": "gig, encore", "rating": 4, "difficulty": 2,
            "minutes": 3, "seconds": 25, "key": ["G♭ major", "D major", "A minor"][index % 3],
            "bookmarks": [{"Title": "Part B", "First Page": min(2, pages), "Last Page": 0}],
            "text": f"rit. {index + 1}", "layer_page": 1,
        })
    return files


def metadata_plist(files, with_layers_inline=False):
    data = {"&SYS;setlists": ["Friday"], "&SYS;metronome": 1, "&SYS;theme": "dark"}
    for f in files:
        n = f["name"]
        data[n + "|title"] = f["title"]
        data[n + "|composer"] = f["composer"]
        data[n + "|genre"] = f["genre"]
        data[n + "|keywords"] = f["keywords"]
        data[n + "|rating"] = f["rating"]
        data[n + "|difficulty"] = f["difficulty"]
        data[n + "|minutes"] = f["minutes"]
        data[n + "|seconds"] = f["seconds"]
        data[n + "|key"] = f["key"]
        data[n + "|bpm"] = 96
        data[n + "|bookmarks"] = f["bookmarks"]
        data[n + "|1|textAnnotations"] = [{"text": f["text"], "font": "Helvetica", "fontSize": 18,
                                           "color": "1,0,0", "origin": "{0.5, 0.1}", "size": "{0.3, 0.05}"}]
    data["&SET;Friday"] = [
        {"Title": files[0]["title"], "FilePath": files[0]["name"], "Identifier": "a"},
        {"Title": "Part B", "FilePath": files[0]["name"], "Bookmark": "Part B", "First Page": 2, "Last Page": 2, "Identifier": "b"},
        {"Title": "Encore (not here)", "Identifier": "c"},
    ]
    return data


def page_size(pdf):
    page = fitz.open(pdf)[0]
    return int(page.rect.width), int(page.rect.height)


def make_4sb(out, kind, pdfs):
    files = plan(pdfs)
    magic = b"<--4SBV03-->" if kind == "archive" else b"<--4SBV02-->"
    body = record("Archive 2026-11-23.4sb", plistlib.dumps(metadata_plist(files), fmt=plistlib.FMT_BINARY))
    for f in files:
        if kind == "archive":
            body += record("{%DOCUMENTS_DIR%}/" + f["name"], open(f["source"], "rb").read())
        width, height = page_size(f["source"])
        body += record("{%AUX_DIR%}/" + f["name"] + "|1.png", layer_png(width, height))
    if kind == "archive":
        body += record("{%DOCUMENTS_DIR%}/notes.csv", b"Filename,Title\n")
    open(out, "wb").write(magic + body)
    return {"kind": kind, "files": files, "setlist": "Friday"}


def make_4sc(out, pdf):
    files = plan([pdf])
    data = metadata_plist(files)
    data = {k: v for k, v in data.items() if not k.startswith("&")}
    data["pdfData"] = open(pdf, "rb").read()
    width, height = page_size(pdf)
    data[files[0]["name"] + "|1.png"] = layer_png(width, height)
    open(out, "wb").write(gzip.compress(plistlib.dumps(data, fmt=plistlib.FMT_BINARY)))
    return {"kind": "container", "files": files}


def check(folder, expect):
    problems = []
    for f in expect["files"]:
        path = os.path.join(folder, unicodedata.normalize("NFC", f["name"]))
        if expect["kind"] == "backup":
            path = os.path.join(folder, unicodedata.normalize("NFC", f["name"]))
        if not os.path.exists(path):
            problems.append(f"missing {path}")
            continue
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            if str(info.get("/Title", "")) != f["title"]:
                problems.append(f"{path}: Info Title {info.get('/Title')!r} != {f['title']!r}")
            if f["composer"] not in str(info.get("/Author", "")):
                problems.append(f"{path}: Info Author {info.get('/Author')!r} lacks {f['composer']!r}")
            meta = pdf.open_metadata()
            if meta.get("dc:title") != f["title"]:
                problems.append(f"{path}: XMP dc:title {meta.get('dc:title')!r}")
            xmp = bytes(pdf.Root.Metadata.read_bytes()).decode("utf-8", "replace")
            if "Part B" not in xmp:
                problems.append(f"{path}: bookmark 'Part B' not in XMP")
        doc = fitz.open(path)
        first = doc[0]
        annots = list(first.annots() or [])
        texts = [a for a in annots if a.type[1] == "FreeText"]
        stamps = [a for a in annots if a.type[1] == "Stamp"]
        if not any(f["text"] in (a.info.get("content") or "") for a in texts):
            problems.append(f"{path}: no FreeText with {f['text']!r} on page 1 (found {[a.info.get('content') for a in texts]})")
        else:
            box = texts[0].rect
            width, height = doc[0].rect.width, doc[0].rect.height
            # Normalised origin (0.5, 0.1) from the top left, size (0.3, 0.05).
            if abs(box.x0 - 0.5 * width) > 1 or abs(box.y0 - 0.1 * height) > 1 or abs(box.width - 0.3 * width) > 1:
                problems.append(f"{path}: text box at {box}, expected x {0.5 * width}, y {0.1 * height}, w {0.3 * width}")
        if len(stamps) != 1:
            problems.append(f"{path}: {len(stamps)} Stamp annotations on page 1, expected the drawing layer")
        else:
            # The red bar of the layer must show where the PNG has it: render with poppler.
            out = subprocess.run(["pdftoppm", "-r", "36", "-f", "1", "-l", "1", "-png", path],
                                 capture_output=True, check=True).stdout
            image = Image.open(io.BytesIO(out)).convert("RGB")
            w, h = image.size
            r, g, b = image.getpixel((int(w * 0.3), int(h * 0.15)))
            if not (r > 200 and g < 80 and b < 80):
                problems.append(f"{path}: pdftoppm shows {(r, g, b)} where the layer's red bar is")
            r, g, b = image.getpixel((int(w * 0.8), int(h * 0.9)))
            if r > 200 and g < 80 and b < 80:
                problems.append(f"{path}: the layer is not transparent outside its bar")
        check_run = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True)
        if check_run.returncode not in (0, 3):
            problems.append(f"{path}: qpdf --check: {check_run.stdout[-300:]}")
    print(json.dumps({"problems": problems}))


# Pages of the canvas test: (media width, height, what forScore did to it).
CANVAS_PAGES = [
    (612, 792, {}),                                         # Letter: narrower than the canvas
    (595, 842, {}),                                         # A4: narrower still
    (842, 595, {}),                                         # landscape: at the top, gap below
    (612, 792, {"rect": "{{100, 150}, {400, 300}}"}),      # cropped to a wide part
    (612, 792, {"rotation": 90}),                           # turned: shown 792 x 612
    (612, 792, {"zoom": 1.25, "offset": "{-20, -30}"}),    # zoomed: not derivable
    (612, 792, {"half": 0.5}),
]
LAYER = "0C7E5A2B-LAYER-1"


def shown_size(width, height, settings):
    if "rect" in settings:
        numbers = [float(v) for v in settings["rect"].replace("{", " ").replace("}", " ").replace(",", " ").split()]
        return numbers[2], numbers[3]
    if settings.get("rotation") in (90, 270):
        return height, width
    return width, height


def mark(image, center, colour, size=30):
    x, y = center
    ImageDraw.Draw(image).rectangle([round(x - size / 2), round(y - size / 2), round(x + size / 2), round(y + size / 2)], fill=colour)


def make_canvas(out, pdf_out):
    pdf = pikepdf.new()
    for width, height, _ in CANVAS_PAGES:
        pdf.add_blank_page(page_size=(width, height))
    pdf.save(pdf_out)
    name = unicodedata.normalize("NFD", "Janáček – Po zarostlém chodníčku.pdf")
    data = {"&SYS;setlists": []}
    data[name + "|title"] = "Po zarostlém chodníčku"
    data[name + "|composer"] = "Leoš Janáček"
    data[name + "|key"] = 411
    data[name + "|bpm"] = 72
    data[name + "|timeSignature"] = "3/4"
    data[name + "|layers"] = [{"id": LAYER, "name": "Fingerings — Prstoklad", "visible": True}]
    data[name + "|Tracks"] = [{"path": "Audio/Janáček – Dobrú noc.m4a", "title": "Rudolf Firkušný", "loopStart": 12.5, "loopEnd": 48},
                              {"path": "../escape.mp3"}]
    data[name + "|bookmarks"] = [{"Title": "Dobrú noc", "First Page": 2, "Last Page": 3}] * 100 + [{"Title": "Frýdecká panna Maria", "First Page": 4, "Last Page": 0}]
    body = b""
    expect = {"name": unicodedata.normalize("NFC", name), "pages": [], "layer": "Fingerings — Prstoklad"}
    for index, (width, height, settings) in enumerate(CANVAS_PAGES):
        number = index + 1
        if settings:
            data[f"{name}|{number}"] = dict(settings)
        shown = shown_size(width, height, settings)
        x, y, scale = canvas_region(*shown)
        # The red mark at 30 % across, 40 % down the page as shown.
        red = (0.3 * shown[0], 0.4 * shown[1])
        image = Image.new("RGBA", CANVAS, (0, 0, 0, 0))
        mark(image, (x + red[0] * scale, y + red[1] * scale), (255, 0, 0, 255))
        # Outside the page's part of the canvas: must never show.
        if x > 40:
            mark(image, (x / 2, 1000), (0, 160, 0, 255))
        elif y + shown[1] * scale < CANVAS[1] - 40:
            mark(image, (1000, (y + shown[1] * scale + CANVAS[1]) / 2), (0, 160, 0, 255))
        body += record("{%AUX_DIR%}/" + name + f"|{number}.png", png_bytes(image))
        page = {"number": number, "shown": shown, "red": red, "settings": settings}
        if number == 1:
            blue = (0.7 * shown[0], 0.6 * shown[1])
            layer = Image.new("RGBA", CANVAS, (0, 0, 0, 0))
            mark(layer, (x + blue[0] * scale, y + blue[1] * scale), (0, 0, 255, 255))
            body += record("{%AUX_DIR%}/" + name + f"|{number}|{LAYER}.4se", png_bytes(layer))
            page["blue"] = blue
        if number == 2:
            # A text box in canvas points (612 x 800), 50 % across and 20 % down the page.
            px, py, pscale = canvas_region(*shown, canvas=(612, 800))
            data[f"{name}|2|textAnnotations"] = [{"text": "poco a poco — ποco", "fontSize": 14, "layer": LAYER,
                                                  "origin": f"{{{px + 0.5 * shown[0] * pscale}, {py + 0.2 * shown[1] * pscale}}}",
                                                  "size": f"{{{0.3 * shown[0] * pscale}, {0.05 * shown[1] * pscale}}}"}]
            page["text"] = [0.5 * shown[0], 0.2 * shown[1], 0.3 * shown[0], 0.05 * shown[1]]
        expect["pages"].append(page)
    head = record("Archive.4sb", plistlib.dumps(data, fmt=plistlib.FMT_BINARY))
    head += record("{%DOCUMENTS_DIR%}/" + name, open(pdf_out, "rb").read())
    open(out, "wb").write(b"<--4SBV03-->" + head + body)
    return expect


def make_sound(out, pdf, audio):
    """An archive whose score's Tracks name the recording it carries, by its name in the archive."""
    name = unicodedata.normalize("NFD", "Janáček – Dobrú noc.pdf")
    recording = unicodedata.normalize("NFD", "Dobrú noc – Firkušný.wav")
    data = {"&SYS;setlists": [], name + "|title": "Dobrú noc",
            name + "|Tracks": [{"path": recording, "title": "Rudolf Firkušný", "loopStart": 1.5, "loopEnd": 3}]}
    body = record("Archive.4sb", plistlib.dumps(data, fmt=plistlib.FMT_BINARY))
    body += record("{%DOCUMENTS_DIR%}/" + name, open(pdf, "rb").read())
    body += record("{%DOCUMENTS_DIR%}/" + recording, open(audio, "rb").read())
    open(out, "wb").write(b"<--4SBV03-->" + body)
    return {"score": unicodedata.normalize("NFC", name), "recording": unicodedata.normalize("NFC", recording)}


def make_canvas_hostile(out, pdf_out, cyclic_out):
    """Layers of the wrong shape, past the pixel limit and past the last page; and an archive
    whose metadata refers to itself."""
    import struct, zlib
    pdf = pikepdf.new()
    for _ in range(3):
        pdf.add_blank_page(page_size=(612, 792))
    pdf.save(pdf_out)
    name = "Ζορμπάς.pdf"
    data = {name + "|title": "Ζορμπάς"}
    square = png_bytes(Image.new("RGBA", (1000, 1000), (255, 0, 0, 255)))
    # A PNG header that claims 20000 x 26148 pixels (the canvas's shape), with one row of data.
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    huge = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 26148, 8, 6, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(b"\0" * 80001)) + chunk(b"IEND", b"")
    fine = png_bytes(Image.new("RGBA", CANVAS, (0, 0, 0, 0)))
    body = record("Archive.4sb", plistlib.dumps(data, fmt=plistlib.FMT_BINARY))
    body += record("{%DOCUMENTS_DIR%}/" + name, open(pdf_out, "rb").read())
    body += record("{%AUX_DIR%}/" + name + "|1.png", square)
    body += record("{%AUX_DIR%}/" + name + "|2.png", huge)
    body += record("{%AUX_DIR%}/" + name + "|99.png", fine)
    open(out, "wb").write(b"<--4SBV03-->" + body)
    # bplist00: object 0 is a dictionary whose one value is object 0 itself.
    objects = b"\xd1\x01\x00" + b"\x55cycle"
    offsets = bytes([8, 11])
    trailer = b"\0" * 6 + bytes([1, 1]) + struct.pack(">QQQ", 2, 0, 8 + len(objects))
    cyclic = b"bplist00" + objects + offsets + trailer
    open(cyclic_out, "wb").write(b"<--4SBV03-->" + record("Archive.4sb", cyclic) + record("{%DOCUMENTS_DIR%}/" + name, open(pdf_out, "rb").read()))


def folio_fields(pdf):
    """Folio's own XMP properties (http://ns.folio.dev/score/1.0/), simple ones, by name."""
    import xml.etree.ElementTree as ET
    namespace = "{http://ns.folio.dev/score/1.0/}"
    found = {}
    for element in ET.fromstring(bytes(pdf.Root.Metadata.read_bytes())).iter():
        for name, value in element.attrib.items():
            if name.startswith(namespace):
                found[name[len(namespace):]] = value
        if element.tag.startswith(namespace) and element.text and element.text.strip():
            found[element.tag[len(namespace):]] = element.text.strip()
    return found


def find(image, colour):
    """The centre of the pixels near `colour` in an RGB image, or None."""
    import numpy
    pixels = numpy.asarray(image.convert("RGB")).astype(int)
    near = (abs(pixels - numpy.array(colour)).sum(axis=2) < 120)
    ys, xs = numpy.nonzero(near)
    if len(xs) < 4:
        return None
    return float(xs.mean()) + 0.5, float(ys.mean()) + 0.5


def renderings(path, index, dpi, hide_layer=None):
    """Page `index` (0-based) by Poppler, MuPDF and PDFium, with the layer hidden if asked."""
    import pypdfium2, tempfile
    source = path
    if hide_layer:
        with pikepdf.open(path) as pdf:
            groups = [g for g in pdf.Root.OCProperties.OCGs if str(g.Name) == hide_layer]
            pdf.Root.OCProperties.D.OFF = pikepdf.Array(groups)
            source = tempfile.mktemp(suffix=".pdf")
            pdf.save(source)
    shown = {}
    if not hide_layer:
        out = subprocess.run(["pdftoppm", "-cropbox", "-r", str(dpi), "-f", str(index + 1), "-l", str(index + 1), "-png", source],
                             capture_output=True, check=True).stdout
        shown["poppler"] = Image.open(io.BytesIO(out))
    document = fitz.open(source)
    shown["mupdf"] = Image.open(io.BytesIO(document[index].get_pixmap(dpi=dpi, annots=True).tobytes("png")))
    pdfium = pypdfium2.PdfDocument(source)
    shown["pdfium"] = pdfium[index].render(scale=dpi / 72, draw_annots=True, may_draw_forms=True).to_pil()
    return shown


def check_canvas(path, expect):
    problems = []
    dpi = 144
    for page in expect["pages"]:
        index = page["number"] - 1
        for renderer, image in renderings(path, index, dpi).items():
            scale = dpi / 72
            width, height = image.size[0] / scale, image.size[1] / scale
            if abs(width - page["shown"][0]) > 1 or abs(height - page["shown"][1]) > 1:
                problems.append(f"page {page['number']} ({renderer}): shown {width:.0f} x {height:.0f}, expected {page['shown']}")
            found = find(image, (255, 0, 0))
            if found is None:
                problems.append(f"page {page['number']} ({renderer}): no red mark")
            else:
                x, y = found[0] / scale, found[1] / scale
                if abs(x - page["red"][0]) > 2 or abs(y - page["red"][1]) > 2:
                    problems.append(f"page {page['number']} ({renderer}): red mark at {x:.1f}, {y:.1f}, expected {page['red']}")
            if find(image, (0, 160, 0)) is not None:
                problems.append(f"page {page['number']} ({renderer}): the canvas outside the page shows")
            if "blue" in page:
                found = find(image, (0, 0, 255))
                if found is None:
                    problems.append(f"page {page['number']} ({renderer}): the layer's blue mark does not show")
                elif abs(found[0] / scale - page["blue"][0]) > 2 or abs(found[1] / scale - page["blue"][1]) > 2:
                    problems.append(f"page {page['number']} ({renderer}): blue mark at {found}, expected {page['blue']}")
        if "blue" in page:
            for renderer, image in renderings(path, index, dpi, hide_layer=expect["layer"]).items():
                if find(image, (0, 0, 255)) is not None:
                    problems.append(f"page {page['number']} ({renderer}): the blue mark shows with its layer off")
                if find(image, (255, 0, 0)) is None:
                    problems.append(f"page {page['number']} ({renderer}): the red mark went with the layer")
        if "text" in page:
            document = fitz.open(path)   # kept while its annotations are read
            shown_page = document[index]
            annots = [a for a in shown_page.annots() if a.type[1] == "FreeText"]
            if len(annots) != 1:
                problems.append(f"page {page['number']}: {len(annots)} FreeText annotations, expected 1")
            else:
                r = annots[0].rect
                got = [r.x0, r.y0, r.width, r.height]
                if any(abs(a - b) > 2 for a, b in zip(got, page["text"])):
                    problems.append(f"page {page['number']}: text box at {got}, expected {page['text']}")
    with pikepdf.open(path) as pdf:
        layers = [str(g.Name) for g in pdf.Root.OCProperties.OCGs] if "/OCProperties" in pdf.Root else []
        if layers != [expect["layer"]]:
            problems.append(f"layers {layers}, expected [{expect['layer']!r}]")
        for page in expect["pages"]:
            p = pdf.pages[page["number"] - 1]
            settings = page["settings"]
            rotate = int(p.obj.get("/Rotate", 0))
            if rotate != settings.get("rotation", 0):
                problems.append(f"page {page['number']}: /Rotate {rotate}, expected {settings.get('rotation', 0)}")
            if "rect" in settings:
                box = [float(v) for v in p.obj.CropBox]
                # {{100, 150}, {400, 300}} from the top left of a 792-high page.
                if any(abs(a - b) > 0.5 for a, b in zip(box, [100, 792 - 450, 500, 792 - 150])):
                    problems.append(f"page {page['number']}: CropBox {box}")
        xmp = bytes(pdf.Root.Metadata.read_bytes()).decode("utf-8")
        if "7=0.5" not in xmp:
            problems.append("the half-page-turn split of page 7 is not in the XMP")
        if xmp.count("Dobrú noc") < 1:
            problems.append("the bookmark is missing")
        import xml.etree.ElementTree as ET
        tracks = [json.loads(li.text) for element in ET.fromstring(bytes(pdf.Root.Metadata.read_bytes())).iter()
                  if element.tag == "{http://ns.folio.dev/score/1.0/}tracks"
                  for li in element.iter("{http://www.w3.org/1999/02/22-rdf-syntax-ns#}li")]
        if tracks != [{"file": "Audio/Janáček – Dobrú noc.m4a", "title": "Rudolf Firkušný", "loopStart": 12.5, "loopEnd": 48}]:
            problems.append(f"audio tracks in Folio's XMP: {tracks}")
        folio = folio_fields(pdf)
        if (folio.get("tempo"), folio.get("timeSignature")) != ("72", "3/4"):
            problems.append(f"tempo and time signature in Folio's XMP: {folio}")
    qpdf = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True)
    if qpdf.returncode not in (0, 3):
        problems.append(f"qpdf --check: {qpdf.stdout[-300:]}")
    print(json.dumps({"problems": problems}))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "make-4sb":
        print(json.dumps(make_4sb(sys.argv[2], sys.argv[3], sys.argv[4:])))
    elif command == "make-4sc":
        print(json.dumps(make_4sc(sys.argv[2], sys.argv[3])))
    elif command == "check":
        check(sys.argv[2], json.load(open(sys.argv[3])))
    elif command == "make-canvas":
        print(json.dumps(make_canvas(sys.argv[2], sys.argv[3])))
    elif command == "make-canvas-hostile":
        make_canvas_hostile(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "make-sound":
        print(json.dumps(make_sound(sys.argv[2], sys.argv[3], sys.argv[4])))
    elif command == "check-canvas":
        check_canvas(sys.argv[2], json.load(open(sys.argv[3])))
