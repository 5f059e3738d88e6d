#!/usr/bin/env python3
"""Two builds on the same clips: which clips a change moved.

    beattag-a bench --corpus C1 --corpus C2 --json > a.json
    beattag-b bench --corpus C1 --corpus C2 --json > b.json
    python3 scripts/bench/compare-clips.py a.json b.json [--moved 0.1] [--list]

Pools every report's clips (a clip is its corpus and file), and prints for the clips both hold:
mean beat F and Acc1 of each, how many clips the change moved by more than --moved in beat F
either way, the groups (styles) whose mean beat F moved more than half a point, and with --list
every moved clip. A clip without annotated beats counts as beat F 0 in both.
"""
import argparse
import json
from collections import defaultdict


def clips(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                report = json.loads(line)
                for clip in report.get("clips", []):
                    out[(report["corpus"], clip["file"])] = clip
    return out


def acc1(clip):
    """Within 4%, as bench judged it (`TempoVerdict`: "ok" within 2%, "ok (4%)" within 4%)."""
    return clip.get("verdict") in ("ok", "ok (4%)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--moved", type=float, default=0.1, help="a change in beat F that counts (default 0.1)")
    ap.add_argument("--list", action="store_true", help="list every moved clip")
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
            print(f"  {k[0]}/{k[1]}: {f(a[k]):.2f} -> {f(b[k]):.2f}")


if __name__ == "__main__":
    main()
