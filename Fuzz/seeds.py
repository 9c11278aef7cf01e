"""Seed inputs for each fuzz target, into Fuzz/corpus/<target>/ (kept out of git): corpus PDFs
and what can be taken from them (XMP packets, stream data), the tests' hand-made files, and
small synthetic files for the formats the corpus lacks."""
import glob, io, os, plistlib, struct, sys, zlib, json

corpus, out = sys.argv[1], sys.argv[2]
def put(target, name, data):
    folder = os.path.join(out, target); os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f: f.write(data)

pdfs = sorted(p for p in glob.glob(os.path.join(corpus, "**", "*.pdf"), recursive=True) if os.path.getsize(p) <= 256 << 10)
for index, path in enumerate(pdfs):
    data = open(path, "rb").read()
    put("FuzzPDF", f"{index:04}.pdf", data)
    if index % 3 == 0: put("FuzzSave", f"{index:04}.pdf", data)
try:
    import pikepdf
    for index, path in enumerate(pdfs[:300]):
        try:
            with pikepdf.open(path) as pdf:
                meta = pdf.Root.get("/Metadata")
                if meta is not None: put("FuzzXMP", f"{index:04}.xmp", meta.read_bytes())
                for number, obj in enumerate(pdf.objects[:40]):
                    if isinstance(obj, pikepdf.Stream) and "/Filter" in obj and len(obj.read_raw_bytes()) < 65536:
                        name = str(obj.get("/Filter"))
                        head = {"/FlateDecode": 0, "/LZWDecode": 1, "/ASCII85Decode": 2, "/ASCIIHexDecode": 3, "/RunLengthDecode": 4}.get(name)
                        if head is not None: put("FuzzFilters", f"{index:04}-{number}", bytes([head, 0, 3, 3]) + obj.read_raw_bytes())
        except Exception:
            pass
except ImportError:
    pass
put("FuzzFilters", "flate", bytes([0, 4, 3, 3]) + zlib.compress(bytes(range(256)) * 8))
put("FuzzXMP", "min.xmp", b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">T</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>')
put("FuzzCSV", "index.csv", b"Title,Composer,Start,End\nBlue Bossa,Dorham,44,45\n\"A, B\",C,46,47\n")
put("FuzzCSV", "library.csv", b"Title,Composers,Genres,Tags,Labels,Reference,Rating,Difficulty,Duration,Key,File,Start,End\nSonatina,Clementi,Classical,,,Op. 36,3,1,1:12,C major,c.pdf,,\n")
meta = {"title": "Sonatina", "composers": ["Clementi"], "genres": ["Classical"], "rating": 3, "difficulty": 1, "keysf": 0, "keymi": 0, "duration": 72}
put("FuzzOpenIn", "d.json", json.dumps(meta).encode())
put("FuzzOpenIn", "d.plist", plistlib.dumps(meta))
put("FuzzOpenIn", "d.bplist", plistlib.dumps(meta, fmt=plistlib.FMT_BINARY))
put("FuzzSetlist", "s.4ss", b'<?xml version="1.0" encoding="UTF-8"?><forScore kind="setlist" version="1.0" title="Gig"><score title="Sonatina" path="c.pdf"/><bookmark title="Blue Bossa" path="rb.pdf" start="44" end="45"/><placeholder title="Break"/></forScore>')
put("FuzzSetlist", "s.txt", b"1. Blue Bossa\n2. Sonatina (Clementi)\n-- break --\n")
record = lambda name, data: struct.pack(">QQQQ", 0, len(name), 0, len(data))
put("FuzzForScore", "b.4sb", b"<--4SBV02-->" + struct.pack(">Q", 10) + struct.pack(">Q", 0) + b"x" * 16)
put("FuzzForScore", "meta.plist", plistlib.dumps({"c.pdf": {"title": "Sonatina", "composer": "Clementi"}}, fmt=plistlib.FMT_BINARY))
# A file's pages, layers and a small drawing on forScore's canvas shape (216 x 282 pixels).
def tiny_png(width, height):
    rows = b"".join(b"\0" + b"\0\0\0\0" * width for _ in range(height))
    chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
put("FuzzForScore", "pages.plist", plistlib.dumps({
    "Ζ.pdf|key": 411, "Ζ.pdf|bpm": 90, "Ζ.pdf|timeSignature": "3/4",
    "Ζ.pdf|layers": [{"id": "L", "name": "Fingerings", "visible": False}],
    "Ζ.pdf|1": {"rotation": 90, "half": 0.5, "rect": "{{10, 10}, {300, 200}}"},
    "Ζ.pdf|2|zoom": 1.5, "Ζ.pdf|2|offset": "{-5, 5}",
    "Ζ.pdf|1.png": tiny_png(216, 282), "Ζ.pdf|2|L.4se": tiny_png(216, 282),
    "Ζ.pdf|2|textAnnotations": [{"text": "ff", "origin": "{300, 400}", "size": "{50, 20}", "layer": "L"}],
}, fmt=plistlib.FMT_BINARY))
# Numbers at their extremes in every numeric field, as reals and as integers (issue 51: minutes
# of 1e300 trapped a conversion the mutations never reached), in a property list and in an archive.
for index, value in enumerate([1e300, -1e300, 9.3e18, 2 ** 62, 2 ** 63 - 1, -(2 ** 63), 1e19, float("inf"), float("nan"), 4.5e15]):
    fields = {f"a.pdf|{field}": value for field in ("minutes", "seconds", "rating", "difficulty", "key", "bpm")}
    fields["a.pdf|bookmarks"] = [{"Title": "Árie", "First Page": value, "Last Page": value}]
    try:
        extreme = plistlib.dumps(fields, fmt=plistlib.FMT_BINARY)
    except (OverflowError, ValueError):
        continue
    put("FuzzForScore", f"extreme-{index}.plist", extreme)
    packed = zlib.compressobj(9, zlib.DEFLATED, 31)
    packed = packed.compress(extreme) + packed.flush()
    put("FuzzForScore", f"extreme-{index}.4sb", b"<--4SBV03-->" + b"%16d%16d" % (7, len(packed)) + b"Archive" + packed)
for font in glob.glob("/usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf")[:3]:
    put("FuzzFont", os.path.basename(font), open(font, "rb").read())
    # Whole fonts are longer than the inputs the fuzzer reads: small cuts of them (fontTools'
    # subsetter, composite glyphs such as ř and ё kept) reach past the table directory.
    try:
        from fontTools import subset
        options = subset.Options()
        options.notdef_outline = True
        options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern"]
        cut = subset.Subsetter(options)
        cut.populate(text="Dvořák Ελληνικά ёжик ♩♯♭")
        shape = subset.load_font(font, options)
        cut.subset(shape)
        buffer = io.BytesIO(); shape.save(buffer)
        put("FuzzFont", "small-" + os.path.basename(font), buffer.getvalue())
    except ImportError:
        pass
try:
    from PIL import Image
    for mode, ext in (("RGB", "jpg"), ("L", "jpg"), ("CMYK", "jpg"), ("RGBA", "png"), ("P", "png"), ("1", "png"), ("I;16", "png")):
        buffer = io.BytesIO(); Image.new(mode, (17, 9)).save(buffer, "JPEG" if ext == "jpg" else "PNG"); put("FuzzImage", f"{mode.replace(';', '')}.{ext}", buffer.getvalue())
except ImportError:
    pass
put("FuzzText", "chart.txt", b"Title\n\nG    C   D7\nAmazing grace how sweet\nEm      C\nthe sound\n")
put("FuzzText", "song.cho", b"{title: T}\n{key: Am}\n{soc}\n[Am]La [G]la\n{eoc}\n{sot}\ne|--0--|\n{eot}\n{chorus}\n")
put("FuzzText", "bom16.txt", b"\xff\xfeA\x00\n\x00")
put("FuzzText", "scripts.txt", "שלום (עולם) 123, بلا تسرع ١٢ «سلام»\nゆっくり、「そして」静かに。\nDvořák — Ελεγεία\n".encode())
# Dropped files of every kind, and small office packages (a DOCX, an ODT) for the ZIP checks.
import zipfile
for name, data in (("doc.docx", {"[Content_Types].xml": "<Types/>", "word/document.xml": "<w:document>Ave Мария</w:document>"}),
                   ("doc.odt", {"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": "<office/>"})):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        for member, text in data.items():
            package.writestr(member, text)
    put("FuzzIntake", name, buffer.getvalue())
put("FuzzIntake", "doc.rtf", rb"{\rtf1\ansi{\info{\title P\u237?se\u328?}}Ahoj}")
put("FuzzIntake", "set.4ss", b'<?xml version="1.0"?><forScore kind="setlist" version="1.0" title="T"><score path="a.pdf"/></forScore>')
put("FuzzIntake", "index.csv", "Title,Page\nVltava,3\nŠárka,9\n".encode())
put("FuzzIntake", "dict.json", b'{"composers": "Dvorak"}')
# Recordings in every format a track may be in, made by ffmpeg when it is installed, cut to their heads; WAV samples whole.
import subprocess, tempfile
with tempfile.TemporaryDirectory() as scratch:
    for name, extra in (("a.mp3", []), ("b.aac", []), ("c.m4a", []), ("d.flac", []), ("e.ogg", []), ("f.wav", ["-ar", "8000"]),
                        ("g.wav", ["-c:a", "pcm_f32le", "-ac", "3", "-ar", "8000"])):
        target = os.path.join(scratch, name)
        try:
            subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.2",
                            "-metadata", "title=Vltava – Влтава", *extra, target], check=True)
        except (OSError, subprocess.CalledProcessError):
            continue
        put("FuzzAudio", name, open(target, "rb").read()[:16384])
put("FuzzAudio", "id3-chain", b"ID3\x04\x00\x00\x00\x00\x00\x05xxxxxID3\x04\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x00")
for index, name in enumerate(["Moldau - Trumpet in Bb 2.pdf", "Лебединое озеро (Скрипка II).pdf", "さくら [フルート].pdf",
                              "Má vlast – Vltava – Lesní roh in F.pdf", "Song_-_Bb_Clarinet_2nd", "Ζορμπάς - Partitur.pdf",
                              "x (", "( ) - - in in Bb 1st", "Bolero - Blechbläser"]):
    put("FuzzParts", f"name-{index}", name.encode())
