import Foundation

/// Writes a whole file through a temporary sibling and a rename: a reader never sees half of it.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws {
        let target = FileWalker.absolutePath(path)
        let temporary = target + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        if rename(temporary, target) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot write \(path): \(reason)"])
        }
    }
}
