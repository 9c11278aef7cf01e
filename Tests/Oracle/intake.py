"""Files for the intake tests, made and read by tools nobody at Folio wrote.

office DIR TEXT      LibreOffice writes TEXT (a UTF-8 file) as doc.rtf, doc.docx, doc.odt and doc.doc in DIR
hostile DIR          DOCX files a converter must never see: a zip bomb that declares small sizes, one whose
                     ratio gives it away, a part with entities, a part named ../, written with zipfile; 4SB
                     archives naming ../ and absolute files
pixels PDF BASE X Y W H  page 1 of PDF drawn by Poppler, MuPDF and PDFium at 72 dpi: the colour at the centre of
                     the rectangle (x, y from the top-left, points) and at its top-left corner, and BASE's there
"""
import json, os, shutil, struct, subprocess, sys, tempfile, zipfile


def office(folder, text):
    profile = tempfile.mkdtemp(prefix="folio-test-lo-")
    try:
        for target in ("rtf", "docx", "odt", "doc"):
            filters = {"rtf": "rtf", "docx": "docx:MS Word 2007 XML", "odt": "odt", "doc": "doc:MS Word 97"}
            subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                            "--infilter=Text (encoded):UTF8,LF,,,", "--convert-to", filters[target],
                            "--outdir", folder, text], check=True, capture_output=True, timeout=180)
            base = os.path.splitext(os.path.basename(text))[0]
            os.replace(os.path.join(folder, f"{base}.{target}"), os.path.join(folder, f"doc.{target}"))
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def minimal_docx(path, document, extra=()):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("word/document.xml", document)
        for name, data in extra:
            z.writestr(name, data)


def hostile(folder):
    plain = '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>'
    # Honest sizes, a ratio only a bomb has: 200 MB of zeros.
    with zipfile.ZipFile(os.path.join(folder, "ratio.docx"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", plain)
        z.writestr("word/media/zeros.bin", b"\0" * (200 << 20))
    # A bomb that lies: 40 MB of zeros declared as 1,000 bytes in the central directory.
    path = os.path.join(folder, "lying.docx")
    minimal_docx(path, plain, [("word/media/zeros.bin", b"\0" * (40 << 20))])
    data = bytearray(open(path, "rb").read())
    position = 0
    while True:
        position = data.find(b"PK\x01\x02", position)
        if position < 0:
            break
        name_length = struct.unpack("<H", data[position + 28:position + 30])[0]
        name = bytes(data[position + 46:position + 46 + name_length])
        if name == b"word/media/zeros.bin":
            data[position + 24:position + 28] = struct.pack("<I", 1000)
        position += 4
    open(path, "wb").write(bytes(data))
    minimal_docx(os.path.join(folder, "entities.docx"),
                 '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><d>&b;</d>')
    minimal_docx(os.path.join(folder, "traversal.docx"), plain, [("../../evil.xml", "<x/>")])
    # A "/" followed by a combining mark is one character to Swift but a separator on disk.
    minimal_docx(os.path.join(folder, "combining.docx"), plain, [("../\u0301evil.xml", "<x/>")])
    # forScore archives whose file names lead out of the folder they are imported into.
    import gzip, plistlib
    def record(name, data):
        packed, raw = gzip.compress(data), name.encode("utf-8")
        return f"{len(raw):>16}{len(packed):>16}".encode("ascii") + raw + packed
    pdf = b"%PDF-1.4\n%%EOF\n"
    metadata = plistlib.dumps({}, fmt=plistlib.FMT_BINARY)
    for name, member in (("dotdot.4sb", "{%DOCUMENTS_DIR%}/../../escaped.pdf"), ("absolute.4sb", "{%DOCUMENTS_DIR%}//tmp/escaped.pdf"),
                         ("combining.4sb", "{%DOCUMENTS_DIR%}/../\u0301escaped.pdf")):
        open(os.path.join(folder, name), "wb").write(b"<--4SBV03-->" + record("Archive", metadata) + record(member, pdf))


def render(pdf):
    import pymupdf
    import pypdfium2
    from PIL import Image
    work = tempfile.mkdtemp(prefix="folio-test-px-")
    images = {}
    subprocess.run(["pdftoppm", "-r", "72", "-f", "1", "-l", "1", "-png", pdf, os.path.join(work, "p")], check=True)
    images["poppler"] = Image.open(next(os.path.join(work, f) for f in os.listdir(work) if f.startswith("p"))).convert("RGB")
    pixmap = pymupdf.open(pdf)[0].get_pixmap(dpi=72)
    images["mupdf"] = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
    images["pdfium"] = pypdfium2.PdfDocument(pdf)[0].render(scale=1, draw_annots=True).to_pil().convert("RGB")
    shutil.rmtree(work, ignore_errors=True)
    return images


def pixels(pdf, base, x, y, w, h):
    stamped, page = render(pdf), render(base)
    result = {}
    for name, image in stamped.items():
        corner = (int(x + 2), int(y + 2))
        result[name] = {"centre": image.getpixel((int(x + w / 2), int(y + h / 2))), "corner": image.getpixel(corner),
                        "page": page[name].getpixel(corner)}
    print(json.dumps(result))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "office":
        office(sys.argv[2], sys.argv[3])
    elif mode == "hostile":
        hostile(sys.argv[2])
    elif mode == "pixels":
        pixels(sys.argv[2], sys.argv[3], *map(float, sys.argv[4:8]))
