#!/usr/bin/env python3
"""Checks a rendered run with tools that are not beattag (ffmpeg to decode and measure, numpy).

  beattag render --spm 170 --duration 3m -o run.flac --json > run.json
  python3 scripts/bench/check-render.py run.flac run.json [ANNOTATED_CORPUS ...]

Prints: the file's length against the timeline's; whether the timeline is true (each source's onset
envelope, mapped through the timeline's beat map, against the mix's: the lag that lines them up
best, per track); where the annotated beats of sources from the given corpora (truth `.beats`
files) land against the master clock; each track's integrated loudness in the mix (ffmpeg's ebur128
filter, over the part it plays alone); the mix's true peak; and that tracks whose rights forbid a
tempo change are unstretched.
"""
import json
import os
import re
import subprocess
import sys

import numpy as np

RATE = 22050


def decode(path, start=None, duration=None):
    args = ["ffmpeg", "-v", "error"]
    if start is not None:
        args += ["-ss", "%.6f" % start]
    if duration is not None:
        args += ["-t", "%.6f" % duration]
    args += ["-i", path, "-ac", "1", "-ar", str(RATE), "-f", "f32le", "-"]
    return np.frombuffer(subprocess.run(args, check=True, capture_output=True).stdout, dtype=np.float32)


def onset_envelope(x, hop=128, size=1024):
    """Spectral flux (log magnitude, half-wave rectified), one value per hop."""
    if len(x) < size:
        return np.zeros(1)
    frames = np.lib.stride_tricks.sliding_window_view(x, size)[::hop] * np.hanning(size)
    mag = np.log1p(100 * np.abs(np.fft.rfft(frames, axis=1)))
    flux = np.maximum(0, np.diff(mag, axis=0)).sum(axis=1)
    return np.concatenate([[0], flux])


def to_mix(track, s):
    m = np.array(track["beatMap"])
    return np.interp(s, m[:, 0], m[:, 1], left=np.nan, right=np.nan)


def probe_duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                         check=True, capture_output=True, text=True).stdout
    return float(out.strip())


def ebur128(path, start=None, duration=None):
    args = ["ffmpeg", "-nostats", "-v", "info"]
    if start is not None:
        args += ["-ss", "%.6f" % start, "-t", "%.6f" % duration]
    args += ["-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"]
    err = subprocess.run(args, capture_output=True, text=True).stderr
    summary = err[err.rfind("Summary:"):]
    integrated = re.search(r"I:\s+(-?[\d.]+) LUFS", summary)
    peak = re.search(r"Peak:\s+(-?[\d.inf]+) dBFS", summary)
    return (float(integrated.group(1)) if integrated else None, float(peak.group(1)) if peak else None)


def main():
    mix_path, timeline_path, corpora = sys.argv[1], sys.argv[2], sys.argv[3:]
    timeline = json.load(open(timeline_path))
    spm, tracks = timeline["spm"], timeline["tracks"]
    # A workout's segments each have their own clock (cadence and first beat); a one-cadence run has one.
    segments = timeline.get("segments") or [{"spm": spm, "startSeconds": 0.0, "endSeconds": timeline["durationSeconds"]}]

    def clock_of(track):
        """(beat period, first beat) of the segment the track plays in."""
        seg = next((s for s in segments if s["startSeconds"] - 1e-6 <= track["startSeconds"] < s["endSeconds"]), segments[0])
        return 60.0 / seg["spm"], seg["startSeconds"]

    length = probe_duration(mix_path)
    print("length: file %.3f s, timeline %.3f s (difference %.1f ms)" % (length, timeline["durationSeconds"],
                                                                          1000 * (length - timeline["durationSeconds"])))

    mix = decode(mix_path)
    mix_env = onset_envelope(mix)
    hop_s = 128 / RATE
    print("\ntimeline true? lag of each source's onset envelope (mapped through its beat map) against the mix's, over the part it plays alone")
    lags = []
    for i, t in enumerate(tracks):
        # The part the track plays alone: after the incoming crossfade, before the outgoing one.
        alone_from = t["startSeconds"] + (4 * clock_of(t)[0] if i > 0 else 0)
        alone_to = tracks[i + 1]["startSeconds"] if i + 1 < len(tracks) else t["endSeconds"]
        if alone_to - alone_from < 4:
            continue
        m = np.array(t["beatMap"])
        src_from, src_to = np.interp([alone_from, alone_to], m[:, 1], m[:, 0])
        src = decode(t["path"], start=max(0, src_from - 1), duration=src_to - src_from + 2)
        src_env = onset_envelope(src)
        src_times = max(0, src_from - 1) + np.arange(len(src_env)) * hop_s
        mapped = to_mix(t, src_times)
        grid = np.arange(alone_from, alone_to, hop_s)
        ok = ~np.isnan(mapped)
        src_on_grid = np.interp(grid, mapped[ok], src_env[ok])
        best, best_lag = -1, 0
        for lag in range(-12, 13):  # ±70 ms in hops
            idx = np.round((grid + lag * hop_s) / hop_s).astype(int)
            idx = idx[(idx >= 0) & (idx < len(mix_env))]
            a = src_on_grid[:len(idx)]
            b = mix_env[idx]
            c = np.corrcoef(a, b)[0, 1] if a.std() > 0 and b.std() > 0 else -1
            if c > best:
                best, best_lag = c, lag
        lags.append(best_lag * hop_s * 1000)
        print("  %-40s lag %+6.1f ms (correlation %.2f)" % (os.path.basename(t["path"])[:40], best_lag * hop_s * 1000, best))
    if lags:
        print("  largest |lag| %.1f ms over %d tracks" % (max(abs(x) for x in lags), len(lags)))

    if corpora:
        print("\nannotated beats (truth .beats files) mapped into the mix, against the clock of "
              + ("the %g-SPM run" % spm if len(segments) == 1 else "each track's segment (%s SPM)" % ", ".join("%g" % s["spm"] for s in segments)))
        offsets = []
        for t in tracks:
            beats_file = t["path"] + ".beats"
            if not any(os.path.abspath(t["path"]).startswith(os.path.abspath(c)) for c in corpora) or not os.path.exists(beats_file):
                continue
            truth = np.array([float(l.split()[0]) for l in open(beats_file) if l.strip()])
            mapped = to_mix(t, truth)
            mapped = mapped[~np.isnan(mapped)]
            mapped = mapped[(mapped >= t["startSeconds"]) & (mapped <= t["endSeconds"])]
            period, origin = clock_of(t)
            off = (mapped - origin) - np.round((mapped - origin) / period) * period
            offsets.extend(off.tolist())
            print("  %-40s %3d beats, median |offset| %5.1f ms, 90th %5.1f ms" % (
                os.path.basename(t["path"])[:40], len(off), 1000 * np.median(np.abs(off)) if len(off) else float("nan"),
                1000 * np.percentile(np.abs(off), 90) if len(off) else float("nan")))
        if offsets:
            a = np.abs(np.array(offsets))
            print("  all: %d beats, %.1f%% within 35 ms, median %.1f ms" % (len(a), 100 * np.mean(a <= 0.035), 1000 * np.median(a)))

    print("\nloudness (ffmpeg ebur128) of each track's solo part in the mix")
    values = []
    for i, t in enumerate(tracks):
        period = clock_of(t)[0]
        alone_from = t["startSeconds"] + (4 * period if i > 0 else 0)
        alone_to = (tracks[i + 1]["startSeconds"] if i + 1 < len(tracks) else t["endSeconds"]) - (0 if i + 1 < len(tracks) else 4 * period)
        if alone_to - alone_from < 3:
            continue
        integrated, _ = ebur128(mix_path, alone_from, alone_to - alone_from)
        if integrated is not None:
            values.append(integrated)
            print("  %-40s %6.1f LUFS" % (os.path.basename(t["path"])[:40], integrated))
    if values:
        print("  spread %.1f LU (max − min over %d tracks)" % (max(values) - min(values), len(values)))
    if timeline.get("segments") and len(timeline["segments"]) > 1:
        print("\nsegments: cadence measured on the mix (autocorrelation of its onset envelope, 100–240 BPM; numpy, not beattag)")
        for seg in timeline["segments"]:
            a, b = int(seg["startSeconds"] / hop_s) + 200, int(seg["endSeconds"] / hop_s) - 50
            env = mix_env[a:b] - mix_env[a:b].mean()
            if len(env) < 2000:
                continue
            ac = np.correlate(env, env, mode="full")[len(env) - 1:]
            lags = np.arange(len(ac)) * hop_s
            ok = (lags >= 60 / 240) & (lags <= 60 / 100)
            best = np.argmax(np.where(ok, ac, -np.inf))
            # Parabolic refinement of the peak.
            y0, y1, y2 = ac[best - 1], ac[best], ac[best + 1]
            shift = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2) if (y0 - 2 * y1 + y2) != 0 else 0
            bpm = 60 / ((best + shift) * hop_s)
            cues = [c for c in timeline.get("cues", []) if abs(c["startSeconds"] - seg["startSeconds"]) < 0.05]
            print("  %-12s planned %5.1f SPM, measured %6.1f BPM; %s" % (seg.get("name") or "-", seg["spm"], bpm,
                  "cue at its start: \"%s\"" % cues[0]["text"] if cues else "no cue at its start"))

    integrated, peak = ebur128(mix_path)
    print("\nwhole mix: %.1f LUFS, true peak %.1f dBFS" % (integrated, peak))
    fixed = [t for t in tracks if not t["tempoAdjustAllowed"]]
    print("no-derivatives tracks: %d, all unstretched: %s" % (len(fixed), all(abs(t["stretch"] - 1) < 1e-9 for t in fixed)))


if __name__ == "__main__":
    main()
