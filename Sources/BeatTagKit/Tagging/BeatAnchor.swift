/// A beat a person placed by hand: "a beat falls here", in seconds of the decoded file. The
/// analysis can lock its grid on the "and" (half a beat off) or a sixteenth off with high
/// confidence, and the render crossfades and stretches on that grid, so a person who hears the
/// click between the beats needs a way to put it right that, like a hand-set BPM, outlives
/// rescans and re-analysis.
///
/// Only the metrical phase is taken from the hand beat. A tracker that follows the music is off by
/// a metrical fraction when it is off: half a beat (on the "and"s), a third (a shuffle's "and"), a
/// quarter (a sixteenth). So the grid moves as a whole by the nearest of those to where the hand
/// beat falls, and keeps the analysed timing: a tap, a player's position or one beat a player
/// rushed is rarely better than 40 ms, the analysed grid usually is. Stored as a time, not as a
/// shift: a later analysis that gets the phase right by itself is left alone, and a hand BPM at
/// another level (×2, ÷2) keeps a beat on it.
public enum BeatAnchor {
    /// The fractions of a beat a grid is moved by (0: the hand beat is an analysed beat).
    public static let metricalFractions: [Double] = [0, 0.25, -0.25, 1.0 / 3, -1.0 / 3, 0.5]

    /// The metrical fraction nearest `fraction` of a beat (any number: whole beats do not count),
    /// from −1/3 to 1/2; 0 when less than an eighth of a beat from a beat.
    public static func snapped(_ fraction: Double) -> Double {
        // Around the circle of one beat: −0.45 is nearest half a beat, not a third.
        func distance(_ a: Double) -> Double { abs(wrapped(a - fraction)) }
        return metricalFractions.min { distance($0) < distance($1) }!
    }

    /// `fraction` less whole beats, from −0.5 (exclusive) to 0.5.
    static func wrapped(_ fraction: Double) -> Double {
        let x = fraction - fraction.rounded(.down)
        return x > 0.5 ? x - 1 : x
    }

    /// Where `anchor` falls on the grid of `beats` (sorted seconds): as a fraction of the interval
    /// it lies in, from −0.5 to 0.5 (0 = on a beat, 0.5 = half-way to the next). Nil with fewer than
    /// two beats. Before the first or after the last beat, the nearest interval is extended.
    public static func phase(of anchor: Double, on beats: [Double]) -> Double? {
        guard beats.count >= 2 else { return nil }
        var i = beats.lastIndex { $0 <= anchor } ?? 0
        i = min(i, beats.count - 2)
        let interval = beats[i + 1] - beats[i]
        guard interval > 0 else { return nil }
        return wrapped((anchor - beats[i]) / interval)
    }

    /// `beats` moved onto the metrical position `anchor` is nearest (`snapped`): each by the same
    /// fraction of the interval it moves into (a drifting grid stays followed). Unchanged when the
    /// anchor is nearest an analysed beat. Beats moved before 0 or past `duration` are dropped; a
    /// beat is added before the first where the grid has room for one.
    public static func moved(_ beats: [Double], toBeatAt anchor: Double, duration: Double?) -> [Double] {
        guard let shift = shift(of: anchor, on: beats) else { return beats }
        return moved(beats, by: shift, duration: duration)
    }

    /// The fraction of a beat the grid of `beats` moves by to put a beat at `anchor`: where the
    /// anchor falls on it (`phase`), taken to the nearest metrical fraction (`snapped`; 0: it stays).
    /// Nil with fewer than two beats.
    public static func shift(of anchor: Double, on beats: [Double]) -> Double? {
        phase(of: anchor, on: beats).map(snapped)
    }

    /// `beats` moved `fraction` (−1…1) of a beat: later toward the next beat, earlier toward the one
    /// before. The first beat moving later is also copied half a grid back (so the list still
    /// starts within a beat of where it did), and the last moving earlier one forward.
    public static func moved(_ beats: [Double], by fraction: Double, duration: Double?) -> [Double] {
        guard beats.count >= 2, fraction != 0 else { return beats }
        let n = beats.count
        var out = beats.indices.map { beats[$0] + fraction * interval(beats, at: $0, toward: fraction) }
        if fraction > 0 { out.insert(beats[0] - (1 - fraction) * interval(beats, at: 0, toward: 1), at: 0) }
        if fraction < 0 { out.append(beats[n - 1] + (1 + fraction) * interval(beats, at: n - 1, toward: 1)) }
        let end = duration ?? .infinity
        return out.filter { $0 >= 0 && $0 <= end }
    }

    /// The hand beat that moves the grid of `beats` by `fraction` of a beat: the beat nearest
    /// `around` (a former hand beat, or the middle of the track) moved by that fraction.
    public static func anchor(shifting beats: [Double], by fraction: Double, around: Double) -> Double? {
        guard beats.count >= 2 else { return nil }
        let i = beats.indices.min { abs(beats[$0] - around) < abs(beats[$1] - around) }!
        return beats[i] + fraction * interval(beats, at: i, toward: fraction)
    }

    /// The interval beat `i` moves into: the next one for a move later, the one before for a move
    /// earlier (at either end, the nearest there is). `beats` holds at least two.
    static func interval(_ beats: [Double], at i: Int, toward fraction: Double) -> Double {
        if fraction >= 0 { return i + 1 < beats.count ? beats[i + 1] - beats[i] : beats[i] - beats[i - 1] }
        return i > 0 ? beats[i] - beats[i - 1] : beats[1] - beats[0]
    }
}
