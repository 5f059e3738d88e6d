/// How tempi spread over a real music library before listening: most songs sit at 80–140 BPM, few
/// in the running range. The tempo models are fitted under this prior (their training samples are
/// weighted to it: `scripts/fit/tempo_models.py` reads it from bench's output, `shape`), so a coin toss goes to the reading a
/// library makes likelier; bench weights its match precision with it.
public struct TempoPrior: Sendable {
    /// Tempo ranges by upper bound (exclusive, the last unbounded) and their share of a library.
    public let buckets: [(upTo: Double, share: Double)]

    public static let library = TempoPrior(buckets: [(100, 0.25), (140, 0.55), (170, 0.15), (.infinity, 0.05)])

    public init(buckets: [(upTo: Double, share: Double)]) {
        precondition(!buckets.isEmpty && buckets.last!.upTo == .infinity, "the last bucket must be unbounded")
        self.buckets = buckets
    }

    /// The buckets as data (`[upper bound or nil when unbounded, share]`): how bench hands the one
    /// definition to the fit script.
    public var shape: [[Double?]] { buckets.map { [$0.upTo.isFinite ? $0.upTo : nil, $0.share] } }

    /// Index of the range `bpm` falls in.
    public func bucket(of bpm: Double) -> Int { buckets.firstIndex { bpm < $0.upTo } ?? buckets.count - 1 }

    /// Share of a library in the range `bpm` falls in.
    public func share(of bpm: Double) -> Double { buckets[bucket(of: bpm)].share }
}
