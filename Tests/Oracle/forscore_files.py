"""Builds forScore 4SB archives/backups and 4SC containers in the publicly documented
layout (Python's plistlib and gzip, no Folio code) and checks what `folio import-4sb` /
`import-4sc` wrote with pikepdf, PyMuPDF and pdftoppm.

make-4sb OUT KIND PDF...   KIND archive|backup; prints the expectations as JSON
make-4sc OUT PDF           prints the expectations as JSON
check DIR EXPECT.json      prints {"problems": [...]} (empty when every value read back)
"""
import gzip, io, json, os, plistlib, subprocess, sys, unicodedata

import pymupdf as fitz
import pikepdf
from PIL import Image, ImageDraw


def record(name, data):
    packed = gzip.compress(data)
    raw = name.encode("utf-8")
    return f"{len(raw):>16}{len(packed):>16}".encode("ascii") + raw + packed


def layer_png(width, height):
    """A transparent page-sized layer with one opaque red bar in the top-left quarter."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(image).rectangle([width // 10, height // 10, width // 2, height // 5], fill=(255, 0, 0, 255))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


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


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "make-4sb":
        print(json.dumps(make_4sb(sys.argv[2], sys.argv[3], sys.argv[4:])))
    elif command == "make-4sc":
        print(json.dumps(make_4sc(sys.argv[2], sys.argv[3])))
    elif command == "check":
        check(sys.argv[2], json.load(open(sys.argv[3])))
