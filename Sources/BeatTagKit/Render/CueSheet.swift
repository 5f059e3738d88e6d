import Foundation

/// A CUE sheet beside the mix (`run.cue` for `run.flac`): players that read it show each track's
/// name at the moment it enters the mix.
public enum CueSheet {
    /// The format numbers tracks 01 to 99.
    public static let maxTracks = 99

    /// `title`: the sheet's (default "beattag run at N SPM"). Each track is named with its segment
    /// when the run has named segments, and each stretch the click carries alone is an entry of its own.
    public static func text(for timeline: RenderTimeline, audioFile: String, titles: [String], performers: [String?],
                            title: String? = nil) -> String {
        func quoted(_ s: String) -> String { "\"" + VisibleControls.text(s.replacingOccurrences(of: "\"", with: "'")) + "\"" }
        func index(_ seconds: Double) -> String {
            let frames = Int((seconds * 75).rounded())
            return String(format: "%02d:%02d:%02d", frames / 75 / 60, frames / 75 % 60, frames % 75)
        }
        var lines = ["PERFORMER \"beattag\"", "TITLE " + quoted(title ?? String(format: "beattag run at %g SPM", timeline.spm)),
                     "FILE " + quoted((audioFile as NSString).lastPathComponent) + " WAVE"]
        var entries: [(seconds: Double, title: String, performer: String?, clickAlone: Bool)] = []
        for (i, track) in timeline.tracks.enumerated() {
            let name = i < titles.count ? titles[i] : (track.path as NSString).lastPathComponent
            let fill = track.fill == .fresh ? "" : " (\(track.fill == .repeated ? "repeat" : "later part"))"
            entries.append((track.startSeconds, (track.segment.map { "\($0): " } ?? "") + name + fill,
                            i < performers.count ? performers[i] : nil, false))
        }
        for segment in timeline.segments {
            guard let from = segment.clickFromSeconds else { continue }
            entries.append((from, (segment.name.map { "\($0): " } ?? "") + String(format: "click alone at %g SPM", segment.spm), nil, true))
        }
        entries.sort { $0.seconds < $1.seconds }
        // A long workout can change more often than a sheet can number: the stretches of click go
        // first, then the last entry stands for the rest (they are all in the credits and the JSON).
        if entries.count > maxTracks { entries.removeAll(where: \.clickAlone) }
        if entries.count > maxTracks {
            let rest = entries.count - (maxTracks - 1)
            entries = Array(entries.prefix(maxTracks - 1)) + [(entries[maxTracks - 1].seconds, "\(rest) more: see the credits", nil, false)]
        }
        for (number, entry) in entries.enumerated() {
            lines.append(String(format: "  TRACK %02d AUDIO", number + 1))
            lines.append("    TITLE " + quoted(entry.title))
            if let performer = entry.performer { lines.append("    PERFORMER " + quoted(performer)) }
            lines.append("    INDEX 01 " + index(entry.seconds))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `run.flac` → `run.cue`.
    public static func path(besides audioFile: String) -> String {
        ((audioFile as NSString).deletingPathExtension as NSString).appendingPathExtension("cue")!
    }
}
