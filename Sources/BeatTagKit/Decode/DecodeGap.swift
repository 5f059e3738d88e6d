/// A stretch of a stream whose audio was lost (a damaged page or packet), put back as silence so
/// that everything after it keeps its time.
public struct DecodeGap: Equatable, Sendable {
    /// Where the gap starts in the decoded audio, and how long it is.
    public var atSeconds: Double
    public var seconds: Double

    /// "1.0 s lost to damage at 14.1 s, read as silence"; of several, the total and the first.
    static func describe(_ gaps: [DecodeGap]) -> String? {
        guard let first = gaps.first else { return nil }
        func span(_ seconds: Double) -> String {
            seconds < 0.95 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.1f s", seconds)
        }
        let total = gaps.reduce(0) { $0 + $1.seconds }
        return "\(span(total)) lost to damage \(places(gaps.map(\.atSeconds))), read as silence"
    }

    /// Where damage was, for a warning: "at 14.1 s"; of several, "in 2 places from 14.1 s on".
    static func places(_ starts: [Double]) -> String {
        guard let first = starts.first else { return "" }
        return starts.count == 1 ? String(format: "at %.1f s", first) : String(format: "in %d places from %.1f s on", starts.count, first)
    }
}
