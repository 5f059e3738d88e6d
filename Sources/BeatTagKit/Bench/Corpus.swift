import Foundation

/// An annotated corpus folder: `truth.csv` (columns file and bpm, optionally style and original)
/// and a beat annotation per clip (`BeatAnnotations`). What an outsider hands `bench` is read
/// strictly: a row or a beat that cannot be read stops the run with its place named, since a line
/// dropped without a word changes the scores and looks like a result.
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
    /// Audio files in the folder (and below) that truth.csv does not list: not scored, which whoever
    /// assembled the corpus may not mean.
    public var unlisted: [String] = []

    public enum LoadError: Error, CustomStringConvertible, Equatable {
        case noFolder(String), noTruth(String), notText(String), badHeader(String, found: [String])
        case badRow(String, row: Int, problem: String)
        case listedTwice(String, row: Int, file: String, firstRow: Int)
        case badBeats(String, line: Int, problem: String)

        public var description: String {
            switch self {
            case .noFolder(let f): return "\(f): no such folder"
            case .noTruth(let f): return "no truth.csv in \(f) (a corpus needs one: columns file and bpm, see `beattag bench --help`)"
            case .notText(let p): return "\(p) is not UTF-8 text: save it as UTF-8"
            case .badHeader(let p, let found):
                return "\(p) needs `file` and `bpm` columns in its first line; "
                    + (found.isEmpty ? "it is empty" : "it reads: " + found.map { "\"\($0)\"" }.joined(separator: ", "))
            case .badRow(let p, let row, let problem): return "\(p) row \(row): \(problem)"
            case .listedTwice(let p, let row, let file, let first): return "\(p) row \(row): \(file) is listed already (row \(first))"
            case .badBeats(let p, let line, let problem): return "\(p) line \(line): \(problem)"
            }
        }
    }

    public init(folder: String) throws {
        self.folder = folder
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { throw LoadError.noFolder(folder) }
        let truthPath = (folder as NSString).appendingPathComponent("truth.csv")
        guard let data = FileManager.default.contents(atPath: truthPath) else { throw LoadError.noTruth(folder) }
        guard let text = Corpus.text(data) else { throw LoadError.notText(truthPath) }
        // Rows are counted as a spreadsheet numbers them (the header is row 1); blank rows and
        // comment rows are skipped.
        let delimiter = CSV.delimiter(ofFirstLineIn: text)
        // Fields as written: a file's name may begin or end with a space (`Corpus.existingPath`).
        var rows = CSV.parse(text, delimiter: delimiter).enumerated().map { (number: $0.offset + 1, fields: $0.element) }
            .filter { !$0.fields.allSatisfy { $0.allSatisfy(\.isWhitespace) } }
        if rows.first?.fields.first?.hasPrefix("sep=") == true { rows.removeFirst() }
        // Comment rows before the header; after it, a row is a comment only if it holds no tempo
        // where the bpm goes ("#1 Crush.mp3,120" is a clip).
        while let first = rows.first?.fields.first, first.hasPrefix("#") { rows.removeFirst() }
        func trimmed(_ field: String) -> String { field.trimmingCharacters(in: .whitespaces) }
        guard let header = rows.first?.fields.map({ trimmed($0).lowercased() }) else { throw LoadError.badHeader(truthPath, found: []) }
        guard let fileIndex = header.firstIndex(of: "file"), let bpmIndex = header.firstIndex(of: "bpm") else {
            throw LoadError.badHeader(truthPath, found: rows.first?.fields.map(trimmed) ?? [])
        }
        // Where the comma does not separate fields it may be the decimal point (153,5).
        func tempo(_ text: String) -> Double? {
            Double(delimiter == "," ? text : text.replacingOccurrences(of: ",", with: ".")).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        }
        rows = rows.filter { row in
            !(row.fields.first.map(trimmed) ?? "").hasPrefix("#") || (bpmIndex < row.fields.count && tempo(trimmed(row.fields[bpmIndex])) != nil)
        }
        let styleIndex = header.firstIndex(of: "style")
        let originalIndex = header.firstIndex(of: "original")
        var firstRow: [String: Int] = [:]
        clips = try rows.dropFirst().map { row in
            func field(_ index: Int?) -> String? {
                index.flatMap { $0 < row.fields.count && !trimmed(row.fields[$0]).isEmpty ? trimmed(row.fields[$0]) : nil }
            }
            guard var file = field(fileIndex) else { throw LoadError.badRow(truthPath, row: row.number, problem: "no file") }
            guard let bpmText = field(bpmIndex) else { throw LoadError.badRow(truthPath, row: row.number, problem: "no bpm for \(file)") }
            guard let bpm = tempo(bpmText) else {
                throw LoadError.badRow(truthPath, row: row.number, problem: "bpm \"\(bpmText)\" of \(file) is not a tempo (a number above 0)")
            }
            func inFolder(_ name: String) -> String { name.hasPrefix("/") ? name : (folder as NSString).appendingPathComponent(name) }
            let written = row.fields[fileIndex]
            let path = Corpus.existingPath(inFolder(written), else: inFolder(file))
            if path == inFolder(written) { file = written }
            let key = (path as NSString).standardizingPath
            if let first = firstRow[key] { throw LoadError.listedTwice(truthPath, row: row.number, file: file, firstRow: first) }
            firstRow[key] = row.number
            let group = field(styleIndex) ?? (file.components(separatedBy: "__").count > 1 ? file.components(separatedBy: "__")[0] : "all")
            let original = field(originalIndex).map { $0.hasPrefix("/") ? $0 : (folder as NSString).appendingPathComponent($0) }
            return Clip(file: file, path: path, bpm: bpm, group: group, beats: try BeatAnnotations.read(for: path), original: original)
        }
        unlisted = Corpus.audio(in: folder, besides: clips.map(\.path))
    }

    /// The audio files under `folder` (hidden ones aside), relative to it, that are none of `listed`.
    static func audio(in folder: String, besides listed: [String]) -> [String] {
        let known = Set(listed.map { ($0 as NSString).standardizingPath })
        let names = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return names.sorted().filter { name in
            AudioSniffer.hasAudioExtension(name) && !name.split(separator: "/").contains { $0.hasPrefix(".") }
                && !known.contains(((folder as NSString).appendingPathComponent(name) as NSString).standardizingPath)
        }
    }

    /// UTF-8 text without a byte-order mark (spreadsheets write one), or UTF-16 with one; nil
    /// for other encodings.
    static func text(_ data: Data) -> String? {
        let utf16 = data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
        guard var text = String(data: data, encoding: utf16 ? .utf16 : .utf8) else { return nil }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text
    }

    /// `path` as written, else `trimmed` (the name without the spaces around it), else the entry
    /// of its folder whose name is the same text in another Unicode normalisation (a corpus made
    /// on a Mac names its files in NFD, a CSV written by hand in NFC).
    static func existingPath(_ path: String, else trimmed: String) -> String {
        for candidate in [path, trimmed] where FileManager.default.fileExists(atPath: candidate) { return candidate }
        let folder = (trimmed as NSString).deletingLastPathComponent, name = (trimmed as NSString).lastPathComponent
        let wanted = name.precomposedStringWithCanonicalMapping
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder),
              let found = entries.first(where: { $0.precomposedStringWithCanonicalMapping == wanted }) else { return trimmed }
        return (folder as NSString).appendingPathComponent(found)
    }
}
