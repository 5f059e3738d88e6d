import CTagLibShim
import Foundation

/// Reads tags through the TagLib shim. Never modifies the file.
public enum TagReader {
    public static func read(path: String) throws -> TrackTags {
        guard let handle = bt_tag_open(path) else { throw TagError.unreadable(path) }
        defer { bt_tag_close(handle) }
        var tags = TrackTags()
        tags.container = takeString(bt_tag_container(handle))
        var props = bt_audio_properties()
        if bt_tag_audio_properties(handle, &props) == 1 {
            tags.durationSeconds = props.length_ms > 0 ? Double(props.length_ms) / 1000 : nil
            tags.sampleRate = props.sample_rate > 0 ? Int(props.sample_rate) : nil
            tags.channels = props.channels > 0 ? Int(props.channels) : nil
            tags.bitrateKbps = props.bitrate_kbps > 0 ? Int(props.bitrate_kbps) : nil
        }
        tags.drmProtected = bt_tag_is_drm_protected(handle) == 1
        tags.setDescriptive(from: parseProperties(takeString(bt_tag_properties(handle)) ?? ""))
        return tags
    }

    /// TagLib's tags, or FFmpeg's where TagLib cannot read the file's kind of tags (`ContainerTags`:
    /// Matroska, WebM, CAF and AU, which TagLib does not open, and TTA's APE tags): what a scan
    /// catalogues. Only then is FFmpeg asked, so a library TagLib reads never loads it for tags.
    /// Audio properties stay TagLib's, so a file TagLib finds no audio in is still not taken for one.
    /// `tag --write` reads through TagLib alone, as it writes.
    public static func readAny(path: String) -> TrackTags? {
        let tags = try? read(path: path)
        let unread = tags == nil || (tags?.properties.isEmpty == true && AudioSniffer.kind(ofFile: path) == .tta)
        guard unread, let found = ContainerTags.properties(path: path), !found.isEmpty else { return tags }
        var filled = tags ?? TrackTags()
        filled.setDescriptive(from: found)
        return filled
    }

    /// BPM tags in the wild: "128", "128.00", "128,5", "128 BPM", "0" (meaning unset, as MP4 tmpo
    /// reads back garbage). Plain decimals only: Swift's `Double` also reads "1,5e2" (once the comma
    /// is a point) and "0x80" as 150 and 128, which no tagger means.
    static func parseBPM(_ text: String) -> Double? {
        var cleaned = text.trimmingCharacters(in: .whitespaces)
        if cleaned.lowercased().hasSuffix("bpm") { cleaned = String(cleaned.dropLast(3)).trimmingCharacters(in: .whitespaces) }
        cleaned = cleaned.replacingOccurrences(of: ",", with: ".")
        guard cleaned.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil,
              let value = Double(cleaned), value.isFinite, TempoRanges.tagged.contains(value) else { return nil }
        return value
    }

    static func parseProperties(_ blob: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for record in blob.split(separator: "\u{1e}", omittingEmptySubsequences: true) {
            let parts = record.split(separator: "\u{1f}", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = parts.first, !key.isEmpty else { continue }
            let values = parts.count > 1 ? parts[1].split(separator: "\u{1d}", omittingEmptySubsequences: false).map(String.init) : []
            result[key.uppercased(), default: []].append(contentsOf: values)
        }
        return result
    }
}
