#!/usr/bin/env python3
"""What pikepdf reads of every PDF below a folder, as JSON {relative path: fields}:
the Info dictionary's Title/Author/Subject/Keywords (and every other text entry), and from the
XMP packet dc:title, dc:creator, Folio's reference and labels, and the stored bookmarks
(Nutrient's names joined with Folio's pages and fields, identifiers left out)."""
import json
import os
import sys
import xml.etree.ElementTree as ET

import pikepdf

RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
FOLIO = "{http://ns.folio.dev/score/1.0/}"
PSPDF = "{http://pspdfkit.com/pdf/xmp/1.0/}"
DC = "{http://purl.org/dc/elements/1.1/}"


def xmp_fields(pdf):
    if "/Metadata" not in pdf.Root:
        return {}
    root = ET.fromstring(pdf.Root.Metadata.read_bytes())
    out = {}
    for description in root.iter(RDF + "Description"):
        for child in description:
            if child.tag == FOLIO + "reference":
                out["reference"] = child.text
            elif child.tag == FOLIO + "labels":
                out["labels"] = [li.text for li in child.iter(RDF + "li")]
            elif child.tag == DC + "creator":
                out["creator"] = [li.text for li in child.iter(RDF + "li")]
            elif child.tag == DC + "title":
                out["title"] = [li.text for li in child.iter(RDF + "li")]
            elif child.tag == PSPDF + "Bookmarks":
                out["names"] = {b["uuid"]: b.get("name") for b in json.loads(child.text or "[]")}
            elif child.tag == FOLIO + "Bookmarks":
                items = {}
                for li in child.iter(RDF + "li"):
                    fields = {c.tag.replace(FOLIO, ""): (c.text or "") for c in li}
                    items[fields.pop("UUID", "")] = fields
                out["pieces"] = items
    names = out.pop("names", {})
    pieces = out.pop("pieces", {})
    out["bookmarks"] = sorted(
        [dict(pieces.get(uuid, {}), name=name) for uuid, name in names.items()],
        key=lambda b: (int(b.get("FirstPage", 0) or 0), b["name"] or ""))
    return out


def main(folder):
    result = {}
    for base, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if not name.lower().endswith(".pdf") or name.startswith("."):
                continue
            path = os.path.join(base, name)
            relative = os.path.relpath(path, folder)
            try:
                with pikepdf.open(path) as pdf:
                    info = {str(k)[1:]: str(v) for k, v in pdf.docinfo.items()
                            if isinstance(v, pikepdf.String) and str(k) not in ("/ModDate", "/CreationDate")}
                    result[relative] = {"info": info, "xmp": xmp_fields(pdf)}
            except Exception as error:  # reported, compared like any value
                result[relative] = {"error": str(error)}
    json.dump(result, sys.stdout, ensure_ascii=False, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
