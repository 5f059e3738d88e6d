import Foundation

/// A metronome on the master clock: a short 1 kHz click on every beat, a brighter 1.5 kHz one on
/// the first beat of every 8-beat phrase. Generated block by block, so a run of any length streams.
public struct ClickTrack: Sendable {
    public var clock: MasterClock
    /// Peak level of the accented click, dBFS; plain clicks are 4 dB lower.
    public var levelDB: Double
    static let clickSeconds = 0.03

    private let accent: [Float]
    private let plain: [Float]

    public init(clock: MasterClock, levelDB: Double = -6) {
        self.clock = clock
        self.levelDB = levelDB
        accent = ClickTrack.click(frequency: 1500, peakDB: levelDB, sampleRate: clock.sampleRate)
        plain = ClickTrack.click(frequency: 1000, peakDB: levelDB - 4, sampleRate: clock.sampleRate)
    }

    /// One click: a sine with a 1 ms rise (the click starts on the beat without a splatter) and a
    /// 6 ms decay, scaled so that its peak is exactly `peakDB`.
    static func click(frequency: Double, peakDB: Double, sampleRate: Int) -> [Float] {
        let rate = Double(sampleRate)
        let shape = (0..<Int(clickSeconds * rate)).map { i -> Double in
            let t = Double(i) / rate
            return min(1, t / 0.001) * exp(-t / 0.006) * sin(2 * .pi * frequency * t)
        }
        let scale = pow(10, peakDB / 20) / max(shape.map(abs).max() ?? 1, 1e-9)
        return shape.map { Float($0 * scale) }
    }

    /// Adds the clicks that sound in frames `start ..< start + buffer.count` of the mix (mono) to `buffer`.
    public func add(into buffer: UnsafeMutableBufferPointer<Float>, startFrame start: Int) {
        let rate = Double(clock.sampleRate)
        let length = plain.count
        let end = start + buffer.count
        // Beats whose click overlaps this block.
        var beat = max(0, Int((Double(start - length) / rate - clock.origin.value) * clock.spm / 60))
        while true {
            let at = clock.frame(ofBeat: beat).value
            let onset = Int(at)
            if onset >= end { break }
            if onset + length > start {
                let click = beat % MasterClock.beatsPerPhrase == 0 ? accent : plain
                for i in max(onset, start)..<min(onset + length, end) { buffer[i - start] += click[i - onset] }
            }
            beat += 1
        }
    }
}
