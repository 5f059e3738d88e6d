import Foundation

/// How a track is named wherever it is shown: the one home of the "title, else file name" rule.
extension TrackRecord {
    /// What follows the last "/" (catalogued paths are absolute files). Not NSString's
    /// `lastPathComponent`: the keyword filter asks every track for it, and that cost 15% of `match`.
    public var fileName: String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The file name without its extension.
    public var fileStem: String { (fileName as NSString).deletingPathExtension }

    /// The file's folder relative to the scan root it was found under (the root's own name for a
    /// file directly in it: a scan of one album folder shows the album), else the whole folder path.
    public var folder: String {
        let directory = (path as NSString).deletingLastPathComponent
        guard let root = libraryRoot, directory.isInside(folder: root) else { return directory }
        let relative = directory.dropFirst(root.count).drop { $0 == "/" }
        return relative.isEmpty ? (root as NSString).lastPathComponent : String(relative)
    }

    /// "Artist – Title" (the separator varies: playlists use " - "), "Title" without an artist;
    /// untitled tracks show their file name (tables, `withExtension`) or its stem (playlists).
    public func displayName(separator: String = " – ", withExtension: Bool = true) -> String {
        guard let title else { return withExtension ? fileName : fileStem }
        return (artist.map { "\($0)\(separator)" } ?? "") + title
    }
}
