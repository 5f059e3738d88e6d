/// Tempo from taps: the median interval (robust to one early or late tap) and its spread.
public struct TapTempo: Sendable {
    public private(set) var times: [Double] = []
    public init() {}

    /// Taps closer than this are one press read twice (a key bounce, Enter and Space together), not
    /// a beat at 600 BPM: one such pair made the spread ±385,031.
    public static let doublePress = 0.1

    /// A pause longer than two seconds starts a new count; a second tap within `doublePress` of the
    /// last is dropped. Returns whether the tap counted.
    @discardableResult
    public mutating func tap(at time: Double) -> Bool {
        if let last = times.last, time - last > 2 { times.removeAll() }
        if let last = times.last, time - last < TapTempo.doublePress { return false }
        times.append(time)
        return true
    }

    public var bpm: Double? {
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        guard intervals.count >= 2 else { return nil }
        return 60 / intervals[intervals.count / 2]
    }

    /// Standard deviation of the per-tap tempi, BPM: how steady the tapping was.
    public var spread: Double? {
        let tempi = zip(times.dropFirst(), times).map { 60 / ($0 - $1) }
        guard tempi.count >= 2 else { return nil }
        let mean = tempi.reduce(0, +) / Double(tempi.count)
        return (tempi.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(tempi.count - 1)).squareRoot()
    }
}
