"""Time map and arrangement: turns song parameters into MIDI note events.

All positions are in beats (float). The time map converts a beat position
into seconds; the annotated beat k is exactly time_map.beat_times[k].
"""
import numpy as np

import styles as S

SCALE_MAJ = [0, 2, 4, 5, 7, 9, 11]
SCALE_MIN = [0, 2, 3, 5, 7, 8, 10]
PENTA_MAJ = [0, 2, 4, 7, 9]
PENTA_MIN = [0, 3, 5, 7, 10]

PROGRESSIONS = [[0, 4, 5, 3], [0, 5, 3, 4], [0, 3, 4, 4], [5, 3, 0, 4], [0, 0, 3, 4],
                [1, 4, 0, 0], [0, 3, 0, 4], [5, 4, 3, 4]]
BLUES_12 = [0, 0, 0, 0, 3, 3, 0, 0, 4, 3, 0, 4]

CH_BASS, CH_CHORDS, CH_LEAD, CH_PAD, CH_DRUMS = 0, 1, 2, 3, 9

VELOCITY = {'X': 118, 'x': 100, 'o': 72, 'g': 42}


# ---------------------------------------------------------------------------
# time map
# ---------------------------------------------------------------------------

def _smooth_noise(rng, n, periods):
    """Sum of a few random sinusoids over n beats, scaled to max |.| = 1."""
    k = np.arange(n)
    x = np.zeros(n)
    for _ in range(3):
        per = rng.uniform(*periods)
        x += rng.uniform(0.5, 1.0) * np.sin(2 * np.pi * k / per + rng.uniform(0, 2 * np.pi))
    m = np.abs(x).max()
    return x / m if m > 0 else x


def tempo_curve(mode, bpm, n_beats, beats_per_bar, rng, amount):
    """Per-beat tempo (BPM) for each inter-beat interval."""
    if mode == 'steady':
        return np.full(n_beats, float(bpm))
    if mode == 'drift':        # slow live wander, +-amount
        return bpm * (1 + amount * _smooth_noise(rng, n_beats, (24, 96)))
    if mode == 'accel':        # accelerando over the song, total `amount`
        ramp = np.linspace(-0.5, 0.5, n_beats) * amount
        return bpm * (1 + ramp + 0.003 * _smooth_noise(rng, n_beats, (16, 48)))
    if mode == 'rubato':       # expressive +-amount plus phrase-end ritardando
        curve = 1 + amount * _smooth_noise(rng, n_beats, (6, 20))
        phrase = 4 * beats_per_bar
        for k in range(n_beats):
            pos = k % phrase
            if pos >= phrase - 2:
                curve[k] *= 1 - 0.08 * (pos - (phrase - 3)) / 2
        return bpm * curve
    raise ValueError(mode)


class TimeMap:
    def __init__(self, bpm_per_beat, start):
        ibi = 60.0 / np.asarray(bpm_per_beat)
        self.beat_times = start + np.concatenate([[0.0], np.cumsum(ibi)])

    def __call__(self, pos):
        """Seconds for a beat position (float), linear within a beat."""
        k = int(np.floor(pos))
        k = max(0, min(k, len(self.beat_times) - 2))
        frac = pos - k
        t0, t1 = self.beat_times[k], self.beat_times[k + 1]
        return t0 + frac * (t1 - t0)


# ---------------------------------------------------------------------------
# harmony helpers
# ---------------------------------------------------------------------------

def chord_tones(key, minor, degree, seventh):
    scale = SCALE_MIN if minor else SCALE_MAJ
    idx = [degree, degree + 2, degree + 4] + ([degree + 6] if seventh else [])
    return [key + scale[i % 7] + 12 * (i // 7) for i in idx]


def bass_interval(ch, minor_chord):
    return {'R': 0, '5': 7, '8': 12, '3': 3 if minor_chord else 4, '7': 10, '6': 9}[ch]


def voice(tones, low=55):
    """Place chord tones (pitch classes + offsets) in the octave above `low`."""
    out = []
    for t in tones:
        p = low + ((t - low) % 12)
        out.append(p)
    return sorted(out)


# ---------------------------------------------------------------------------
# section plan
# ---------------------------------------------------------------------------

def plan_bars(style, p, n_bars, rng):
    """Per-bar flags: which groove the drums play, fills, crashes, who plays."""
    bars = []
    has_drums = p['has_drums']
    intro = min(p['intro_bars'], max(0, n_bars - 4)) if has_drums else 0
    hard = [h for h in style['hard'] if h not in ('half',) or style.get('half')]
    hard = [h for h in hard if h != 'double' or style.get('double')]
    specials = {}
    free_start = intro + 4
    cands = list(range(free_start, max(free_start, n_bars - 4)))
    for h in hard:
        prob = p['hard_prob'] if h in ('breakdown', 'half') else 0.6
        if not cands or rng.random() > prob:
            continue
        length = int(rng.choice([4, 8] if h in ('breakdown', 'half') else [4]))
        start = int(rng.choice(cands))
        start -= (start - intro) % 4           # align to phrases
        if any(b in specials for b in range(start, start + length)):
            continue
        for b in range(start, min(n_bars, start + length)):
            specials[b] = h
    main_groove = p['groove']
    for b in range(n_bars):
        sec = 'intro' if b < intro else specials.get(b, 'A' if ((b - intro) // 8) % 2 == 0 else 'B')
        bar = dict(section=sec, drums=None, variant=main_groove, fill=False, crash=False,
                   bass=True, chords=True, lead=False, pad=False)
        if sec == 'intro':
            bar.update(bass=p['intro_bass'], pad=True)
        elif sec == 'breakdown':
            bar.update(drums='hats' if (has_drums and p['breakdown_hats']) else None,
                       bass=False, pad=True, lead=rng.random() < 0.5)
        else:
            if has_drums:
                bar['drums'] = {'A': 'main', 'B': 'main', 'half': 'half', 'double': 'double',
                                'build': 'build'}[sec]
                if sec == 'B' and len(style['main']) > 1 and p['b_variant']:
                    bar['variant'] = (main_groove + 1) % len(style['main'])
            bar['lead'] = sec == 'B' or (sec == 'A' and p['lead_in_a'])
        bars.append(bar)
    # crashes at section starts, fills at phrase ends
    for b in range(1, n_bars):
        if bars[b]['drums'] and bars[b]['section'] != bars[b - 1]['section']:
            bars[b]['crash'] = True
    if has_drums:
        for b in range(n_bars - 1):
            nxt = bars[b + 1]['section'] != bars[b]['section'] or (b - intro + 1) % 8 == 0
            if bars[b]['drums'] in ('main', 'half', 'double') and nxt and rng.random() < p['fill_prob']:
                bars[b]['fill'] = True
    return bars


def describe_sections(bars):
    """Notes like 'breakdown bars 9-16' (1-based bar numbers)."""
    out = []
    names = {'breakdown': 'breakdown', 'half': 'half-time drums', 'double': 'double-time drums',
             'build': 'build-up'}
    b = 0
    while b < len(bars):
        sec = bars[b]['section']
        e = b
        while e + 1 < len(bars) and bars[e + 1]['section'] == sec:
            e += 1
        if sec in names:
            out.append('%s bars %d-%d' % (names[sec], b + 1, e + 1))
        b = e + 1
    return out


# ---------------------------------------------------------------------------
# event generation
# ---------------------------------------------------------------------------

class EventSink:
    def __init__(self, tm, p, rng):
        self.tm, self.p, self.rng = tm, p, rng
        self.events = []

    def jitter(self):
        h = self.p['humanize_ms'] / 1000.0
        return float(np.clip(self.rng.normal(0, h), -2.5 * h, 2.5 * h)) if h > 0 else 0.0

    def note(self, ch, pitch, vel, t_on, t_off, jitter=True):
        if jitter:
            t_on += self.jitter()
        vel = int(np.clip(vel + self.rng.normal(0, self.p['vel_spread']), 1, 127))
        t_off = max(t_off, t_on + 0.03)
        self.events.append((t_on, 'on', ch, int(pitch), vel))
        self.events.append((t_off, 'off', ch, int(pitch), 0))


def step_pos(bar, step, spb, bpb, swing, swing_unit):
    """Beat position of a grid step, with swing applied."""
    pos = bar * bpb + step / spb
    if swing and spb == 4:
        if swing_unit == 16 and step % 2 == 1:
            pos += (swing - 0.5) * 0.5
        elif swing_unit == 8 and step % 4 == 2:
            pos += (swing - 0.5) * 1.0
    return pos


def drum_bar(sink, style, p, bar_idx, bar, n_steps):
    spb, bpb = style['spb'], style['bpb']
    tm = sink.tm
    if bar['drums'] == 'build':
        # snare 8ths then 16ths with a crescendo, kick on every beat
        k_in = bar.get('build_k', 0)
        groove = {S.K: ('x' + '.' * (spb - 1)) * bpb}
        sn = ''.join('x' if (s % (spb if k_in < 2 else max(1, spb // 2)) == 0) else '.'
                     for s in range(n_steps))
        groove[S.S] = sn
    elif bar['drums'] == 'hats':
        base = style['main'][bar['variant'] % len(style['main'])]
        groove = {k: v for k, v in base.items() if k in (S.CH, S.OH, S.SHK, S.RD, S.PH, S.TAMB)}
    else:
        pool = style.get(bar['drums'], style['main']) if bar['drums'] != 'main' else style['main']
        groove = pool[bar['variant'] % len(pool)]
    fill_from = n_steps - spb * (2 if p['long_fills'] else 1) if bar['fill'] else n_steps
    for note, pat in groove.items():
        note_out = note
        if note == S.S and p['snare_is_clap']:
            note_out = S.CLAP
        for step, c in enumerate(pat):
            if c == '.' or step >= fill_from:
                continue
            hits = {'r': 2, 't': 3}.get(c, 1)
            vel = VELOCITY.get(c, 80)
            if bar['drums'] == 'build':
                vel = 60 + 50 * (bar.get('build_k', 0) * n_steps + step) / (4 * n_steps)
            for h in range(hits):
                pos = step_pos(bar_idx, step + h / hits, spb, bpb, p['swing'], p['swing_unit'])
                t = tm(pos)
                if note in (S.S, S.CLAP, S.RIM, S.ES):
                    t += p['snare_lag_ms'] / 1000.0
                sink.note(CH_DRUMS, note_out, vel, t, t + 0.12)
    if bar['crash']:
        t = tm(bar_idx * bpb)
        sink.note(CH_DRUMS, S.CR, 105, t, t + 0.5)
        if S.K not in groove or groove[S.K][0] == '.':
            sink.note(CH_DRUMS, S.K, 100, t, t + 0.12)
    if bar['fill']:
        toms = [S.HTOM, S.MTOM, S.LTOM, S.FTOM]
        n = n_steps - fill_from
        for i, step in enumerate(range(fill_from, n_steps)):
            pos = step_pos(bar_idx, step, spb, bpb, p['swing'], p['swing_unit'])
            note = S.S if (p['fill_kind'] == 'snare' or i < n // 2) else toms[min(3, (i - n // 2) * 4 // max(1, n - n // 2))]
            t = tm(pos)
            sink.note(CH_DRUMS, note, 70 + 40 * i / max(1, n - 1), t, t + 0.12)


def anticipate(events, p, n_steps, pushed, hold, tied):
    """A bar's (start step, end step, notes) events with its chord change anticipated: `pushed`
    (the next chord's notes, or None) struck `p['push']['early']` steps before the bar line and
    held as long as this pattern's first event, at most to step `hold` of the next bar; `tied`:
    this bar's own downbeat was so struck, and is not struck again. Also the push's step (None)."""
    head_end = events[0][1] if events and events[0][0] == 0 else 0
    if tied:
        events = events[1:]
    if pushed is None:
        return events, None
    at = n_steps - p['push']['early']
    events = [(s0, min(e, at), n) for s0, e, n in events if s0 < at]
    return events + [(at, n_steps + min(head_end, hold), pushed)], at


def bass_bar(sink, style, p, bar_idx, root, minor_chord, next_root, n_steps, final=False, push_to=None, hold=None, tied=False):
    """`push_to`: the root degree of the next bar's chord, struck `p['push']['early']` steps
    before the bar line and held into the next bar as long as its first note, at most to step `hold`
    of it (`pushable`); `tied`: this bar's downbeat was so struck."""
    spb, bpb = style['spb'], style['bpb']
    tm = sink.tm
    base = 33 + (p['key'] + root_pc(p, root)) % 12
    if style['bass'] == 'walk':
        scale = SCALE_MIN if p['minor'] else SCALE_MAJ
        nxt = 33 + (p['key'] + root_pc(p, next_root)) % 12
        notes = [base, base + (3 if minor_chord else 4), base + 7, nxt + (1 if sink.rng.random() < 0.5 else -1)]
        for b in range(bpb):
            t0, t1 = tm(bar_idx * bpb + b), tm(bar_idx * bpb + b + 1)
            sink.note(CH_BASS, notes[b % 4], 92 if b % 2 == 0 else 84, t0, t1 - 0.02)
        return
    pat = style['bass']
    step_mul = style.get('bass_step', 1)
    events = []
    for step, c in enumerate(pat):
        if c in '.-':
            continue
        if step % step_mul:
            continue
        end = step + 1
        while end < n_steps and pat[end] == '-':
            end += 1
        events.append((step, end, base + bass_interval(c, minor_chord)))
    pushed = 33 + (p['key'] + root_pc(p, push_to)) % 12 if push_to is not None else None
    events, at = anticipate(events, p, n_steps, pushed, hold, tied)
    for step, end, note in events:
        pos0 = step_pos(bar_idx, step, spb, bpb, p['swing'], p['swing_unit'])
        pos1 = step_pos(bar_idx, end, spb, bpb, p['swing'], p['swing_unit'])
        t0, t1 = tm(pos0), tm(pos1)
        sink.note(CH_BASS, note, 95 if step % spb == 0 or step == at else 82, t0, t1 - 0.015)


def root_pc(p, degree):
    scale = SCALE_MIN if p['minor'] else SCALE_MAJ
    return scale[degree % 7]


def chords_bar(sink, style, p, bar_idx, tones, n_steps, ch=CH_CHORDS, pattern=None, vel=72, push_to=None, hold=None, tied=False):
    """`push_to`: the next bar's chord tones, struck early and held over the bar line as long as
    its first chord, at most to step `hold` of the next bar (`pushable`); `tied`: this bar's
    downbeat chord was so struck at the end of the previous bar."""
    spb, bpb = style['spb'], style['bpb']
    tm = sink.tm
    pat = pattern or p['chord_pattern']
    voiced = voice(tones, p['chord_low'])
    arp_notes = voiced + [voiced[0] + 12]
    events = []
    ai = 0
    for step, c in enumerate(pat):
        if c in '.-':
            continue
        end = step + 1
        while end < n_steps and pat[end] == '-':
            end += 1
        if c == 'a':
            # arpeggio notes ring until the next chord change (legato)
            events.append((step, n_steps if p['arp_sustain'] else end + 1, [arp_notes[ai % len(arp_notes)]]))
            ai += 1
        else:
            nxt = end
            while nxt < n_steps and pat[nxt] == '.':
                nxt += 1
            short = pat[end:end + 1] == '.'
            events.append((step, end if short else nxt, voiced))
    events = [(s0, min(e, n_steps), n) for s0, e, n in events]
    pushed = voice(push_to, p['chord_low']) if push_to is not None else None
    events, at = anticipate(events, p, n_steps, pushed, hold, tied)
    for step, end, notes in events:
        pos0 = step_pos(bar_idx, step, spb, bpb, p['swing'], p['swing_unit'])
        pos1 = step_pos(bar_idx, end, spb, bpb, p['swing'], p['swing_unit'])
        t0, t1 = tm(pos0), tm(pos1)
        acc = 8 if step % spb == 0 or step == at else 0
        for i, n in enumerate(notes):
            sink.note(ch, n, vel + acc, t0 + 0.002 * i * p['strum'], t1 - 0.01)


def lead_bar(sink, style, p, bar_idx, tones, n_steps, state):
    spb, bpb = style['spb'], style['bpb']
    tm = sink.tm
    rng = sink.rng
    penta = PENTA_MIN if p['minor'] else PENTA_MAJ
    grid = max(1, spb // 2) if spb == 4 else spb
    steps = [s for s in range(0, n_steps, grid) if rng.random() < p['lead_density'] or s == 0]
    for i, s in enumerate(steps):
        e = steps[i + 1] if i + 1 < len(steps) else n_steps
        state['deg'] = int(np.clip(state['deg'] + rng.integers(-2, 3), 0, 9))
        pitch = 67 + (p['key'] % 12) + penta[state['deg'] % 5] + 12 * (state['deg'] // 5) - 5
        pos0 = step_pos(bar_idx, s, spb, bpb, p['swing'], p['swing_unit'])
        pos1 = step_pos(bar_idx, e, spb, bpb, p['swing'], p['swing_unit'])
        sink.note(CH_LEAD, pitch, 88 if s % spb == 0 else 76, tm(pos0), tm(pos1) - 0.02)


def pad_pattern(n_steps):
    return 'x' + '-' * (n_steps - 1)


def pushable(style, p, part):
    """Whether `part` can anticipate a chord change: it strikes the downbeat (so there is a
    downbeat to tie), and is not an arpeggio or a walking bass, which move on their own. The pad
    holds its chord from the downbeat (pieces for one instrument have none: `build_events`)."""
    if part == 'pad':
        return True
    pattern = style['bass'] if part == 'bass' else p['chord_pattern']
    return pattern != 'walk' and pattern[0] not in '.-' and 'a' not in pattern


def build_events(style, p, tm, bars, rng, end_time):
    """All MIDI events for the song (list of (time, kind, channel, a, b))."""
    sink = EventSink(tm, p, rng)
    n_steps = S.pattern_steps(style)
    bpb = style['bpb']
    prog = p['progression']
    ev = sink.events
    for ch, key in ((CH_BASS, 'bass'), (CH_CHORDS, 'chords'), (CH_LEAD, 'lead'), (CH_PAD, 'pad')):
        ev.append((0.0, 'prog', ch, p['programs'][key], 0))
        ev.append((0.0, 'cc', ch, 7, p['volumes'][key]))
        ev.append((0.0, 'cc', ch, 91, p['reverb']))
    if p['has_drums']:
        ev.append((0.0, 'prog', CH_DRUMS, p['drum_kit'], 0))
        ev.append((0.0, 'cc', CH_DRUMS, 7, p['volumes']['drums']))
        ev.append((0.0, 'cc', CH_DRUMS, 91, p['reverb'] // 2))
    state = {'deg': 5}
    chord_len = p['bars_per_chord']
    build_k = 0
    # Anticipation: the next chord struck early and held over the bar line, by every part that
    # plays on both sides of it and strikes its downbeat. Its own random stream.
    push = p.get('push')
    prng = np.random.default_rng(push['seed']) if push else None
    parts = ('bass', 'chords', 'pad')
    can_push = {part: pushable(style, p, part) for part in parts}
    # The chord degree of each bar, and of the one after the last.
    degrees = [prog[(b // chord_len) % len(prog)] for b in range(len(bars) + 1)]
    pushes = []
    for b, bar in enumerate(bars):
        following = bars[b + 1] if b + 1 < len(bars) else None
        pushing = bool(push and following is not None and (b + 1) % chord_len == 0
                       and degrees[b + 1] != degrees[b] and prng.random() < push['rate'])
        pushes.append({part: pushing and bool(bar[part]) and bool(following[part]) and can_push[part]
                       for part in parts} | {'kick': pushing and bool(push['kick']) and bar['drums'] in ('main', 'half', 'double')})
    no_push = dict.fromkeys(parts, False)
    for b, bar in enumerate(bars):
        if bar['section'] == 'build':
            bar['build_k'] = build_k
            build_k += 1
        else:
            build_k = 0
        deg, nxt = degrees[b], degrees[b + 1]
        tones = chord_tones(p['key'], p['minor'], deg, p['sevenths'])
        minor_chord = (tones[1] - tones[0]) % 12 == 3
        now, before = pushes[b], pushes[b - 1] if b else no_push
        after = pushes[b + 1] if b + 1 < len(bars) else no_push
        next_tones = chord_tones(p['key'], p['minor'], nxt, p['sevenths'])
        # A pushed chord rings into the next bar no further than that bar's own push.
        hold = {part: n_steps - push['early'] if after[part] else n_steps for part in parts} if push else {}
        if bar['drums']:
            drum_bar(sink, style, p, b, bar, n_steps)
            if now['kick']:
                t = tm(step_pos(b, n_steps - push['early'], style['spb'], bpb, p['swing'], p['swing_unit']))
                sink.note(CH_DRUMS, S.K, 105, t, t + 0.1)
        if bar['bass']:
            bass_bar(sink, style, p, b, deg, minor_chord, nxt, n_steps,
                     push_to=nxt if now['bass'] else None, hold=hold.get('bass'), tied=before['bass'])
        if bar['chords']:
            chords_bar(sink, style, p, b, tones, n_steps,
                       push_to=next_tones if now['chords'] else None, hold=hold.get('chords'), tied=before['chords'])
        if bar['pad'] and not style.get('solo_instrument'):
            chords_bar(sink, style, p, b, tones, n_steps, ch=CH_PAD, pattern=pad_pattern(n_steps), vel=58,
                       push_to=next_tones if now['pad'] else None, hold=hold.get('pad'), tied=before['pad'])
        if bar['lead']:
            lead_bar(sink, style, p, b, tones, n_steps, state)
    # ending: a final chord on the downbeat after the last bar
    if p['ending'] == 'chord':
        t = tm(len(bars) * bpb)
        tones = chord_tones(p['key'], p['minor'], 0, False)
        for n in voice(tones, p['chord_low']):
            sink.note(CH_CHORDS, n, 85, t, end_time - 0.3)
        sink.note(CH_BASS, 33 + p['key'] % 12, 95, t, end_time - 0.3)
        if p['has_drums']:
            sink.note(CH_DRUMS, S.CR, 110, t, t + 1.0)
            sink.note(CH_DRUMS, S.K, 110, t, t + 0.2)
    ev.append((end_time, 'cc', 15, 7, 100))   # keeps the player running to the end
    return ev
