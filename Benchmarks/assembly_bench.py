"""Merge the corpus scores, split the merged anthology by its outline, make a PDF of photos
and scans, and set long texts, with Folio and with established tools; medians of REPEAT runs."""
import glob, os, random, shutil, statistics, subprocess, sys, tempfile, time
import fpdf, img2pdf, pikepdf, pypdf
from PIL import Image

folio, corpus, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
scores = sorted(glob.glob(os.path.join(corpus, "scores", "*.pdf")))
work = tempfile.mkdtemp()

def timed(run):
    times = []
    for i in range(repeat):
        out = os.path.join(work, f"run{i}")
        shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
        start = time.perf_counter(); run(out); times.append(time.perf_counter() - start)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    return statistics.median(times), size

def table(title, rows):
    base = rows[0][1]
    print(f"\n{title}\n| tool | median s | output bytes | time vs Folio |\n| --- | --- | --- | --- |")
    for name, (seconds, size) in rows:
        print(f"| {name} | {seconds:.3f} | {size:,} | {seconds / base[0]:.2f}× |")

# Merge.
def folio_merge(out): subprocess.run([folio, "merge", *scores, "-o", f"{out}/m.pdf"], check=True, capture_output=True)
def qpdf_merge(out): subprocess.run(["qpdf", "--empty", "--pages", *scores, "--", f"{out}/m.pdf"], check=True)
def pikepdf_merge(out):
    pdf = pikepdf.new()
    for path in scores: pdf.pages.extend(pikepdf.open(path).pages)
    pdf.save(f"{out}/m.pdf")
def pypdf_merge(out):
    writer = pypdf.PdfWriter()
    for path in scores: writer.append(path)
    writer.write(f"{out}/m.pdf")
table(f"Merge of the {len(scores)} corpus scores", [("folio merge", timed(folio_merge)), ("qpdf --pages", timed(qpdf_merge)),
      ("pikepdf", timed(pikepdf_merge)), ("pypdf", timed(pypdf_merge))])

# Split the merged anthology at its outline entries.
book = os.path.join(work, "book.pdf")
subprocess.run([folio, "merge", *scores, "-o", book], check=True, capture_output=True)
ranges, start = [], 1
for path in scores:
    count = len(pikepdf.open(path).pages); ranges.append((start, start + count - 1)); start += count
def folio_split(out): subprocess.run([folio, "split", book, "--by", "toc", "--output-dir", out], check=True, capture_output=True)
def qpdf_split(out):
    for i, (a, b) in enumerate(ranges): subprocess.run(["qpdf", book, "--pages", book, f"{a}-{b}", "--", f"{out}/{i}.pdf"], check=True)
def pikepdf_split(out):
    source = pikepdf.open(book)
    for i, (a, b) in enumerate(ranges):
        pdf = pikepdf.new(); pdf.pages.extend(source.pages[a - 1:b]); pdf.save(f"{out}/{i}.pdf")
def pypdf_split(out):
    reader = pypdf.PdfReader(book)
    for i, (a, b) in enumerate(ranges):
        writer = pypdf.PdfWriter()
        for page in reader.pages[a - 1:b]: writer.add_page(page)
        writer.write(f"{out}/{i}.pdf")
table(f"Split of the merged anthology ({start - 1} pages) into {len(ranges)} pieces", [("folio split", timed(folio_split)),
      ("qpdf --pages (a process per piece)", timed(qpdf_split)), ("pikepdf", timed(pikepdf_split)), ("pypdf", timed(pypdf_split))])

# Images: 12 photos (JPEG, 3000 × 2000) and 12 scans (grayscale PNG, 2480 × 3508 at 300 dpi).
random.seed(3)
images = []
for i in range(12):
    photo = Image.effect_noise((3000, 2000), 40).convert("RGB"); path = os.path.join(work, f"photo{i}.jpg")
    photo.save(path, quality=85); images.append(path)
for i in range(12):
    scan = Image.effect_noise((2480, 3508), 20).point(lambda v: 255 if v > 100 else 0); path = os.path.join(work, f"scan{i}.png")
    scan.save(path, dpi=(300, 300)); images.append(path)
def folio_make(out): subprocess.run([folio, "make", *images, "-o", f"{out}/i.pdf"], check=True, capture_output=True)
def img2pdf_make(out):
    with open(f"{out}/i.pdf", "wb") as f: f.write(img2pdf.convert(images))
rows = [("folio make", timed(folio_make)), ("img2pdf", timed(img2pdf_make))]
table("24 images (12 JPEG photos, 12 PNG scans) to one PDF", rows)
for name in ("folio", "img2pdf"):
    out = os.path.join(work, f"check-{name}.pdf")
    (subprocess.run([folio, "make", *images, "-o", out], check=True, capture_output=True) if name == "folio"
     else open(out, "wb").write(img2pdf.convert(images)))
    pdf = pikepdf.open(out)
    same = all(list(page.images.values())[0].read_raw_bytes() == open(images[i], "rb").read() for i, page in enumerate(pdf.pages[:12]))
    print(f"{name}: JPEG bytes embedded unchanged: {same}")

# Text: 10,000 lines of lyrics (Helvetica, wrapped) and a chord chart of 2,000 chord + lyric pairs (Courier).
words = "grace amazing sweet sound saved wretch like me once was lost but now am found blind see".split()
lyrics = os.path.join(work, "lyrics.txt")
with open(lyrics, "w") as f:
    f.write("Lyrics\n\n" + "\n".join(" ".join(random.choice(words) for _ in range(random.randrange(3, 30))) for _ in range(10_000)))
chart = os.path.join(work, "chart.txt")
with open(chart, "w") as f:
    f.write("Chart\n\n" + "\n".join("G       C        D7      Em\n" + " ".join(random.choice(words) for _ in range(7)) for _ in range(2_000)))
def folio_text(path):
    return lambda out: subprocess.run([folio, "make", path, "-o", f"{out}/t.pdf", "--paper", "a4"], check=True, capture_output=True)
def fpdf_text(path, font):
    def run(out):
        pdf = fpdf.FPDF(unit="pt", format="A4"); pdf.set_margins(50, 50, 50); pdf.set_auto_page_break(True, 50)
        pdf.add_page(); pdf.set_font(font, size=11)
        pdf.multi_cell(0, 11 * 1.25, open(path).read()); pdf.output(f"{out}/t.pdf")
    return run
for name, path, font in (("10,000 lines of lyrics", lyrics, "Helvetica"), ("a chord chart of 4,000 lines", chart, "Courier")):
    rows = [("folio make", timed(folio_text(path))), (f"fpdf2 multi_cell ({font})", timed(fpdf_text(path, font)))]
    table(f"Text to PDF: {name}", rows)
shutil.rmtree(work)
