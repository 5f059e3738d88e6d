import Foundation

public enum ManualBPMError: Error, CustomStringConvertible {
    case notInCatalog(String)
    case nothingToScale(String)
    case outOfRange(Double)
    public var description: String {
        switch self {
        case .notInCatalog(let path): return "\(path) is not in the catalog (scan its folder first)"
        case .nothingToScale(let path): return "\(path) has no analysed or tagged BPM to scale; set one with --bpm"
        case .outOfRange(let bpm): return String(format: "%.1f BPM is outside 30–300", bpm)
        }
    }
}

/// Hand-entered tempo: wins over analysis and tags, survives rescans, removed only on request.
public enum ManualBPM {
    public enum Change: Equatable, Sendable {
        case set(Double)
        case clear
        /// Multiply the analysed (else tagged) BPM: ×2 or ×0.5 fixes an octave error, ×1.5 / ×⅔ a 3:2 one.
        case scale(Double)
    }

    public static func apply(_ change: Change, to path: String, in catalog: Catalog) throws -> TrackRecord {
        let absolute = FileWalker.absolutePath(path)
        guard var record = try catalog.track(path: absolute) else { throw ManualBPMError.notInCatalog(absolute) }
        switch change {
        case .set(let bpm):
            guard (30...300).contains(bpm) else { throw ManualBPMError.outOfRange(bpm) }
            record.bpmManual = (bpm * 10).rounded() / 10
        case .clear:
            record.bpmManual = nil
        case .scale(let factor):
            guard let base = record.bpmAnalysed ?? record.bpmTag else { throw ManualBPMError.nothingToScale(absolute) }
            let bpm = (base * factor * 10).rounded() / 10
            guard (30...300).contains(bpm) else { throw ManualBPMError.outOfRange(bpm) }
            record.bpmManual = bpm
        }
        record.chooseBPM()
        return try catalog.save(record)
    }
}

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

/// Tracks that need a human, most useful first: those a runner could use once they have a tempo.
public enum UntaggedQueue {
    public enum Reason: String, Codable, Sendable {
        case noBPM = "no BPM (metadata-only)"
        case octaveAmbiguous = "octave ambiguous"
        case lowConfidence = "low confidence"
    }

    public struct Item: Sendable {
        public var track: TrackRecord
        public var reason: Reason
    }

    /// The runner-up octave's probability from which the octave counts as in doubt. (Rows analysed
    /// before version 10 may hold an alternative without a score: those count as in doubt.)
    public static let octaveInDoubt = 0.25

    /// `below`: analysed tempi under this confidence are listed; the default is the level `match`
    /// marks as in doubt.
    public static func items(_ tracks: [TrackRecord], below confidence: Double = ConfidenceEvidence.trusted) -> [Item] {
        var items: [Item] = []
        for t in tracks where t.state != .missing && t.bpmManual == nil {
            if t.bpm == nil, t.state == .metadataOnly {
                items.append(Item(track: t, reason: .noBPM))
            } else if t.bpmSource == .analysis, t.bpmAlternative != nil, (t.bpmAlternativeScore ?? 1) >= UntaggedQueue.octaveInDoubt {
                items.append(Item(track: t, reason: .octaveAmbiguous))
            } else if t.bpmSource == .analysis, (t.confidence ?? 0) < confidence {
                items.append(Item(track: t, reason: .lowConfidence))
            }
        }
        // Runnable tempos first (a wrong octave there costs a run), then the rest by confidence.
        func usefulness(_ item: Item) -> Double {
            let bpm = item.track.bpm ?? 0
            let runnable = [bpm, bpm * 2].contains { (140...200).contains($0) } ? 1.0 : 0
            let reasonWeight = item.reason == .octaveAmbiguous ? 2.0 : (item.reason == .noBPM ? 1.5 : 1)
            return runnable * 10 + reasonWeight * 2 - (item.track.confidence ?? 0)
        }
        return items.sorted { usefulness($0) > usefulness($1) || (usefulness($0) == usefulness($1) && $0.track.path < $1.track.path) }
    }
}
