/// Tempo from taps: the median interval (robust to one early or late tap) and its spread.
public struct TapTempo: Sendable {
    public private(set) var times: [Double] = []
    public init() {}

    /// A pause longer than two seconds starts a new count.
    public mutating func tap(at time: Double) {
        if let last = times.last, time - last > 2 { times.removeAll() }
        times.append(time)
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
