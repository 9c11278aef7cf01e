#!/usr/bin/env python3
"""Checks files Folio wrote, with tools nobody here wrote.

Reads a JSON manifest (a list of {"original", "updated", "rewritten", "password",
"title"}) and prints a JSON list with, for each entry:
  check_original / check_updated / check_rewritten: {"exit": qpdf --check exit code,
      "problems": the WARNING/ERROR lines, file names and offsets removed}
  pike_title, pdfinfo_title: the Title of the updated file as pikepdf and pdfinfo read it
  pages_original, pages_rewritten: qpdf --show-npages
  render_equal: whether pdftoppm renders page 1 of original and rewrite identically
      (null when pdftoppm cannot render the original)
  qpdf_rewrite_check_exit, qpdf_rewrite_pages, qpdf_render_equal: the same for qpdf's own
      rewrite, computed where Folio's rewrite is missing or differs
  pike_original_ok: whether pikepdf opens the original at all

Usage: check_writes.py MANIFEST.json > results.json
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

import pikepdf


def run(args, timeout=60):
    try:
        return subprocess.run(args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def qpdf_check(path, password):
    args = ["qpdf"] + (["--password=" + password] if password else []) + ["--check", path]
    result = run(args)
    if result is None:
        return {"exit": -1, "problems": ["timeout"]}
    problems = []
    for line in (result.stdout + result.stderr).decode("utf-8", "replace").splitlines():
        if ("WARNING" in line or "ERROR" in line or line.startswith("qpdf:")) and "succeeded with warnings" not in line:
            line = line.replace(path, "FILE")
            line = re.sub(r"offset \d+", "offset N", line)
            problems.append(line)
    return {"exit": result.returncode, "problems": problems}


def npages(path, password):
    args = ["qpdf"] + (["--password=" + password] if password else []) + ["--show-npages", path]
    result = run(args)
    if result is None or result.returncode not in (0, 3):
        return None
    try:
        return int(result.stdout.decode().split()[-1])
    except (ValueError, IndexError):
        return None


def render(path, password, directory, name):
    stem = os.path.join(directory, name)
    args = ["pdftoppm", "-q", "-f", "1", "-l", "1", "-r", "24", "-gray", "-singlefile"]
    if password:
        args += ["-upw", password]
    result = run(args + [path, stem], timeout=60)
    if result is None or result.returncode != 0 or not os.path.exists(stem + ".pgm"):
        return None
    with open(stem + ".pgm", "rb") as handle:
        return handle.read()


def pdfinfo_works(path, password):
    args = ["pdfinfo"] + (["-upw", password] if password else []) + [path]
    result = run(args, timeout=20)
    return result is not None and result.returncode == 0


def pdfinfo_title(path, password):
    args = ["pdfinfo", "-enc", "UTF-8"] + (["-upw", password] if password else []) + [path]
    result = run(args, timeout=20)
    if result is None or result.returncode != 0:
        return None
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("Title:"):
            return line[len("Title:"):].strip()
    return None


def check(entry):
    password = entry.get("password")
    out = {"original": entry["original"]}
    out["check_original"] = qpdf_check(entry["original"], password)
    if entry.get("updated"):
        out["check_updated"] = qpdf_check(entry["updated"], password)
        try:
            with pikepdf.open(entry["updated"], password=password or "") as pdf:
                title = pdf.docinfo.get("/Title")
                out["pike_title"] = None if title is None else str(title)
        except Exception as error:
            out["pike_title"] = "ERROR " + str(error)[:100]
        out["pdfinfo_original_ok"] = pdfinfo_works(entry["original"], password)
        out["pdfinfo_title"] = pdfinfo_title(entry["updated"], password) if out["pdfinfo_original_ok"] else None
    try:
        with pikepdf.open(entry["original"], password=password or "") as pdf:
            _ = pdf.Root
        out["pike_original_ok"] = True
    except Exception:  # pikepdf refuses the original: its view cannot be compared
        out["pike_original_ok"] = False
    rewritten_password = None if entry.get("decrypted") else password
    with tempfile.TemporaryDirectory() as directory:
        before = render(entry["original"], password, directory, "a")
        if entry.get("rewritten"):
            out["check_rewritten"] = qpdf_check(entry["rewritten"], rewritten_password)
            out["pages_original"] = npages(entry["original"], password)
            out["pages_rewritten"] = npages(entry["rewritten"], rewritten_password)
            after = render(entry["rewritten"], rewritten_password, directory, "b") if before is not None else None
            out["render_equal"] = None if before is None else (after == before)
        suspicious = (not entry.get("rewritten") or out["check_rewritten"]["exit"] == 2
                      or out.get("render_equal") is False or out.get("pages_rewritten") != out.get("pages_original"))
        if suspicious:
            # What does qpdf's own rewrite of the original give? Where it fails or differs
            # the same way, the difference comes from repairing damage as the reference does.
            reference = os.path.join(directory, "qpdf.pdf")
            args = ["qpdf"] + (["--password=" + password] if password else [])
            if entry.get("decrypted"):
                args.append("--decrypt")
            made = run(args + [entry["original"], reference])
            exists = made is not None and os.path.exists(reference)
            out["qpdf_rewrite_check_exit"] = qpdf_check(reference, rewritten_password)["exit"] if exists else 2
            out["qpdf_rewrite_pages"] = npages(reference, rewritten_password) if exists else None
            qpdf_render = render(reference, rewritten_password, directory, "c") if exists and before is not None else None
            out["qpdf_render_equal"] = None if before is None else qpdf_render == before
    return out


def main():
    manifest = json.load(open(sys.argv[1]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(check, manifest))
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
