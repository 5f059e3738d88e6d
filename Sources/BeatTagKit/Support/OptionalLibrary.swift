import CLibraryLoader

/// The heavy libraries beattag opens on first use instead of linking (CLibraryLoader): FFmpeg for
/// what libsndfile refuses, Opus, and resampling the render, Rubber Band and libebur128 for the render,
/// espeak-ng for spoken cues, Chromaprint for recognising one recording across encodings (scan). A
/// command that never calls one never maps it, and a missing one costs only its feature: the
/// feature fails with a one-line reason naming the Debian package. `BEATTAG_LIBAVFORMAT`,
/// `BEATTAG_LIBRUBBERBAND`, `BEATTAG_LIBCHROMAPRINT`, … name another file to open (tests hide a
/// library by naming one that does not exist).
public enum OptionalLibrary: String, CaseIterable, Sendable {
    case ffmpeg = "FFmpeg", rubberBand = "Rubber Band", ebur128 = "libebur128", espeak = "espeak-ng", chromaprint = "Chromaprint"

    /// nil when the library is there (opened now if it was not); else why not, in one line. The
    /// library is opened once per process; later calls cost an atomic load.
    public var unavailableReason: String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let loaded: Int32
        switch self {
        case .ffmpeg: loaded = bt_ffmpeg_load(&buffer, Int32(buffer.count))
        case .rubberBand: loaded = bt_rubberband_load(&buffer, Int32(buffer.count))
        case .ebur128: loaded = bt_ebur128_load(&buffer, Int32(buffer.count))
        case .espeak: loaded = bt_espeak_load(&buffer, Int32(buffer.count))
        case .chromaprint: loaded = bt_chromaprint_load(&buffer, Int32(buffer.count))
        }
        return loaded != 0 ? nil : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var isAvailable: Bool { unavailableReason == nil }

    /// Throws `Missing` when the library is not there.
    public func require() throws {
        if let reason = unavailableReason { throw Missing(library: self, description: reason) }
    }

    public struct Missing: Error, CustomStringConvertible, Equatable {
        public let library: OptionalLibrary
        public let description: String
    }
}
