import Foundation

public struct AtomicFileError: Error, CustomStringConvertible, LocalizedError {
    public var description: String
    public var errorDescription: String? { description }
}

/// Writes a whole file through a temporary sibling and a rename: a reader never sees half of it.
/// A symbolic link is written through (the file it names is replaced and the link stays a link), and
/// a file replaced keeps its permissions.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws {
        let target = LexicalPath.writeTarget(FileWalker.absolutePath(path))
        let folder = (target as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AtomicFileError(description: "cannot write \(path): folder \(folder) does not exist")
        }
        var existing = stat()
        let mode = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        let temporary = target + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw AtomicFileError(description: "cannot write \(path): folder \(folder) is not writable")
        }
        if let mode { chmod(temporary, mode) }
        if rename(temporary, target) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw AtomicFileError(description: "cannot write \(path): \(reason)")
        }
    }
}
