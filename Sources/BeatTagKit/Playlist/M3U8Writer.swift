import Foundation

/// Extended M3U, UTF-8 without BOM: `#EXTM3U`, `#PLAYLIST:` title, `#EXTINF:<seconds>,Artist - Title`,
/// then the path: relative to the playlist's folder with forward slashes, or absolute on request.
/// A Creative Commons track is preceded by a comment with its licence and credit.
public enum M3U8Writer {
    public static func render(_ entries: [CadenceMatch], title: String, playlistPath: String, absolute: Bool) -> String {
        var lines = ["#EXTM3U", "#PLAYLIST:\(oneLine(title))"]
        let base = folder(of: playlistPath)
        for entry in entries { lines += entryLines(entry, base: base, absolute: absolute) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A playlist in named sections (a workout's segments): each opens with comment lines, which
    /// players skip, saying what it is.
    public static func render(sections: [(comments: [String], entries: [CadenceMatch])], title: String, header: [String] = [],
                              playlistPath: String, absolute: Bool) -> String {
        var lines = ["#EXTM3U", "#PLAYLIST:\(oneLine(title))"] + header.map { "# " + oneLine($0) }
        let base = folder(of: playlistPath)
        for section in sections {
            lines += section.comments.map { "# " + oneLine($0) }
            for entry in section.entries { lines += entryLines(entry, base: base, absolute: absolute) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func folder(of playlistPath: String) -> String {
        (FileWalker.absolutePath(playlistPath) as NSString).deletingLastPathComponent
    }

    static func entryLines(_ entry: CadenceMatch, base: String, absolute: Bool) -> [String] {
        let t = entry.track
        let seconds = Int((t.durationSeconds ?? 0).rounded())
        let name = t.displayName(separator: " - ", withExtension: false)
        // Creative Commons music asks for credit wherever it is shared: a comment line players skip.
        let credit = t.creditLine.map { ["# " + oneLine($0)] } ?? []
        return credit + ["#EXTINF:\(seconds),\(oneLine(name))", location(of: t.path, base: base, absolute: absolute)]
    }

    /// The entry's line: the path, relative or absolute. A path with a line break in it (legal in a
    /// file name, but it would split the entry and could inject another) goes as a `file://` URI,
    /// breaks percent-escaped, which players read as the same file; so does one that ends in a space
    /// (players trim the line). A relative one that starts with `#` or a space gets `./` (players
    /// skip lines starting with `#` as comments, and trim the space: mpv could not open " a.mp3").
    static func location(of path: String, base: String, absolute: Bool) -> String {
        guard path.contains(where: \.isNewline) || path.last?.isWhitespace == true else {
            let line = absolute ? path : reachable(path, from: base)
            return line.hasPrefix("#") || line.first?.isWhitespace == true ? "./" + line : line
        }
        return "file://" + (LexicalPath.clean(path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }

    /// The relative path a player can follow from `base` to `path`. A player walks `..` from where
    /// a folder really is, so from a playlist folder reached through a link (`pl-link/..`) the
    /// lexical path leads elsewhere: then the `..`s are counted from the real folder, and if that
    /// does not reach the track either, the path is absolute.
    static func reachable(_ path: String, from base: String) -> String {
        let lexical = relativePath(from: base, to: path)
        guard let track = LexicalPath.resolved(path), let physicalBase = LexicalPath.resolved(base), physicalBase != LexicalPath.clean(base) else {
            return lexical  // no link on the way (or no file to check against): the lexical path holds
        }
        if LexicalPath.resolved(base + "/" + lexical) == track { return lexical }
        let fromReal = relativePath(from: physicalBase, to: path)
        return LexicalPath.resolved(physicalBase + "/" + fromReal) == track ? fromReal : path
    }

    public static func relativePath(from directory: String, to file: String) -> String {
        // Lexically: a track reached through a linked folder keeps its library path.
        let from = LexicalPath.clean(directory).split(separator: "/").map(String.init)
        let to = LexicalPath.clean(file).split(separator: "/").map(String.init)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...]).joined(separator: "/")
    }

    /// Playlist metadata lines cannot carry line breaks.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
