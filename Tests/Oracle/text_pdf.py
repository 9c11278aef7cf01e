"""What reference tools read from a PDF Folio made from text: qpdf's verdict, pages and their
sizes, Info, pdftotext's layout text, every text span (font, size, box) from PyMuPDF, the chords
(spans in a bold font) with the lyric characters under them, and the fonts pdffonts lists."""
import json, subprocess, sys
import pikepdf, pymupdf

path = sys.argv[1]
check = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True)
layout = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, text=True).stdout
fonts = subprocess.run(["pdffonts", path], capture_output=True, text=True).stdout
pdf = pikepdf.open(path)
doc = pymupdf.open(path)
spans, chords, grid = [], [], []
margin = float(sys.argv[2]) if len(sys.argv) > 2 else 50.0
for number, page in enumerate(doc):
    lines = []
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                text = "".join(c["c"] for c in span["chars"])
                spans.append({"page": number, "font": span["font"], "size": span["size"], "bbox": span["bbox"], "text": text})
                lines.append(span)
    # Fixed-pitch text back on a grid of columns (0.6 em), row by baseline.
    rows = {}
    for span in lines:
        if "Courier" not in span["font"]:
            continue
        for char in span["chars"]:
            x, y = char["origin"]
            rows.setdefault(round(y, 1), {})[round((x - margin) / (0.6 * span["size"]))] = char["c"]
    for y in sorted(rows):
        row = rows[y]
        grid.append("".join(row.get(column, " ") for column in range(max(row) + 1)).rstrip())
    for span in lines:
        if "Bold" not in span["font"]:
            continue
        x, y = span["chars"][0]["origin"]
        # The lyric under a chord: the nearest regular span below whose characters start at the chord's x.
        best = None
        for other in lines:
            if "Bold" in other["font"]:
                continue
            oy = other["chars"][0]["origin"][1]
            if not (y < oy <= y + 3 * span["size"]):
                continue
            for index, char in enumerate(other["chars"]):
                if abs(char["origin"][0] - x) < 0.6 and (best is None or oy < best[0]):
                    best = (oy, "".join(c["c"] for c in other["chars"][index:index + 3]))
        chords.append({"chord": "".join(c["c"] for c in span["chars"]).strip(), "under": best[1] if best else None,
                       "page": number, "y": y})
print(json.dumps({
    "check": check.returncode, "checkOut": check.stdout + check.stderr, "pages": len(pdf.pages),
    "boxes": [[float(v) for v in p.mediabox] for p in pdf.pages],
    "info": {str(k): str(v) for k, v in pdf.docinfo.items()}, "layout": layout, "fonts": fonts,
    "spans": spans, "chords": chords, "grid": grid, "text": "".join(p.get_text() for p in doc),
}))
