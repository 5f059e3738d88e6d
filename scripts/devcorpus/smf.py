"""Minimal Standard MIDI File (format 0) writer.

All timing lives in ticks: the file has one tempo event (120 BPM, 960 PPQ),
so one second is exactly 1920 ticks and a note at t seconds sits at
tick round(t * 1920). Tempo drift and rubato are therefore carried entirely
by our own time map, not by MIDI tempo events.
"""
import struct

PPQ = 960
MIDI_BPM = 120
TICKS_PER_SECOND = PPQ * MIDI_BPM // 60  # 1920


def sec_to_tick(t):
    return int(round(t * TICKS_PER_SECOND))


def _varlen(n):
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    return bytes(reversed(out))


def write_smf(path, events):
    """events: list of (time_s, kind, channel, a, b).

    kind: 'on' (a=note, b=velocity), 'off' (a=note), 'prog' (a=program),
    'cc' (a=controller, b=value). Sorted stably: at equal ticks, offs and
    control changes come before note-ons.
    """
    order = {'prog': 0, 'cc': 1, 'off': 2, 'on': 3}
    evs = sorted(((sec_to_tick(max(0.0, t)), order[k], i, k, ch, a, b)
                  for i, (t, k, ch, a, b) in enumerate(events)))
    body = bytearray()
    body += b'\x00\xFF\x51\x03' + (60000000 // MIDI_BPM).to_bytes(3, 'big')
    body += b'\x00\xFF\x58\x04\x04\x02\x18\x08'
    last = 0
    for tick, _, _, k, ch, a, b in evs:
        body += _varlen(tick - last)
        last = tick
        if k == 'on':
            body += bytes([0x90 | ch, a & 0x7F, max(1, min(127, int(b)))])
        elif k == 'off':
            body += bytes([0x80 | ch, a & 0x7F, 0])
        elif k == 'prog':
            body += bytes([0xC0 | ch, a & 0x7F])
        elif k == 'cc':
            body += bytes([0xB0 | ch, a & 0x7F, int(b) & 0x7F])
    body += b'\x00\xFF\x2F\x00'
    with open(path, 'wb') as f:
        f.write(b'MThd' + struct.pack('>IHHH', 6, 0, 1, PPQ))
        f.write(b'MTrk' + struct.pack('>I', len(body)) + bytes(body))
