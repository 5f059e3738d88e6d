import Foundation

/// Whether a FLAC file states its length. STREAMINFO's total samples may be 0, "unknown" (the FLAC
/// format allows it; an encoder writing to a pipe cannot go back to fill it in): such a file is
/// whole, with nothing to compare its decode with (libsndfile gives it an absurd length, which read
/// as "its header's length is damaged" on every scan).
enum FLACLengthHeader {
    static func statesTotalSamples(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        // "fLaC", the first metadata block's header (always STREAMINFO), then its 34 bytes.
        guard let head = try? handle.read(upToCount: 42), head.count == 42, head.starts(with: Array("fLaC".utf8)),
              head[head.startIndex + 4] & 0x7F == 0 else { return true }
        let info = [UInt8](head.dropFirst(8))
        // Total samples: 36 bits from the low nibble of byte 13.
        let total = UInt64(info[13] & 0x0F) << 32 | UInt64(info[14]) << 24 | UInt64(info[15]) << 16 | UInt64(info[16]) << 8 | UInt64(info[17])
        return total != 0
    }
}
