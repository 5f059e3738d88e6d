import Foundation

public enum ManualBPMError: Error, CustomStringConvertible {
    case notInCatalog(String)
    case nothingToScale(String)
    case outOfRange(Double)
    case notPlayable(String, reason: String)
    public var description: String {
        switch self {
        case .notInCatalog(let path): return "\(path) is not in the catalog (scan its folder first)"
        case .nothingToScale(let path): return "\(path) has no analysed or tagged BPM to scale; set one with --bpm"
        case .notPlayable(let path, let reason): return "\(path) is not playable audio (\(reason)); no BPM set"
        case .outOfRange(let bpm): return String(format: "%.1f BPM is outside %g–%g", bpm, TempoRanges.handSet.lowerBound, TempoRanges.handSet.upperBound)
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
        return try catalog.editHandData(path: absolute) { record in
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
