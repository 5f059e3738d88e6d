#!/usr/bin/env python3
"""Offline study: can simple beat-synchronous evidence find the first beat of each bar?

The render counts its 8-beat phrases from a track's first steady, loud beat; it detects no
downbeat. This asks what the simplest evidence would give, on the annotated beats (so a beat
tracker's errors do not enter): per beat, the chord change (chroma, 80-2000 Hz, two beats before
against two after, cosine distance), the onset at the beat in a low (30-150 Hz), mid and high band,
and the low band's level over the beat. Each clip's bar phase (0-3, 4/4 only; clips whose
annotated bars are not all four beats long are left out) is the phase with the largest mean of one
feature (or of a fixed sum, "combo"). "first-beat" is the current rule on these clips: the first
annotated beat is a downbeat.

  python3 scripts/study/downbeat_study.py data/real-recordings/fit ../shared/corpus-dev

Prints, per set, the share of clips whose phase each reading gets right. Needs numpy and ffmpeg.
"""

import sys, os, csv, subprocess, numpy as np
SR = 11025
def decode(p):
    out = subprocess.run(["ffmpeg","-v","error","-i",p,"-ac","1","-ar",str(SR),"-f","f32le","-"],capture_output=True,check=True).stdout
    return np.frombuffer(out,dtype=np.float32).astype(np.float64)
def stft(x, n=2048, hop=256):
    m = 1 + max(0,(len(x)-n)//hop)
    idx = np.arange(n)[None,:] + hop*np.arange(m)[:,None]
    w = np.hanning(n)
    return np.abs(np.fft.rfft(x[np.minimum(idx,len(x)-1)]*w,axis=1)), hop/SR, n
def chroma(mag, n):
    f = np.arange(mag.shape[1])*SR/n
    ok = (f>=80)&(f<=2000)
    pc = np.round(12*np.log2(f[ok]/440.0)).astype(int)%12
    C = np.zeros((mag.shape[0],12))
    for k in range(12): C[:,k] = (mag[:,ok][:,pc==k]**2).sum(1)
    C = np.log1p(100*C/ (C.sum(1,keepdims=True).mean()+1e-12))
    return C
def bands(mag, n):
    f = np.arange(mag.shape[1])*SR/n
    lo = np.log1p(100*mag[:,(f>=30)&(f<150)].sum(1))
    mid = np.log1p(100*mag[:,(f>=150)&(f<1500)].sum(1))
    hi = np.log1p(100*mag[:,f>=1500].sum(1))
    return lo, mid, hi
def read_beats(p):
    b=[];pos=[]
    for line in open(p):
        s=line.split()
        if not s: continue
        b.append(float(s[0])); pos.append(int(float(s[1])) if len(s)>1 else 0)
    return np.array(b), np.array(pos)
def feats(x, beats):
    mag, dt, n = stft(x)
    C = chroma(mag,n); lo,mid,hi = bands(mag,n)
    t = np.arange(mag.shape[0])*dt + n/2/SR
    def seg(a,b): 
        i=(t>=a)&(t<b); return i
    F = []
    for i in range(len(beats)):
        b = beats[i]
        prevb = beats[i-1] if i>0 else b-(beats[1]-beats[0])
        nextb = beats[i+1] if i+1<len(beats) else b+(beats[-1]-beats[-2])
        after = seg(b, nextb)
        # chord change: cosine distance of mean chroma over the beat before vs after (2 beats each side)
        pb = beats[i-2] if i>1 else prevb
        nb = beats[i+2] if i+2<len(beats) else nextb
        cb = C[seg(pb,b)].mean(0) if seg(pb,b).any() else np.zeros(12)
        ca = C[seg(b,nb)].mean(0) if seg(b,nb).any() else np.zeros(12)
        den = np.linalg.norm(cb)*np.linalg.norm(ca)
        chg = 1 - (cb@ca)/den if den>0 else 0
        near = (t>=b-0.03)&(t<b+0.05)
        def onset(e):
            d = np.maximum(np.diff(e,prepend=e[0]),0)
            return d[near].max() if near.any() else 0
        F.append([chg, onset(lo), onset(mid), onset(hi), lo[after].mean() if after.any() else 0])
    F = np.array(F)
    F = (F - F.mean(0))/(F.std(0)+1e-9)
    return F
NAMES=["chordChange","lowOnset","midOnset","highOnset","lowLevel"]
def phase_scores(F):
    # mean of each feature over beats i with (i % 4)==p
    return np.array([[F[p::4,k].mean() for k in range(F.shape[1])] for p in range(4)])
rows=[]
for folder in sys.argv[1:]:
    for r in csv.DictReader(open(os.path.join(folder,"truth.csv"))):
        f=r["file"]; bp=os.path.join(folder,f+".beats")
        if not os.path.exists(bp): continue
        beats,pos = read_beats(bp)
        if (pos>0).sum()<4: continue
        if r.get("meter") not in ("4/4", "", None): continue
        if len(beats)<16: continue
        x = decode(os.path.join(folder,f))
        F = feats(x,beats)
        # truth phase: index of first beat with pos==1, mod 4; skip clips whose bars are not 4 long
        ones = np.where(pos==1)[0]
        if len(ones) < 3 or not np.all(np.diff(ones) % 4 == 0):
            continue
        truth = ones[0]%4
        S = phase_scores(F)
        rows.append((os.path.basename(folder.rstrip('/')), f, truth, S))
sets = sorted(set(r[0] for r in rows))
for s in sets:
    R=[r for r in rows if r[0]==s]
    line=f"{s:14s} n={len(R):3d} first-beat {np.mean([r[2]==0 for r in R]):.2f}"
    for k,nm in enumerate(NAMES):
        line+=f" {nm} {np.mean([np.argmax(r[3][:,k])==r[2] for r in R]):.2f}"
    w=np.array([1,1,0,0,0.5])
    line+=f" mod2(lowOnset) {np.mean([np.argmax(r[3][:,1])%2==r[2]%2 for r in R]):.2f} combo {np.mean([np.argmax(r[3]@w)==r[2] for r in R]):.2f}"
    print(line)
