import ArgumentParser
import BeatTagKit
import Foundation

enum MatchTable {
    static func render(_ matches: [CadenceMatch]) -> String {
        var table = TextTable(columns: ["#", "♥", "track", "BPM", "→ BPM", "shift", "conf", "rights", "folder"], flexible: [2, 7, 8], title: 2)
        for (i, m) in matches.enumerated() {
            let confidence = TrackCells.confidence(m.track) + (m.tempoInDoubt ? " ?" : "")
            table.add(["\(i + 1)", TrackCells.rating(m.track), m.track.displayName() + (m.halfTime ? "  [half-time: 1 beat / 2 steps]" : ""),
                       String(format: "%.1f", m.bpm), String(format: "%.1f", m.adjustedBPM),
                       String(format: "%+.1f%%", m.shiftPercent), confidence,
                       m.track.sourceType.rawValue + (m.track.tempoAdjustAllowed ? "" : " (no change)"), m.track.folder])
        }
        return table.render()
    }
}
