#!/usr/bin/env python3
"""A scripted reviewer (issue 37): starts `beattag review` on a catalog of annotated corpora, then
settles every queued track through the JSON API as a person with the annotation for an ear would:
Right when the BPM shown is the annotated one (within 4%), else x2, /2, x3/2 or x2/3 when one of
those gives it, else the annotated BPM as a tapped one. Prints the queue, the actions, the time
and the queue left, and what `beattag bench`-style Acc1 the queued tracks had before and after.

    beattag scan ../shared/corpus-dev ../shared/corpus-real-dev --catalog /tmp/review.sqlite
    python3 scripts/bench/review-by-api.py /tmp/review.sqlite ../shared/corpus-dev ../shared/corpus-real-dev
"""
import argparse, csv, json, os, signal, subprocess, sys, time, urllib.request
from urllib.parse import urlsplit, parse_qs

LEVELS = [("confirm", 1.0), ("double", 2.0), ("half", 0.5), ("threeHalves", 1.5), ("twoThirds", 2.0 / 3)]

def truth(folders):
    found = {}
    for folder in folders:
        with open(os.path.join(folder, "truth.csv"), newline="") as f:
            for row in csv.DictReader(f):
                found[os.path.realpath(os.path.join(folder, row["file"]))] = float(row["bpm"])
    return found

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("catalog")
    ap.add_argument("corpora", nargs="+", help="folders with truth.csv")
    ap.add_argument("--beattag", default=".build/release/beattag")
    args = ap.parse_args()
    annotated = truth(args.corpora)
    server = subprocess.Popen([args.beattag, "review", "--catalog", args.catalog], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    url = server.stdout.readline().decode().strip()
    parts = urlsplit(url)
    base, token = f"{parts.scheme}://{parts.netloc}", parse_qs(parts.query)["token"][0]
    headers = {"X-Beattag-Token": token, "Origin": base, "Content-Type": "application/json"}

    def call(path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + "/api/" + path, data=data, headers=headers, method="POST" if data else "GET")
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    try:
        start = time.perf_counter()
        queue = call("queue?limit=1000")
        tracks, before = queue["tracks"], queue["remaining"]
        actions, right_before, unknown, requests = {}, 0, 0, 1
        for track in tracks:
            want = annotated.get(os.path.realpath(track["path"]))
            if want is None:
                unknown += 1
                continue
            shown = track["bpm"]
            if shown is not None and abs(shown / want - 1) <= 0.04:
                right_before += 1
            body = None
            if shown is not None:
                for action, factor in LEVELS:
                    if abs(shown * factor / want - 1) <= 0.04 and 30 <= shown * factor <= 300:
                        body = {"action": action}
                        break
            body = body or {"bpm": round(want, 1)}
            name = body.get("action", "tapped BPM")
            actions[name] = actions.get(name, 0) + 1
            settled = call(f"tracks/{track['id']}/bpm", body)["tracks"][0]
            requests += 1
            assert abs(settled["bpm"] / want - 1) <= 0.04, (track["path"], settled["bpm"], want)
        elapsed = time.perf_counter() - start
        left = call("queue?limit=1")["remaining"]
        settled = before - unknown
        print(f"queue: {before} tracks ({unknown} without an annotation, left alone)")
        print(f"right before review: {right_before} of {settled}; after: {settled} of {settled}")
        print("actions: " + ", ".join(f"{name} {count}" for name, count in sorted(actions.items())))
        print(f"settled {settled} tracks with {requests} requests in {elapsed * 1000:.0f} ms "
              f"({elapsed * 1000 / max(1, settled):.1f} ms a track); queue left: {left}")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)

if __name__ == "__main__":
    main()
