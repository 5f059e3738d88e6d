import Foundation

/// Small, exact edits of MP4 files FFmpeg wrote, for fixtures that imitate other encoders:
/// an iTunes-style `iTunSMPB` priming tag, a DRM sample entry. Only for files whose `moov` box
/// is the last box (FFmpeg's default): growing it then moves no sample data.
public enum MP4Edit {
    public enum EditError: Error, CustomStringConvertible {
        case notFound(String)
        public var description: String {
            switch self { case .notFound(let what): return "MP4 edit: \(what) not found" }
        }
    }

    /// Adds a `----:com.apple.iTunes:<name>` item to moov/udta/meta/ilst (FFmpeg writes that
    /// chain when given any `-metadata`).
    public static func addITunesItem(name: String, value: String, toFile path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let chain = try boxChain(["moov", "udta", "meta", "ilst"], in: bytes)
        guard let moov = chain.first, moov.start + moov.size == bytes.count else { throw EditError.notFound("moov as the last box") }
        let item = box("----", box("mean", [0, 0, 0, 0] + Array("com.apple.iTunes".utf8))
                       + box("name", [0, 0, 0, 0] + Array(name.utf8))
                       + box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(value.utf8)))
        let ilst = chain[chain.count - 1]
        bytes.insert(contentsOf: item, at: ilst.start + ilst.size)
        for parent in chain { writeSize(parent.size + item.count, at: parent.start, in: &bytes) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Renames the first audio sample entry (`mp4a` → `drms` makes an iTunes-DRM-looking file).
    public static func renameSampleEntry(_ from: String, to: String, inFile path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let chain = try boxChain(["moov", "trak", "mdia", "minf", "stbl", "stsd"], in: bytes)
        let stsd = chain[chain.count - 1]
        let needle = Array(from.utf8), replacement = Array(to.utf8)
        guard needle.count == 4, replacement.count == 4,
              let at = (stsd.start..<(stsd.start + stsd.size - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == needle })
        else { throw EditError.notFound("sample entry \(from)") }
        bytes.replaceSubrange(at..<(at + 4), with: replacement)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private typealias Box = (start: Int, size: Int)

    /// The boxes along `path`, outermost first. `meta` is a full box: its children start 4 bytes later.
    private static func boxChain(_ path: [String], in bytes: [UInt8]) throws -> [Box] {
        var chain: [Box] = []
        var start = 0, end = bytes.count
        for name in path {
            var at = start, found: Box?
            while at + 8 <= end {
                let size = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard size >= 8, at + size <= end else { break }
                if String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) == name { found = (at, size); break }
                at += size
            }
            guard let found else { throw EditError.notFound(path.prefix(through: path.firstIndex(of: name)!).joined(separator: "/")) }
            chain.append(found)
            start = found.start + 8 + (name == "meta" ? 4 : 0) + (name == "stsd" ? 8 : 0)
            end = found.start + found.size
        }
        return chain
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 4) + Array(type.utf8) + payload
        writeSize(out.count, at: 0, in: &out)
        return out
    }

    private static func writeSize(_ size: Int, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: size >> (8 * (3 - i))) }
    }
}
