import CSndfile
import Foundation

public struct MixWriteError: Error, CustomStringConvertible {
    public var description: String
}

/// Streams the mix into a hidden sibling of the output file and renames it into place only when the
/// whole mix is written (`commit`): an interrupted or failed render leaves no file under the final
/// name, and the partial one is removed.
public final class MixFileWriter {
    public let path: String
    public let format: MixFormat
    public let channels: Int
    private let temporary: String
    private var handle: OpaquePointer?
    private var committed = false
    public private(set) var framesWritten = 0

    public init(path: String, channels: Int = 2) throws {
        guard let format = MixFormat(path: path) else {
            throw MixWriteError(description: "cannot write \(path): unknown extension (use \(MixFormat.supportedList))")
        }
        let target = FileWalker.absolutePath(path)
        let folder = (target as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MixWriteError(description: "cannot write \(path): folder \(folder) does not exist")
        }
        self.path = target
        self.format = format
        self.channels = channels
        // A render killed before it could clean up left its partial file: gone once its process is.
        let working = WorkingFile.partial(of: target)
        working.removeStale(in: folder)
        temporary = working.path(in: folder)
        OpenWorkingFiles.add(temporary)
        var info = SF_INFO()
        info.samplerate = Int32(format.sampleRate)
        info.channels = Int32(channels)
        info.format = format.sndfileFormat
        guard let handle = sf_open(temporary, Int32(SFM_WRITE), &info) else {
            // libsndfile says "System error : No such file or directory." : keep the words, as decoders' messages are kept.
            let reason = DecodeError.tidy(String(cString: sf_strerror(nil)))
            try? FileManager.default.removeItem(atPath: temporary)
            OpenWorkingFiles.remove(temporary)
            throw MixWriteError(description: "cannot write \(path): \(FileManager.default.isWritableFile(atPath: folder) ? reason : "folder \(folder) is not writable")")
        }
        self.handle = handle
        // Marks the file as a run beattag rendered: a later render may replace it, and nothing else.
        _ = MixFileWriter.softwareMark.withCString { sf_set_string(handle, Int32(SF_STR_SOFTWARE), $0) }
        if format == .ogg || format == .opus {
            // libsndfile's scale, 0 best … 1 smallest: Vorbis q ≈ 6; Opus ≈ 128 kb/s stereo.
            var quality = format == .ogg ? 0.4 : 0.7
            sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &quality, Int32(MemoryLayout<Double>.size))
        }
    }

    public var sampleRate: Int { format.sampleRate }

    /// The software string of every render (WAV `ISFT`, a FLAC, Vorbis or Opus comment).
    static let softwareMark = "beattag run"

    /// Whether the audio file at `path` is a run beattag rendered: its software string says so, as
    /// libsndfile reads it or as another tool kept it (ffmpeg makes a render's mark an MP3's
    /// TXXX:software or an M4A's encoder tag: a run converted to MP3 was catalogued as a song).
    public static func isRender(path: String) -> Bool {
        var info = SF_INFO()
        if let handle = sf_open(path, Int32(SFM_READ), &info) {
            defer { sf_close(handle) }
            if let software = sf_get_string(handle, Int32(SF_STR_SOFTWARE)), String(cString: software).hasPrefix(softwareMark) { return true }
        }
        guard let tags = try? TagReader.read(path: path) else { return false }
        return ["SOFTWARE", "ENCODER", "ENCODEDBY", "ENCODED-BY", "ENCODING"].contains { key in
            tags.properties[key]?.contains { $0.hasPrefix(softwareMark) } == true
        }
    }

    /// Writes interleaved frames.
    public func write(_ interleaved: UnsafeBufferPointer<Float>) throws {
        guard let handle else { throw MixWriteError(description: "cannot write \(path): already closed") }
        let frames = interleaved.count / channels
        let written = sf_writef_float(handle, interleaved.baseAddress, sf_count_t(frames))
        guard written == frames else {
            throw MixWriteError(description: "cannot write \(path): \(String(cString: sf_strerror(handle)))")
        }
        framesWritten += frames
    }

    /// Closes the file and puts it under its final name.
    public func commit() throws {
        guard let handle else { return }
        self.handle = nil
        defer { OpenWorkingFiles.remove(temporary) }
        sf_write_sync(handle)
        guard sf_close(handle) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw MixWriteError(description: "cannot finish \(path)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw MixWriteError(description: "cannot write \(path): \(reason)")
        }
        FileSync.folder(of: path)
        committed = true
    }

    /// Stops and removes the partial file.
    public func abandon() {
        if let handle { sf_close(handle) }
        handle = nil
        if !committed { try? FileManager.default.removeItem(atPath: temporary) }
        OpenWorkingFiles.remove(temporary)
    }

    deinit { abandon() }
}
