import Foundation

/// A clip's annotated beats: `<file>.beats` beside it, else `<name without extension>.beats` (the
/// Ballroom and GTZAN-Rhythm naming). One beat a line, its time in seconds first, then anything
/// (the beat's place in the bar), separated by tabs, spaces or a comma; blank lines, `#` comments
/// and a header line are skipped; any line ending (LF, CRLF, CR). Anything else is an error with
/// its line: a beat silently dropped would lower the clip's beat F and look like the tracker's.
public enum BeatAnnotations {
    /// The beats for the audio at `audioPath`; empty when it has no annotation file.
    public static func read(for audioPath: String) throws -> [Double] {
        let candidates = [audioPath + ".beats", (audioPath as NSString).deletingPathExtension + ".beats"]
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Corpus.LoadError.badBeats(path, line: 0, problem: "cannot be read")
        }
        guard let text = Corpus.text(data) else { throw Corpus.LoadError.notText(path) }
        return try parse(text, path: path)
    }

    static func parse(_ text: String, path: String) throws -> [Double] {
        var beats: [Double] = []
        var seenContent = false
        for (i, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            defer { seenContent = true }
            let first = line.split(whereSeparator: { $0 == "\t" || $0 == " " || $0 == "," || $0 == ";" }).first.map(String.init) ?? ""
            guard let time = Double(first), time.isFinite else {
                if !seenContent { continue }  // a header line
                throw Corpus.LoadError.badBeats(path, line: i + 1, problem: "\"\(line)\" does not start with a beat time in seconds")
            }
            guard time >= 0 else { throw Corpus.LoadError.badBeats(path, line: i + 1, problem: "beat time \(first) is below 0") }
            if let last = beats.last, time <= last {
                throw Corpus.LoadError.badBeats(path, line: i + 1, problem: "beat \(first) s does not come after the one before (\(last) s): beats go in time order")
            }
            beats.append(time)
        }
        return beats
    }
}
