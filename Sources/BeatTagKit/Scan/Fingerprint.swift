import Foundation

/// A cheap content fingerprint: FNV-1a over the size and three 64 KiB slices (start, middle, end).
/// Tells "touched but unchanged" from "changed", and recognises a moved file.
public enum Fingerprint {
    public static func of(path: String, size: Int64) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = FNV1a()
        func mix(_ bytes: Data) {
            for byte in bytes { hash.mix(UInt64(byte)) }
        }
        withUnsafeBytes(of: size.littleEndian) { mix(Data($0)) }
        let slice: Int64 = 65536
        let offsets: [Int64] = size <= 3 * slice ? [0] : [0, size / 2 - slice / 2, size - slice]
        for offset in offsets {
            do {
                try handle.seek(toOffset: UInt64(offset))
                mix(try handle.read(upToCount: Int(min(slice * (offsets.count == 1 ? 3 : 1), size))) ?? Data())
            } catch { return nil }
        }
        return String(format: "%016llx", hash.value)
    }
}

extension TrackRecord {
    /// Whether a file of this size and mtime at `path` is the one this row describes: the same size
    /// and mtime, or the same size and fingerprint (touched, not changed). Used by a scan to skip a
    /// file, by `tag --write` to refuse one that changed since and by a render to leave it out.
    func describesFile(size: Int64, modifiedAt: Double, path: String) -> Bool {
        guard fileSize == size else { return false }
        if self.modifiedAt == modifiedAt { return true }
        guard let stored = fingerprint else { return false }
        return stored == Fingerprint.of(path: path, size: size)
    }
}

extension TrackRecord {
    /// What became of the file this row describes since its scan.
    enum FileSinceScan: Equatable {
        case asScanned
        /// Cannot be reached any more (the `stat` error, e.g. "no such file or directory").
        case gone(String)
        case changed
    }

    func fileSinceScan() -> FileSinceScan {
        var st = stat()
        guard stat(path, &st) == 0 else { return .gone(String(cString: strerror(errno)).lowercased()) }
        return describesFile(size: Int64(st.st_size), modifiedAt: FileWalker.mtime(st), path: path) ? .asScanned : .changed
    }

    /// Why this row's file cannot go into a run or a playlist now, or nil when it can: moved,
    /// deleted or changed since its scan (its beats would fall in the wrong places, its tempo may be
    /// another song's, a player finds nothing there).
    public var fileProblemSinceScan: String? {
        switch fileSinceScan() {
        case .asScanned: return nil
        case .gone(let reason): return "\(reason) (moved or deleted since the last scan? scan again)"
        case .changed: return "changed since the last scan (scan it again)"
        }
    }
}
