import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Recursive walk: follows symbolic links once per directory (no loops), skips hidden entries,
/// keeps files whose content or name says audio.
public enum FileWalker {
    public struct Result: Sendable {
        public var files: [FoundFile] = []
        public var problems: [ScanProblem] = []
        /// Roots that exist and were walked completely: only under these can files be called missing.
        public var walkedRoots: [String] = []
        /// Files named as roots that exist (no other file under them can be missing).
        public var fileRoots: [String] = []
        /// Folders under the roots that could not be read: what the catalog holds inside them is not missing.
        public var unreadableFolders: [String] = []
        /// Folder roots that are a folder walked already in this scan under another path (a link to
        /// it): their files are found once, under the first path; nothing under these is missing.
        public var aliasedRoots: [String] = []
        /// Hidden copies `tag --write` makes beside a file (`WorkingFile.taggedCopy`), found in the
        /// walked folders: one left by a killed process stays until something removes it.
        public var taggedCopies: [(path: String, writer: Int32)] = []
        /// Files found under a second path (a hard link, a link to a file) whose folder's rights
        /// differ: the file is taken under the path whose rights forbid a tempo change.
        public var sameFiles: [SameFile] = []
        /// Where each file found sits in `files`, by device and inode.
        fileprivate var foundAt: [Identity: Int] = [:]
    }

    fileprivate struct Identity: Hashable { var device: UInt64; var inode: UInt64 }

    /// `source`: the scan's `--source`, which gives the rights of folders without a sidecar.
    public static func walk(roots: [String], source: SourceType? = nil) -> Result {
        var result = Result()
        var visitedDirs = Set<Identity>()
        var files: [(path: String, st: stat)] = []
        for root in roots {
            let absolute = absolutePath(root)
            var st = stat()
            guard stat(absolute, &st) == 0 else {
                result.problems.append(ScanProblem(path: absolute, message: notUTF8(absolute) ?? ScanProblem.noSuchFileOrFolder))
                continue
            }
            if (st.st_mode & S_IFMT) != S_IFDIR, (st.st_mode & S_IFMT) != S_IFREG {
                // A FIFO would block the scan on its first read; a device is no music file.
                result.problems.append(ScanProblem(path: absolute, message: "not a regular file or folder: left out"))
                continue
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                if result.walkedRoots.contains(absolute) { continue }  // the same path twice: once is enough
                guard !visitedDirs.contains(Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))) else {
                    // `scan ~/Music /data/music` where one links to the other: it was called empty.
                    result.aliasedRoots.append(absolute)
                    result.problems.append(ScanProblem(path: absolute, message: "the same folder as one scanned above under another path (a link): its files are catalogued once"))
                    continue
                }
                let inherited = sidecarsAbove(absolute, problems: &result.problems)
                walkDirectory(absolute, sidecar: inherited, source: source, visited: &visitedDirs, into: &result)
                result.walkedRoots.append(absolute)
            } else {
                files.append((absolute, st))
            }
        }
        // Files named on the command line, after the folders: one also found in a folder walk under
        // the same path is that file. (Under another path, a link, it stays a file of its own, as
        // before: the folder's path must not be the one left out, or its row would go missing.)
        for (absolute, st) in files {
            result.fileRoots.append(absolute)
            guard !result.files.contains(where: { $0.path == absolute }) else { continue }
            // A single file named on the command line is taken whatever it is called.
            result.files.append(file(absolute, st, problems: &result.problems))
        }
        return result
    }

    /// Catalogued files the walk does not visit (hidden ones, scanned by name) that are there: taken
    /// as found, so one put back after it went missing is found again, and its folder's rights are
    /// read anew like any other's (`markMissing` spared such a file while it was there, no more).
    public static func addUnvisited(_ catalogued: [String], to result: inout Result) {
        let found = Set(result.files.map(\.path))
        for path in catalogued where !found.contains(path) && result.walkedRoots.contains(where: { path.isInside(folder: $0) })
            && !result.unreadableFolders.contains(where: { path.isInside(folder: $0) }) {
            var st = stat()
            guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            // A file the walk took under another path (the stricter folder's): not again under this one.
            guard result.foundAt[Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))] == nil else { continue }
            result.files.append(file(path, st, problems: &result.problems))
        }
    }

    /// A file found outside a folder walk, with the rights of the folders it is in.
    private static func file(_ absolute: String, _ st: stat, problems: inout [ScanProblem]) -> FoundFile {
        FoundFile(path: absolute, size: Int64(st.st_size), modifiedAt: mtime(st), sidecar: sidecar(forFileAt: absolute, problems: &problems))
    }

    /// The `.beattag-rights` in force for the file at `path`: its folder's, else the nearest above.
    public static func sidecar(forFileAt path: String) -> RightsSidecar? {
        var problems: [ScanProblem] = []
        return sidecar(forFileAt: path, problems: &problems)
    }

    private static func sidecar(forFileAt path: String, problems: inout [ScanProblem]) -> RightsSidecar? {
        let dir = (path as NSString).deletingLastPathComponent
        let above = sidecarsAbove(dir, problems: &problems)
        return loadSidecar(dir, problems: &problems) ?? above
    }

    private static func walkDirectory(_ dir: String, sidecar inherited: RightsSidecar?, source: SourceType?, visited: inout Set<Identity>,
                                      into result: inout Result) {
        var st = stat()
        guard stat(dir, &st) == 0 else {
            if errno != ENOENT { unreadable(dir, because: String(cString: strerror(errno)), into: &result) }
            return
        }
        guard visited.insert(Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))).inserted else { return }
        let sidecar = loadSidecar(dir, problems: &result.problems) ?? inherited
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        } catch {
            // The system's reason ("permission denied"), not Foundation's sentence ("You don't have permission.").
            var reason = describe(error)
            if let handle = opendir(dir) { closedir(handle) } else { reason = String(cString: strerror(errno)) }
            unreadable(dir, because: reason, into: &result)
            return
        }
        for name in names where name.hasPrefix(".") {
            // Only beside the file it is a copy of (`.beattag-PID-song.flac` and `song.flac`): any
            // other hidden file of a like name is someone's, not ours.
            if let (writer, destination) = WorkingFile.taggedCopy(named: name), names.contains(destination) {
                result.taggedCopies.append(((dir as NSString).appendingPathComponent(name), writer))
            }
        }
        for name in names where !name.hasPrefix(".") {
            let path = (dir as NSString).appendingPathComponent(name)
            var entry = stat()
            guard stat(path, &entry) == 0 else {
                let failure = errno
                // A folder that can be listed but not searched (mode r--) lets no entry be looked at.
                if failure == EACCES {
                    unreadable(dir, because: String(cString: strerror(EACCES)), into: &result)
                    return
                }
                var link = stat()
                if lstat(path, &link) == 0 {
                    result.problems.append(ScanProblem(path: path, message: "broken symbolic link"))
                } else if let reason = notUTF8(name) {
                    result.problems.append(ScanProblem(path: path, message: reason))
                } else if failure == ENAMETOOLONG {
                    // Deeper than the system can name (PATH_MAX): it was left out without a word.
                    result.problems.append(ScanProblem(path: path, message: "the path is longer than the system allows (\(PATH_MAX) bytes): left out"))
                } else if failure != ENOENT {  // gone since the listing: nothing to say
                    result.problems.append(ScanProblem(path: path, message: String(cString: strerror(failure)).lowercased()))
                }
                continue
            }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR:
                walkDirectory(path, sidecar: sidecar, source: source, visited: &visited, into: &result)
            case S_IFREG:
                guard AudioSniffer.hasAudioExtension(path) || AudioSniffer.kind(ofFile: path) != nil else { continue }
                let found = FoundFile(path: path, size: Int64(entry.st_size), modifiedAt: mtime(entry), sidecar: sidecar)
                let identity = Identity(device: UInt64(entry.st_dev), inode: UInt64(entry.st_ino))
                guard let earlier = result.foundAt[identity] else {
                    result.foundAt[identity] = result.files.count
                    result.files.append(found)
                    continue
                }
                // One file under two paths (a hard link, a link to a file) whose folders differ in
                // rights is taken under the stricter: the first path found won, and a no-derivatives
                // file linked into a cc-by folder was stretched.
                let allowed = { (file: FoundFile) in RightsResolver.resolve(tags: nil, sidecar: file.sidecar, option: source).tempoAdjustAllowed }
                let first = result.files[earlier]
                guard allowed(first) != allowed(found) else { continue }
                let kept = allowed(found) ? first : found
                result.sameFiles.append(SameFile(path: kept.path == found.path ? first.path : found.path, cataloguedAs: kept.path))
                result.files[earlier] = kept
            default:
                continue
            }
        }
    }

    /// Why a listed name cannot be opened when its bytes are not UTF-8 (a Latin-1 `café.wav` from an
    /// old disk): the name comes back with U+FFFD in it, which names no file. Said, not skipped silently.
    static func notUTF8(_ name: String) -> String? {
        name.contains("\u{FFFD}") ? "its name is not valid UTF-8, so beattag cannot open it: rename it (e.g. convmv -f latin1 -t utf8)" : nil
    }

    /// A folder the walk could not look into: said once, and what the catalog holds under it is not
    /// called missing (`Result.unreadableFolders`).
    private static func unreadable(_ dir: String, because reason: String, into result: inout Result) {
        guard !result.unreadableFolders.contains(dir) else { return }
        result.unreadableFolders.append(dir)
        var reason = reason
        while reason.hasSuffix(".") { reason.removeLast() }
        if let first = reason.first, reason.dropFirst().first?.isLowercase ?? true { reason = first.lowercased() + reason.dropFirst() }
        result.problems.append(ScanProblem(path: dir, message: "cannot read folder: \(reason) (what the catalog holds under it is left as it is)"))
    }

    /// The nearest sidecar in a folder's parents (a scan of a subfolder keeps the library's declaration).
    private static func sidecarsAbove(_ dir: String, problems: inout [ScanProblem]) -> RightsSidecar? {
        var current = (dir as NSString).deletingLastPathComponent
        while !current.isEmpty {
            if let found = loadSidecar(current, problems: &problems) { return found }
            if current == "/" { break }
            current = (current as NSString).deletingLastPathComponent
        }
        return nil
    }

    private static func loadSidecar(_ dir: String, problems: inout [ScanProblem]) -> RightsSidecar? {
        do {
            return try RightsSidecar.load(directory: dir)
        } catch {
            // A folder that cannot be searched is reported as such, once, where it is walked; its
            // sidecar is unknown, and unknown rights fail closed.
            if access(dir, X_OK) != 0 { return .unreadable }
            problems.append(ScanProblem(path: (dir as NSString).appendingPathComponent(RightsSidecar.fileName),
                                        message: "cannot be read, so its folder's tracks are not time-stretched until it is fixed: \(error)"))
            return .unreadable
        }
    }

    /// Absolute and clean, links not followed: the path under which the user reaches the file.
    public static func absolutePath(_ path: String) -> String { LexicalPath.absolute(path) }

    /// Two paths that name one file (a link to a folder on the way, or a hard link).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// A regular file is at `path` (through links).
    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    static func mtime(_ st: stat) -> Double {
        #if os(Linux)
        Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        #else
        Double(st.st_mtimespec.tv_sec) + Double(st.st_mtimespec.tv_nsec) / 1e9
        #endif
    }

    static func describe(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
