import Foundation
import GRDB

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
    /// Present tracks with a BPM below and above the charted range (140–200), and without one:
    /// the chart does not show them, the summary counts them.
    public var belowRange = 0
    public var aboveRange = 0
    public var withoutBPM = 0
    public var buckets: [Bucket] = []
    public var cadences: [Cadence] = []

    public static let range = TempoRanges.runnable
    public static let bucketWidth = 5.0

    /// Counted in SQL and over a light projection of the runnable tempo range, so a 100,000-track
    /// catalog is not loaded. Copies of one recording count once per cadence, as in `match`; the
    /// tempo rule is `CadenceRules.fit`, as in `match`.
    public init(catalog: Catalog, maxShiftPercent: Double = CadenceRules.defaultMaxShiftPercent) throws {
        let range = LibraryStats.range, width = LibraryStats.bucketWidth
        let bucketCount = Int(((range.upperBound - range.lowerBound) / width).rounded())
        let rules = stride(from: range.lowerBound, through: range.upperBound, by: width).map {
            CadenceRules(spm: $0, maxShiftPercent: maxShiftPercent)
        }
        let lowest = rules.map { $0.bpmWindow.lowerBound }.min() ?? range.lowerBound
        let highest = rules.map { $0.bpmWindow.upperBound }.max() ?? range.upperBound
        var counts = [Int](repeating: 0, count: bucketCount)
        var usable = [Int](repeating: 0, count: rules.count)
        var judged: [(bpm: Double, adjust: Bool, tracks: Int)] = []
        var copies: [(identity: String, bpm: Double, adjust: Bool)] = [], handedCopies: [TrackRecord] = []
        try catalog.pool.read { db in
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM track GROUP BY state") {
                let n: Int = row["n"]
                total += n
                switch TrackState(rawValue: row["state"]) {
                case .analysed?: analysed = n
                case .metadataOnly?: metadataOnly = n
                case .failed?: failed = n
                case .missing?: missing = n
                case nil: break
                }
            }
            metadataOnlyWithoutBPM = try Int.fetchOne(db, sql: "SELECT count(*) FROM track WHERE state = 'metadata-only' AND bpm IS NULL") ?? 0
            // Present tracks by BPM, in one pass: with one, below and above the chart, without one.
            if let row = try Row.fetchOne(db, sql: """
                SELECT count(bpm) AS withBPM, coalesce(sum(bpm < ?), 0) AS below, coalesce(sum(bpm > ?), 0) AS above,
                       count(*) - count(bpm) AS without FROM track WHERE state != 'missing'
                """, arguments: [range.lowerBound, range.upperBound]) {
                (withBPM, belowRange, aboveRange, withoutBPM) = (row["withBPM"], row["below"], row["above"], row["without"])
            }
            // Present, playable (as `TrackRecord.isPlayable`) and not disliked tracks in the widest window any
            // cadence needs, counted per tempo and rights on the `track_stats` index.
            let usableRow = """
                state != 'missing' AND (state != 'failed' OR waveformAnalysed)
                AND (rating IS NULL OR rating != 'disliked')
                """
            // Copies of one recording (identical audio, found through the audioHash and fingerprint indexes,
            // or other encodings grouped as a `recording`) are rare: found first, then counted apart.
            let sharedAudio = try String.fetchAll(db, sql: """
                SELECT audioHash FROM track WHERE audioHash IS NOT NULL GROUP BY audioHash HAVING count(*) > 1
                """)
            // Bytes decide only for tracks without an audio hash (`contentIdentity`): a few, found on its index.
            let sharedBytes = try String.fetchAll(db, sql: """
                SELECT fingerprint FROM track WHERE audioHash IS NULL AND fingerprint IS NOT NULL GROUP BY fingerprint HAVING count(*) > 1
                """)
            let anyRecordingGroup = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM track WHERE recording IS NOT NULL)") ?? false
            var notACopy = "1", copyArguments: StatementArguments = []
            if !sharedAudio.isEmpty || !sharedBytes.isEmpty || anyRecordingGroup {
                // Never NULL (a NULL hash IN a list is NULL, and NOT NULL dropped the row from both counts).
                let isCopy = """
                    (recording IS NOT NULL OR (audioHash IS NOT NULL AND audioHash IN (SELECT value FROM json_each(?)))
                     OR (audioHash IS NULL AND fingerprint IS NOT NULL AND fingerprint IN (SELECT value FROM json_each(?))))
                    """
                notACopy = "NOT \(isCopy)"
                copyArguments = [try Self.jsonArray(sharedAudio), try Self.jsonArray(sharedBytes)]
                // Copies whose recording carries no hand word (a hand BPM or beat, a dislike) are judged
                // each at its own beats, from a few columns; the rest (few) as `match` judges them, whole
                // (whole rows for every copy took 455 MB and 2.3 s on 100,000 tracks that all had one).
                let hand = "(bpmManual IS NOT NULL OR beatAnchor IS NOT NULL OR rating = '\(TrackRating.disliked.rawValue)')"
                let handRecordings = try Int64.fetchSet(db, sql: "SELECT DISTINCT recording FROM track WHERE recording IS NOT NULL AND \(hand)")
                let handAudio = try String.fetchSet(db, sql: "SELECT DISTINCT audioHash FROM track WHERE audioHash IS NOT NULL AND \(hand)")
                var handed: [Int64] = []
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT id, recording, audioHash, fingerprint, bpm, bpmAnalysed, tempoAdjustAllowed FROM track
                    WHERE \(usableRow) AND \(isCopy)
                    """, arguments: copyArguments)
                while let row = try rows.next() {
                    let recording: Int64? = row["recording"], audioHash: String? = row["audioHash"]
                    if recording.map(handRecordings.contains) == true || audioHash.map(handAudio.contains) == true {
                        handed.append(row["id"])
                        continue
                    }
                    // (One without a BPM of its own may take another copy's, above.)
                    guard let bpm: Double = row["bpm"] else { continue }
                    let identity = TrackRecord.contentIdentity(recording: recording, audioHash: audioHash, fingerprint: row["fingerprint"], id: row["id"], path: "")
                    // As `TrackRecord.beatsBPM` says it.
                    let judgedBPM = (row["bpmAnalysed"] as Double?).flatMap { BeatListScaling.tempo(of: $0, countedAt: bpm) } ?? bpm
                    copies.append((identity, judgedBPM, row["tempoAdjustAllowed"]))
                }
                handedCopies = try TrackRecord.fetchAll(db, sql: """
                    SELECT \(TrackQuery.recordColumns) FROM track WHERE id IN (SELECT value FROM json_each(?))
                    """, arguments: [try Self.jsonArray(handed)])
            }
            // A hand or tag BPM over an analysis is matched at the tempo of its beats (`TrackRecord.beatsBPM`),
            // up to 4% from its BPM in use: such rows (few) are counted one by one below, at that tempo.
            let inWindow = "\(usableRow) AND \(notACopy) AND bpm BETWEEN ? AND ? AND NOT (\(TrackQuery.offTheBeats))"
            let window: StatementArguments = [lowest * (1 - 1e-6), highest * (1 + 1e-6)]
            let groups = try Row.fetchAll(db, sql: """
                SELECT bpm, tempoAdjustAllowed, count(*) AS tracks FROM track WHERE \(inWindow) GROUP BY bpm, tempoAdjustAllowed
                """, arguments: copyArguments + window)
            // The chart counts what the summary's "below" and "above" count: every present track
            // with a BPM (it left disliked and unplayable ones out, which "below 140" counted).
            for row in try Row.fetchAll(db, sql: "SELECT bpm, count(*) AS tracks FROM track WHERE state != 'missing' AND bpm BETWEEN ? AND ? GROUP BY bpm",
                                        arguments: [range.lowerBound, range.upperBound]) {
                let bpm: Double = row["bpm"]
                counts[min(bucketCount - 1, Int((bpm - range.lowerBound) / width))] += row["tracks"] as Int
            }
            judged = groups.map { row in (bpm: row["bpm"] as Double, adjust: row["tempoAdjustAllowed"] as Bool, tracks: row["tracks"] as Int) }
            let slack = BeatListScaling.tolerance
            for row in try Row.fetchAll(db, sql: """
                SELECT bpm, bpmAnalysed, tempoAdjustAllowed FROM track
                WHERE \(usableRow) AND \(notACopy) AND \(TrackQuery.offTheBeats) AND bpm BETWEEN ? AND ?
                """, arguments: copyArguments + [lowest * (1 - slack), highest * (1 + slack)]) {
                let bpm: Double = row["bpm"]
                judged.append((bpm: BeatListScaling.tempo(of: row["bpmAnalysed"], countedAt: bpm) ?? bpm, adjust: row["tempoAdjustAllowed"], tracks: 1))
            }
        }
        for group in judged {
            for (i, rule) in rules.enumerated() {
                if case .fits = rule.fit(bpm: group.bpm, tempoAdjustAllowed: group.adjust) { usable[i] += group.tracks }
            }
        }
        // Copies as `match` judges them (`Catalog.withRecordingsHandWord`: a BPM or dislike set by hand on
        // one copy holds for the others), each recording once per cadence, whatever BPMs and rights
        // its copies carry (they were counted once per BPM and rights).
        for copy in try catalog.withRecordingsHandWord(handedCopies) where copy.rating != .disliked {
            if let bpm = copy.beatsBPM ?? copy.bpm { copies.append((copy.contentIdentity, bpm, copy.tempoAdjustAllowed)) }
        }
        for (i, rule) in rules.enumerated() {
            var fitting = Set<String>()
            for copy in copies {
                if case .fits = rule.fit(bpm: copy.bpm, tempoAdjustAllowed: copy.adjust) { fitting.insert(copy.identity) }
            }
            usable[i] += fitting.count
        }
        needsHuman = try UntaggedQueue.count(in: catalog)
        buckets = counts.enumerated().map { i, n in
            let from = range.lowerBound + Double(i) * width
            return Bucket(from: from, to: from + width, tracks: n)
        }
        cadences = zip(rules, usable).map { Cadence(spm: $0.spm, usable: $1) }
    }

    /// A list handed to SQLite's `json_each` as one argument.
    private static func jsonArray(_ values: [some Encodable]) throws -> String {
        String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
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
