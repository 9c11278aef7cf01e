#!/usr/bin/env python3
"""Reads back score metadata Folio wrote, with tools nobody here wrote.

Reads a JSON manifest (a list of {"original", "updated", "password", "title"}) and prints
a JSON list with, for each entry:
  check_original / check_updated: {"exit": qpdf --check exit code, "problems": the
      WARNING/ERROR lines, file names and offsets removed}
  exiftool: {"Title", "Author", "Subject", "Keywords"} of the PDF group and
      {"title", "creator", "description", "subject", "keywords"} of XMP (lists as lists)
  pikepdf: the same two views from docinfo and open_metadata(), or {"error": ...}
  pdfinfo: {"Title", "Author", "Subject", "Keywords"}, or null where pdfinfo fails on the
      original too
  pike_original_ok: whether pikepdf opens the original at all
  exiftool_original_problem: where exiftool does not read "title" back as the PDF Title,
      the Error or Warning exiftool reports for the original (null when it reports none)

Usage: check_meta.py MANIFEST.json > results.json
"""
import concurrent.futures
import json
import os
import sys

import pikepdf

from check_writes import qpdf_check, run

DC = "{http://purl.org/dc/elements/1.1/}"
PDF = "{http://ns.adobe.com/pdf/1.3/}"


def listed(value):
    if value is None:
        return None
    if isinstance(value, (list, set, tuple)):
        return [str(item) for item in value]
    return [str(value)]


def exif(paths, password):
    """exiftool on a batch of files sharing one password: {path: views}."""
    tags = ["-PDF:Title", "-PDF:Author", "-PDF:Subject", "-PDF:Keywords", "-XMP-dc:Title", "-XMP-dc:Creator",
            "-XMP-dc:Description", "-XMP-dc:Subject", "-XMP-pdf:Keywords"]
    args = ["exiftool", "-j", "-G1", "-q", "-q", "-charset", "pdf=UTF8"] + tags
    if password:
        args += ["-password", password]
    result = run(args + paths, timeout=1200)
    out = {}
    if result is None:
        return out
    try:
        entries = json.loads(result.stdout.decode("utf-8", "replace") or "[]")
    except ValueError:
        return out
    for entry in entries:
        def text(key):
            value = entry.get(key)
            if isinstance(value, list):  # exiftool may list comma-separated Keywords
                return ", ".join(str(item) for item in value)
            return None if value is None else str(value)
        out[entry["SourceFile"]] = {
            "info": {"Title": text("PDF:Title"), "Author": text("PDF:Author"), "Subject": text("PDF:Subject"),
                     "Keywords": text("PDF:Keywords")},
            "xmp": {"title": text("XMP-dc:Title"), "creator": listed(entry.get("XMP-dc:Creator")),
                    "description": text("XMP-dc:Description"), "subject": listed(entry.get("XMP-dc:Subject")),
                    "keywords": text("XMP-pdf:Keywords")},
        }
    return out


def exif_problem(path, password):
    args = ["exiftool", "-j", "-ExifTool:Error", "-ExifTool:Warning"] + (["-password", password] if password else [])
    result = run(args + [path], timeout=120)
    try:
        entry = json.loads(result.stdout.decode("utf-8", "replace"))[0]
    except (AttributeError, ValueError, IndexError):
        return "exiftool failed"
    return entry.get("Error") or entry.get("Warning")


def pike(path, password):
    try:
        with pikepdf.open(path, password=password or "") as pdf:
            info = {key: (None if pdf.docinfo.get("/" + key) is None else str(pdf.docinfo.get("/" + key)))
                    for key in ("Title", "Author", "Subject", "Keywords")}
            meta = pdf.open_metadata()
            subject = meta.get(DC + "subject")
            xmp = {"title": meta.get(DC + "title"), "creator": listed(meta.get(DC + "creator")),
                   "description": meta.get(DC + "description"),
                   "subject": None if subject is None else sorted(str(item) for item in subject),
                   "keywords": meta.get(PDF + "Keywords")}
            return {"info": info, "xmp": xmp}
    except Exception as error:  # reported, compared by the test
        return {"error": str(error)[:200]}


def pdfinfo(path, password):
    args = ["pdfinfo", "-enc", "UTF-8"] + (["-upw", password] if password else []) + [path]
    result = run(args, timeout=20)
    if result is None or result.returncode != 0:
        return None
    fields = {}
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        for key in ("Title", "Author", "Subject", "Keywords"):
            if line.startswith(key + ":"):
                fields[key] = line[len(key) + 1:].strip()
    return fields


def check(entry):
    password = entry.get("password")
    out = {"original": entry["original"], "updated": entry["updated"]}
    out["check_original"] = qpdf_check(entry["original"], password)
    out["check_updated"] = qpdf_check(entry["updated"], password)
    out["pikepdf"] = pike(entry["updated"], password)
    out["pike_original_ok"] = "error" not in pike(entry["original"], password)
    out["pdfinfo"] = pdfinfo(entry["updated"], password) if pdfinfo(entry["original"], password) is not None else None
    return out


def main():
    manifest = json.load(open(sys.argv[1]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(check, manifest))
        # exiftool in a few large batches (it starts slowly), grouped by password.
        groups = {}
        for entry in manifest:
            groups.setdefault(entry.get("password"), []).append(entry["updated"])
        jobs = []
        for password, paths in groups.items():
            half = (len(paths) + 1) // 2
            for batch in (paths[:half], paths[half:]):
                if batch:
                    jobs.append(pool.submit(exif, batch, password))
        views = {}
        for job in jobs:
            views.update(job.result())
    for entry, result in zip(manifest, results):
        result["exiftool"] = views.get(result["updated"])
        if (result["exiftool"] or {}).get("info", {}).get("Title") != entry.get("title"):
            result["exiftool_original_problem"] = exif_problem(entry["original"], entry.get("password"))
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
