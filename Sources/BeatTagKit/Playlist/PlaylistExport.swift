import Foundation

/// Writes a playlist file (M3U8, atomically) and remembers what it exported, so that `--fresh`
/// can avoid it next time. Used by `match --m3u8`, `playlist` and `workout`.
public enum PlaylistExport {
    /// The path that sends a playlist to standard output (`-o -`), for a pipe into a player.
    public static let standardOutputPath = "-"

    public static func isStandardOutput(_ path: String) -> Bool { path == standardOutputPath }

    /// Where the playlist went, for a summary line: its path, or "stdout".
    public static func name(of path: String) -> String { isStandardOutput(path) ? "stdout" : path }

    /// Paths are written absolute on standard output: the playlist has no folder to be relative to.
    public static func writesAbsolutePaths(to path: String, absolute: Bool) -> Bool { absolute || isStandardOutput(path) }

    /// `recordsExport: false` for a list of everything that fits (`match --m3u8`): it is no run the
    /// runner heard, and recorded, one browse of 9,000 matches made every later `--fresh` reuse them.
    @discardableResult
    public static func write(_ entries: [CadenceMatch], title: String, to path: String, absolute: Bool, recordsExport: Bool = true,
                             catalog: Catalog, at time: Double, standardOutput: (String) throws -> Void) throws -> String? {
        let text = M3U8Writer.render(entries, title: title, playlistPath: path,
                                     absolute: writesAbsolutePaths(to: path, absolute: absolute))
        return try deliver(text, to: path, trackIDs: recordsExport ? entries.compactMap(\.track.id) : [], catalog: catalog, at: time,
                           standardOutput: standardOutput)
    }

    /// Writes a rendered playlist to `path` (atomically) or to standard output, then records the
    /// export: only once it was written, so that `--fresh` never avoids tracks the runner never got.
    ///
    /// The playlist is what the runner asked for: once it is written, a catalog too busy to record
    /// the export (a long scan writing) does not fail the command (it did, exit 1, with the file
    /// written: a concurrency audit). The returned note says `--fresh` will not know of it.
    @discardableResult
    public static func deliver(_ text: String, to path: String, trackIDs: [Int64], catalog: Catalog, at time: Double,
                               standardOutput: (String) throws -> Void) throws -> String? {
        if isStandardOutput(path) { try standardOutput(text) } else { try AtomicFile.write(text, to: path, as: .playlist) }
        guard !trackIDs.isEmpty else { return nil }
        do {
            try catalog.recordExport(trackIDs: trackIDs, playlistPath: isStandardOutput(path) ? "(standard output)" : FileWalker.absolutePath(path),
                                     at: time)
            return nil
        } catch {
            return "note: the playlist was written, but the catalog could not record the export (\(CatalogError.userFacing(error))): "
                + "--fresh will not know these tracks were exported"
        }
    }

    /// "beattag 175 SPM": the title when the user gives none.
    public static func defaultTitle(spm: Double) -> String { String(format: "beattag %g SPM", spm) }
}
