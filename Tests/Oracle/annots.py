#!/usr/bin/env python3
"""Annotations as established tools see them, for Folio's annotation tests.

  annots.py read FILE...
      One JSON object: {FILE: {"fitz": [...], "pike": [...], "userUnit": [pages with a
      /UserUnit]} or {"error": ...}} with an entry per annotation in page
      order. PyMuPDF lists page.annots(), page.links() (as "Link") and page.widgets() (as
      "Widget"); rects are turned back into PDF user space with PyMuPDF's own page matrix and
      crop box position. pikepdf lists the raw /Annots entries. Each entry: page (1-based),
      subtype, rect [x1,y1,x2,y2], contents, author, color (#rrggbb or null), opacity, name.
      Text fields are what each tool decodes.

  annots.py render FILE [FILE...] --page N
      Renders page N of each file at 72 dpi with Poppler (pdftoppm), MuPDF (mutool draw) and
      PDFium (pypdfium2) and prints, per engine, the box of pixels where each later file
      differs from the first: {"poppler": [[x0,y0,x1,y1] or null, ...], ...}. At 72 dpi a
      pixel is a point of the page as displayed (crop box, rotation applied, top-left origin).

  annots.py render-batch JOBS.json
      JOBS is a list of {"files": [...], "page": N}; prints the list of render results.

  annots.py variant IN OUT ROTATE X1,Y1,X2,Y2
      Writes IN with /Rotate and /CropBox set on every page (pikepdf), for rotated tests.

  annots.py fitz-annots FILE...
      PyMuPDF's annotations of every page with their rect as displayed (rect * rotation
      matrix), colours, opacity, contents and the raw /DA.

  annots.py words FILE --page N
      PyMuPDF's words of the page with their boxes in display coordinates.
"""
import json
import os
import subprocess
import sys
import tempfile

import pikepdf
import pymupdf


def hexcolor(values):
    if not values:
        return None
    values = [float(v) for v in values]
    if len(values) == 1:
        values = values * 3
    elif len(values) == 4:
        c, m, y, k = values
        values = [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)]
    elif len(values) != 3:
        return None
    return "#" + "".join("%02x" % round(min(1, max(0, v)) * 255) for v in values)


def user_rect(page, rect):
    # MuPDF scales pages by /UserUnit; PDF user space does not.
    kind, value = page.parent.xref_get_key(page.xref, "UserUnit")
    unit = float(value) if kind in ("int", "float") and float(value) > 0 else 1.0
    r = pymupdf.Rect(rect) * ~page.transformation_matrix * (1 / unit)
    x, y = page.cropbox_position
    x, y = x / unit, y / unit
    return [min(r.x0, r.x1) + x, min(r.y0, r.y1) + y, max(r.x0, r.x1) + x, max(r.y0, r.y1) + y]


def read_fitz(path, password):
    doc = pymupdf.open(path)
    if password:
        doc.authenticate(password)
    out = []
    for page in doc:
        entries = []
        for annot in page.annots():
            info = annot.info
            entries.append({"xref": annot.xref, "subtype": annot.type[1], "rect": user_rect(page, annot.rect),
                            "contents": info.get("content") or None, "author": info.get("title") or None,
                            "name": info.get("id") or None,
                            "color": hexcolor((annot.colors or {}).get("stroke")),
                            "opacity": annot.opacity})
        for link in page.links():
            entries.append({"xref": link.get("xref", 0), "subtype": "Link", "rect": user_rect(page, link["from"])})
        for widget in page.widgets():
            entries.append({"xref": widget.xref, "subtype": "Widget", "rect": user_rect(page, widget.rect)})
        for entry in entries:
            entry["page"] = page.number + 1
        out += entries
    return out


def text(value):
    if value is None:
        return None
    try:
        return str(value)
    except Exception:
        return None


def read_pike(path, password):
    pdf = pikepdf.open(path, password=password or "")
    out = []
    for number, page in enumerate(pdf.pages, 1):
        annots = page.obj.get("/Annots")
        if not isinstance(annots, pikepdf.Array):
            continue
        for annot in annots:
            if not isinstance(annot, pikepdf.Dictionary):
                continue
            rect = annot.get("/Rect")
            try:
                r = [float(v) for v in rect] if rect is not None and len(rect) == 4 else None
            except Exception:
                r = None
            if r:
                r = [min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3])]
            subtype = annot.get("/Subtype")
            color = annot.get("/C")
            try:
                color = hexcolor([float(v) for v in color]) if isinstance(color, pikepdf.Array) else None
            except Exception:
                color = None
            opacity = annot.get("/CA")
            try:
                opacity = float(opacity) if opacity is not None else None
            except (TypeError, ValueError):
                opacity = None
            out.append({"page": number, "xref": annot.objgen[0],
                        "subtype": str(subtype)[1:] if isinstance(subtype, pikepdf.Name) else None,
                        "rect": r, "contents": text(annot.get("/Contents")), "author": text(annot.get("/T")),
                        "name": text(annot.get("/NM")), "color": color,
                        "opacity": opacity})
    return out


def render_all(paths, page):
    import pypdfium2
    from PIL import Image, ImageChops

    result = {"poppler": [], "mupdf": [], "pdfium": []}
    with tempfile.TemporaryDirectory() as tmp:
        images = {name: [] for name in result}
        for index, path in enumerate(paths):
            base = os.path.join(tmp, "p%d" % index)
            subprocess.run(["pdftoppm", "-cropbox", "-r", "72", "-f", str(page), "-l", str(page), "-singlefile", "-png",
                            path, base], check=True, capture_output=True)
            images["poppler"].append(Image.open(base + ".png").convert("RGB"))
            mu = os.path.join(tmp, "m%d.png" % index)
            subprocess.run(["mutool", "draw", "-q", "-r", "72", "-o", mu, path, str(page)], check=True,
                           capture_output=True)
            images["mupdf"].append(Image.open(mu).convert("RGB"))
            doc = pypdfium2.PdfDocument(path)
            images["pdfium"].append(doc[page - 1].render(scale=1, draw_annots=True).to_pil().convert("RGB"))
            doc.close()
        for name, shots in images.items():
            first = shots[0]
            for other in shots[1:]:
                if other.size != first.size:
                    result[name].append({"size": [first.size, other.size]})
                    continue
                diff = ImageChops.difference(first, other).convert("L").point(lambda v: 255 if v > 24 else 0)
                result[name].append(list(diff.getbbox()) if diff.getbbox() else None)
    return result


def fitz_annots(path):
    doc = pymupdf.open(path)
    out = []
    for page in doc:
        for annot in page.annots():
            shown = annot.rect * page.rotation_matrix
            out.append({"page": page.number + 1, "subtype": annot.type[1], "name": annot.info.get("id"),
                        "display": [shown.x0, shown.y0, shown.x1, shown.y1],
                        "contents": annot.info.get("content"),
                        "color": hexcolor((annot.colors or {}).get("stroke")),
                        "fill": hexcolor((annot.colors or {}).get("fill")),
                        "opacity": annot.opacity, "da": doc.xref_get_key(annot.xref, "DA")[1]})
    return out


def main():
    args = sys.argv[1:]
    if args[0] == "read":
        result = {}
        for path in args[1:]:
            try:
                scaled = [page.number + 1 for page in pymupdf.open(path)
                          if page.parent.xref_get_key(page.xref, "UserUnit")[0] != "null"]
                result[path] = {"fitz": read_fitz(path, None), "pike": read_pike(path, None), "userUnit": scaled}
            except Exception as error:  # the test counts these
                result[path] = {"error": str(error)}
        print(json.dumps(result))
    elif args[0] == "render":
        page = int(args[args.index("--page") + 1])
        paths = [a for a in args[1:] if a != "--page" and a != str(page)]
        print(json.dumps(render_all(paths, page)))
    elif args[0] == "render-batch":
        with open(args[1]) as handle:
            jobs = json.load(handle)
        print(json.dumps([render_all(job["files"], job["page"]) for job in jobs]))
    elif args[0] == "variant":
        pdf = pikepdf.open(args[1])
        box = [float(v) for v in args[4].split(",")]
        for page in pdf.pages:
            page.obj.Rotate = int(args[3])
            page.obj.CropBox = pikepdf.Array(box)
        pdf.save(args[2])
    elif args[0] == "fitz-annots":
        result = {}
        for path in args[1:]:
            result[path] = fitz_annots(path)
        print(json.dumps(result))
    elif args[0] == "words":
        page = int(args[args.index("--page") + 1])
        doc = pymupdf.open(args[1])
        p = doc[page - 1]
        words = [[w[4]] + list(pymupdf.Rect(w[:4]) * p.rotation_matrix) for w in p.get_text("words")]
        print(json.dumps(words))
    else:
        sys.exit("usage: annots.py read|render|render-batch|variant|fitz-annots|words ...")


if __name__ == "__main__":
    main()
