import Foundation

/// How much of the audio a PCM container's header promises the file still holds. WAV (RIFF's
/// `data` chunk), RF64 (its `ds64` chunk), Sony Wave64, AIFF (`SSND`) and CAF (`data`) state their
/// audio's size in bytes, and libsndfile quietly reads what is there: a WAV cut to half its length
/// was catalogued as a whole 10-second track, and so were RF64, W64 and CAF files cut short. The
/// bytes a header promises against the bytes after its start give the share (any codec of constant
/// rate; a CAF of packets of varying size states none).
enum PCMLengthHeader {
    /// The held share (below 1 when cut short); nil when unknown: another container, a streamed
    /// file's size of 0 or all ones, a CAF of variable-size packets, or no audio chunk found in the
    /// first chunks.
    static func heldShare(path: String) -> Double? {
        sizes(path: path).map { $0.promised == 0 ? 1 : min(1, Double($0.held) / Double($0.promised)) }
    }

    /// The audio's bytes the file holds and those its header promises; nil as for `heldShare`.
    static func sizes(path: String) -> (held: UInt64, promised: UInt64)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let fileSize = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil,
              let head = try? handle.read(upToCount: 40), head.count >= 12,
              let layout = ChunkLayout(head: [UInt8](head)) else { return nil }
        func read(_ count: Int, at offset: UInt64) -> [UInt8]? {
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        }
        var offset = layout.firstChunk
        var stated64: UInt64?  // RF64's data size, from its ds64 chunk
        // Chunks before the audio are few and small (fmt, fact, a LIST or ID3 tag); 64 at most.
        for _ in 0..<64 {
            guard let header = read(layout.headerSize, at: offset) else { return nil }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let stated = layout.size(header), header64 = UInt64(layout.headerSize)
            let size = layout.sizeCountsHeader && stated != UInt64.max ? (stated >= header64 ? stated - header64 : 0) : stated
            if layout == .rf64, id == "ds64", let ds64 = read(16, at: offset + 8) {
                stated64 = ChunkLayout.integer(ds64[8..<16], bigEndian: false)
            }
            if id == "desc", layout == .caf {
                // A CAF's packets must be of one size (its bytes per packet, at 16 in the description).
                guard let desc = read(32, at: offset + 12), ChunkLayout.integer(desc[16..<20], bigEndian: true) > 0 else { return nil }
            }
            if id == layout.audioChunk, layout.isAudioChunk(header) {
                var promised = size
                if layout == .rf64 && size == 0xFFFF_FFFF { promised = stated64 ?? 0 }
                let skip = layout.audioSkip
                // A 64-bit size past any file (a damaged or crafted header) says nothing: lengths
                // computed from it would not fit in a frame count.
                guard promised > skip, promised != 0xFFFF_FFFF, promised <= PCMLengthHeader.largestPromise else { return nil }
                promised -= skip
                let start = offset + header64 + skip
                return (fileSize > start ? fileSize - start : 0, promised)
            }
            guard size < fileSize else { return nil }
            offset += header64 + size
            offset = (offset + layout.alignment - 1) / layout.alignment * layout.alignment
            guard offset < fileSize else { return nil }
        }
        return nil
    }

    /// The most audio bytes a header is believed to promise (1 TiB: 100 days of 48 kHz stereo float).
    static let largestPromise: UInt64 = 1 << 40

    /// The containers read, by the name both decoders give them (RF64 is a "wav" to both).
    static let formats = ["wav", "aiff", "w64", "caf"]

    /// Where a container's chunks start and how their headers read.
    private enum ChunkLayout {
        case riff, rf64, aiff, caf, w64

        /// Wave64 names its chunks by GUID: the first four bytes are the RIFF name, the rest is this.
        static let w64Tail: [UInt8] = [0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A]
        static let w64RiffTail: [UInt8] = [0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00]

        init?(head h: [UInt8]) {
            let tag = String(decoding: h[0..<4], as: UTF8.self), form = String(decoding: h[8..<12], as: UTF8.self)
            switch (tag, form) {
            case ("RIFF", "WAVE"): self = .riff
            case ("RF64", "WAVE"), ("BW64", "WAVE"): self = .rf64
            case ("FORM", "AIFF"), ("FORM", "AIFC"): self = .aiff
            case _ where tag == "caff": self = .caf
            case _ where tag == "riff" && h.count >= 40 && Array(h[4..<16]) == Self.w64RiffTail
                && String(decoding: h[24..<28], as: UTF8.self) == "wave" && Array(h[28..<40]) == Self.w64Tail:
                self = .w64
            default: return nil
            }
        }

        var bigEndian: Bool { self == .aiff || self == .caf }
        /// A chunk's name and size: 4 + 4 bytes; CAF's size is 8 bytes, Wave64's name a 16-byte GUID.
        var headerSize: Int { self == .w64 ? 24 : self == .caf ? 12 : 8 }
        var firstChunk: UInt64 { self == .w64 ? 40 : self == .caf ? 8 : 12 }
        var alignment: UInt64 { self == .w64 ? 8 : self == .caf ? 1 : 2 }
        /// Wave64's sizes count their header; the others' do not.
        var sizeCountsHeader: Bool { self == .w64 }
        var audioChunk: String { self == .aiff ? "SSND" : "data" }
        /// AIFF's sound data starts after an offset and a block size, CAF's after an edit count.
        var audioSkip: UInt64 { self == .aiff ? 8 : self == .caf ? 4 : 0 }

        /// A chunk's stated size: after its 4-byte name (16-byte GUID for Wave64).
        func size(_ header: [UInt8]) -> UInt64 {
            let at = self == .w64 ? 16 : 4, width = self == .w64 || self == .caf ? 8 : 4
            return Self.integer(header[at..<at + width], bigEndian: bigEndian)
        }

        func isAudioChunk(_ header: [UInt8]) -> Bool {
            self != .w64 || Array(header[4..<16]) == Self.w64Tail
        }

        static func integer(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> UInt64 {
            let ordered = bigEndian ? Array(bytes) : bytes.reversed()
            return ordered.reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
