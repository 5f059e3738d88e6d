import CTagLibShim
import Foundation

/// What TagLib reads from a file: descriptive tags, an existing BPM tag, rights fields and audio properties.
public struct TrackTags: Equatable, Sendable {
    public var container: String?
    public var title: String?
    public var artist: String?
    public var album: String?
    public var genre: String?
    public var year: Int?
    public var trackNumber: Int?
    public var bpm: Double?
    public var license: String?
    public var copyright: String?
    public var copyrightURL: String?
    public var comment: String?
    public var durationSeconds: Double?
    public var sampleRate: Int?
    public var channels: Int?
    public var bitrateKbps: Int?
    public var drmProtected = false
    /// Every property TagLib's PropertyMap exposes (keys upper-case), for rights lookups and debugging.
    public var properties: [String: [String]] = [:]

    public init() {}

    /// Sets `properties` and the descriptive fields read from them (keys upper-case, TagLib's names).
    mutating func setDescriptive(from properties: [String: [String]]) {
        self.properties = properties
        let first = { (key: String) -> String? in
            properties[key]?.first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        title = first("TITLE")
        artist = first("ARTIST")
        album = first("ALBUM")
        genre = first("GENRE")
        year = first("DATE").flatMap { Int($0.prefix(4)) }
        trackNumber = first("TRACKNUMBER").flatMap { Int($0.split(separator: "/").first ?? "") }
        bpm = first("BPM").flatMap(TagReader.parseBPM)
        license = first("LICENSE")
        copyright = first("COPYRIGHT")
        copyrightURL = first("COPYRIGHTURL")
        // Vorbis comments (FLAC, Ogg) have no COMMENT field: DESCRIPTION is the spec's, and ffmpeg
        // and taggers put a comment there (a licence in it went unread). Both, where a file has both:
        // a notice in either holds.
        var comments: [String] = []
        for case let text? in [first("COMMENT"), first("DESCRIPTION")] where !comments.contains(text) { comments.append(text) }
        comment = comments.isEmpty ? nil : comments.joined(separator: "\n")
    }
}

public enum TagError: Error, CustomStringConvertible, Equatable {
    case unreadable(String)
    case writeFailed(String)
    public var description: String {
        switch self {
        case .unreadable(let path): return "TagLib cannot read tags from \(path)"
        case .writeFailed(let why): return "cannot write tags: \(why)"
        }
    }
}
