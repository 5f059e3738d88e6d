#!/usr/bin/env python3
"""Timing spot-check for generated files.

    python3 verify.py FILE [FILE...]

For each file: decode it with ffmpeg (which honours the LAME/Xing gapless
header and the Opus pre-skip), then
  * first onset: the first sample above -60 dBFS after the lead-in silence,
    compared with the first annotated beat (only meaningful for songs without
    added noise whose first bar has a note on beat 1);
  * if FILE.ref.wav exists (generate.py --keep-wav), the lag between the
    decoded file and the pre-encoding WAV by cross-correlation of the
    envelopes, and the first onset in the reference WAV as well.
"""
import os
import sys

import numpy as np
from scipy import signal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import audio  # noqa: E402


def read_beats(path):
    with open(path) as f:
        return [float(line.split('\t')[0]) for line in f if line.strip()]


def first_onset(x, rate, floor_db=-60.0):
    mono = np.abs(x).max(axis=1)
    return int(np.argmax(mono > 10 ** (floor_db / 20))) / rate


def lag_ms(dec, dec_rate, ref, ref_rate):
    """Lag of dec relative to ref (ms) from 1 kHz envelopes over the first 10 s."""
    def env(x, r):
        m = np.abs(x).mean(axis=1)
        n = int(len(m) / r * 8000)
        e = signal.resample_poly(m, 8000, r)[:n]
        return e[:80000] - e[:80000].mean()
    a, b = env(dec, dec_rate), env(ref, ref_rate)
    n = min(len(a), len(b))
    c = signal.correlate(a[:n], b[:n], mode='full', method='fft')
    k = int(np.argmax(c)) - (n - 1)
    return k / 8.0


def main():
    for path in sys.argv[1:]:
        beats = read_beats(path + '.beats')
        dec, rate = audio.decode_with_ffmpeg(path)
        on = first_onset(dec, rate)
        msg = '%s: decoded %d Hz, %.3f s; first beat %.4f s; first onset (ffmpeg decode) %.4f s -> %+.1f ms' % (
            os.path.basename(path), rate, len(dec) / rate, beats[0], on, (on - beats[0]) * 1000)
        ref = path + '.ref.wav'
        if os.path.exists(ref):
            r, rr = audio.read_wav(ref)
            on_r = first_onset(r, rr)
            msg += '; ref WAV onset %+.1f ms; decoded-vs-ref lag %+.2f ms; length diff %+d samples@%d' % (
                (on_r - beats[0]) * 1000, lag_ms(dec, rate, r, rr),
                len(dec) - int(round(len(r) * rate / rr)), rate)
        print(msg)


if __name__ == '__main__':
    main()
