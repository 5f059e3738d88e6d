/// RFC 4180-style CSV: quoted fields may hold commas, quotes ("") and newlines.
public enum CSV {
    /// The separator a file uses, read off its first line that is not blank or a `#` comment: a
    /// comma, else a semicolon (spreadsheets in locales with a decimal comma), else a tab.
    /// Excel's `sep=;` first line names it.
    public static func delimiter(ofFirstLineIn text: String) -> Character {
        let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) && !$0.hasPrefix("#") } ?? ""
        if line.hasPrefix("sep="), line.count == 5, let named = line.last { return named }
        return [",", ";", "\t"].first { line.contains($0) } ?? ","
    }

    public static func parse(_ text: String, delimiter: Character = ",") -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var iterator = Array(text).makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let n = iterator.next() {
                        if n == "\"" { field.append("\"") } else { quoted = false; pending = n }
                    } else { quoted = false }
                } else { field.append(c) }
                continue
            }
            switch c {
            // A quote opens a quoted field only at its start (RFC 4180, Python's csv): 12" Mix.mp3 is a name.
            case "\"" where field.isEmpty: quoted = true
            case delimiter: row.append(field); field = ""
            case "\n", "\r\n":
                row.append(field); field = ""
                if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
                row = []
            case "\r": continue
            default: field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
