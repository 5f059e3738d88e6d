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

    /// The tag text for this file: an integer unless `decimals` and the format keeps them (MP4 `tmpo` is an integer).
    /// `manual`: the BPM was set by hand, and the file gets `BPMTagMark` beside it.
    public static func plan(path: String, bpm: Double, decimals: Bool, manual: Bool = false) throws -> Plan {
        let tags: TrackTags
        do { tags = try TagReader.read(path: path) } catch { throw BPMTagWriteError.failed("TagLib cannot read \(path)") }
        let container = tags.container ?? "unknown"
        let keepDecimals = decimals && container != "MP4"
        let value = keepDecimals ? String(format: "%.1f", bpm) : String(Int(bpm.rounded()))
        let mark = manual ? BPMTagMark.value(bpmText: value) : ""
        return Plan(path: path, container: container, oldValue: tags.properties["BPM"]?.first, newValue: value, mark: mark,
                    oldMark: tags.properties[BPMTagMark.key]?.first)
    }

    public static func write(_ plan: Plan) throws {
        let fm = FileManager.default
        // TagLib will put an ID3 tag on anything named .mp3: only files with an audio stream are tagged.
        guard let original = try? TagReader.read(path: plan.path), original.sampleRate != nil || original.durationSeconds != nil else {
            throw BPMTagWriteError.failed("\(plan.path) has no audio stream TagLib recognises; not tagging it")
        }
        let directory = (plan.path as NSString).deletingLastPathComponent
        let copy = (directory as NSString).appendingPathComponent(".beattag-\(ProcessInfo.processInfo.processIdentifier)-"
                                                                  + (plan.path as NSString).lastPathComponent)
        try? fm.removeItem(atPath: copy)
        do { try fm.copyItem(atPath: plan.path, toPath: copy) } catch {
            throw BPMTagWriteError.failed("cannot make a working copy beside \(plan.path): \((error as NSError).localizedDescription)")
        }
        var replaced = false
        defer { if !replaced { try? fm.removeItem(atPath: copy) } }
        try TagWriter.write(path: copy, properties: [("BPM", plan.newValue), (BPMTagMark.key, plan.mark)])
        let written = try TagReader.read(path: copy).properties
        let readBack = written["BPM"]?.first
        guard readBack == plan.newValue, (written[BPMTagMark.key]?.first ?? "") == plan.mark else {
            throw BPMTagWriteError.failed("the tag did not read back (\(readBack ?? "nothing") instead of \(plan.newValue)); file left unchanged")
        }
        guard try samplesEqual(plan.path, copy, original: original) else {
            throw BPMTagWriteError.failed("the tagged copy does not decode to the same audio; file left unchanged")
        }
        // Keep the original's permissions on the replacement.
        if let attributes = try? fm.attributesOfItem(atPath: plan.path), let mode = attributes[.posixPermissions] {
            try? fm.setAttributes([.posixPermissions: mode], ofItemAtPath: copy)
        }
        guard rename(copy, plan.path) == 0 else {
            throw BPMTagWriteError.failed("cannot replace \(plan.path): \(String(cString: strerror(errno)))")
        }
        replaced = true
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
        while moreLeft || moreRight {
            if moreLeft { moreLeft = try first.readMonoBlock { left.append(contentsOf: $0) } }
            if moreRight { moreRight = try second.readMonoBlock { right.append(contentsOf: $0) } }
            let common = min(left.count, right.count)
            if common > 0 {
                if left[..<common] != right[..<common] { return false }
                left.removeFirst(common)
                right.removeFirst(common)
            }
        }
        return left.isEmpty && right.isEmpty
    }
}
