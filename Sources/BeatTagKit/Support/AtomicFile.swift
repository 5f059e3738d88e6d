import Foundation

public struct AtomicFileError: Error, CustomStringConvertible, LocalizedError {
    public var description: String
    public var errorDescription: String? { description }
}

/// Writes a whole file through a temporary sibling and a rename: a reader never sees half of it.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws {
        let target = FileWalker.absolutePath(path)
        let folder = (target as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AtomicFileError(description: "cannot write \(path): folder \(folder) does not exist")
        }
        let temporary = target + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw AtomicFileError(description: "cannot write \(path): folder \(folder) is not writable")
        }
        if rename(temporary, target) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw AtomicFileError(description: "cannot write \(path): \(reason)")
        }
    }
}
