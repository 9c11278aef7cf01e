"""Page labels of PDFs as pikepdf computes them: {path: [label per page]} for files it opens
(with --labelled first: only files whose catalog has /PageLabels)."""
import json, sys
import pikepdf

result = {}
labelled = sys.argv[1:2] == ["--labelled"]
for path in sys.argv[2 if labelled else 1:]:
    try:
        with pikepdf.open(path) as pdf:
            if labelled and "/PageLabels" not in pdf.Root:
                continue
            result[path] = [page.label for page in pdf.pages]
    except Exception:
        pass
print(json.dumps(result))
