"""Mutation test over the corpus: byte flips, truncations and splices of every corpus PDF, each
variant run through `folio info`, `folio check`, `folio toc` and `folio annot list`. A crash (a
signal, or an exit status Folio does not document), a run over 5 s or over 1 GiB of memory is a
failure. Usage: python3 Fuzz/mutate.py FOLIO CORPUS [VARIANTS_PER_FILE] [SEED]; prints the figures and
exits 1 on any failure (the failing inputs are kept in Fuzz/findings/mutate/)."""
import glob, os, random, resource, shutil, subprocess, sys, tempfile, time

folio, corpus = sys.argv[1], sys.argv[2]
per_file = int(sys.argv[3]) if len(sys.argv) > 3 else 4
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
files = sorted(glob.glob(os.path.join(corpus, "**", "*.pdf"), recursive=True))
pool = [open(f, "rb").read() for f in files]
work = tempfile.mkdtemp()
findings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "findings", "mutate")
documented = {"info": {0, 1}, "check": {0, 1, 2, 3}, "toc": {0, 1}, "annot": {0, 1}}
commands = [("info", ["info", "--json"]), ("check", ["check"]), ("toc", ["toc", "--json"]), ("annot", ["annot", "list"])]

def limit():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30 << 1, 1 << 30 << 1))  # address space guard (2 GiB); RSS checked below

def mutate(data):
    kind = random.choice(["flip", "truncate", "splice", "flip", "zero"])
    data = bytearray(data)
    if kind == "flip" and data:
        for _ in range(random.randint(1, 16)):
            data[random.randrange(len(data))] = random.randrange(256)
    elif kind == "zero" and data:
        start = random.randrange(len(data)); data[start:start + random.randint(1, 512)] = bytes(min(512, len(data) - start))
    elif kind == "truncate":
        data = data[:random.randrange(len(data) + 1)]
    else:
        other = random.choice(pool)
        cut, take = random.randrange(len(data) + 1), random.randrange(len(other) + 1)
        data = data[:cut] + other[take:take + random.randint(1, 65536)] + data[cut + random.randint(0, 4096):]
    return kind, bytes(data)

runs = failures = 0
slowest = peak = 0.0
start = time.time()
for index, data in enumerate(pool):
    for variant in range(per_file):
        kind, bytes_ = mutate(data)
        path = os.path.join(work, "v.pdf")
        open(path, "wb").write(bytes_)
        for name, arguments in commands:
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            began = time.time()
            try:
                result = subprocess.run([folio, *arguments, path], capture_output=True, timeout=5, preexec_fn=limit)
                status, hung = result.returncode, False
            except subprocess.TimeoutExpired:
                status, hung = None, True
            elapsed = time.time() - began
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # MiB, the peak of any child so far
            runs += 1; slowest = max(slowest, elapsed); peak = max(peak, rss)
            if hung or status not in documented[name] or rss > 1024:
                failures += 1
                os.makedirs(findings, exist_ok=True)
                keep = os.path.join(findings, f"{os.path.basename(files[index])}-{variant}-{kind}-{name}.pdf")
                shutil.copy(path, keep)
                print(f"FAIL {name} status={status} hung={hung} rss={rss:.0f} MiB: {keep}")
print(f"{len(pool)} corpus files × {per_file} variants × {len(commands)} commands = {runs} runs in {time.time() - start:.0f} s; "
      f"failures {failures}; slowest run {slowest:.2f} s; peak memory of any run {peak:.0f} MiB")
shutil.rmtree(work)
sys.exit(1 if failures else 0)
