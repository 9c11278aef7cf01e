"""wrk run and read, for the benchmarks that load `folio serve` (serve_bench.py, stands_bench.py)."""
import re
import subprocess


def wrk(url, connections, seconds, lua=None, threads=2):
    """`wrk -tTHREADS -cCONNECTIONS -dSECONDS --latency [-s LUA] URL`: its requests/s (`rate`),
    latency percentiles (`50%`, `90%`, `99%`, as wrk prints them) and what went wrong
    (`errors`: socket errors and answers outside 2xx/3xx, or "none"). A Lua script's error is
    raised, not measured: wrk would fetch "/" instead."""
    arguments = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if lua:
        arguments += ["-s", lua]
    run = subprocess.run(arguments + [url], capture_output=True, text=True, check=True)
    if run.stderr.strip():
        raise RuntimeError(f"wrk: {run.stderr.strip()}")
    out = run.stdout
    result = {"rate": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    result.update(re.findall(r"^\s+(50%|90%|99%)\s+(\S+)", out, re.M))
    said = []
    if errors := re.search(r"Socket errors: (.*)", out):
        said.append(errors.group(1))
    if non2xx := re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        said.append(f"{non2xx.group(1)} non-2xx/3xx")
    result["errors"] = "; ".join(said) or "none"
    return result
