#!/usr/bin/env python3
"""Two builds on the same clips: which clips a change moved.

    beattag-a bench --corpus C1 --corpus C2 --json > a.json
    beattag-b bench --corpus C1 --corpus C2 --json > b.json
    python3 scripts/bench/compare-clips.py a.json b.json [--moved 0.1] [--list] [--queue]

Pools every report's clips (a clip is its path: corpus folder and file; a `--pooled` report names
the same clips again and counts once), and prints for the clips both hold: mean beat F and Acc1 of
each, how many clips the change moved by more than --moved in beat F either way, the groups
(styles) whose mean beat F moved more than half a point, and with --list every moved clip. A clip
without annotated beats counts as beat F 0 in both.

--queue also ranks the clips by each build's confidence and counts the wrong tempi among the least
confident 8, 12, 16, 20 and 25%: a confidence that separates right from wrong better holds more of
them at every length, where one that only sends more clips below 0.8 holds the same.
"""
import argparse
import json
import os
import re
from collections import defaultdict

QUEUE_SHARES = [0.08, 0.12, 0.16, 0.20, 0.25]


def clips(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                report = json.loads(line)
                # `bench --pooled` adds a report named "N corpora pooled" whose clips are already
                # named by corpus folder and file (`TempoBenchmark.pooled`): the same clips again.
                pooled = re.fullmatch(r"\d+ corpora pooled", report["corpus"]) is not None
                for clip in report.get("clips", []):
                    name = clip["file"] if pooled else os.path.join(report["corpus"], clip["file"])
                    out[os.path.normpath(name)] = clip
    return out


def wrong_in_queue(clips_, keys):
    """Wrong tempi among the least confident QUEUE_SHARES of `keys` (clips without a tempo first)."""
    ranked = sorted(keys, key=lambda k: clips_[k].get("confidence") or 0.0)
    return [sum(not acc1(clips_[k]) for k in ranked[:int(share * len(ranked))]) for share in QUEUE_SHARES]


def acc1(clip):
    """Within 4%, as bench judged it (`TempoVerdict`: "ok" within 2%, "ok (4%)" within 4%)."""
    return clip.get("verdict") in ("ok", "ok (4%)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--moved", type=float, default=0.1, help="a change in beat F that counts (default 0.1)")
    ap.add_argument("--list", action="store_true", help="list every moved clip")
    ap.add_argument("--queue", action="store_true",
                    help="wrong tempi among the least confident 8-25%% of the clips, by each build's confidence")
    args = ap.parse_args()
    a, b = clips(args.before), clips(args.after)
    keys = sorted(set(a) & set(b))
    if not keys:
        raise SystemExit("compare-clips: the two reports hold no clip in common")

    def f(clip):
        return clip.get("fMeasure") or 0.0
    n = len(keys)
    up = [k for k in keys if f(b[k]) - f(a[k]) > args.moved]
    down = [k for k in keys if f(a[k]) - f(b[k]) > args.moved]
    print(f"{n} clips: beat F {sum(f(a[k]) for k in keys) / n:.4f} -> {sum(f(b[k]) for k in keys) / n:.4f}, "
          f"Acc1 {sum(acc1(a[k]) for k in keys)} -> {sum(acc1(b[k]) for k in keys)}; "
          f"beat F up by more than {args.moved:g} on {len(up)}, down on {len(down)}")
    groups = defaultdict(list)
    for k in keys:
        groups[a[k].get("group", "")].append(k)
    moved = []
    for group, members in sorted(groups.items()):
        before = sum(f(a[k]) for k in members) / len(members)
        after = sum(f(b[k]) for k in members) / len(members)
        if abs(after - before) > 0.005:
            moved.append(f"{group} ({len(members)}) {before:.3f} -> {after:.3f}")
    if moved:
        print("groups moved: " + ", ".join(moved))
    if args.list:
        for k in up + down:
            print(f"  {k}: {f(a[k]):.2f} -> {f(b[k]):.2f}")
    if args.queue:
        wrong = sum(not acc1(a[k]) for k in keys), sum(not acc1(b[k]) for k in keys)
        shares = ", ".join(f"{round(100 * s)}%" for s in QUEUE_SHARES)
        print(f"wrong tempi among the least confident {shares}: "
              f"{wrong_in_queue(a, keys)} of {wrong[0]} -> {wrong_in_queue(b, keys)} of {wrong[1]}")


if __name__ == "__main__":
    main()
