#!/usr/bin/env python3
"""Broadcast latency of a rehearsal: a leader and N followers connected over loopback with
Python's websockets; the leader turns M pages, one every 40 ms (25 a second, a pedal held down; the server takes 30); for each turn, the time from the
leader's send to the LAST follower's receipt of that page (each follower is shown its own part:
a third play the trumpet, a third the violin, a third follow the score). Reported: median, p99
and max over the turns, for `folio serve` and for a reference relay (Python websockets'
`broadcast`, which relays the leader's message as it is, no parts), each in a process of its own.

Usage: python3 Benchmarks/rehearsal_bench.py FOLIO [FOLLOWERS] [MOVES]"""
import asyncio
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUSSY = "Debussy-Suite_Bergamasque_Clair_de_Lune_L75"
RELAY = """
import asyncio, sys, websockets
clients = set()
async def handler(socket):
    clients.add(socket)
    try:
        async for message in socket:
            websockets.broadcast([c for c in clients if c is not socket], message)
    except websockets.ConnectionClosed:
        pass
    finally:
        clients.discard(socket)
async def main():
    async with websockets.serve(handler, "127.0.0.1", int(sys.argv[1]), max_size=4096):
        await asyncio.Future()
asyncio.run(main())
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port):
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


async def measure(leader_url, follower_urls, moves, origin, score):
    """Per move, seconds from the leader's send to the last follower's receipt."""
    received = [dict() for _ in follower_urls]
    ready = asyncio.Event()
    counts = [0]

    async def follow(index, url):
        async with websockets.connect(url, origin=origin, max_size=1 << 16) as socket:
            first = True
            async for text in socket:
                message = json.loads(text)
                if message.get("type") not in ("position", "move"):
                    continue
                if first:
                    first = False
                    counts[0] += 1
                    if counts[0] == len(follower_urls):
                        ready.set()
                if "turn" in message or message.get("leaderPage", 0) > 100:
                    turn = message.get("turn") or message["leaderPage"] - 100
                    received[index][turn] = time.perf_counter()

    tasks = [asyncio.create_task(follow(i, url)) for i, url in enumerate(follower_urls)]
    async with websockets.connect(leader_url, origin=origin) as leader:
        # The relay has no position to start from: the leader's first message is it.
        await asyncio.sleep(0.5)
        await leader.send(json.dumps({"type": "move", "score": score, "page": 1}))
        await asyncio.wait_for(ready.wait(), 30)
        sent = {}
        for turn in range(1, moves + 1):
            # Pages 101… on a 4-page part are kept to its last page; leaderPage tells the turn.
            sent[turn] = time.perf_counter()
            await leader.send(json.dumps({"type": "move", "score": score, "page": 100 + turn, "turn": turn}))
            await asyncio.sleep(0.04)
        await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    latencies = []
    for turn, at in sent.items():
        arrivals = [times.get(turn) for times in received]
        if None in arrivals:
            raise RuntimeError(f"turn {turn} reached {sum(a is not None for a in arrivals)} of {len(arrivals)} followers")
        latencies.append(max(arrivals) - at)
    return latencies


def report(name, latencies):
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{name:28s} median {statistics.median(ordered) * 1000:6.2f} ms   p99 {p99 * 1000:6.2f} ms   max {ordered[-1] * 1000:6.2f} ms")
    return statistics.median(ordered), p99


def main():
    folio = os.path.abspath(sys.argv[1])
    followers = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    library = tempfile.mkdtemp(prefix="folio-rehearsal-bench-")
    shutil.copy(os.path.join(ROOT, "Samples", DEBUSSY + ".pdf"), library)
    for part in (f"{DEBUSSY} - Trumpet in Bb.pdf", f"{DEBUSSY} (Violin I).pdf"):
        shutil.copy(os.path.join(library, DEBUSSY + ".pdf"), os.path.join(library, part))
    port = free_port()
    server = subprocess.Popen([folio, "serve", library, "--port", str(port), "--rescan", "0",
                               "--max-connections-per-address", "1000"],  # every follower comes from loopback
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    relay_port = free_port()
    relay = subprocess.Popen([sys.executable, "-c", RELAY, str(relay_port)])
    try:
        wait_for(port)
        wait_for(relay_port)
        base = f"http://127.0.0.1:{port}"
        page = urllib.request.urlopen(base + "/").read().decode()
        csrf = re.search(r'name="folio-csrf" content="([0-9a-f]+)"', page).group(1)
        scores = json.load(urllib.request.urlopen(base + "/api/scores?q=" + urllib.request.quote("Clair de Lune")))["scores"]
        score = next(s["id"] for s in scores if s["path"] == DEBUSSY + ".pdf")
        request = urllib.request.Request(base + "/api/rehearsals", method="POST", data=json.dumps({"score": score}).encode(),
                                         headers={"Content-Type": "application/json", "X-Folio-CSRF": csrf,
                                                  "Cookie": f"folio_csrf={csrf}"})
        started = json.load(urllib.request.urlopen(request))
        socket_url = f"ws://127.0.0.1:{port}/api/rehearsals/{started['code']}/socket"
        instruments = ["Trumpet%20in%20Bb", "Violin%20I", ""]
        follower_urls = [f"{socket_url}?member=follower-{i:06d}&name=Player%20{i}"
                         + (f"&instrument={instruments[i % 3]}" if instruments[i % 3] else "") for i in range(followers)]
        print(f"{followers} followers, {moves} turns 40 ms apart, loopback; latency: leader's send → last follower's receipt")
        folio_latencies = asyncio.run(measure(f"{socket_url}?member=leader-000001&name=Leader&key={started['key']}",
                                              follower_urls, moves, base, score))
        relay_url = f"ws://127.0.0.1:{relay_port}/"
        relay_latencies = asyncio.run(measure(relay_url, [relay_url] * followers, moves, None, score))
        folio_median, folio_p99 = report("folio serve (parts, JSON)", folio_latencies)
        relay_median, relay_p99 = report("websockets.broadcast relay", relay_latencies)
        print(f"ratio folio/relay: median {folio_median / relay_median:.2f}×, p99 {folio_p99 / relay_p99:.2f}×; "
              f"goal p99 < 50 ms: {'met' if folio_p99 < 0.05 else 'NOT met'}")
    finally:
        for process in (server, relay):
            process.terminate()
            process.wait(timeout=10)
        shutil.rmtree(library, ignore_errors=True)


if __name__ == "__main__":
    main()
