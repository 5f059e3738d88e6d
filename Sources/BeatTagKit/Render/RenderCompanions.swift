import Foundation

/// The CUE sheet and credits beside a render share its stem (`run.cue`, `run.credits.txt` for
/// `run.flac`), so two renders that differ only in format (`run.flac`, then `run.mp3`) would share
/// them: the second replaced the first's, and `run.flac` was left with credits and a sheet for
/// another mix. A companion written for another render that is still there is not replaced.
public enum RenderCompanions {
    /// The name of the other render, beside `audioFile`, that the CUE sheet or credits there were
    /// written for; nil when they are absent, are `audioFile`'s, or their render is gone.
    public static func otherRender(besides audioFile: String) -> String? {
        let own = (audioFile as NSString).lastPathComponent
        let folder = (audioFile as NSString).deletingLastPathComponent
        let named = [RunCredits.creditedFile(besides: audioFile), sheetFile(CueSheet.path(besides: audioFile))]
        return named.compactMap { $0 }.first { name in
            name != own && !name.contains("/")
                && FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name))
        }
    }

    /// `FILE "run.flac" WAVE` in a sheet beattag wrote (its first line names beattag).
    private static func sheetFile(_ path: String) -> String? {
        let lines = firstLines(of: path)
        guard lines.first == "PERFORMER \"beattag\"",
              let file = lines.first(where: { $0.hasPrefix("FILE \"") && $0.hasSuffix("\" WAVE") }) else { return nil }
        return String(file.dropFirst("FILE \"".count).dropLast("\" WAVE".count))
    }

    private static func firstLines(of path: String) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        return head.split(separator: "\n", maxSplits: 4, omittingEmptySubsequences: false).prefix(4).map(String.init)
    }
}
