import CFFmpeg
import Foundation

/// Tags FFmpeg reads where TagLib 1.13 reads none: Matroska and WebM (yt-dlp's usual audio
/// download), CAF, Sun AU, and the APE tags of TTA files (TagLib reads only ID3 there). Without
/// them such a file lost its title, its BPM tag and its licence. The keys are TagLib's property
/// names, so `TrackTags` reads both alike.
enum ContainerTags {
    /// The file's tags as TagLib would name them; nil when FFmpeg is missing or cannot open it.
    static func properties(path: String) -> [String: [String]]? {
        guard DecoderLibrary.ffmpeg.isAvailable else { return nil }
        _ = FFmpegSource.silenceLibraryLog
        var context: UnsafeMutablePointer<AVFormatContext>?
        // The header only: every container here keeps its tags where the demuxer's header reading finds them.
        guard avformat_open_input(&context, path, nil, nil) >= 0, let opened = context else { return nil }
        defer { avformat_close_input(&context) }
        var found: [String: [String]] = [:]
        add(opened.pointee.metadata, to: &found)
        // Matroska can tag the track instead of the file: the file's tags win. Not the track's title,
        // which FFmpeg takes from the track's name ("Stereo", "English"), not the song's.
        for i in 0..<Int(opened.pointee.nb_streams) {
            guard let stream = opened.pointee.streams[i], stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { continue }
            var fromStream: [String: [String]] = [:]
            add(stream.pointee.metadata, to: &fromStream)
            fromStream["TITLE"] = nil
            found.merge(fromStream) { file, _ in file }
        }
        return found
    }

    /// FFmpeg's generic names where they differ from TagLib's; what only says how the file was made is left out.
    /// Apple's CAF info keys too (tempo, comments, year, track number).
    static let renamed = ["TRACK": "TRACKNUMBER", "ALBUM_ARTIST": "ALBUMARTIST", "TBPM": "BPM", "TCOP": "COPYRIGHT",
                          "TEMPO": "BPM", "COMMENTS": "COMMENT", "YEAR": "DATE", "TRACK NUMBER": "TRACKNUMBER"]
    static let ignored: Set<String> = ["ENCODER", "DURATION", "ENCODED_BY", "HANDLER_NAME", "VENDOR_ID"]

    private static func add(_ dictionary: OpaquePointer?, to found: inout [String: [String]]) {
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, let value = next.pointee.value else { continue }
            var name = String(cString: key).uppercased()
            name = renamed[name] ?? name
            guard !ignored.contains(name) else { continue }
            // A TBPM beside a BPM says the same: one value, not two.
            if found[name] == nil { found[name] = [String(cString: value)] }
        }
    }
}
