"""Checks the pieces `folio split` wrote. Input (argv[1], JSON): [[source, piece, first, last], ...]
with 1-based source pages. For each piece: qpdf --check's exit status, its page count (pikepdf), and
whether its first page renders (PDFium, small) exactly as the source page it came from."""
import json, subprocess, sys
import pikepdf, pypdfium2 as pdfium

def render(path, index):
    pdf = pdfium.PdfDocument(path)
    return pdf[index].render(scale=0.25).to_pil().convert("RGB").tobytes()

result = []
for source, piece, first, last in json.load(open(sys.argv[1])):
    check = subprocess.run(["qpdf", "--check", piece], capture_output=True).returncode
    try:
        with pikepdf.open(piece) as pdf:
            pages = len(pdf.pages)
    except Exception:
        pages = -1
    try:
        same = render(piece, 0) == render(source, first - 1)
    except Exception as error:
        same = str(error)
    result.append({"piece": piece, "check": check, "pages": pages, "same": same})
print(json.dumps(result))
