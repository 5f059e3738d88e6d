import Foundation

/// How the sound changes from beat to beat of a tracked level: the octave and triple evidence that
/// does not depend on the drums (`OctaveDecision`, `TripleDecision`).
///
/// Chords and bass notes change on the bar line (or every other bar), and a bar is three or four
/// beats. Read on the beats of a level twice too fast, the same changes come every eight beats, not
/// every four (a 6/8 bar read at the eighth: every six, not every three), and the positions between
/// two real beats (the eighth-note "and"s) rarely carry one.
/// For a drumless piece or a slow groove whose drums look alike at both levels (a slow jam's
/// sixteenth hats are a half-time groove's eighths) this is the evidence a listener has left.
struct HarmonicRhythm {
    /// Change across each beat (`SpectralFrames.change`, one beat either side), beat after beat.
    let changes: [Double]

    /// `beats`: a tracked level's beat times; `frames`: a chromagram or band spectrum (none: no
    /// evidence, every reading 0).
    init(beats: [Seconds], frames: SpectralFrames?) {
        guard let frames, beats.count >= 3 else {
            changes = []
            return
        }
        changes = (1..<(beats.count - 1)).map { i in
            frames.change(at: beats[i], window: Seconds((beats[i + 1] - beats[i - 1]).value / 2)) ?? 0
        }
    }

    init(beats: [FramePosition], curves: OnsetCurves, frames: SpectralFrames?) {
        self.init(beats: beats.map(curves.time(of:)), frames: frames)
    }

    /// Correlation of the change series with itself `lag` beats later (0 with too few beats to say).
    func correlation(lag: Int) -> Double {
        let n = changes.count - lag
        guard lag > 0, n >= 8 else { return 0 }
        let mean = changes.reduce(0, +) / Double(changes.count)
        var cross = 0.0, a = 0.0, b = 0.0
        for i in 0..<n {
            let x = changes[i] - mean, y = changes[i + lag] - mean
            cross += x * y
            a += x * x
            b += y * y
        }
        return a > 0 && b > 0 ? cross / (a * b).squareRoot() : 0
    }

    /// Whether the changes repeat every two bars of `beatsPerBar` beats rather than every bar: high
    /// at a level too fast by that factor's half (a chord a bar of the real tempo), low or negative
    /// at the right level.
    func repeatsAtTwoBars(of beatsPerBar: Int) -> Double {
        correlation(lag: 2 * beatsPerBar) - correlation(lag: beatsPerBar)
    }

    /// How much more one position of every `size` beats changes than the others (log of its top
    /// quarter over the others' mean top quarter; the same whichever beat starts a group). At a level
    /// too fast by `size`, the other positions are the real offbeats.
    func groupContrast(size: Int) -> Double {
        guard changes.count >= 4 * size else { return 0 }
        let tops = (0..<size).map { position -> Double in
            let top = stride(from: position, to: changes.count, by: size).map { changes[$0] }.sorted().suffix(max(1, changes.count / size / 4))
            return top.reduce(0, +) / Double(top.count)
        }
        let strongest = tops.max() ?? 0
        let others = (tops.reduce(0, +) - strongest) / Double(size - 1)
        return min(3, log((strongest + 1e-6) / (others + 1e-6)))
    }
}
