import Foundation

/// A CUE sheet beside the mix (`run.cue` for `run.flac`): players that read it show each track's
/// name at the moment it enters the mix.
public enum CueSheet {
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
        var entries: [(seconds: Double, title: String, performer: String?)] = []
        for (i, track) in timeline.tracks.enumerated() {
            let name = i < titles.count ? titles[i] : (track.path as NSString).lastPathComponent
            let fill = track.fill == .fresh ? "" : " (\(track.fill == .repeated ? "repeat" : "later part"))"
            entries.append((track.startSeconds, (track.segment.map { "\($0): " } ?? "") + name + fill,
                            i < performers.count ? performers[i] : nil))
        }
        for segment in timeline.segments {
            guard let from = segment.clickFromSeconds else { continue }
            entries.append((from, (segment.name.map { "\($0): " } ?? "") + String(format: "click alone at %g SPM", segment.spm), nil))
        }
        for (number, entry) in entries.sorted(by: { $0.seconds < $1.seconds }).enumerated() {
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
