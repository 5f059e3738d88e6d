import Foundation

/// Writes a playlist file (M3U8, atomically) and remembers what it exported, so that `--fresh`
/// can avoid it next time. Used by `match --m3u8` and `playlist`.
public enum PlaylistExport {
    public static func write(_ entries: [CadenceMatch], title: String, to path: String, absolute: Bool,
                             catalog: Catalog, at time: Double) throws {
        let text = M3U8Writer.render(entries, title: title, playlistPath: path, absolute: absolute)
        try AtomicFile.write(text, to: path)
        try catalog.recordExport(trackIDs: entries.compactMap(\.track.id), playlistPath: FileWalker.absolutePath(path), at: time)
    }

    /// "beattag 175 SPM": the title when the user gives none.
    public static func defaultTitle(spm: Double) -> String { String(format: "beattag %g SPM", spm) }
}
