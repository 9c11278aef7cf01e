"""Where each page has ink, as PDFium (pypdfium2) renders it at 4 px/pt: the box of pixels darker
than 250 in default user space, with the page's crop box: [{"ink": [x1,y1,x2,y2] | null, "crop": [...]}]."""
import json, sys
import pypdfium2 as pdfium

SCALE = 4
pages = []
pdf = pdfium.PdfDocument(sys.argv[1])
for index in range(len(pdf)):
    page = pdf[index]
    crop = page.get_cropbox()
    image = page.render(scale=SCALE, rotation=0).to_pil().convert("L")
    box = image.point(lambda v: 255 if v < 250 else 0).getbbox()
    ink = None
    if box:
        ink = [crop[0] + box[0] / SCALE, crop[3] - box[3] / SCALE, crop[0] + box[2] / SCALE, crop[3] - box[1] / SCALE]
    pages.append({"ink": ink, "crop": list(crop)})
print(json.dumps(pages))
