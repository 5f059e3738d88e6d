import Foundation

/// How the sound changes from beat to beat of a tracked level: the octave evidence that does not
/// depend on the drums (`OctaveDecision`).
///
/// Chords and bass notes change on the bar line (or every other bar), and a bar is three or four
/// beats. Read on the beats of a level twice too fast, the same changes come every eight beats, not
/// every four (a 6/8 bar read at the eighth: every six, not every three), and the positions between
/// two real beats (the eighth-note "and"s) rarely carry one.
/// For a drumless piece or a slow groove whose drums look alike at both levels (a slow jam's
/// sixteenth hats are a half-time groove's eighths) this is the evidence a listener has left.
struct HarmonicRhythm {
    /// Change across each beat (`SpectralFrames.change`, one beat either side: a chord held for a
    /// beat or more on each side of its change), beat after beat; the beats near either end that
    /// the frames do not cover on both sides are left out.
    let changes: [Double]

    /// `beats`: a tracked level's beat times; `frames`: a chromagram or band spectrum (none: no
    /// evidence, every reading 0).
    init(beats: [Seconds], frames: SpectralFrames?) {
        guard let frames, beats.count >= 3 else {
            changes = []
            return
        }
        let read = (1..<(beats.count - 1)).map { i in
            frames.change(at: beats[i], window: Seconds((beats[i + 1] - beats[i - 1]).value / 2))
        }
        // Inside, a beat without two frames a side (beats closer than two frames) reads as no change.
        guard let first = read.firstIndex(where: { $0 != nil }), let last = read.lastIndex(where: { $0 != nil }) else {
            changes = []
            return
        }
        changes = read[first...last].map { $0 ?? 0 }
    }

    init(beats: [FramePosition], curves: OnsetCurves, frames: SpectralFrames?) {
        self.init(beats: beats.map(curves.time(of:)), frames: frames)
    }

    /// Correlation of the change series with itself `lag` beats later (0 with too few beats to say).
    func correlation(lag: Int) -> Double {
        let n = changes.count - lag
        guard lag > 0, n >= Self.minimumOverlap else { return 0 }
        let mean = changes.reduce(0, +) / Double(changes.count)
        var cross = 0.0, a = 0.0, b = 0.0
        for i in 0..<n {
            let x = changes[i] - mean, y = changes[i + lag] - mean
            cross += x * y
            a += x * x
            b += y * y
        }
        let r = a > 0 && b > 0 ? cross / (a * b).squareRoot() : 0
        return r.isFinite ? r : 0
    }

    /// Beats two lagged copies of the series must share for a correlation.
    private static let minimumOverlap = 8

    /// Whether the changes repeat every `2 × beatsPerBar` beats rather than every `beatsPerBar`: high
    /// where one real bar spans twice `beatsPerBar` of these beats (4/4 read at twice its tempo, 6/8
    /// read at the eighth), low or negative where a bar is `beatsPerBar` of them. 0 unless both lags
    /// can be read (a short track must not read as one lag against nothing).
    func repeatsAtTwoBars(of beatsPerBar: Int) -> Double {
        guard changes.count - 2 * beatsPerBar >= Self.minimumOverlap else { return 0 }
        return correlation(lag: 2 * beatsPerBar) - correlation(lag: beatsPerBar)
    }

    /// How much more one position of every `size` beats changes than the others: log of its top
    /// quarter over the others' mean top quarter, the same whichever beat starts a group, capped at
    /// 3. High at a level too fast by `size` (the other positions are the real offbeats), but also
    /// at the right level where chords change once a bar; the model reads it with tempo and the
    /// bar periodicity above.
    func groupContrast(size: Int) -> Double {
        guard size >= 2, changes.count >= 4 * size else { return 0 }
        let tops = (0..<size).map { position in
            Array(stride(from: position, to: changes.count, by: size).map { changes[$0] }).topQuarterMean
        }
        let strongest = tops.max() ?? 0
        let others = (tops.reduce(0, +) - strongest) / Double(size - 1)
        // A floor on the scale of the changes, so that near-silence (every change ~0) reads as none.
        let floor = 0.01 * changes.reduce(0, +) / Double(changes.count) + 1e-12
        let contrast = log((strongest + floor) / (others + floor))
        return contrast.isFinite ? min(3, contrast) : 0
    }
}
