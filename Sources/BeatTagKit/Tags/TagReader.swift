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
        tags.properties = parseProperties(takeString(bt_tag_properties(handle)) ?? "")
        let first = { (key: String) -> String? in
            tags.properties[key]?.first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        tags.title = first("TITLE")
        tags.artist = first("ARTIST")
        tags.album = first("ALBUM")
        tags.genre = first("GENRE")
        tags.year = first("DATE").flatMap { Int($0.prefix(4)) }
        tags.trackNumber = first("TRACKNUMBER").flatMap { Int($0.split(separator: "/").first ?? "") }
        tags.bpm = first("BPM").flatMap(parseBPM)
        tags.license = first("LICENSE")
        tags.copyright = first("COPYRIGHT")
        tags.copyrightURL = first("COPYRIGHTURL")
        tags.comment = first("COMMENT")
        return tags
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
