import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A hidden file written beside its destination and renamed over it when complete (a tagged copy,
/// a render in progress). Its name carries the writing process's id: a process killed before it
/// could clean up (SIGKILL, a crash) leaves one behind, and the next writer of the same
/// destination removes those whose process is gone from this machine and that nothing has written
/// for an hour. The hour is for a folder shared with other machines (NFS, SMB), whose processes
/// this one cannot see: a live writer keeps its file's mtime fresh.
public struct WorkingFile: Sendable {
    /// The name is `prefix + pid + suffix`.
    public var prefix: String
    public var suffix: String

    /// `.beattag-PID-name`: the copy `tag --write` tags, checks and renames over the file.
    public static func taggedCopy(of destination: String) -> WorkingFile {
        WorkingFile(prefix: ".beattag-", suffix: "-" + boundedName(of: destination))
    }

    /// `.name.partial-PID`: a render streamed to disk before it is complete.
    public static func partial(of destination: String) -> WorkingFile {
        WorkingFile(prefix: "." + boundedName(of: destination) + ".partial-", suffix: "")
    }

    /// The destination's name, cut to 200 bytes (at a whole character) so that the working name
    /// stays within the 255 bytes a file name may have (an audit: names near 255 could not be tagged).
    static func boundedName(of destination: String) -> String {
        let name = (destination as NSString).lastPathComponent
        guard name.utf8.count > 200 else { return name }
        var cut = ""
        for character in name {
            guard cut.utf8.count + String(character).utf8.count <= 200 else { break }
            cut.append(character)
        }
        return cut
    }

    /// This process's working file in `directory`.
    public func path(in directory: String, pid: Int32 = getpid()) -> String {
        (directory as NSString).appendingPathComponent(prefix + String(pid) + suffix)
    }

    /// Removes the working files in `directory` left by processes that no longer run and untouched
    /// for `age` seconds; returns their paths.
    @discardableResult
    public func removeStale(in directory: String, age: TimeInterval = 3600) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.count > prefix.count + suffix.count {
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard middle.allSatisfy(\.isWholeNumber), let pid = Int32(middle) else { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            if Self.removeIfStale(path, writtenBy: pid, age: age) { removed.append(path) }
        }
        return removed
    }

    /// The pid and the destination's name in a name `tag --write` gives its copies (`.beattag-PID-name`).
    public static func taggedCopy(named name: String) -> (writer: Int32, destination: String)? {
        guard name.hasPrefix(".beattag-") else { return nil }
        let rest = name.dropFirst(".beattag-".count)
        guard let dash = rest.firstIndex(of: "-"), dash > rest.startIndex, rest[..<dash].allSatisfy(\.isWholeNumber),
              let pid = Int32(rest[..<dash]) else { return nil }
        let destination = String(rest[rest.index(after: dash)...])
        return destination.isEmpty ? nil : (pid, destination)
    }

    /// Removes `path` if the process that wrote it (`pid`) no longer runs on this machine and
    /// nothing has written it for `age` seconds.
    public static func removeIfStale(_ path: String, writtenBy pid: Int32, age: TimeInterval = 3600) -> Bool {
        guard pid > 0, pid != getpid() else { return false }
        // kill(pid, 0) fails with ESRCH only when no such process exists.
        guard kill(pid, 0) != 0, errno == ESRCH else { return false }
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, Date().timeIntervalSince1970 - FileWalker.mtime(st) >= age else { return false }
        return (try? FileManager.default.removeItem(atPath: path)) != nil
    }
}

/// The working files this process is writing now. A command that must quit at once (a second
/// Ctrl-C) removes them first: left behind, a render's partial file (tens of MB) waited an hour
/// for the next render of the same name to clear it. Nothing else removes them from here; each
/// writer still removes its own on every ordinary way out.
public enum OpenWorkingFiles {
    private static let paths = Locked(Set<String>())

    public static func add(_ path: String) { paths.update { $0.insert(path) } }
    public static func remove(_ path: String) { paths.update { $0.remove(path) } }
    public static var current: Set<String> { paths.value }

    /// Unlinks every working file still open; called just before the process exits.
    public static func removeAll() {
        paths.update { open in
            for path in open { unlink(path) }
            open.removeAll()
        }
    }
}
