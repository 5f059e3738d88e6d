"""Rendering (fluidsynth), post-processing (numpy/scipy) and encoding."""
import os
import struct
import subprocess
import wave

import numpy as np
from scipy import signal

from smf import write_smf

SR = 44100
FLUIDSYNTH_GAIN = 0.35


# ---------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------

def render(mid_path, sf_path, wav_path, reverb=True):
    """Render a MIDI file with fluidsynth to a 32-bit float stereo WAV."""
    cmd = ['fluidsynth', '-ni', '-q', '-o', 'synth.dynamic-sample-loading=1',
           '-o', 'audio.file.format=float', '-o', 'synth.polyphony=256',
           '-g', str(FLUIDSYNTH_GAIN), '-r', str(SR), '-R', '1' if reverb else '0', '-C', '0',
           '-F', wav_path, sf_path, mid_path]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read_wav(path):
    """Read a PCM16 or float32 WAV into float64 array (n, channels) and rate."""
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:4] == b'RIFF' and data[8:12] == b'WAVE', path
    pos = 12
    fmt = None
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack('<I', data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if cid == b'fmt ':
            tag, ch, rate, _, _, bits = struct.unpack('<HHIIHH', body[:16])
            if tag == 0xFFFE:
                tag = struct.unpack('<H', body[24:26])[0]
            fmt = (tag, ch, rate, bits)
        elif cid == b'data':
            tag, ch, rate, bits = fmt
            if tag == 3 and bits == 32:
                x = np.frombuffer(body[:len(body) // 4 * 4], dtype='<f4').astype(np.float64)
            elif tag == 1 and bits == 16:
                x = np.frombuffer(body[:len(body) // 2 * 2], dtype='<i2').astype(np.float64) / 32768.0
            else:
                raise ValueError('unsupported wav format %r' % (fmt,))
            return x[:len(x) // ch * ch].reshape(-1, ch), rate
        pos += 8 + size + (size & 1)
    raise ValueError('no data chunk in ' + path)


def write_wav16(path, x):
    y = np.clip(np.round(x * 32767.0), -32768, 32767).astype('<i2')
    with wave.open(path, 'wb') as w:
        w.setnchannels(x.shape[1])
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(y.tobytes())


def onset_time(mono, sr, t_expected, window=(-0.05, 0.15), rel=0.02, floor=1e-3):
    """First sample after t_expected+window[0] above max(rel*peak, floor)."""
    a = max(0, int((t_expected + window[0]) * sr))
    b = int((t_expected + window[1]) * sr)
    seg = np.abs(mono[a:b])
    if seg.size == 0 or seg.max() <= 0:
        return None
    thr = max(rel * seg.max(), floor)
    return (a + int(np.argmax(seg > thr))) / sr


def measure_latency(sf_path, tmpdir):
    """Render isolated kick and piano notes at known times; median onset delay."""
    times = [0.5 + 1.2 * i + 0.000737 * i for i in range(24)]
    ev = [(0.0, 'prog', 9, 0, 0), (0.0, 'prog', 0, 0, 0)]
    for i, t in enumerate(times):
        if i % 2 == 0:
            ev += [(t, 'on', 9, 36, 120), (t + 0.1, 'off', 9, 36, 0)]
        else:
            ev += [(t, 'on', 0, 60, 110), (t + 0.3, 'off', 0, 60, 0)]
    ev.append((times[-1] + 1.0, 'cc', 15, 7, 100))
    mid = os.path.join(tmpdir, 'calib.mid')
    wav = os.path.join(tmpdir, 'calib.wav')
    write_smf(mid, ev)
    render(mid, sf_path, wav, reverb=False)
    x, sr = read_wav(wav)
    mono = np.abs(x).max(axis=1)
    # absolute threshold ~ -66 dBFS: the first audible sample of the attack
    d = [onset_time(mono, sr, t, (-0.02, 0.1), rel=0.0, floor=5e-4) - t for t in times]
    d = np.array(d)
    return dict(latency_ms=float(np.median(d) * 1000), min_ms=float(d.min() * 1000),
                max_ms=float(d.max() * 1000), kick_ms=float(np.median(d[0::2]) * 1000),
                piano_ms=float(np.median(d[1::2]) * 1000))


# ---------------------------------------------------------------------------
# noise and effects
# ---------------------------------------------------------------------------

def pink_noise(rng, n):
    white = rng.standard_normal(n)
    spec = np.fft.rfft(white)
    f = np.fft.rfftfreq(n, 1.0 / SR)
    f[0] = f[1]
    spec /= np.sqrt(f)
    y = np.fft.irfft(spec, n)
    return y / (np.std(y) + 1e-12)


def hum_noise(rng, n):
    f0 = 50.0 if rng.random() < 0.5 else 60.0
    t = np.arange(n) / SR
    y = np.zeros(n)
    for h, a in ((1, 1.0), (2, 0.5), (3, 0.35), (5, 0.2), (7, 0.1)):
        y += a * np.sin(2 * np.pi * f0 * h * t + rng.uniform(0, 2 * np.pi))
    y += 0.05 * rng.standard_normal(n)
    return y / np.std(y)


def vinyl_noise(rng, n):
    y = 0.15 * pink_noise(rng, n)                         # surface hiss
    sos = signal.butter(2, 80, 'lowpass', fs=SR, output='sos')
    y += 0.6 * signal.sosfilt(sos, rng.standard_normal(n)) * 20   # rumble
    n_clicks = rng.poisson(n / SR * rng.uniform(4, 25))
    pos = rng.integers(0, n - 200, n_clicks)
    amp = np.minimum(rng.pareto(2.0, n_clicks) + 0.5, 3.0)
    kern = np.exp(-np.arange(60) / 8.0) * np.sign(rng.standard_normal(60))
    clicks = np.zeros(n)
    clicks[pos] = amp * np.sign(rng.standard_normal(n_clicks))
    y += 3.0 * np.convolve(clicks, kern, mode='same')
    return y / np.std(y)


def crowd_noise(rng, n):
    """Babble: band-passed noise streams with syllable-rate envelopes."""
    y = np.zeros(n)
    sos_env = signal.butter(2, 4.0, 'lowpass', fs=SR, output='sos')
    for _ in range(8):
        lo = rng.uniform(200, 600)
        sos = signal.butter(2, [lo, lo * rng.uniform(3, 6)], 'bandpass', fs=SR, output='sos')
        src = signal.sosfilt(sos, rng.standard_normal(n))
        env = np.maximum(0, signal.sosfilt(sos_env, rng.standard_normal(n)) * 30 + 0.3)
        y += src * env
    y += 0.3 * pink_noise(rng, n)
    return y / np.std(y)


NOISES = {'pink': pink_noise, 'hum': hum_noise, 'vinyl': vinyl_noise, 'crowd': crowd_noise}


def apply_eq(x, eq, rng_params):
    """Zero-phase filters (sosfiltfilt) so that onsets are not delayed."""
    if eq is None:
        return x
    kind, f = eq['kind'], eq['freq']
    if kind == 'lofi':
        sos = signal.butter(2, [f, 4200], 'bandpass', fs=SR, output='sos')
        y = signal.sosfiltfilt(sos, x, axis=0)
        return np.tanh(2.0 * y / (np.abs(y).max() + 1e-9)) * np.abs(y).max() / np.tanh(2.0)
    if kind == 'smallspeaker':
        sos = signal.butter(4, f, 'highpass', fs=SR, output='sos')
        return signal.sosfiltfilt(sos, x, axis=0)
    if kind == 'dull':
        sos = signal.butter(4, f, 'lowpass', fs=SR, output='sos')
        return signal.sosfiltfilt(sos, x, axis=0)
    raise ValueError(kind)


def rms_db(x):
    return 20 * np.log10(np.sqrt(np.mean(x ** 2)) + 1e-12)


def limit(x, ceiling=0.97, knee=0.6):
    """Soft clipper: linear below knee*ceiling, tanh above, never above ceiling."""
    a = knee * ceiling
    y = x.copy()
    m = np.abs(x) > a
    y[m] = np.sign(x[m]) * (a + (ceiling - a) * np.tanh((np.abs(x[m]) - a) / (ceiling - a)))
    return y


def postprocess(music, post, lead_in_samples, total_samples, rng):
    """music: rendered float audio starting at the music origin.

    Returns the final clip (lead-in silence, EQ, noise, level, limiter,
    fade-out), exactly total_samples long, and the measured RMS level.
    """
    x = np.zeros((total_samples, 2))
    body = music[:max(0, total_samples - lead_in_samples)]
    x[lead_in_samples:lead_in_samples + len(body)] = body
    x = apply_eq(x, post['eq'], rng)
    active = x[lead_in_samples:]
    sig_rms = np.sqrt(np.mean(active ** 2)) + 1e-12
    if post['noise']:
        nrng = np.random.default_rng(post['noise_seed'])
        nz = NOISES[post['noise']](nrng, total_samples)
        nz2 = np.stack([nz, 0.8 * nz + 0.2 * NOISES['pink'](nrng, total_samples)], axis=1) \
            if post['noise'] != 'hum' else np.stack([nz, nz], axis=1)
        nz2 *= sig_rms / (np.sqrt(np.mean(nz2 ** 2)) + 1e-12) * 10 ** (-post['snr_db'] / 20)
        x = x + nz2
    if post.get('fade_in', 0) > 0:
        nf = int(post['fade_in'] * SR)
        x[:nf] *= (np.linspace(0.0, 1.0, nf) ** 2)[:, None]
    if post['fade_out'] > 0:
        nf = int(post['fade_out'] * SR)
        ramp = np.linspace(1.0, 0.0, nf) ** 2
        x[-nf:] *= ramp[:, None]
    target = post['target_rms_db']
    if post['limiter']:
        for _ in range(4):
            g = 10 ** ((target - rms_db(limit(x))) / 20)
            x = x * g
        x = limit(x) if post['limiter'] == 'soft' else np.clip(x, -0.99, 0.99)
    applied = post['limiter']
    if not post['limiter']:
        g = 10 ** ((target - rms_db(x)) / 20)
        peak = np.abs(x).max() * g
        if peak > 0.98 and target > -20:
            # typical mastering: a gentle limiter only on the loudest peaks
            for _ in range(3):
                x = x * 10 ** ((target - rms_db(limit(x * g, knee=0.8))) / 20)
                g = 1.0
            x = limit(x, knee=0.8)
            applied = 'gentle'
        else:
            if peak > 0.98:
                g *= 0.98 / peak      # keep it unclipped; the level note gives the real value
            x = x * g
    # a tiny amount of TPDF dither before 16-bit
    x = x + (rng.random(x.shape) - rng.random(x.shape)) / 32768.0
    return x, rms_db(x), applied


# ---------------------------------------------------------------------------
# encoding
# ---------------------------------------------------------------------------

def encode(wav_path, out_path, enc, serial=1):
    """enc: dict(format, mode, value). Returns a human-readable description.

    `serial` fixes the Ogg stream serial number (otherwise random), so that
    Vorbis/Opus files are byte-identical between runs.
    """
    fmt = enc['format']
    tmp = out_path + '.part'
    if fmt == 'wav':
        os.replace(wav_path, tmp)
        desc = 'WAV PCM 16-bit'
    elif fmt == 'flac':
        subprocess.run(['flac', '-s', '-f', '-%d' % enc['value'], '-o', tmp, wav_path], check=True)
        desc = 'FLAC 16-bit -%d' % enc['value']
    elif fmt == 'mp3':
        base = ['lame', '--quiet', '--resample', '44.1', '-m', 'j']
        if enc['mode'] == 'cbr':
            args, desc = ['-b', str(enc['value']), '--cbr'], 'MP3 CBR %dk' % enc['value']
        elif enc['mode'] == 'vbr':
            args, desc = ['-V', str(enc['value'])], 'MP3 VBR V%d' % enc['value']
        else:
            args, desc = ['--abr', str(enc['value'])], 'MP3 ABR %dk' % enc['value']
        subprocess.run(base + args + [wav_path, tmp], check=True)
    elif fmt == 'ogg':
        subprocess.run(['oggenc', '-Q', '-q', str(enc['value']), '-s', str(serial), '-o', tmp, wav_path], check=True)
        desc = 'Vorbis q%s' % enc['value']
    elif fmt == 'opus':
        subprocess.run(['opusenc', '--quiet', '--serial', str(serial), '--bitrate', str(enc['value']), wav_path, tmp], check=True)
        desc = 'Opus %dk (48 kHz)' % enc['value']
    else:
        raise ValueError(fmt)
    os.replace(tmp, out_path)
    return desc


def decode_with_ffmpeg(path):
    """Decode any file with ffmpeg to float stereo; returns (x, rate)."""
    out = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-f', 'f32le', '-ac', '2', '-'],
                         check=True, capture_output=True).stdout
    probe = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'a:0', '-show_entries',
                            'stream=sample_rate', '-of', 'csv=p=0', path],
                           check=True, capture_output=True, text=True).stdout
    rate = int(probe.strip().split(',')[0])
    return np.frombuffer(out, dtype='<f4').astype(np.float64).reshape(-1, 2), rate
