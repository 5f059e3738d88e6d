import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Paths as the user wrote them: made absolute and cleaned of `.`, `..` and repeated slashes by
/// reading the text alone, never by following symbolic links. A library reached through a linked
/// file or folder keeps the path the user scanned (Foundation's `standardizingPath` resolves links
/// on Linux, which turned `lib/a/linked.mp3` into its target and lost it in the catalog).
public enum LexicalPath {
    /// `~` expanded, relative paths taken from the shell's working directory (`$PWD`, the logical
    /// one `pwd` prints, when it names this process's directory), then cleaned.
    public static func absolute(_ path: String, workingDirectory: String? = nil) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let joined = expanded.hasPrefix("/") ? expanded : (workingDirectory ?? currentDirectory()) + "/" + expanded
        return clean(joined)
    }

    /// `.` dropped, `..` removes the component before it (`/..` stays `/`), no repeated or trailing slash.
    public static func clean(_ absolutePath: String) -> String {
        var parts: [Substring] = []
        for part in absolutePath.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The logical working directory: `$PWD` when it is absolute and the same directory as ".".
    static func currentDirectory() -> String {
        let physical = FileManager.default.currentDirectoryPath
        guard let logical = ProcessInfo.processInfo.environment["PWD"], logical.hasPrefix("/"), logical != physical else {
            return physical
        }
        var a = stat(), b = stat()
        guard stat(logical, &a) == 0, stat(".", &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino else { return physical }
        return logical
    }

    /// The file a path finally names, links followed (nil when it does not exist).
    public static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Where a write to `path` lands: the file it finally names, links followed, also where there is
    /// no file yet (a new one, or a link that names nothing yet): the name given last, in its folder
    /// with that folder's links followed.
    public static func writeTarget(_ path: String) -> String {
        var target = path
        for _ in 0..<32 {  // a loop of links stops here; a write then replaces the last link read
            if let file = resolved(target) { return file }
            guard let next = try? FileManager.default.destinationOfSymbolicLink(atPath: target) else { break }
            target = next.hasPrefix("/") ? next : clean((target as NSString).deletingLastPathComponent + "/" + next)
        }
        let folder = (target as NSString).deletingLastPathComponent
        return clean((resolved(folder) ?? folder) + "/" + (target as NSString).lastPathComponent)
    }
}
