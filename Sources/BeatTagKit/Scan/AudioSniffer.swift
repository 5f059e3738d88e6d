import Foundation

/// Recognises audio by what a file is (its first bytes), not only by its name.
public enum AudioSniffer {
    public enum Kind: String, Sendable {
        case wav, aiff, flac, ogg, mp3, mp4, asf, caf, wavpack, ape, musepack, sunAU, tta, voc
    }

    /// Names a folder walk takes as audio (others only when their first bytes say so). WebM and
    /// Matroska audio (`.webm` is yt-dlp's usual audio download), AC-3, DTS and raw AAC by name
    /// only: `.mkv` is video, and two-byte sync words are too weak to sniff every file by.
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "aif", "aiff", "aifc", "flac", "ogg", "oga", "opus", "mp3", "mp2", "m4a", "m4b", "m4p",
        "mp4", "aac", "alac", "wma", "caf", "w64", "ape", "wv", "mpc", "rf64",
        "webm", "mka", "ac3", "eac3", "dts", "adts", "au", "snd", "tta", "voc",
    ]

    public static func kind(ofHeader bytes: [UInt8]) -> Kind? {
        func ascii(_ offset: Int, _ text: String) -> Bool {
            let t = Array(text.utf8)
            return bytes.count >= offset + t.count && Array(bytes[offset..<offset + t.count]) == t
        }
        if (ascii(0, "RIFF") || ascii(0, "RF64")) && ascii(8, "WAVE") { return .wav }
        if ascii(0, "FORM") && (ascii(8, "AIFF") || ascii(8, "AIFC")) { return .aiff }
        if ascii(0, "fLaC") { return .flac }
        if ascii(0, "OggS") { return .ogg }
        if ascii(4, "ftyp") { return .mp4 }
        if bytes.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return .asf }
        if ascii(0, "caff") { return .caf }
        if ascii(0, "wvpk") { return .wavpack }
        if ascii(0, "MAC ") { return .ape }
        if ascii(0, "MPCK") || ascii(0, "MP+") { return .musepack }
        if ascii(0, ".snd") { return .sunAU }
        if ascii(0, "TTA1") { return .tta }
        if ascii(0, "Creative Voice") { return .voc }
        if ascii(0, "ID3") { return .mp3 }
        // MPEG audio frame sync with a valid layer (not ADTS AAC, whose layer bits are 00).
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 != 0 { return .mp3 }
        return nil
    }

    public static func kind(ofFile path: String) -> Kind? { kind(ofHeader: Array(head(of: path, bytes: 16))) }

    /// No NUL bytes and valid UTF-8 in the first bytes: a text file, whatever its name says.
    public static func looksLikeText(path: String) -> Bool { looksLikeText(head(of: path, bytes: 512)) }

    static func looksLikeText(_ data: Data) -> Bool {
        guard !data.isEmpty, !data.contains(0) else { return false }
        // A multi-byte character cut at the 512th byte is still text.
        for cut in 0..<4 where data.count > cut {
            if String(data: data.dropLast(cut), encoding: .utf8) != nil { return true }
        }
        return false
    }

    /// What a file is when it is surely not audio: text with no audio signature, or a signature no
    /// audio file has (an image, an archive, a program, a database). Such a file is never handed to
    /// TagLib or the decoders (libmpg123 would look for MP3 frames in it). Nil otherwise.
    public static func notAudio(path: String) -> String? {
        // Only a regular file is read: opening a named pipe waits for a writer that never comes
        // (`analyze` hung on one), and a device can be read forever.
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: return "a folder"
            case S_IFIFO: return "a named pipe"
            case S_IFSOCK: return "a socket"
            default: return "a device"
            }
        }
        let head = head(of: path, bytes: 512)
        if kind(ofHeader: Array(head.prefix(16))) == nil, looksLikeText(head) { return "a text file" }
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"), (Array("%PDF".utf8), "a PDF document"), ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
            ([0x1F, 0x8B], "a gzip archive"), ([0x7F, 0x45, 0x4C, 0x46], "a program (ELF)"), (Array("SQLite format 3".utf8), "an SQLite database"),
        ]
        return signatures.first { head.starts(with: $0.0) }?.1
    }

    /// The first `bytes` of the file (fewer when it is shorter; none when it cannot be read).
    private static func head(of path: String, bytes: Int) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: bytes)) ?? Data()
    }

    public static func hasAudioExtension(_ path: String) -> Bool {
        audioExtensions.contains((path as NSString).pathExtension.lowercased())
    }
}
