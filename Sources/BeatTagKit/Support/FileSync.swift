import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file's bytes on disk before a rename gives it a name that mattered, and the rename on disk
/// after: after a power cut the name holds the old file or the new one, never an empty one (ext4
/// and XFS may write the rename before the data).
enum FileSync {
    /// Flushes `path`'s contents; false when it could not be opened or flushed.
    @discardableResult
    static func contents(of path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }

    /// Flushes the folder holding `path` (its entries: a rename). Best effort: some file systems
    /// refuse to sync a folder, and the rename has happened either way.
    static func folder(of path: String) {
        let fd = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
