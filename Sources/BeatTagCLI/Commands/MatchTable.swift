import ArgumentParser
import BeatTagKit
import Foundation

enum MatchTable {
    /// `width`: the terminal's. Half-time leads the track cell, where cutting a long name to fit
    /// cannot take it away (an audit: a trailing label was cut off).
    static func render(_ matches: [CadenceMatch], width: Int = TextTable.width) -> String {
        var table = TextTable(columns: ["#", "♥", "track", "BPM", "→ BPM", "shift", "conf", "rights", "folder"], flexible: [2, 7, 8], title: 2)
        for (i, m) in matches.enumerated() {
            let confidence = TrackCells.confidence(m.track) + (m.tempoInDoubt ? " ?" : "")
            table.add(["\(i + 1)", TrackCells.rating(m.track), (m.halfTime ? "[half-time: 1 beat / 2 steps] " : "") + m.track.displayName(),
                       String(format: "%.1f", m.bpm), String(format: "%.1f", m.adjustedBPM),
                       String(format: "%+.1f%%", m.shiftPercent), confidence,
                       m.track.sourceType.rawValue + (m.track.tempoAdjustAllowed ? "" : " (no change)"), m.track.folder])
        }
        return table.render(width: width)
    }
}
