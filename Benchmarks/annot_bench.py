#!/usr/bin/env python3
"""Annotation speed, in one run (not a test):

1. Add one FreeText ("Cut to bar 48", 12 pt, in a 200 x 40 box) and one Ink stroke to the
   first page of each of the 20 largest corpus files every contender can annotate: Folio
   (`folio annot add` twice, one process each; `folio annot import` of both, one process
   per file and one for all files: incremental, appearance streams, synced saves by the
   automatic save path), PyMuPDF (add_freetext_annot, add_ink_annot, saveIncr, no fsync)
   and pypdf (FreeText and Ink dictionaries, incremental writer). Prints ms/file, bytes
   appended and ratios.
2. List every annotation of every corpus file that opens, of 500 engraved-score-like files
   (pikepdf writes them: 112 annotations each, LilyPond's point-and-click links and
   highlights), of 40 forms of 736 widgets, of 20 watermarked 2.3 MB files with a few links (the
   kinds of file issue 74 found slowest), of one file of 32,768 annotations and of one page of 32,768 links whose
   objects all sit in object streams: Folio (`folio annot list --json`, one
   process for all files, on all cores and on one), PyMuPDF (annots, links, widgets with
   their rect, type, info and colours) and pikepdf (the raw /Annots entries), alternating
   round by round; medians, µs per annotation and ratios.

Usage: annot_bench.py FOLIO_BINARY CORPUS_DIR [REPEAT]   (LIST_ONLY=1: only part 2)
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from write_bench import in_process, measure, report, setup, timed

PYMUPDF_ADD = r"""
import sys, time, pymupdf
pymupdf.TOOLS.mupdf_display_errors(False)
start = time.perf_counter()
for path in sys.argv[1:]:
    doc = pymupdf.open(path)
    page = doc[0]
    page.add_freetext_annot(pymupdf.Rect(50, 50, 250, 90), "Cut to bar 48", fontsize=12)
    page.add_ink_annot([[(100, 200), (120, 210), (140, 205), (160, 220)]])
    doc.saveIncr()
    doc.close()
print(time.perf_counter() - start)
"""

PYPDF_ADD = r"""
import sys, time
from pypdf import PdfWriter
from pypdf.annotations import FreeText
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject
start = time.perf_counter()
for path in sys.argv[1:]:
    writer = PdfWriter(path, incremental=True)
    box = writer.pages[0].mediabox
    top = float(box.top)
    writer.add_annotation(0, FreeText(text="Cut to bar 48", rect=(50, top - 90, 250, top - 50), font_size="12pt"))
    ink = DictionaryObject({NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Ink"),
                            NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (98, top - 222, 162, top - 198)]),
                            NameObject("/InkList"): ArrayObject([ArrayObject([FloatObject(v) for v in
                                (100, top - 200, 120, top - 210, 140, top - 205, 160, top - 220)])])})
    writer.add_annotation(0, ink)
    with open(path, "wb") as out:
        writer.write(out)
print(time.perf_counter() - start)
"""

PYMUPDF_LIST = r"""
import sys, time, pymupdf
pymupdf.TOOLS.mupdf_display_errors(False)
start = time.perf_counter()
count = 0
for path in sys.argv[1:]:
    try:
        doc = pymupdf.open(path)
        for page in doc:
            for annot in page.annots():
                _ = (annot.type, annot.rect, annot.info, annot.colors, annot.opacity); count += 1
            for link in page.links():
                _ = link["from"]; count += 1
            for widget in page.widgets():
                _ = widget.rect; count += 1
    except Exception:
        pass
print(count, file=sys.stderr)
print(time.perf_counter() - start)
"""

PIKEPDF_LIST = r"""
import sys, time, pikepdf
start = time.perf_counter()
count = 0
for path in sys.argv[1:]:
    try:
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                annots = page.obj.get("/Annots")
                if isinstance(annots, pikepdf.Array):
                    for annot in annots:
                        if isinstance(annot, pikepdf.Dictionary):
                            _ = (annot.get("/Subtype"), annot.get("/Rect"), annot.get("/Contents"), annot.get("/T"),
                                 annot.get("/C"), annot.get("/NM"), annot.get("/M")); count += 1
    except Exception:
        pass
print(count, file=sys.stderr)
print(time.perf_counter() - start)
"""


def annotatable(folio):
    """Files every contender annotates without an error."""
    def keep(path):
        with tempfile.TemporaryDirectory() as directory:
            target = os.path.join(directory, "probe.pdf")
            for script in (PYMUPDF_ADD, PYPDF_ADD):
                shutil.copyfile(path, target)
                if subprocess.run([sys.executable, "-c", script, target], capture_output=True).returncode != 0:
                    return False
            shutil.copyfile(path, target)
            return folio_add(folio, target) == 0
    return keep


def folio_add(folio, target):
    first = subprocess.run([folio, "annot", "add", target, "--page", "1", "--type", "freetext",
                            "--rect", "50,50,200,40", "--text", "Cut to bar 48"], capture_output=True).returncode
    second = subprocess.run([folio, "annot", "add", target, "--page", "1", "--type", "ink",
                             "--stroke", "100,200,120,210,140,205,160,220"], capture_output=True).returncode
    return first or second


MARKS = {"format": "folio-annotations", "version": 1, "annotations": [
    {"page": 1, "subtype": "FreeText", "rect": [50, 50, 250, 90], "contents": "Cut to bar 48", "fontSize": 12},
    {"page": 1, "subtype": "Ink", "rect": [98, 98, 162, 122], "inkList": [[100, 100, 120, 110, 140, 105, 160, 120]]}]}


def corpus_files(corpus):
    return sorted(os.path.join(root, name) for root, _, names in os.walk(corpus)
                  for name in names if name.lower().endswith(".pdf"))


ENGRAVED = r"""
import os, random, sys, pikepdf
# Engraved-score-like files: 4 pages, each with LilyPond's point-and-click links (indirect,
# /Border [0 0 0], textedit: URIs) and every tenth a highlight with Czech and Greek text.
out, count, per_file = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
pages, streams = (int(sys.argv[4]), sys.argv[5]) if len(sys.argv) > 5 else (4, "alternate")
random.seed(1)
for i in range(count):
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page(page_size=(595, 842))
    for p, page in enumerate(pdf.pages):
        annots = pikepdf.Array()
        for k in range(per_file // pages):
            x, y = random.uniform(20, 560), random.uniform(20, 800)
            if k % 10 == 0:
                a = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Highlight, Rect=[x, y, x + 40, y + 12],
                    QuadPoints=[x, y + 12, x + 40, y + 12, x, y, x + 40, y], C=[1, 0.9, 0], F=4,
                    Contents=pikepdf.String("Dynamika ff — Δυναμική"), T=pikepdf.String("Jiří"),
                    M=pikepdf.String("D:20261125090000Z"), NM=pikepdf.String(f"hl-{p}-{k}"))
            else:
                a = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[x, y, x + 6, y + 8],
                    Border=[0, 0, 0], A=pikepdf.Dictionary(Type=pikepdf.Name.Action, S=pikepdf.Name.URI,
                    URI=pikepdf.String(f"textedit:///home/hudba/violin.ly:{k}:{p}:{k + 3}")))
            annots.append(pdf.make_indirect(a))
        page.Annots = pdf.make_indirect(annots)
    generate = streams == "all" or (streams == "alternate" and i % 2)
    mode = pikepdf.ObjectStreamMode.generate if generate else pikepdf.ObjectStreamMode.disable
    pdf.save(os.path.join(out, f"engraved-{per_file}-{i:03d}.pdf"), object_stream_mode=mode)
"""


KINDS = r"""
import os, random, sys, zlib, pikepdf
# Files where Folio was slowest against pikepdf per file (issue 74): forms with hundreds of
# widgets (text, check box and choice fields with appearance streams, /DA, /MK), and 2.3 MB
# watermarked scans (a random image; a Watermark annotation a page, its appearance 3,000 words)
# with five links a page.
out, kind, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
random.seed(74)
N = pikepdf.Name
for i in range(count):
    pdf = pikepdf.new()
    if kind == "form":
        font = pdf.make_indirect(pikepdf.Dictionary(Type=N.Font, Subtype=N.Type1, BaseFont=N.Helvetica))
        fields = pikepdf.Array()
        for p in range(4):
            pdf.add_blank_page(page_size=(612, 792))
            page, annots = pdf.pages[p], pikepdf.Array()
            for k in range(184):
                x, y = 30 + (k % 10) * 55, 40 + (k // 10) * 40
                ap = pdf.make_stream(b"/Tx BMC q BT /Helv 8 Tf 2 2 Td (Feld %d) Tj ET Q EMC" % k, Type=N.XObject, Subtype=N.Form,
                                     BBox=[0, 0, 50, 10], Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(Helv=font)))
                w = pikepdf.Dictionary(Type=N.Annot, Subtype=N.Widget, Rect=[x, y, x + 50, y + 10], F=4, P=page.obj,
                                       T=pikepdf.String(f"pole_{p}_{k}"), DA=pikepdf.String("/Helv 8 Tf 0 g"),
                                       MK=pikepdf.Dictionary(BC=[0, 0, 0], BG=[1, 1, 1]), AP=pikepdf.Dictionary(N=ap))
                if k % 3 == 0:
                    w.FT, w.V = N.Tx, pikepdf.String(f"Hodnota {k} – Wert")
                elif k % 3 == 1:
                    w.FT, w.V, w.AS = N.Btn, N.Off, N.Off
                    w.AP = pikepdf.Dictionary(N=pikepdf.Dictionary(Yes=ap, Off=ap), D=pikepdf.Dictionary(Yes=ap, Off=ap))
                else:
                    w.FT, w.V = N.Ch, pikepdf.String("a")
                    w.Opt = pikepdf.Array([pikepdf.String(s) for s in ("a", "b", "c")])
                ref = pdf.make_indirect(w)
                annots.append(ref)
                fields.append(ref)
            page.Annots = annots
        pdf.Root.AcroForm = pikepdf.Dictionary(Fields=fields, DA=pikepdf.String("/Helv 0 Tf 0 g"),
                                               DR=pikepdf.Dictionary(Font=pikepdf.Dictionary(Helv=font)))
    else:
        pixels = zlib.compress(bytes(random.getrandbits(8) for _ in range(1400 * 1600)))
        image = pdf.make_stream(pixels, Type=N.XObject, Subtype=N.Image, Width=1400, Height=1600, ColorSpace=N.DeviceGray,
                                BitsPerComponent=8, Filter=N.FlateDecode)
        helvetica = pikepdf.Dictionary(Type=N.Font, Subtype=N.Type1, BaseFont=N.Helvetica)
        for p in range(8):
            pdf.add_blank_page(page_size=(612, 792))
            page = pdf.pages[p]
            page.Contents = pdf.make_stream(b"q 612 0 0 792 0 0 cm /Im0 Do Q")
            page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
            # The watermark as Acrobat stamps it: an annotation whose appearance draws it.
            mark = pdf.make_stream(b"".join(b"q 0.9 g BT /F1 40 Tf 1 0 0 1 %d %d Tm (ENTWURF) Tj ET Q "
                                            % (random.randint(0, 500), random.randint(0, 700)) for _ in range(3000)),
                                   Type=N.XObject, Subtype=N.Form, BBox=[0, 0, 612, 792],
                                   Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=helvetica)))
            watermark = pikepdf.Dictionary(Type=N.Annot, Subtype=N.Watermark, Rect=[0, 0, 612, 792], F=4,
                                           FixedPrint=pikepdf.Dictionary(Type=N.FixedPrint), AP=pikepdf.Dictionary(N=mark))
            page.Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(watermark)] + [pdf.make_indirect(pikepdf.Dictionary(
                Type=N.Annot, Subtype=N.Link, Rect=[10, 10 + k * 20, 100, 25 + k * 20], Border=[0, 0, 0],
                A=pikepdf.Dictionary(S=N.URI, URI=pikepdf.String(f"https://example.org/noty/{k}")))) for k in range(5)]))
    pdf.save(os.path.join(out, f"{kind}-{i:03d}.pdf"))
"""


def kinds(directory, kind, count):
    """`count` files of `kind` ("form": 736 widgets on 4 pages; "watermarked": 2.3 MB, 8 pages
    of a watermark and 5 links), written by pikepdf."""
    os.makedirs(directory, exist_ok=True)
    subprocess.run([sys.executable, "-c", KINDS, directory, kind, str(count)], check=True)
    return sorted(os.path.join(directory, name) for name in os.listdir(directory))


def engraved(directory, count, per_file, pages=4, streams="alternate"):
    """`count` engraved-score-like files of `per_file` annotations each on `pages` pages,
    written by pikepdf with object streams in every other file (`streams` "alternate"), in
    all ("all") or in none ("none")."""
    os.makedirs(directory, exist_ok=True)
    subprocess.run([sys.executable, "-c", ENGRAVED, directory, str(count), str(per_file), str(pages), streams], check=True)
    return sorted(os.path.join(directory, name) for name in os.listdir(directory))


def list_all(title, files, folio, repeat):
    """Lists every annotation of `files` with each contender, the contenders alternating
    round by round; prints the median per contender and its ratio to Folio (all cores)."""
    contenders = [
        ("folio annot list --json (1 process, all cores)", lambda: timed([folio, "annot", "list", "--json"] + files)),
        ("folio annot list --json (1 process, 1 core)",
         lambda: timed(["taskset", "-c", "0", folio, "annot", "list", "--json"] + files)),
        ("PyMuPDF annots/links/widgets (1 process)", lambda: in_process(PYMUPDF_LIST)(files)),
        ("pikepdf raw /Annots (1 process)", lambda: in_process(PIKEPDF_LIST)(files)),
    ]
    # NO_PYMUPDF=1 leaves PyMuPDF out (it takes minutes on the file of 32,768 annotations).
    if os.environ.get("NO_PYMUPDF"):
        contenders = [(name, run) for name, run in contenders if not name.startswith("PyMuPDF")]
    times = {name: [] for name, _ in contenders}
    for _ in range(repeat):
        for name, run in contenders:
            times[name].append(run())
    printed = subprocess.run([sys.executable, "-c", PIKEPDF_LIST] + files, capture_output=True, text=True).stderr.split()
    count = next((word for word in reversed(printed) if word.isdigit()), "0")
    print(f"\n{title}: {len(files)} files, {count} annotations (pikepdf's count), median of {repeat} alternating rounds")
    reference = statistics.median(times[contenders[0][0]])
    print(f"{'tool':48} {'median s':>9} {'µs/annot':>9} {'vs folio':>9}")
    for name, _ in contenders:
        median = statistics.median(times[name])
        per = 1e6 * median / max(1, int(count or 0))
        print(f"{name:48} {median:9.3f} {per:9.2f} {median / reference:8.1f}x")


def main():
    if os.environ.get("LIST_ONLY"):
        folio, repeat = sys.argv[1], int(sys.argv[3]) if len(sys.argv) > 3 else 3
        return listings(folio, repeat)
    folio, files, _, repeat = setup(sys.argv, annotatable, "largest valid corpus files every contender can annotate")
    marks_directory = tempfile.mkdtemp()
    marks = os.path.join(marks_directory, "marks.json")
    with open(marks, "w") as handle:
        json.dump(MARKS, handle)
    results = [
        measure("folio annot add ×2 (1 process/annotation)", files, repeat,
                lambda targets: sum(timed([folio, "annot", "add", t, "--page", "1", "--type", "freetext", "--rect",
                                           "50,50,200,40", "--text", "Cut to bar 48"])
                                    + timed([folio, "annot", "add", t, "--page", "1", "--type", "ink", "--stroke",
                                             "100,200,120,210,140,205,160,220"]) for t in targets)),
        measure("folio annot import, both in 1 save (1 process/file)", files, repeat,
                lambda targets: sum(timed([folio, "annot", "import", t, "--from", marks]) for t in targets)),
        measure("folio annot import, every file in 1 process", files, repeat,
                lambda targets: timed([folio, "annot", "import", "--from", marks] + targets)),
        measure("PyMuPDF 2 annots + saveIncr (1 process)", files, repeat, in_process(PYMUPDF_ADD)),
        measure("PyMuPDF (1 process/file)", files, repeat,
                lambda targets: sum(timed([sys.executable, "-c", PYMUPDF_ADD, t]) for t in targets)),
        measure("pypdf 2 annots, incremental (1 process)", files, repeat, in_process(PYPDF_ADD)),
        measure("folio --version ×2 (start-up only)", files, repeat,
                lambda targets: sum(timed([folio, "--version"]) + timed([folio, "--version"]) for _ in targets)),
    ]
    report(results, files, 52, reference=2, label="vs folio (1 process)")
    shutil.rmtree(marks_directory)

    listings(folio, repeat)


def listings(folio, repeat):
    everything = corpus_files(sys.argv[2])
    readable = [f for f in everything if subprocess.run([folio, "info", f], capture_output=True).returncode == 0]
    list_all("every corpus file that opens", readable, folio, repeat)
    work = tempfile.mkdtemp()
    try:
        list_all("engraved scores (LilyPond-like point-and-click links)", engraved(os.path.join(work, "many"), 500, 112),
                 folio, repeat)
        list_all("forms of 736 widgets (text, check box and choice fields)", kinds(os.path.join(work, "forms"), "form", 40),
                 folio, repeat)
        list_all("watermarked 2.3 MB files: a watermark annotation and 5 links a page", kinds(os.path.join(work, "watermarked"), "watermarked", 20),
                 folio, repeat)
        list_all("one file of 32,768 annotations", engraved(os.path.join(work, "one"), 1, 32768), folio, repeat)
        # The hardest case: one page of 32,768 links, every object in an object stream behind
        # an xref stream (as pdf.js's test suite has one).
        list_all("one page of 32,768 annotations, all in object streams",
                 engraved(os.path.join(work, "objstm"), 1, 32768, pages=1, streams="all"), folio, repeat)
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
