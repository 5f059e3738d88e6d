import Foundation

/// Deterministic drum-machine synthesis for fixtures and tests: known tempo, known beat times.
/// Kicks, snares and hats are simple physical-ish models (pitch-swept sine, filtered noise);
/// a pad plays chords so that harmonic onsets are present too.
public struct DrumSynth {
    public enum Hit: Sendable { case kick, snare, hat, clap }

    /// One bar's events: (position in beats from the bar start, hit).
    public struct Pattern: Sendable {
        public var beatsPerBar: Int
        public var events: [(Double, Hit)]
        public init(beatsPerBar: Int, events: [(Double, Hit)]) {
            self.beatsPerBar = beatsPerBar
            self.events = events
        }

        /// Kick on 1 and 3, snare on 2 and 4, hats on eighths.
        public static let backbeat = Pattern(beatsPerBar: 4, events: [
            (0, .kick), (1, .snare), (2, .kick), (3, .snare),
        ] + (0..<8).map { (Double($0) / 2, .hat) })
        /// Kick on every beat, clap on 2 and 4, hats on the off-beats.
        public static let fourOnTheFloor = Pattern(beatsPerBar: 4, events: [
            (0, .kick), (1, .kick), (2, .kick), (3, .kick), (1, .clap), (3, .clap),
            (0.5, .hat), (1.5, .hat), (2.5, .hat), (3.5, .hat),
        ])
        /// Drum-and-bass two-step at the fast tempo: kick on 1 and the "and" of 3, snare on 2 and 4.
        public static let twoStep = Pattern(beatsPerBar: 4, events: [
            (0, .kick), (1, .snare), (2.5, .kick), (3, .snare),
        ] + (0..<8).map { (Double($0) / 2, .hat) })
        /// Hip-hop: kick on 1 and the "and" of 2, snare on 2 and 4, sixteenth hats.
        public static let hiphop = Pattern(beatsPerBar: 4, events: [
            (0, .kick), (1.5, .kick), (1, .snare), (3, .snare), (2.75, .kick),
        ] + (0..<16).map { (Double($0) / 4, .hat) })
        /// Waltz: kick on 1, snare ("chk") on 2 and 3.
        public static let waltz = Pattern(beatsPerBar: 3, events: [(0, .kick), (1, .snare), (2, .snare)])
        /// Off-beat "skank" (reggae, ska): kick on 1, clap and hat on every "and": the loudest hits
        /// are between the beats.
        public static let skank: Pattern = {
            var events: [(Double, Hit)] = [(0, .kick)]
            for beat in 0..<4 { events += [(Double(beat) + 0.5, .clap), (Double(beat) + 0.5, .hat)] }
            return Pattern(beatsPerBar: 4, events: events)
        }()
        /// 6/8 in two dotted-quarter beats: kick on 1, snare on 4, hats on every eighth (thirds of a beat).
        public static let sixEight = Pattern(beatsPerBar: 2, events: [(0, .kick), (1, .snare)]
            + (0..<6).map { (Double($0) / 3, .hat) })
    }

    public var sampleRate: Int
    public var bpm: Double
    public var pattern: Pattern
    /// Bars at the start with only the pad playing (a drumless intro).
    public var introBars = 0
    /// Silence before the first beat, seconds.
    public var leadIn = 0.0
    /// Swing of off-beat eighths: 0.5 straight, 0.66 triplet feel.
    public var swing = 0.5
    public var seconds: Double
    public var padLevel: Float = 0.15
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    public init(sampleRate: Int, bpm: Double, pattern: Pattern, seconds: Double) {
        self.sampleRate = sampleRate
        self.bpm = bpm
        self.pattern = pattern
        self.seconds = seconds
    }

    /// Beat times (seconds) of the rendered audio: every beat from the first to the end, intro included.
    public var beatTimes: [Double] {
        let period = 60 / bpm
        var beats: [Double] = []
        var t = leadIn
        while t < seconds - 0.05 {
            beats.append(t)
            t += period
        }
        return beats
    }

    /// Downbeat flags matching `beatTimes`.
    public var downbeats: [Bool] { beatTimes.indices.map { $0 % pattern.beatsPerBar == 0 } }

    /// The `<file>.beats` annotation `beattag bench` reads: a beat time a line, downbeats flagged.
    public var beatAnnotation: String {
        zip(beatTimes, downbeats).map { String(format: "%.6f", $0) + ($1 ? "\t1" : "") }.joined(separator: "\n") + "\n"
    }

    public mutating func render() -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        var out = [Float](repeating: 0, count: n)
        let period = 60 / bpm
        let barSeconds = period * Double(pattern.beatsPerBar)
        var bar = 0
        while leadIn + Double(bar) * barSeconds < seconds {
            let barStart = leadIn + Double(bar) * barSeconds
            // Pad: a chord per bar, so the intro has harmonic onsets on the downbeat.
            let chords: [[Double]] = [[220, 277.2, 329.6], [196, 246.9, 293.7], [174.6, 220, 261.6], [196, 246.9, 329.6]]
            addPad(&out, at: barStart, length: barSeconds, freqs: chords[bar % chords.count])
            if bar >= introBars {
                for (position, hit) in pattern.events {
                    var beatPos = position
                    let frac = position - position.rounded(.down)
                    if abs(frac - 0.5) < 1e-9 { beatPos = position.rounded(.down) + swing }
                    add(hit, to: &out, at: barStart + beatPos * period)
                }
            }
            bar += 1
        }
        // Leave headroom: the mix is normalised to a peak of 0.8.
        let peak = out.map(abs).max() ?? 1
        if peak > 0 { for i in out.indices { out[i] *= 0.8 / peak } }
        return out
    }

    private mutating func noise() -> Float {
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
        return Float(Double(seed % 2_000_001) / 1_000_000 - 1)
    }

    private mutating func add(_ hit: Hit, to out: inout [Float], at time: Double) {
        let start = Int(time * Double(sampleRate))
        let sr = Double(sampleRate)
        switch hit {
        case .kick:
            var phase = 0.0
            for i in 0..<Int(0.25 * sr) where start + i < out.count && start + i >= 0 {
                let t = Double(i) / sr
                phase += 2 * Double.pi * (45 + 110 * exp(-t * 30)) / sr
                out[start + i] += Float(sin(phase) * exp(-t * 12)) * 0.9
            }
        case .snare, .clap:
            var low: Float = 0
            let decay = hit == .snare ? 18.0 : 25.0
            for i in 0..<Int(0.2 * sr) where start + i < out.count && start + i >= 0 {
                let t = Double(i) / sr
                let n = noise()
                low += 0.35 * (n - low)  // gentle low-pass: body, not fizz
                let tone = hit == .snare ? 0.35 * sin(2 * Double.pi * 185 * t) : 0
                out[start + i] += Float((Double(low) * 1.4 + tone) * exp(-t * decay)) * 0.7
            }
        case .hat:
            var previous: Float = 0
            for i in 0..<Int(0.05 * sr) where start + i < out.count && start + i >= 0 {
                let t = Double(i) / sr
                let n = noise()
                let high = n - previous  // first difference: a crude high-pass
                previous = n
                out[start + i] += Float(Double(high) * exp(-t * 70)) * 0.18
            }
        }
    }

    private func addPad(_ out: inout [Float], at start: Double, length: Double, freqs: [Double]) {
        let sr = Double(sampleRate)
        let first = max(0, Int(start * sr)), last = min(out.count, Int((start + length) * sr))
        guard first < last else { return }
        for i in first..<last {
            let t = Double(i) / sr - start
            let envelope = min(1, t / 0.02) * exp(-t * 0.8)
            var v = 0.0
            for f in freqs { v += sin(2 * Double.pi * f * t) }
            out[i] += Float(v / Double(freqs.count) * envelope) * padLevel
        }
    }
}
