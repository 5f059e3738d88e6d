import Foundation

public struct AtomicFileError: Error, CustomStringConvertible, LocalizedError {
    public var description: String
    public var errorDescription: String? { description }
}

/// Writes a whole file through a temporary sibling and a rename: a reader never sees half of it.
/// A symbolic link is written through (the file it names is replaced and the link stays a link), and
/// a file replaced keeps its permissions and extended attributes. A FIFO or a terminal
/// (`-o /dev/stdout`) is written to, not replaced. An existing file is replaced only when it is of
/// the kind being written: `-o` naming the catalog or a song by mistake must not destroy it.
public enum AtomicFile {
    /// What may be replaced: an empty file, or one that reads as this kind.
    public enum Kind: Sendable {
        case playlist, cueSheet, credits, svg, jsonLines, profile

        var name: String {
            switch self {
            case .playlist: return "a playlist"
            case .cueSheet: return "a CUE sheet beattag wrote"
            case .credits: return "a run's credits"
            case .svg: return "an SVG image"
            case .jsonLines: return "a JSON Lines file"
            case .profile: return "a runner profile"
            }
        }

        /// `head`: the file's first bytes; `fileExtension` lowercased.
        func matches(head: Data, fileExtension: String) -> Bool {
            guard !head.contains(0) else { return false }  // audio, a database, any binary
            let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                .replacingOccurrences(of: "\u{FEFF}", with: "")
            switch self {
            case .playlist: return text.hasPrefix("#EXTM3U") || ["m3u", "m3u8"].contains(fileExtension)
            // Only a render's own sheet: a CD's cue sheet of the same name is someone's work.
            case .cueSheet: return text.hasPrefix("PERFORMER \"beattag\"")
            case .credits: return text.hasPrefix("Credits for ")
            case .svg: return fileExtension == "svg" || text.hasPrefix("<svg") || text.hasPrefix("<?xml")
            case .jsonLines: return ["jsonl", "json", "ndjson"].contains(fileExtension) || text.hasPrefix("{")
            case .profile: return true  // text that ProfileStore has just read as a profile
            }
        }
    }

    /// The file `path` writes to (through links), once its folder is known to be there.
    @discardableResult
    public static func checkFolder(of path: String) throws -> String {
        let target = LexicalPath.writeTarget(FileWalker.absolutePath(path))
        let folder = (target as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AtomicFileError(description: "cannot write \(path): folder \(folder) does not exist")
        }
        return target
    }

    /// Where `write` would put the text, or why it would refuse: a check before long work whose
    /// result goes there (a render checks its CUE sheet and credits before it starts).
    public enum Destination { case none, replace(mode: mode_t), stream }

    @discardableResult
    public static func checkWritable(_ path: String, as kind: Kind) throws -> Destination {
        let target = try checkFolder(of: path)
        var existing = stat()
        guard stat(target, &existing) == 0 else { return .none }
        switch existing.st_mode & S_IFMT {
        case S_IFREG:
            if existing.st_size > 0, !kind.matches(head: head(of: target), fileExtension: (target as NSString).pathExtension.lowercased()) {
                throw AtomicFileError(description: "cannot write \(path): it exists and is not \(kind.name) (not replaced; remove it or choose another name)")
            }
            return .replace(mode: existing.st_mode & 0o7777)
        case S_IFIFO, S_IFCHR:
            return .stream
        case S_IFDIR:
            throw AtomicFileError(description: "cannot write \(path): it is a folder")
        default:
            throw AtomicFileError(description: "cannot write \(path): it is not a regular file")
        }
    }

    public static func write(_ text: String, to path: String, as kind: Kind) throws {
        let target = LexicalPath.writeTarget(FileWalker.absolutePath(path))
        let folder = (target as NSString).deletingLastPathComponent
        var mode: mode_t?
        switch try checkWritable(path, as: kind) {
        case .none: break
        case .replace(let existing): mode = existing
        case .stream: return try writeThrough(text, to: target, named: path)
        }
        // Hidden and bounded: a name near 255 bytes plus a suffix would be too long to create.
        let temporary = (folder as NSString).appendingPathComponent(".\(WorkingFile.boundedName(of: target)).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw AtomicFileError(description: "cannot write \(path): folder \(folder) is not writable")
        }
        if let mode {
            chmod(temporary, mode)
            ExtendedAttributes.copy(from: target, to: temporary)  // best effort: these are beattag's own files
        }
        if !FileSync.contents(of: temporary) || rename(temporary, target) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw AtomicFileError(description: "cannot write \(path): \(reason)")
        }
        FileSync.folder(of: target)
    }

    private static func head(of path: String) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { return Data([0]) }  // unreadable: not replaced
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 512)) ?? Data([0])
    }

    /// A FIFO or a device gets the text as a stream (there is nothing to replace atomically).
    private static func writeThrough(_ text: String, to target: String, named path: String) throws {
        let fd = open(target, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AtomicFileError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw AtomicFileError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
