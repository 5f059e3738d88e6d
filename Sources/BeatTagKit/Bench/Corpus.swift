import Foundation

/// An annotated corpus folder: `truth.csv` (file, bpm, and optionally style/meter/notes) and one
/// `<file>.beats` per clip (beat time in seconds per line, optional tab-separated downbeat flag).
public struct Corpus: Sendable {
    public struct Clip: Sendable {
        public var file: String
        public var path: String
        public var bpm: Double
        /// `style` column, else the file-name prefix before `__`, else "all".
        public var group: String
        public var beats: [Double]
        /// `original` column: the file this clip was encoded from (absolute, or relative to the
        /// folder), for comparing decoders; see scripts/bench/encode-corpus.py.
        public var original: String?
    }

    public var folder: String
    public var clips: [Clip]

    public enum LoadError: Error, CustomStringConvertible {
        case noTruth(String), badHeader(String), badRow(Int)
        public var description: String {
            switch self {
            case .noTruth(let f): return "no truth.csv in \(f)"
            case .badHeader(let f): return "\(f)/truth.csv needs `file` and `bpm` columns"
            case .badRow(let n): return "truth.csv row \(n): bad bpm"
            }
        }
    }

    public init(folder: String) throws {
        self.folder = folder
        guard let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent("truth.csv")) else {
            throw LoadError.noTruth(folder)
        }
        let rows = CSV.parse(String(decoding: data, as: UTF8.self))
        guard let header = rows.first, let fileIndex = header.firstIndex(of: "file"), let bpmIndex = header.firstIndex(of: "bpm") else {
            throw LoadError.badHeader(folder)
        }
        let styleIndex = header.firstIndex(of: "style")
        let originalIndex = header.firstIndex(of: "original")
        clips = try rows.dropFirst().enumerated().compactMap { n, row in
            guard row.count > max(fileIndex, bpmIndex) else { return nil }
            guard let bpm = Double(row[bpmIndex]) else { throw LoadError.badRow(n + 2) }
            let file = row[fileIndex]
            let path = (folder as NSString).appendingPathComponent(file)
            let group = styleIndex.flatMap { $0 < row.count ? row[$0] : nil }
                ?? (file.components(separatedBy: "__").count > 1 ? file.components(separatedBy: "__")[0] : "all")
            let beatsText = (try? String(contentsOfFile: path + ".beats", encoding: .utf8)) ?? ""
            let beats = beatsText.split(separator: "\n").compactMap { Double($0.split(separator: "\t").first ?? "") }
            let original = originalIndex.flatMap { $0 < row.count && !row[$0].isEmpty ? row[$0] : nil }
                .map { $0.hasPrefix("/") ? $0 : (folder as NSString).appendingPathComponent($0) }
            return Clip(file: file, path: path, bpm: bpm, group: group, beats: beats, original: original)
        }
    }
}
