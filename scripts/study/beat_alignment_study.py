#!/usr/bin/env python3
"""Where beattag's beats sit against the attacks in the audio and against annotated beats
(docs/benchmark.md, "Where the beats sit in time").

For each file of a `beattag analyze --json` listing whose <file>.beats annotation exists:
 - the signed offset of beattag's beats from the annotated ones (median over the beats within a
   quarter beat; clips tracked right only: beat F >= 0.5 at +-70 ms), as `bench` reads it;
 - the attack near each beattag beat: the 1 ms block (11025 Hz, first difference, energy in dB)
   with the largest rise over the 8 ms before it, from 20 ms before the beat to 40 ms after it,
   counted where that rise is >= 6 dB. Its median distance from beattag's beats per clip says how
   much a per-track move to the attacks would shift the grid;
 - beat F at +-25 ms before and after that move.

  beattag analyze --json FILES... > beats.jsonl
  python3 scripts/study/beat_alignment_study.py beats.jsonl [--list]
  python3 scripts/study/beat_alignment_study.py --bursts DIR   # writes three 120 BPM burst tracks
                                                               # (noise, sine, decaying noise) in silence
Sets are named by folder (corpus-dev, GTZAN fit, SP Cup fit, anything else). Needs numpy and ffmpeg.
"""
import argparse, json, os, subprocess, wave
import numpy as np

SR = 11025


def decode(path):
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", str(SR), "-f", "f32le", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype=np.float32)


def annotation(path):
    try:
        return np.array([float(l.split()[0]) for l in open(path + ".beats") if l.strip() and not l.startswith("#")])
    except FileNotFoundError:
        return None


def attack_envelope(y, block=11):
    """Energy of the first difference per 1 ms block, in dB, and its rate."""
    x = np.diff(y, prepend=0.0)
    n = len(x) // block
    return 10 * np.log10((x[:n * block].reshape(n, block) ** 2).mean(1) + 1e-10), SR / block


def attack_offsets(beats, env, rate, before=0.020, after=0.040, look=0.008, rise_db=6.0):
    """Seconds from each beat to the steepest attack near it; nan where none rises 6 dB."""
    lk = max(1, int(look * rate))
    out = []
    for b in beats:
        lo, hi = int((b - before) * rate), int((b + after) * rate)
        if lo - lk < 0 or hi >= len(env):
            out.append(np.nan)
            continue
        rises = [env[k] - env[k - lk:k].mean() for k in range(lo, hi + 1)]
        k = int(np.argmax(rises))
        out.append((lo + k) / rate - b if rises[k] >= rise_db else np.nan)
    return np.array(out)


def signed_offsets(est, ref):
    period = np.median(np.diff(ref))
    d = [est[np.argmin(np.abs(est - r))] - r for r in ref]
    return np.array([x for x in d if abs(x) <= period / 4])


def beat_f(est, ref, tol=0.07, skip=5.0):
    est, ref = est[est >= skip], ref[ref >= skip]
    if len(est) == 0 or len(ref) == 0:
        return 0.0
    used = np.zeros(len(est), bool)
    hit = 0
    for r in ref:
        d = np.abs(est - r)
        d[used] = 9
        k = int(np.argmin(d))
        if d[k] <= tol:
            used[k] = True
            hit += 1
    if hit == 0:
        return 0.0
    p, rc = hit / len(est), hit / len(ref)
    return 2 * p * rc / (p + rc)


def set_name(path):
    for key, name in (("corpus-dev", "corpus-dev"), ("spcup", "SP Cup"), ("real-recordings/fit", "GTZAN")):
        if key in path:
            return name
    return os.path.basename(os.path.dirname(os.path.abspath(path))) or "other"


def write_bursts(folder):
    os.makedirs(folder, exist_ok=True)
    sr, rng = 44100, np.random.default_rng(1)
    beats = np.arange(0.5, 29.5, 0.5)
    for kind in ("noise", "sine", "decaying-noise"):
        y = np.zeros(sr * 30)
        n = int(0.05 * sr)
        t = np.arange(n) / sr
        for b in beats:
            burst = {"noise": 0.3 * rng.standard_normal(n), "sine": 0.5 * np.sin(2 * np.pi * 440 * t),
                     "decaying-noise": 0.3 * rng.standard_normal(n) * np.exp(-t / 0.01)}[kind]
            y[int(b * sr):int(b * sr) + n] += burst
        path = os.path.join(folder, f"{kind}.wav")
        with wave.open(path, "wb") as w:
            w.setnchannels(1); w.setsampwidth(2); w.setframerate(sr)
            w.writeframes((np.clip(y, -1, 1) * 32767).astype(np.int16).tobytes())
        open(path + ".beats", "w").write("\n".join(f"{b:.6f}" for b in beats) + "\n")
        print(path)


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("listing", nargs="?")
    a.add_argument("--list", action="store_true")
    a.add_argument("--bursts", metavar="DIR")
    args = a.parse_args()
    if args.bursts:
        write_bursts(args.bursts)
        return
    rows = []
    for line in open(args.listing):
        r = json.loads(line)
        ref = annotation(r["path"])
        if ref is None or not r.get("beats"):
            continue
        est = np.array(r["beats"])
        env, rate = attack_envelope(decode(r["path"]))
        attacks = attack_offsets(est, env, rate)
        clear = ~np.isnan(attacks)
        move = float(np.clip(np.median(attacks[clear]), -0.03, 0.03)) if clear.sum() >= 8 and clear.mean() >= 0.3 else 0.0
        before, after = signed_offsets(est, ref), signed_offsets(est + move, ref)
        rows.append(dict(set=set_name(r["path"]), file=os.path.basename(r["path"]), f70=beat_f(est, ref),
                         f25=beat_f(est, ref, 0.025), f25_moved=beat_f(est + move, ref, 0.025),
                         offset=np.median(before) * 1000 if len(before) else np.nan,
                         offset_moved=np.median(after) * 1000 if len(after) else np.nan, move=move * 1000, clear=clear.mean()))
    for s in sorted({r["set"] for r in rows}):
        good = [r for r in rows if r["set"] == s and r["f70"] >= 0.5]
        if not good:
            continue
        m = lambda k: np.nanmedian([r[k] for r in good])
        print(f"{s}: {len(good)} clips tracked right; beats minus annotations, median of clip medians {m('offset'):+.1f} ms "
              f"(quartiles {np.nanpercentile([r['offset'] for r in good], 25):+.1f}, {np.nanpercentile([r['offset'] for r in good], 75):+.1f}); "
              f"attack minus beat {m('move'):+.1f} ms (beats with a clear attack {np.mean([r['clear'] for r in good]):.0%}); "
              f"moved to the attacks: offset {m('offset_moved'):+.1f} ms, beat F at 25 ms {np.mean([r['f25'] for r in good]):.3f} -> "
              f"{np.mean([r['f25_moved'] for r in good]):.3f}")
    if args.list:
        for r in rows:
            print(f"  {r['set']:10s} {r['file']:40s} F {r['f70']:.2f}  offset {r['offset']:+6.1f} ms  attack {r['move']:+5.1f} ms")


if __name__ == "__main__":
    main()
