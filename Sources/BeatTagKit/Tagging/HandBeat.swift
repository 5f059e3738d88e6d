/// A beat placed by hand (`BeatAnchor`): where the analysed grid sits between the beats, a person
/// moves it. Kept through rescans and re-analysis like a hand-set BPM, removed only on request.
public enum HandBeat {
    public enum Change: Equatable, Sendable {
        /// A beat falls at this time (seconds of the file).
        case at(Double)
        /// Move the grid in use by this fraction of a beat, taken to the nearest quarter, third or
        /// half (0.5: onto the "and"s; −0.25: a sixteenth earlier). A second half-beat shift takes
        /// a half-beat one back (a third and a half make five sixths: −1/6, taken to −1/4).
        case shift(Double)
        case clear
    }

    /// The largest shift asked for: more than a beat is the same phase again.
    public static let shiftRange = -1.0...1.0

    /// Whether a shift by `fraction` of a beat can be asked for: within `shiftRange`, and moving the
    /// grid at all (a whole beat, or less than an eighth from one, does not: `BeatAnchor.snapped`).
    public static func isShift(_ fraction: Double) -> Bool { shiftRange.contains(fraction) && BeatAnchor.snapped(fraction) != 0 }

    /// `commit: false` only tells what the change would make of the row.
    public static func apply(_ change: Change, to path: String, in catalog: Catalog, commit: Bool = true) throws -> TrackRecord {
        let absolute = try catalog.locate(path)
        return try catalog.editHandData(path: absolute, commit: commit, withBeats: true) { try edit(change, &$0, path: absolute) }
    }

    static func edit(_ change: Change, _ record: inout TrackRecord, path absolute: String) throws {
        switch change {
        case .clear:
            record.beatAnchor = nil
        case .at(let time):
            try checkMovable(record, path: absolute)
            guard time >= 0, time <= (record.durationSeconds ?? .infinity) else {
                throw ManualBPMError.beatOutside(time, duration: record.durationSeconds)
            }
            record.beatAnchor = time
        case .shift(let fraction):
            try checkMovable(record, path: absolute)
            let beats = record.beatsInUse
            // Around the former hand beat, so shifts add up where the person moved the grid,
            // else a beat a third of the way in (where the review page plays from).
            guard beats.count >= 2, let anchor = BeatAnchor.anchor(shifting: beats, by: BeatAnchor.snapped(fraction),
                                                                   around: record.beatAnchor ?? beats[beats.count / 3])
            else { throw ManualBPMError.noBeatGrid(absolute) }
            // Back on the analysed grid: nothing left to hold by hand.
            let back = BeatAnchor.shift(of: anchor, on: record.beatsAtBPMInUse) == 0
            record.beatAnchor = back ? nil : anchor
        }
    }

    private static func checkMovable(_ record: TrackRecord, path: String) throws {
        guard record.isPlayable else { throw ManualBPMError.notPlayable(path, reason: record.lastError ?? "failed") }
        guard record.beatsAtBPMInUse.count >= 2 else { throw ManualBPMError.noBeatGrid(path) }
    }
}
