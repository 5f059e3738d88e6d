import Foundation

/// What stops a hand edit. Said of a file the caller names first ("song.mp3: not in the catalog"),
/// so the path is kept for scripts but not repeated in the text.
public enum ManualBPMError: Error, CustomStringConvertible {
    case noSuchFile(String)
    case notInCatalog(String)
    case nothingToScale(String)
    case outOfRange(Double)
    case notPlayable(String, reason: String)
    public var description: String {
        switch self {
        case .noSuchFile: return "no such file"
        case .notInCatalog: return "not in the catalog (scan its folder first)"
        case .nothingToScale: return "no analysed or tagged BPM to scale; set one with --bpm"
        case .notPlayable(_, let reason): return "not playable audio (\(reason)); no BPM set"
        case .outOfRange(let bpm):
            return "\(ExactNumber.text(bpm)) BPM is outside \(ExactNumber.text(TempoRanges.handSet.lowerBound))–\(ExactNumber.text(TempoRanges.handSet.upperBound))"
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

    /// `beforeCommit` runs with the changed row inside the catalog's transaction (`tag --write`
    /// writes the file there): if it throws, the catalog keeps what it had. `commit: false` only
    /// tells what the change would make of the row.
    public static func apply(_ change: Change, to path: String, in catalog: Catalog, commit: Bool = true,
                             beforeCommit: ((TrackRecord) throws -> Void)? = nil) throws -> TrackRecord {
        let absolute = try catalog.locate(path)
        return try catalog.editHandData(path: absolute, commit: commit, beforeCommit: beforeCommit) { record in
            if change != .clear, !record.isPlayable {
                throw ManualBPMError.notPlayable(absolute, reason: record.lastError ?? "failed")
            }
            switch change {
            case .set(let bpm):
                guard TempoRanges.handSet.contains(bpm) else { throw ManualBPMError.outOfRange(bpm) }
                record.bpmManual = BPM.roundToTenth(bpm)
            case .clear:
                record.bpmManual = nil
            case .scale(let factor):
                guard let base = record.bpmAnalysed ?? record.bpmTag else { throw ManualBPMError.nothingToScale(absolute) }
                let bpm = BPM.roundToTenth(base * factor)
                guard TempoRanges.handSet.contains(bpm) else { throw ManualBPMError.outOfRange(bpm) }
                record.bpmManual = bpm
            }
        }
    }
}
