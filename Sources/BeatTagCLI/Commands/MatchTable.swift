import ArgumentParser
import BeatTagKit
import Foundation

enum MatchTable {
    static func render(_ matches: [CadenceMatch]) -> String {
        var table = TextTable(columns: ["#", "track", "BPM", "→ BPM", "shift", "conf", "rights", "folder"])
        for (i, m) in matches.enumerated() {
            let confidence = m.track.bpmSource == .manual ? "hand"
                // Truncated, not rounded: 0.797 must not print as "0.80 ?" beside "below 0.8".
                : (m.track.confidence.map { String(format: "%.2f", ($0 * 100).rounded(.down) / 100) + (m.tempoInDoubt ? " ?" : "") } ?? "tag")
            table.add(["\(i + 1)", m.track.displayName() + (m.halfTime ? "  [half-time: 1 beat / 2 steps]" : ""),
                       String(format: "%.1f", m.bpm), String(format: "%.1f", m.adjustedBPM),
                       String(format: "%+.1f%%", m.shiftPercent), confidence,
                       m.track.sourceType.rawValue + (m.track.tempoAdjustAllowed ? "" : " (no change)"), m.track.folder])
        }
        return table.render()
    }
}
