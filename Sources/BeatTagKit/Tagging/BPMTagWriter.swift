import Foundation

public enum BPMTagWriteError: Error, CustomStringConvertible {
    case failed(String)
    public var description: String {
        switch self { case .failed(let why): return why }
    }
}

/// Writes a BPM into the file itself, never touching the audio: tag a copy beside the file,
/// check the copy reads back the tag and decodes to the very same samples, then rename it over
/// the original (atomic on one filesystem). The original is untouched if any step fails.
public enum BPMTagWriter {
    public struct Plan: Sendable {
        public var path: String
        public var container: String
        public var oldValue: String?
        public var newValue: String
        /// `BPMTagMark` text to write ("" removes an old mark: the BPM is no longer a hand-set one).
        public var mark = ""
        /// The mark the file has now.
        public var oldMark: String?
        public var markChanges: Bool { (oldMark ?? "") != mark }
        /// Nothing to write: the tag and its mark already say this.
        public var isNoChange: Bool { oldValue == newValue && !markChanges }

        /// Exactly what is written, in the format's own field names:
        /// `tmpo (none) → "177", ----:com.apple.iTunes:BEATTAG_BPM_SOURCE (none) → "manual 177" [MP4]`.
        public var changeText: String {
            let fields = BPMTagWriter.fieldNames(container: container)
            func quoted(_ value: String?) -> String { value.map { $0.isEmpty ? "(removed)" : "\"\($0)\"" } ?? "(none)" }
            var parts = ["\(fields.bpm) \(quoted(oldValue)) → \(quoted(newValue))"]
            if markChanges { parts.append("\(fields.mark) \(quoted(oldMark)) → \(quoted(mark))") }
            return parts.joined(separator: ", ") + " [\(container)]"
        }
    }

    /// Where each format keeps the BPM and beattag's mark (the names other taggers show).
    public static func fieldNames(container: String) -> (bpm: String, mark: String) {
        switch container {
        case "MPEG": return ("TBPM", "TXXX:\(BPMTagMark.key)")
        case "MP4": return ("tmpo", "----:com.apple.iTunes:\(BPMTagMark.key)")
        case "ASF": return ("WM/BeatsPerMinute", BPMTagMark.key)
        default: return ("BPM", BPMTagMark.key)
        }
    }

    /// Formats whose BPM field is an integer: MP4's `tmpo` is one, and ID3's TBPM (MP3, and the ID3
    /// chunk of WAV and AIFF) is "an integer represented as a numerical string" (ID3v2.3/2.4).
    static let integerBPMContainers: Set<String> = ["MP4", "MPEG", "WAV", "AIFF"]

    /// The tag text for this file: an integer unless `decimals` and the format keeps them (`integerBPMContainers`).
    /// `manual`: the BPM was set by hand, and the file gets `BPMTagMark` beside it.
    public static func plan(path: String, bpm: Double, decimals: Bool, manual: Bool = false) throws -> Plan {
        let tags: TrackTags
        do { tags = try TagReader.read(path: path) } catch {
            // Said of the file the caller names first: what is wrong, and what still works.
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw BPMTagWriteError.failed("cannot read it (no permission), so no BPM can be written into it")
            }
            let ext = (path as NSString).pathExtension
            throw BPMTagWriteError.failed("TagLib cannot read its tags (\(ext.isEmpty ? "a format" : "." + ext.lowercased()) it has no tags for, "
                                          + "or a damaged file), so no BPM can be written into it; without --write the BPM is kept in the catalog")
        }
        let container = tags.container ?? "unknown"
        let keepDecimals = decimals && !integerBPMContainers.contains(container)
        let value = keepDecimals ? String(format: "%.1f", bpm) : String(Int(bpm.rounded()))
        let mark = manual ? BPMTagMark.value(bpmText: value, handSet: bpm) : ""
        return Plan(path: path, container: container, oldValue: tags.properties["BPM"]?.first, newValue: value, mark: mark,
                    oldMark: tags.properties[BPMTagMark.key]?.first)
    }

    /// The file must still be the one the catalog describes (`TrackRecord.describesFile`): a file
    /// replaced or edited since its scan would get a BPM measured on other audio.
    public static func checkUnchangedSinceScan(_ record: TrackRecord) throws {
        switch record.fileSinceScan() {
        case .asScanned: return
        case .gone(let reason): throw BPMTagWriteError.failed(reason)
        case .changed: throw BPMTagWriteError.failed("changed since it was scanned: scan it again (beattag scan) before writing its BPM")
        }
    }

    @discardableResult
    public static func write(_ plan: Plan) throws -> WrittenFile {
        let fm = FileManager.default
        // TagLib will put an ID3 tag on anything named .mp3: only files with an audio stream are tagged.
        guard let original = try? TagReader.read(path: plan.path), original.sampleRate != nil || original.durationSeconds != nil else {
            throw BPMTagWriteError.failed("\(plan.path) has no audio stream TagLib recognises; not tagging it")
        }
        // A symbolic link is followed: the file it names is the one tagged (through a copy beside
        // it), and the link stays a link. Copying the link itself would tag the original in place.
        let target = try replaceableFile(plan.path)
        let directory = (target as NSString).deletingLastPathComponent
        let working = WorkingFile.taggedCopy(of: target)
        working.removeStale(in: directory)
        let copy = working.path(in: directory)
        try? fm.removeItem(atPath: copy)
        // Removed on every way out but the rename, a copy that failed half-way (a full disk) too.
        var replaced = false
        OpenWorkingFiles.add(copy)
        defer {
            if !replaced { try? fm.removeItem(atPath: copy) }
            OpenWorkingFiles.remove(copy)
        }
        do { try fm.copyItem(atPath: target, toPath: copy) } catch {
            throw BPMTagWriteError.failed("cannot make a working copy beside \(target): \((error as NSError).localizedDescription)")
        }
        do {
            try TagWriter.write(path: copy, properties: [("BPM", plan.newValue), (BPMTagMark.key, plan.mark)])
        } catch {
            let reason = "\(error)".replacingOccurrences(of: copy, with: "the copy")
            throw BPMTagWriteError.failed("could not tag a copy of \(plan.path) (\(reason)); file left unchanged")
        }
        let written = try TagReader.read(path: copy).properties
        let readBack = written["BPM"]?.first
        let markBack = written[BPMTagMark.key]?.first ?? ""
        guard readBack == plan.newValue, markBack == plan.mark else {
            func said(_ bpm: String, _ mark: String) -> String { "BPM \(bpm), " + (mark.isEmpty ? "no hand-set mark" : "mark \"\(mark)\"") }
            throw BPMTagWriteError.failed("the tag did not read back (\(said(readBack ?? "nothing", markBack)) instead of \(said(plan.newValue, plan.mark))); file left unchanged")
        }
        guard try samplesEqual(target, copy, original: original) else {
            // Undecodable (DRM, a codec beattag lacks), only the stream's properties were compared: say so and why.
            var undecodable: String?
            do { _ = try AudioSources.open(path: target) } catch { undecodable = "\(error)" }
            throw BPMTagWriteError.failed(undecodable.map { "cannot check the tagged copy: the audio cannot be decoded to compare (\($0)), "
                + "and the stream as TagLib reads it changed; file left unchanged" }
                ?? "the tagged copy does not decode to the same audio; file left unchanged")
        }
        // Keep the original's permissions and owner on the replacement.
        var before = stat()
        if stat(target, &before) == 0 {
            chmod(copy, before.st_mode & 0o7777)
            if before.st_uid != geteuid() || before.st_gid != getegid() { _ = chown(copy, before.st_uid, before.st_gid) }
        }
        // And what desktop tools and ACLs keep beside the bytes; a user's attribute that cannot follow
        // would be lost by the rename.
        let lost = ExtendedAttributes.copy(from: target, to: copy)
        guard lost.isEmpty else {
            throw BPMTagWriteError.failed("cannot keep its extended attributes (\(lost.joined(separator: ", "))) on a tagged copy; file left unchanged")
        }
        // What the catalog records of the file is read off the verified copy, before it takes the name.
        var st = stat()
        guard stat(copy, &st) == 0 else { throw BPMTagWriteError.failed("the tagged copy vanished; file left unchanged") }
        let facts = WrittenFile(size: Int64(st.st_size), modifiedAt: FileWalker.mtime(st),
                                fingerprint: Fingerprint.of(path: copy, size: Int64(st.st_size)), bpmTag: readBack.flatMap(TagReader.parseBPM))
        guard FileSync.contents(of: copy) else {
            throw BPMTagWriteError.failed("cannot write the tagged copy to disk (\(String(cString: strerror(errno)))); file left unchanged")
        }
        guard rename(copy, target) == 0 else {
            throw BPMTagWriteError.failed("cannot replace \(plan.path): \(String(cString: strerror(errno)))")
        }
        replaced = true
        FileSync.folder(of: target)
        return facts
    }

    /// The file as `write` left it: what a scan would record of it.
    public struct WrittenFile: Sendable, Equatable {
        public var size: Int64
        public var modifiedAt: Double
        public var fingerprint: String?
        public var bpmTag: Double?
    }

    /// The regular file `path` names (symbolic links followed), if a tagged copy may replace it. A
    /// file with other hard links is refused (the copy renamed over this name would leave the other
    /// names with the old file: two files where the user had one), and so is a read-only file (no
    /// write permission bit set: root could replace it, but the user said not to) and another user's
    /// file that this process cannot give back to its owner.
    public static func replaceableFile(_ path: String) throws -> String {
        guard let target = LexicalPath.resolved(path) else {
            throw BPMTagWriteError.failed("cannot follow the path: \(String(cString: strerror(errno)).lowercased())")
        }
        var st = stat()
        guard stat(target, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw BPMTagWriteError.failed("not a regular file; not tagging it")
        }
        guard st.st_mode & 0o222 != 0, geteuid() == 0 || access(target, W_OK) == 0 else {
            throw BPMTagWriteError.failed("read-only (no write permission); not tagging it")
        }
        guard st.st_nlink <= 1 else {
            throw BPMTagWriteError.failed("\(st.st_nlink) names (hard links) share this file: tagging writes a new file, which "
                                          + "would leave the other names with the old one; not tagging it")
        }
        guard st.st_uid == geteuid() || geteuid() == 0 else {
            throw BPMTagWriteError.failed("belongs to another user: the tagged file would become yours; not tagging it")
        }
        return target
    }

    /// Decodes both files fully and compares every sample. For files no decoder takes (DRM)
    /// TagLib's view of the stream (length, rate, channels, bitrate) must be unchanged.
    static func samplesEqual(_ a: String, _ b: String, original: TrackTags? = nil) throws -> Bool {
        guard let first = try? AudioSources.open(path: a) else {
            guard let before = original ?? (try? TagReader.read(path: a)), let after = try? TagReader.read(path: b) else { return false }
            return before.sampleRate != nil && before.sampleRate == after.sampleRate && before.channels == after.channels
                && before.durationSeconds == after.durationSeconds && before.bitrateKbps == after.bitrateKbps
        }
        let second = try AudioSources.open(path: b)
        guard first.info.channels == second.info.channels, first.info.sampleRate == second.info.sampleRate else { return false }
        var left: [Float] = [], right: [Float] = []
        var moreLeft = true, moreRight = true
        // A damaged file decodes to the same point in both, and fails there the same way.
        var failedLeft: DecodeError?, failedRight: DecodeError?
        func read(_ source: any AudioSource, into samples: inout [Float], failed: inout DecodeError?) throws -> Bool {
            do { return try source.readMonoBlock { samples.append(contentsOf: $0) } } catch let error as DecodeError {
                guard case .readFailed = error else { throw error }
                failed = error
                return false
            }
        }
        while moreLeft || moreRight {
            if moreLeft { moreLeft = try read(first, into: &left, failed: &failedLeft) }
            if moreRight { moreRight = try read(second, into: &right, failed: &failedRight) }
            let common = min(left.count, right.count)
            if common > 0 {
                if left[..<common] != right[..<common] { return false }
                left.removeFirst(common)
                right.removeFirst(common)
            }
        }
        if (failedLeft == nil) != (failedRight == nil) { return false }
        return left.isEmpty && right.isEmpty
    }
}
