#!/usr/bin/env python3
"""Deterministic generator of a synthetic development corpus with exact beats.

    python3 scripts/devcorpus/generate.py OUTDIR [--count 240] [--seed 1]
                                                 [--only N] [--force] [--plan] [--focus NAME]

Writes OUTDIR/tune/ and OUTDIR/holdout/ with song_NNN.<ext>, song_NNN.<ext>.beats,
truth.csv and meta.jsonl. See README.md in this folder.
"""
import argparse
import csv
import io
import json
import os
import shutil
import sys
import tempfile
import time
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import arrange  # noqa: E402
import audio    # noqa: E402
import styles as S  # noqa: E402
from smf import write_smf  # noqa: E402

SOUNDFONTS = [
    ('FluidR3', '/usr/share/sounds/sf2/FluidR3_GM.sf2'),
    ('TimGM6mb', '/usr/share/sounds/sf2/TimGM6mb.sf2'),
    ('MuseScore', '/usr/share/sounds/sf3/MuseScore_General.sf3'),
]
MIDI_START = 0.25      # music origin inside the MIDI file (s); trimmed after rendering
TUNE_FRACTION = 0.6
TRUTH_HEADER = ['file', 'bpm', 'meter', 'style', 'format', 'duration_s', 'notes']


def stable_id(text):
    """Process-independent integer for a string (Python's hash() is salted)."""
    return zlib.crc32(text.encode('utf-8'))


def rng_for(seed, *keys):
    return np.random.default_rng([int(seed)] + [int(k) for k in keys])


# ---------------------------------------------------------------------------
# corpus plan: style per song and the tune/holdout split
# ---------------------------------------------------------------------------

def allocate(count, styles):
    """Songs per style for `count` songs (largest remainder of the table's n)."""
    weights = np.array([s['n'] for s in styles], dtype=float)
    share = weights / weights.sum() * count
    n = np.floor(share).astype(int)
    if count >= 2 * len(styles):
        n = np.maximum(n, 2)
    order = np.argsort(-(share - np.floor(share)), kind='stable')
    i = 0
    while n.sum() < count:
        n[order[i % len(order)]] += 1
        i += 1
    while n.sum() > count:
        j = int(np.argmax(n))
        n[j] -= 1
    return {s['name']: int(k) for s, k in zip(styles, n)}


def plan_corpus(count, seed, styles=S.STYLES):
    alloc = allocate(count, styles)
    seq = [name for name, k in alloc.items() for _ in range(k)]
    perm = rng_for(seed, 7001).permutation(len(seq))
    seq = [seq[i] for i in perm]
    songs = [dict(index=i + 1, style=name) for i, name in enumerate(seq)]
    # stratified split: per style, a seeded permutation, first 60% -> tune
    # (the tune count per style carries the rounding remainder over to the next
    # style, so the total is 60% while every style with >= 2 songs is in both)
    target, assigned = 0.0, 0
    for name in alloc:
        members = [s for s in songs if s['style'] == name]
        if not members:
            continue
        order = rng_for(seed, 7002, stable_id(name)).permutation(len(members))
        target += TUNE_FRACTION * len(members)
        n_tune = int(np.floor(target + 0.5)) - assigned
        if len(members) >= 2:
            n_tune = min(max(n_tune, 1), len(members) - 1)
        assigned += n_tune
        for rank, j in enumerate(order):
            members[j]['split'] = 'tune' if rank < n_tune else 'holdout'
    return songs


# ---------------------------------------------------------------------------
# per-song parameters (everything random is drawn here)
# ---------------------------------------------------------------------------

# Share of songs whose chord changes are anticipated (`song_params`), by style: rare in waltzes,
# 6/8 folk, polka and solo or string pieces.
PUSH_SHARE = dict(other=0.4, waltz=0.1, folk68=0.1, polka=0.1, strings=0.1, piano=0.2, guitar=0.25)


def choose(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def draw_encoding(rng):
    fmt = choose(rng, ['mp3'] * 38 + ['ogg'] * 20 + ['opus'] * 12 + ['flac'] * 15 + ['wav'] * 15)
    if fmt == 'mp3':
        u = rng.random()
        if u < 0.6:
            return dict(format='mp3', mode='cbr', value=int(choose(rng, [32, 48, 64, 96, 128, 128, 160, 192])))
        if u < 0.9:
            return dict(format='mp3', mode='vbr', value=int(rng.integers(0, 8)))
        return dict(format='mp3', mode='abr', value=int(choose(rng, [48, 96, 128])))
    if fmt == 'ogg':
        return dict(format='ogg', mode='q', value=int(rng.integers(0, 6)))
    if fmt == 'opus':
        return dict(format='opus', mode='bitrate', value=int(choose(rng, [32, 48, 64, 96, 128])))
    if fmt == 'flac':
        return dict(format='flac', mode='level', value=int(choose(rng, [5, 8])))
    return dict(format='wav', mode='pcm16', value=16)


def draw_bpm(rng, style):
    lo, hi = style['bpm']
    ext = style.get('extreme')          # a few very slow / very fast songs
    if ext and rng.random() < ext[2]:
        lo, hi = ext[0], ext[1]
    bpm = rng.uniform(lo, hi)
    if rng.random() < style['integer_bpm']:
        return float(int(round(bpm)))
    return float(round(bpm, 2))


def song_params(song, seed):
    style = S.style_named(song['style'])
    idx = song['index']
    rng = rng_for(seed, idx, 1)
    p = dict(index=idx, style=style['name'], split=song['split'], meter=style['meter'])
    p['nominal_bpm'] = draw_bpm(rng, style)
    p['has_drums'] = bool(rng.random() >= style.get('drumless_p', 0.0)) and bool(style['kits'])
    p['drum_kit'] = int(choose(rng, style['kits'])) if p['has_drums'] else None
    sf_name, _ = SOUNDFONTS[(idx - 1) % len(SOUNDFONTS)]
    p['soundfont'] = sf_name
    electronic = style['integer_bpm'] >= 0.9
    # tempo behaviour
    p['tempo_mode'] = choose(rng, style['tempo'])
    p['tempo_amount'] = {'steady': 0.0, 'drift': float(rng.uniform(0.01, 0.02)),
                         'accel': float(rng.uniform(0.02, 0.03)), 'rubato': 0.05}[p['tempo_mode']]
    # length and placement
    p['target_duration_s'] = float(rng.uniform(60, 90) if rng.random() < 0.06 else rng.uniform(20, 40))
    p['lead_in_s'] = float(rng.uniform(0, 0.05) if rng.random() < 0.4 else rng.uniform(0.05, 2.0))
    # An excerpt: the clip starts inside the song at a random point of the bar (a cut, or a short
    # fade-in), so that "the music starts on a beat" is true as often as in a real library, not
    # always. Its own random stream, so that every other draw stays what it was.
    xrng = rng_for(seed, idx, 7)
    if xrng.random() < 0.15:
        p['excerpt_start_beats'] = float(round(xrng.uniform(4, 12), 3))
        p['excerpt_fade_in_s'] = float(round(xrng.uniform(0.5, 3.0), 2)) if xrng.random() < 0.5 else 0.0
        p['lead_in_s'] = 0.0
    # Anticipation ("push"): chord changes struck an eighth (a sixteenth; on a triplet grid the last
    # triplet) before the bar line and held over it, as pop, rock, funk, Latin and electronic
    # arrangements often do: the harmony then changes off the beat. Its own random stream.
    prng = rng_for(seed, idx, 8)
    if prng.random() < PUSH_SHARE.get(S.family(style), PUSH_SHARE['other']):
        p['push'] = dict(early=2 if style['spb'] == 4 and prng.random() < 0.75 else 1,
                         rate=float(round(prng.uniform(0.5, 1.0), 2)), kick=bool(prng.random() < 0.5),
                         seed=int(prng.integers(2 ** 31)))
    p['ending'] = 'fade' if rng.random() < 0.45 else ('chord' if rng.random() < 0.5 else 'cut')
    p['fade_out_s'] = float(rng.uniform(2.0, 5.0)) if p['ending'] == 'fade' else 0.0
    p['ring_s'] = float(rng.uniform(1.5, 3.0)) if p['ending'] == 'chord' else 0.0
    # arrangement
    p['intro_bars'] = int(choose(rng, [0, 0, 2, 3, 4, 4, 4, 5, 6, 8, 8])) if p['has_drums'] else 0
    p['intro_bass'] = bool(rng.random() < 0.5)
    p['hard_prob'] = float(rng.uniform(0.25, 0.6))
    p['groove'] = int(rng.integers(len(style['main'])))
    if S.family(style) == 'dnb' and rng.random() < 0.35:
        p['whole_song_half'] = True
    p['b_variant'] = bool(rng.random() < 0.5)
    p['breakdown_hats'] = bool(rng.random() < 0.4)
    p['lead_in_a'] = bool(rng.random() < 0.3)
    p['fill_prob'] = float(rng.uniform(0.2, 0.5) if electronic else rng.uniform(0.4, 0.9))
    p['long_fills'] = bool(rng.random() < 0.3)
    p['fill_kind'] = choose(rng, ['snare', 'toms'])
    p['snare_is_clap'] = bool(S.family(style) == 'dnb' and rng.random() < 0.3)
    sw = style.get('swing')
    p['swing'] = float(round(rng.uniform(*sw), 3)) if sw and rng.random() < style.get('swing_p', 0) else None
    p['swing_unit'] = style.get('swing_unit', 16)
    if style['spb'] != 4:
        p['swing'] = None
    p['humanize_ms'] = float(round(rng.uniform(0, 1.5) if electronic else rng.uniform(1, 10), 2))
    if not p['has_drums']:
        p['humanize_ms'] = float(round(rng.uniform(3, 10), 2))
    p['vel_spread'] = float(rng.uniform(3, 6) if electronic else rng.uniform(5, 12))
    lb = style.get('laid_back')
    if lb:
        p['snare_lag_ms'] = float(round(rng.uniform(*lb), 1))
    elif not electronic and p['has_drums'] and rng.random() < 0.15:
        p['snare_lag_ms'] = float(round(rng.uniform(3, 12), 1))
    else:
        p['snare_lag_ms'] = 0.0
    # harmony / instruments
    p['key'] = int(rng.integers(12))
    p['minor'] = bool(rng.random() < 0.5)
    if S.family(style) in ('blues', 'countryshuffle'):
        p['progression'] = arrange.BLUES_12
        p['minor'] = False
    else:
        p['progression'] = list(choose(rng, arrange.PROGRESSIONS))
    p['bars_per_chord'] = int(choose(rng, [1, 1, 2])) if style['bpb'] >= 3 else 2
    p['sevenths'] = S.family(style) in ('swing', 'bossa', 'lofi', 'slowjam', 'gospel', 'funk') or bool(rng.random() < 0.2)
    p['chord_pattern'] = choose(rng, style['chords'])
    p['chord_low'] = int(rng.integers(52, 60))
    p['arp_sustain'] = bool(style.get('solo_instrument') or rng.random() < 0.5)
    p['strum'] = float(rng.uniform(0, 8)) if S.family(style) in ('guitar', 'folk68', 'country', 'countryshuffle') else 0.0
    p['lead_density'] = float(rng.uniform(0.3, 0.7))
    p['programs'] = {k: int(choose(rng, v)) for k, v in style['progs'].items()}
    p['volumes'] = dict(drums=int(rng.integers(95, 121)), bass=int(rng.integers(85, 111)),
                        chords=int(rng.integers(70, 101)), lead=int(rng.integers(70, 101)),
                        pad=int(rng.integers(50, 81)))
    p['reverb'] = int(rng.integers(0, 70))
    # post-processing
    u = rng.random()
    if u < 0.15:
        level, limiter = float(rng.uniform(-10, -7.5)), choose(rng, ['soft', 'soft', 'hard'])
    elif u < 0.27:
        level, limiter = float(rng.uniform(-31, -26)), None
    else:
        level, limiter = float(rng.uniform(-24, -12)), None
    noise = style.get('force_noise') or (choose(rng, list(audio.NOISES)) if rng.random() < 0.25 else None)
    eq_kind = style.get('force_eq') or (choose(rng, ['lofi', 'smallspeaker', 'dull']) if rng.random() < 0.15 else None)
    eq = None
    if eq_kind:
        freq = {'lofi': rng.uniform(150, 400), 'smallspeaker': rng.uniform(300, 500),
                'dull': rng.uniform(2000, 5000)}[eq_kind]
        eq = dict(kind=eq_kind, freq=float(round(freq)))
    p['post'] = dict(target_rms_db=round(level, 1), limiter=limiter, noise=noise,
                     snr_db=float(round(rng.uniform(5, 25), 1)) if noise else None,
                     noise_seed=int(rng.integers(2 ** 31)), eq=eq, fade_out=round(p['fade_out_s'], 2))
    p['encoding'] = draw_encoding(rng)
    p['arrangement_seed'] = int(rng.integers(2 ** 31))
    return p


# ---------------------------------------------------------------------------
# one song: time map -> arrangement -> MIDI -> audio -> annotations
# ---------------------------------------------------------------------------

def make_song(p, out_dir, tmpdir, latency, keep_wav=False):
    style = dict(S.style_named(p['style']))
    if p.get('whole_song_half'):
        style['main'] = style['half']
    rng = np.random.default_rng(p['arrangement_seed'])
    bpb = style['bpb']
    bar_len = bpb * 60.0 / p['nominal_bpm']
    lead_in_samples = int(round(p['lead_in_s'] * audio.SR))
    lead_in = lead_in_samples / audio.SR
    target = p['target_duration_s']
    cut_beats = p.get('excerpt_start_beats', 0.0)
    n_bars_est = int(np.ceil((target - lead_in) / bar_len + cut_beats / bpb)) + 2
    n_beats = (n_bars_est + 4) * bpb
    curve = arrange.tempo_curve(p['tempo_mode'], p['nominal_bpm'], n_beats, bpb, rng, p['tempo_amount'])
    tm = arrange.TimeMap(curve, MIDI_START)
    # An excerpt starts cut_beats (fractional) into the music; times below are from the clip's start.
    cut_s = float(np.interp(cut_beats, np.arange(len(tm.beat_times)), tm.beat_times)) - MIDI_START
    rel = tm.beat_times - MIDI_START - cut_s    # beat times relative to where the clip's music starts
    if p['ending'] == 'chord':
        # last full bar such that the final downbeat + ring fits in the target length
        # first bar count whose final downbeat + ring reaches the target length
        fits = [b for b in range(2, n_bars_est + 1) if lead_in + rel[b * bpb] + p['ring_s'] >= target]
        n_bars = fits[0] if fits else n_bars_est
        music_end = rel[n_bars * bpb] + p['ring_s']
        duration = lead_in + music_end
    else:
        duration = target
        n_bars = int(np.searchsorted(rel, duration - lead_in) // bpb) + 1
        music_end = duration - lead_in + 0.5
    bars = arrange.plan_bars(style, p, n_bars, rng)
    events = arrange.build_events(style, p, tm, bars, rng, MIDI_START + music_end + 0.2)
    mid = os.path.join(tmpdir, 'song.mid')
    raw = os.path.join(tmpdir, 'render.wav')
    write_smf(mid, events)
    audio.render(mid, dict(SOUNDFONTS)[p['soundfont']], raw)
    x, sr = audio.read_wav(raw)
    assert sr == audio.SR
    music = x[int(round((MIDI_START + cut_s) * sr)):]
    total = int(round(duration * audio.SR))
    post = dict(p['post'])
    post['fade_in'] = p.get('excerpt_fade_in_s', 0.0)
    if p['ending'] == 'cut':
        post['fade_out'] = 0.05      # avoid a click at an abrupt cut
    clip, level, limiter_applied = audio.postprocess(music, post, lead_in_samples, total, np.random.default_rng(post['noise_seed'] + 1))
    wav_out = os.path.join(tmpdir, 'final.wav')
    audio.write_wav16(wav_out, clip)
    ext = p['encoding']['format']
    fname = 'song_%03d.%s' % (p['index'], ext)
    if keep_wav:   # reference copy of the pre-encoding audio, for verify.py
        shutil.copyfile(wav_out, os.path.join(out_dir, fname + '.ref.wav'))
    enc_desc = audio.encode(wav_out, os.path.join(out_dir, fname), p['encoding'],
                            serial=stable_id(fname) & 0x7FFFFFFF)
    # annotations: beat k at lead-in + grid time + render latency
    lat = latency[p['soundfont']]['latency_ms'] / 1000.0
    beat_times = lead_in + rel + lat
    last_beat = n_bars * bpb if p['ending'] == 'chord' else len(rel) - 1
    keep = [k for k in range(last_beat + 1) if 0 <= beat_times[k] < duration - 0.02]
    lines = []
    for k in keep:
        lines.append('%.6f\t1' % beat_times[k] if k % bpb == 0 else '%.6f' % beat_times[k])
    with open(os.path.join(out_dir, fname + '.beats.part'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    os.replace(os.path.join(out_dir, fname + '.beats.part'), os.path.join(out_dir, fname + '.beats'))
    ibi = np.diff(beat_times[keep])
    bpm = float(np.median(60.0 / ibi))
    info = dict(p, file=fname, bpm=round(bpm, 3), duration_s=round(duration, 3), n_beats=len(keep),
                n_bars=n_bars, first_beat_s=round(float(beat_times[keep[0]]), 6),
                lead_in_s=round(lead_in, 6), render_latency_ms=round(lat * 1000, 3),
                measured_rms_db=round(float(level), 1), limiter_applied=limiter_applied, encoder=enc_desc,
                sections=[b['section'] for b in bars],
                section_notes=arrange.describe_sections(bars),
                fills=sum(1 for b in bars if b['fill']))
    info['notes'] = make_notes(style, info)
    return info


def make_notes(style, info):
    n = []
    if style.get('convention'):
        n.append(style['convention'])
    if info.get('whole_song_half'):
        n.append('half-time feel groove (snare on 3) throughout')
    if info['has_drums']:
        n.append('kit=%s' % S.KITS[info['drum_kit']])
        if info['snare_is_clap']:
            n.append('clap-only snare')
        intro = sum(1 for s in info['sections'] if s == 'intro')
        if intro:
            n.append('intro %d bars without drums' % intro)
    else:
        n.append('no percussion')
    n += info['section_notes']
    if info['fills']:
        n.append('fills')
    if info.get('push'):
        push = info['push']
        n.append('chord changes anticipated by %s (%d%% of them)%s' % (
            {1: 'a sixteenth' if style['spb'] == 4 else 'a triplet', 2: 'an eighth'}[push['early']],
            round(100 * push['rate']), ', with a kick' if push['kick'] else ''))
    if info['swing']:
        n.append('swing %.2f (%s)' % (info['swing'], '16th' if info['swing_unit'] == 16 else '8th'))
    if style['spb'] == 3 and style['meter'] == '4/4':
        n.append('triplet subdivision')
    mode = info['tempo_mode']
    if mode == 'drift':
        n.append('tempo live drift +-%.1f%%; bpm = median; beats exact' % (100 * info['tempo_amount']))
    elif mode == 'accel':
        n.append('tempo live accelerando %.1f%%; bpm = median; beats exact' % (100 * info['tempo_amount']))
    elif mode == 'rubato':
        n.append('tempo rubato +-5% with phrase-end ritardando; bpm = median; beats exact')
    n.append('humanize %.1f ms' % info['humanize_ms'])
    if info['snare_lag_ms']:
        n.append('laid-back snare +%.0f ms' % info['snare_lag_ms'])
    post = info['post']
    lvl = 'level %.0f dBFS rms' % info['measured_rms_db']
    lim = info['limiter_applied']
    if lim:
        lvl += {'soft': ' limited', 'hard': ' limited+clipped', 'gentle': ' gentle limiter'}[lim]
    n.append(lvl)
    if post['noise']:
        n.append('%s noise SNR %.0f dB' % (post['noise'], post['snr_db']))
    if post['eq']:
        n.append('%s %d Hz' % (post['eq']['kind'], post['eq']['freq']))
    if info['ending'] == 'fade':
        n.append('fade-out %.1f s' % info['fade_out_s'])
    elif info['ending'] == 'chord':
        n.append('final chord')
    else:
        n.append('cut ending')
    n.append('lead-in %.2f s' % info['lead_in_s'])
    if info.get('excerpt_start_beats'):
        n.append('excerpt from beat %.2f' % info['excerpt_start_beats']
                 + (' with %.1f s fade-in' % info['excerpt_fade_in_s'] if info['excerpt_fade_in_s'] else ''))
    n.append(info['encoder'])
    n.append('sf=%s' % info['soundfont'])
    if info['target_duration_s'] > 50:
        n.append('long clip')
    return '; '.join(n)


# ---------------------------------------------------------------------------
# corpus-level outputs
# ---------------------------------------------------------------------------

def load_latency(outdir, tmpdir):
    path = os.path.join(outdir, 'calibration.json')
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    lat = {}
    for name, sf in SOUNDFONTS:
        lat[name] = audio.measure_latency(sf, tmpdir)
        print('calibration %s: %s' % (name, json.dumps(lat[name])), file=sys.stderr)
    with open(path, 'w') as f:
        json.dump(lat, f, indent=1, sort_keys=True)
    return lat


def write_indexes(outdir, songs):
    for split in ('tune', 'holdout'):
        rows, metas = [], []
        for s in songs:
            if s['split'] != split:
                continue
            mp = os.path.join(outdir, '.meta', 'song_%03d.json' % s['index'])
            if not os.path.exists(mp):
                continue
            with open(mp) as f:
                info = json.load(f)
            rows.append([info['file'], '%.3f' % info['bpm'], info['meter'], info['style'],
                         info['encoding']['format'], '%.3f' % info['duration_s'], info['notes']])
            metas.append(json.dumps(info, sort_keys=True))
        d = os.path.join(outdir, split)
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator='\n')
        w.writerow(TRUTH_HEADER)
        w.writerows(rows)
        with open(os.path.join(d, 'truth.csv'), 'w') as f:
            f.write(buf.getvalue())
        with open(os.path.join(d, 'meta.jsonl'), 'w') as f:
            f.write(''.join(m + '\n' for m in metas))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('outdir')
    ap.add_argument('--count', type=int, default=240)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--only', type=int, action='append', help='generate only song N (repeatable)')
    ap.add_argument('--force', action='store_true', help='regenerate songs that already exist')
    ap.add_argument('--keep-wav', action='store_true', help='also keep song_NNN.<ext>.ref.wav (pre-encoding)')
    ap.add_argument('--plan', action='store_true', help='print the plan (style, split, bpm) and exit')
    ap.add_argument('--focus', choices=sorted(S.FOCUS),
                    help="draw the songs from a focus set of styles.py (training songs for one weakness) instead of the library's styles")
    args = ap.parse_args()

    songs = plan_corpus(args.count, args.seed, S.FOCUS[args.focus] if args.focus else S.STYLES)
    params = {s['index']: song_params(s, args.seed) for s in songs}
    if args.plan:
        for s in songs:
            p = params[s['index']]
            print('%03d %-8s %-15s %7.2f %-5s %s %s' % (s['index'], s['split'], s['style'], p['nominal_bpm'],
                                                      p['encoding']['format'], p['soundfont'], p['tempo_mode']))
        return
    outdir = args.outdir
    for d in ('tune', 'holdout', '.meta'):
        os.makedirs(os.path.join(outdir, d), exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix='devcorpus_')
    try:
        latency = load_latency(outdir, tmpdir)
        todo = [s for s in songs if not args.only or s['index'] in args.only]
        t_start = time.time()
        for n, s in enumerate(todo, 1):
            p = params[s['index']]
            out_dir = os.path.join(outdir, s['split'])
            fname = 'song_%03d.%s' % (s['index'], p['encoding']['format'])
            meta_path = os.path.join(outdir, '.meta', 'song_%03d.json' % s['index'])
            done = all(os.path.exists(x) for x in (os.path.join(out_dir, fname),
                                                   os.path.join(out_dir, fname + '.beats'), meta_path))
            if done and not args.force:
                print('[%3d/%3d] %s %-7s skip (exists)' % (n, len(todo), fname, s['split']), file=sys.stderr)
                continue
            t0 = time.time()
            info = make_song(p, out_dir, tmpdir, latency, args.keep_wav)
            with open(meta_path + '.part', 'w') as f:
                json.dump(info, f, sort_keys=True)
            os.replace(meta_path + '.part', meta_path)
            print('[%3d/%3d] %s %-7s %-14s %7.3f bpm %5.1f s %-22s %4.1f s (total %.0f s)' % (
                n, len(todo), fname, s['split'], p['style'], info['bpm'], info['duration_s'],
                info['encoder'], time.time() - t0, time.time() - t_start), file=sys.stderr)
        write_indexes(outdir, songs)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == '__main__':
    main()
