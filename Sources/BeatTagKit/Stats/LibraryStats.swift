import Foundation

/// How ready a library is for running: tempo spread over the runners' range, how many tracks each
/// cadence can use, and what still needs attention.
public struct LibraryStats: Codable, Sendable {
    public struct Bucket: Codable, Sendable {
        public var from: Double
        public var to: Double
        public var tracks: Int
    }

    public struct Cadence: Codable, Sendable {
        public var spm: Double
        public var usable: Int
    }

    public var total = 0
    public var analysed = 0
    public var metadataOnly = 0
    public var metadataOnlyWithoutBPM = 0
    public var needsHuman = 0
    public var failed = 0
    public var missing = 0
    public var withBPM = 0
    public var buckets: [Bucket] = []
    public var cadences: [Cadence] = []

    public static let range = TempoRanges.runnable
    public static let bucketWidth = 5.0

    public init(tracks: [TrackRecord], maxShiftPercent: Double = CadenceRules.defaultMaxShiftPercent) {
        let present = tracks.filter { $0.state != .missing }
        total = tracks.count
        analysed = tracks.filter { $0.state == .analysed }.count
        metadataOnly = tracks.filter { $0.state == .metadataOnly }.count
        metadataOnlyWithoutBPM = tracks.filter { $0.state == .metadataOnly && $0.bpm == nil }.count
        failed = tracks.filter { $0.state == .failed }.count
        missing = tracks.filter { $0.state == .missing }.count
        withBPM = present.filter { $0.bpm != nil }.count
        needsHuman = UntaggedQueue.items(tracks).count
        var from = LibraryStats.range.lowerBound
        while from < LibraryStats.range.upperBound {
            let to = from + LibraryStats.bucketWidth
            let last = to >= LibraryStats.range.upperBound
            let count = present.filter { t in t.bpm.map { $0 >= from && ($0 < to || (last && $0 <= to)) } ?? false }.count
            buckets.append(Bucket(from: from, to: to, tracks: count))
            from = to
        }
        var filter = MatchFilter()
        filter.excludedKeywords = []
        cadences = stride(from: LibraryStats.range.lowerBound, through: LibraryStats.range.upperBound, by: LibraryStats.bucketWidth).map {
            Cadence(spm: $0, usable: CadenceMatcher.match(present, rules: CadenceRules(spm: $0, maxShiftPercent: maxShiftPercent),
                                                        filter: filter).matches.count)
        }
    }

    /// The per-bucket chart as an SVG document (self-contained, no fonts or scripts fetched).
    public func svg(title: String = "Tracks per 5 BPM, 140–200") -> String {
        let width = 640.0, height = 360.0, left = 48.0, bottom = 40.0, top = 40.0, right = 16.0
        let plotW = width - left - right, plotH = height - top - bottom
        // Whole-number ticks: counts of tracks.
        let step = max(1, Int((Double(buckets.map(\.tracks).max() ?? 1) / 4).rounded(.up)))
        let maxCount = step * 4
        let barW = plotW / Double(max(1, buckets.count))
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="24" font-size="15" font-weight="bold">\(escape(title))</text>
            <line x1="\(left)" y1="\(top + plotH)" x2="\(left + plotW)" y2="\(top + plotH)" stroke="#333"/>
            <line x1="\(left)" y1="\(top)" x2="\(left)" y2="\(top + plotH)" stroke="#333"/>

            """
        for tick in 0...4 {
            let y = top + plotH - plotH * Double(tick) / 4
            s += "<text x=\"\(left - 6)\" y=\"\(fmt(y + 4))\" text-anchor=\"end\">\(tick * step)</text>\n"
        }
        for (i, b) in buckets.enumerated() {
            let h = plotH * Double(b.tracks) / Double(maxCount)
            let x = left + Double(i) * barW
            s += "<rect x=\"\(fmt(x + 2))\" y=\"\(fmt(top + plotH - h))\" width=\"\(fmt(barW - 4))\" height=\"\(fmt(h))\" fill=\"#2f7ed8\"><title>\(Int(b.from))–\(Int(b.to)) BPM: \(b.tracks)</title></rect>\n"
            s += "<text x=\"\(fmt(x + barW / 2))\" y=\"\(fmt(top + plotH + 16))\" text-anchor=\"middle\">\(Int(b.from))</text>\n"
            if b.tracks > 0 {
                s += "<text x=\"\(fmt(x + barW / 2))\" y=\"\(fmt(top + plotH - h - 4))\" text-anchor=\"middle\">\(b.tracks)</text>\n"
            }
        }
        s += "<text x=\"\(fmt(left + plotW / 2))\" y=\"\(fmt(height - 6))\" text-anchor=\"middle\">BPM in use</text>\n</svg>\n"
        return s
    }

    private func fmt(_ x: Double) -> String { String(format: "%.1f", x) }
    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
