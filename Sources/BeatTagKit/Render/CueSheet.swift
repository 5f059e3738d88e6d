import Foundation

/// A CUE sheet beside the mix (`run.cue` for `run.flac`): players that read it show each track's
/// name at the moment it enters the mix.
public enum CueSheet {
    public static func text(for timeline: RenderTimeline, audioFile: String, titles: [String], performers: [String?],
                            clickFromSeconds: Double?) -> String {
        func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\n", with: " ") + "\"" }
        func index(_ seconds: Double) -> String {
            let frames = Int((seconds * 75).rounded())
            return String(format: "%02d:%02d:%02d", frames / 75 / 60, frames / 75 % 60, frames % 75)
        }
        var lines = ["PERFORMER \"beattag\"", "TITLE " + quoted(String(format: "beattag run at %g SPM", timeline.spm)),
                     "FILE " + quoted((audioFile as NSString).lastPathComponent) + " WAVE"]
        var number = 0
        func add(title: String, performer: String?, at seconds: Double) {
            number += 1
            lines.append(String(format: "  TRACK %02d AUDIO", number))
            lines.append("    TITLE " + quoted(title))
            if let performer { lines.append("    PERFORMER " + quoted(performer)) }
            lines.append("    INDEX 01 " + index(seconds))
        }
        for (i, track) in timeline.tracks.enumerated() {
            add(title: i < titles.count ? titles[i] : (track.path as NSString).lastPathComponent,
                performer: i < performers.count ? performers[i] : nil, at: track.startSeconds)
        }
        if let clickFromSeconds { add(title: String(format: "Click at %g SPM", timeline.spm), performer: nil, at: clickFromSeconds) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `run.flac` → `run.cue`.
    public static func path(besides audioFile: String) -> String {
        ((audioFile as NSString).deletingPathExtension as NSString).appendingPathExtension("cue")!
    }
}
