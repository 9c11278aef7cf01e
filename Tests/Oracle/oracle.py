#!/usr/bin/env python3
"""Expected answers for the corpus tests, computed by established tools.

For every PDF below the corpus folder this prints one JSON object (a map keyed by the
path relative to the corpus) with:
  qpdf_pages   page count from `qpdf --show-npages` (null when qpdf cannot open the file)
  password     the password the test should use (null for none)
  title/author what pikepdf reads from /Info (null when absent), plus the raw bytes as hex
  producer     /Producer as pikepdf reads it; created_raw the raw /CreationDate
  streams      {object number: sha256 of pikepdf's decoded data} for up to 25 streams whose
               filters are all ones Folio decodes (so filters and decryption are checked)
  pike_error   pikepdf's error when it cannot open the file

Usage: oracle.py CORPUS_DIR > expected.json
"""
import hashlib
import json
import os
import subprocess
import sys

import pikepdf

# Passwords of the corpus files that need one (from the test suites they come from).
PASSWORDS = {
    "pypdf/encryption/r2-user-password.pdf": "asdfzxcv",
    "pypdf/encryption/r3-user-password.pdf": "asdfzxcv",
    "pypdf/encryption/r4-user-password.pdf": "asdfzxcv",
    "pypdf/encryption/r4-aes-user-password.pdf": "asdfzxcv",
    "pypdf/encryption/r6-both-passwords.pdf": "foo",
    "sample-files/005-libreoffice-writer-password/libreoffice-writer-password.pdf": "openpassword",
    "pypdf/libreoffice-writer-password.pdf": "openpassword",
}
DECODABLE = {"/FlateDecode", "/LZWDecode", "/ASCIIHexDecode", "/ASCII85Decode", "/RunLengthDecode",
             "/Fl", "/LZW", "/AHx", "/A85", "/RL"}
MAX_STREAMS = 25


def qpdf_pages(path, password):
    args = ["qpdf"]
    if password:
        args.append("--password=" + password)
    args += ["--show-npages", path]
    try:
        run = subprocess.run(args, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    # Exit 3 means "succeeded with warnings": qpdf still opened the file.
    if run.returncode in (0, 3):
        try:
            return int(run.stdout.decode().strip().splitlines()[-1])
        except (ValueError, IndexError):
            return None
    return None


def text_field(info, key):
    value = info.get(key) if info is not None else None
    if value is None or not isinstance(value, pikepdf.String):
        return None, None
    return str(value), bytes(value).hex()


def streams(pdf):
    result = {}
    for obj in pdf.objects:
        if len(result) >= MAX_STREAMS:
            break
        if not isinstance(obj, pikepdf.Stream):
            continue
        try:
            filters = obj.get("/Filter")
            names = [] if filters is None else ([str(filters)] if isinstance(filters, pikepdf.Name) else [str(f) for f in filters])
            if not names or not all(n in DECODABLE for n in names):
                continue
            if str(obj.get("/Type", "")) in ("/XRef",):
                continue
            data = obj.read_bytes()
        except Exception:  # pikepdf could not decode it: nothing to compare against
            continue
        result[str(obj.objgen[0])] = hashlib.sha256(data).hexdigest()
    return result


def corpus_files(corpus):
    """Every PDF below `corpus`: (path, path relative to the corpus, password or None)."""
    for root, _, files in os.walk(corpus):
        for name in sorted(files):
            if name.lower().endswith(".pdf"):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, corpus)
                yield path, rel, PASSWORDS.get(rel)


def main():
    corpus = sys.argv[1]
    answers = {}
    for path, rel, password in corpus_files(corpus):
        entry = {"password": password, "qpdf_pages": qpdf_pages(path, password)}
        try:
            with pikepdf.open(path, password=password or "") as pdf:
                title, title_hex = text_field(pdf.trailer.get("/Info"), "/Title")
                author, author_hex = text_field(pdf.trailer.get("/Info"), "/Author")
                producer, _ = text_field(pdf.trailer.get("/Info"), "/Producer")
                created, _ = text_field(pdf.trailer.get("/Info"), "/CreationDate")
                entry.update(title=title, title_hex=title_hex, author=author, author_hex=author_hex,
                             producer=producer, created_raw=created,
                             encrypted=pdf.is_encrypted, streams=streams(pdf))
        except Exception as error:  # pikepdf refuses the file: record why
            entry["pike_error"] = str(error)[:200]
        answers[rel] = entry
    json.dump(answers, sys.stdout, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
