import Foundation

/// What stops a hand edit. Said of a file the caller names first ("song.mp3: not in the catalog"),
/// so the path is kept for scripts but not repeated in the text.
public enum ManualBPMError: Error, CustomStringConvertible {
    case noSuchFile(String)
    case notInCatalog(String)
    case nothingToScale(String)
    case outOfRange(Double)
    case notPlayable(String, reason: String)
    /// An undo found another hand-set BPM than the one it takes back (changed since, elsewhere).
    case changedSince(now: Double?)
    /// A beat to place or move, on a track without an analysed beat grid at the BPM in use.
    case noBeatGrid(String)
    case beatOutside(Double, duration: Double?)
    public var description: String {
        switch self {
        case .changedSince(let now):
            return "its hand-set BPM changed since (now \(now.map { ExactNumber.text($0) + " BPM" } ?? "none")); nothing undone"
        case .noSuchFile(let path): return FileWalker.notUTF8(path) ?? "no such file"
        case .noBeatGrid:
            return "no beat grid to move (not analysed, or its BPM in use is no simple multiple of the analysed one)"
        case .beatOutside(let time, let duration):
            return "\(ExactNumber.text(time)) s is outside the track (0–\(duration.map { ExactNumber.text(Rounding.decimals($0, 2)) } ?? "?") s)"
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
        /// Take back a hand-set BPM just saved (the review page's undo), only while it is still
        /// `saved`: an edit made since, in a terminal or another page, is never lost.
        case undo(saved: Double)
    }

    /// `commit: false` only tells what the change would make of the row. (`tag --write` tags the
    /// file after the commit, outside the catalog's lock.) `beat`: a beat change made with it, on
    /// the beats of the BPM it leaves, in the same transaction: both or neither.
    public static func apply(_ change: Change, to path: String, in catalog: Catalog, commit: Bool = true,
                             beat: HandBeat.Change? = nil) throws -> TrackRecord {
        let absolute = try catalog.locate(path)
        return try catalog.editHandData(path: absolute, commit: commit, withBeats: beat != nil) { record in
            try edit(change, &record, path: absolute)
            if let beat {
                record.chooseBPM()
                try HandBeat.edit(beat, &record, path: absolute)
            }
        }
    }

    static func edit(_ change: Change, _ record: inout TrackRecord, path absolute: String) throws {
        switch change {
        case .clear, .undo: break  // taking a BPM away needs no playable audio
        case .set, .scale:
            guard record.isPlayable else { throw ManualBPMError.notPlayable(absolute, reason: record.lastError ?? "failed") }
        }
        switch change {
        case .set(let bpm):
            guard TempoRanges.handSet.contains(bpm) else { throw ManualBPMError.outOfRange(bpm) }
            record.bpmManual = BPM.roundToTenth(bpm)
        case .clear:
            record.bpmManual = nil
        case .undo(let saved):
            guard record.bpmManual == BPM.roundToTenth(saved) else { throw ManualBPMError.changedSince(now: record.bpmManual) }
            record.bpmManual = nil
        case .scale(let factor):
            guard let base = record.bpmAnalysed ?? record.bpmTag else { throw ManualBPMError.nothingToScale(absolute) }
            let bpm = BPM.roundToTenth(base * factor)
            guard TempoRanges.handSet.contains(bpm) else { throw ManualBPMError.outOfRange(bpm) }
            record.bpmManual = bpm
        }
    }
}
