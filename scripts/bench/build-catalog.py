#!/usr/bin/env python3
"""Builds a large beattag catalog for timing the read commands (issue 11): every row is derived
from a row of a real scanned catalog (tags, rights, confidence, beat grid, one grid in six moved
half a beat by the analysis), with a new path, a tempo
drawn from a real library's tempo shape (25% below 100 BPM, 55% 100-140, 15% 140-170, 5% above),
and a beat list as long as a 3-5 minute song (the blob a real track stores). Deterministic.

    beattag scan Fixtures/library --catalog /tmp/seed.sqlite
    python3 scripts/bench/build-catalog.py /tmp/seed.sqlite /tmp/big.sqlite --tracks 100000

--shape dense (issue 38) grows a denser, messier catalog instead: each row keeps its seed row's
tempo spread by up to ±20% (the fixtures sit near the running range, so about 15% of the rows fall
in the window at 175 SPM, against 9% in the library shape), 28% of the rows are failed or
metadata-only, and every path lies outside the scanned roots. Each copy is a distinct recording.
"""
import argparse, os, random, shutil, sqlite3, struct, unicodedata

def flush(db, insert, rows, beats, prints):
    db.executemany(insert, rows)
    db.executemany("INSERT INTO trackBeats (trackId, beats) VALUES (?, ?)", beats)
    db.executemany("INSERT INTO trackPrint (trackId, print, hash) VALUES (?, ?, ?)", prints)

def fold(text):
    """beattag's TextMatch.fold, closely enough for timing: lower case, accents dropped."""
    if text is None: return None
    if text.isascii(): return text.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed", help="a catalog made by `beattag scan` (its schema and rows are copied)")
    ap.add_argument("out", help="the catalog to write (replaced)")
    ap.add_argument("--tracks", type=int, default=100_000)
    ap.add_argument("--random-seed", type=int, default=1)
    ap.add_argument("--shape", choices=["library", "dense"], default="library",
                    help="library: tempi drawn from a real library's shape; dense: the seed rows' tempi spread ±20%%")
    ap.add_argument("--prints", action="store_true",
                    help="give every analysed track a random recording print (two minutes, ~970 words) and hash, "
                         "as a scan with Chromaprint stores: for timing the comparison of new files")
    args = ap.parse_args()
    rng = random.Random(args.random_seed)
    # Its own stream, so that the rows drawn above stay those of catalogs built before it was added.
    phase_rng = random.Random(args.random_seed + 1)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(args.out + suffix): os.remove(args.out + suffix)
    src = sqlite3.connect(args.seed)
    src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    src.close()
    shutil.copyfile(args.seed, args.out)
    db = sqlite3.connect(args.out)
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute("SELECT * FROM track WHERE state != 'missing'")]
    if not rows: raise SystemExit("the seed catalog has no tracks")
    db.execute("DELETE FROM trackBeats"); db.execute("DELETE FROM track"); db.execute("DELETE FROM playlistExport")
    has_prints = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'trackPrint'").fetchone() is not None
    if has_prints: db.execute("DELETE FROM trackPrint")
    columns = [c for c in rows[0].keys() if c != "id"]
    insert = f"INSERT INTO track (id, {', '.join(columns)}) VALUES ({', '.join('?' * (len(columns) + 1))})"
    genres = ["Rock", "Pop", "Hip-Hop", "Drum & Bass", "House", "Techno", "Jazz", "Folk", "Metal", "Punk", "Soul", "Ambient"]
    buckets = [(60, 100, 0.25), (100, 140, 0.55), (140, 170, 0.15), (170, 200, 0.05)]
    # A library's mix of states: mostly analysed, a few metadata-only (AAC/WMA) and failed files.
    by_state = {s: [r for r in rows if r["state"] == s] for s in ("analysed", "metadata-only", "failed")}
    states = [s for s in ("analysed", "metadata-only", "failed") if by_state[s]]
    shares = {"analysed": 0.95, "metadata-only": 0.03, "failed": 0.02}
    dense = args.shape == "dense"
    if dense: shares = {"analysed": 0.72, "metadata-only": 0.14, "failed": 0.14}
    tempi = [r["bpm"] for r in rows if r["bpm"]]
    batch, beat_batch, print_batch = [], [], []
    for i in range(args.tracks):
        r = dict(rng.choice(by_state[rng.choices(states, weights=[shares[s] for s in states])[0]]))
        lo, hi, _ = rng.choices(buckets, weights=[b[2] for b in buckets])[0]
        bpm = round(rng.uniform(lo, hi), 1)
        if dense: bpm = round(rng.choice(tempi) * rng.uniform(0.8, 1.2), 1)
        artist = f"Artist {i % 7919}"
        folder = f"/music/{artist}/Album {i % 13}" if not dense else f"/elsewhere/{i % 97}/{artist}"
        r["path"] = f"{folder}/{i:06d} Song {i}.flac"
        r["libraryRoot"] = "/music" if "libraryRoot" in r and not dense else None
        r["artist"], r["title"], r["album"], r["genre"] = artist, f"Song {i}", f"Album {i % 13}", rng.choice(genres)
        r["fingerprint"] = f"{rng.getrandbits(64):016x}"
        if "audioHash" in r: r["audioHash"] = f"{rng.getrandbits(64):x}"
        if "recording" in r: r["recording"] = None  # every fake row is its own recording
        r["fileSize"] = rng.randint(3_000_000, 12_000_000)
        # A listener's likes and dislikes (`beattag rate`): 2% liked, 1% disliked.
        if "rating" in r: r["rating"] = rng.choices(["liked", "disliked", None], weights=[2, 1, 97])[0]
        if r["state"] == "analysed":
            r["bpmAnalysed"] = bpm
            r["bpmAlternative"] = round(bpm * 2 if bpm < 120 else bpm / 2, 1)
            r["confidence"] = round(min(0.99, max(0.2, rng.gauss(0.8, 0.12))), 3)
            r["bpmScore"] = round(rng.uniform(0.6, 1.0), 3)
            r["bpmAlternativeScore"] = round(1 - r["bpmScore"], 3)
            seconds = rng.uniform(180, 300)
            period = 60 / bpm
            r["durationSeconds"] = seconds
            r["gridPeriod"], r["gridOffset"] = period, rng.uniform(0, period)
            beat_batch.append((i + 1, b"".join(struct.pack("<f", r["gridOffset"] + k * period) for k in range(int(seconds / period)))))
            if args.prints and has_prints:
                print_batch.append((i + 1, rng.randbytes(4 * 970), rng.getrandbits(32)))
            r["bpm"], r["bpmSource"] = bpm, "analysis"
            # Grids the analysis moved half a beat (catalog version 14 on): about one in six, as on
            # the benchmark's real and generated sets (11-23%).
            if "phaseMoved" in r: r["phaseMoved"] = int(phase_rng.random() < 0.16)
        elif r["bpm"] is not None:
            r["bpm"] = bpm
        batch.append([i + 1] + [r[c] for c in columns])
        if len(batch) == 5000:
            flush(db, insert, batch, beat_batch, print_batch); batch, beat_batch, print_batch = [], [], []
    flush(db, insert, batch, beat_batch, print_batch)
    # The folded search text a scan stores with each row (catalog version 10 on).
    if any(row[1] == "searchText" for row in db.execute("PRAGMA table_info(track)")):
        db.create_function("beattag_fold", 1, fold, deterministic=True)
        db.execute("UPDATE track SET searchText = beattag_fold(coalesce(path, '') || char(1) || coalesce(title, '') || char(1) || "
                   "coalesce(artist, '') || char(1) || coalesce(album, '') || char(1) || coalesce(genre, ''))")
    db.commit()
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("ANALYZE")
    db.close()
    print(f"{args.out}: {args.tracks} tracks from {len(rows)} scanned rows, {os.path.getsize(args.out) / 1e6:.0f} MB")

if __name__ == "__main__":
    main()
