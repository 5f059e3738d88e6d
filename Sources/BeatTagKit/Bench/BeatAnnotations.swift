import Foundation

/// A clip's annotated beats: `<file>.beats` beside it, else `<name without extension>.beats` (the
/// Ballroom and GTZAN-Rhythm naming). One beat a line, its time in seconds first, then anything
/// (the beat's place in the bar), separated by tabs, spaces or a comma; blank lines, `#` comments
/// and a header line are skipped; any line ending (LF, CRLF, CR); in time order, as mir_eval
/// reads them. Anything else is an error with its line: a beat silently dropped would lower the
/// clip's beat F and look like the tracker's.
public enum BeatAnnotations {
    /// The beats for the audio at `audioPath`; empty when it has no annotation file.
    public static func read(for audioPath: String) throws -> [Double] {
        let candidates = [audioPath + ".beats", (audioPath as NSString).deletingPathExtension + ".beats"]
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Corpus.LoadError.badBeats(path, line: 0, problem: "cannot be read")
        }
        // Beat times are ASCII: another 8-bit encoding only changes a comment or a header.
        guard let text = Corpus.text(data) ?? String(data: data, encoding: .isoLatin1) else { throw Corpus.LoadError.notText(path) }
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
                // A header line names its columns; a first line that starts like a number is a beat misread.
                if !seenContent, let lead = first.first, !(lead.isNumber || "+-.".contains(lead)) { continue }
                throw Corpus.LoadError.badBeats(path, line: i + 1, problem: "\"\(line)\" does not start with a beat time in seconds")
            }
            // In time order, as mir_eval asks: the same time twice (a beat and a downbeat list merged) is scored as it is.
            if let last = beats.last, time < last {
                throw Corpus.LoadError.badBeats(path, line: i + 1, problem: "beat \(first) s comes before the one above it (\(last) s): beats go in time order")
            }
            beats.append(time)
        }
        return beats
    }
}
