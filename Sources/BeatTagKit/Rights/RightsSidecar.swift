import Foundation

/// A `.beattag-rights` file declares the rights of the folder it sits in and everything below it,
/// until a deeper sidecar says otherwise. Format (docs/rights.md):
///
///     source = cc-by
///     license = https://creativecommons.org/licenses/by/4.0/
///     attribution = Jane Doe
///     url = https://example.org/album
///     tempo-adjust = yes
public struct RightsSidecar: Equatable, Sendable {
    public static let fileName = ".beattag-rights"
    public var rights: Rights

    public enum ParseError: Error, CustomStringConvertible {
        case invalidLine(path: String, line: Int, text: String)
        case unknownSource(path: String, value: String)
        case invalidTempoAdjust(path: String, value: String)
        case unknownKey(path: String, line: Int, key: String)
        case unreadable(path: String, reason: String)
        case unclosedQuote(path: String, line: Int, text: String)
        case repeatedKey(path: String, line: Int, key: String)
        public var description: String {
            switch self {
            case .repeatedKey(let path, let line, let key):
                return "\(path):\(line): \(key) is given again with another value (which holds is not clear: keep one line)"
            case .unclosedQuote(let path, let line, let text): return "\(path):\(line): a quote is opened and not closed in \"\(text)\""
            case .unknownKey(let path, let line, let key):
                return "\(path):\(line): unknown key \"\(key)\" (one of: \(RightsSidecar.keys.joined(separator: ", ")))"
            case .unreadable(let path, let reason): return "\(path): \(reason)"
            case .invalidLine(let path, let line, let text): return "\(path):\(line): expected `key = value`, got \"\(text)\""
            case .invalidTempoAdjust(let path, let value): return "\(path): tempo-adjust is \"\(value)\", expected yes or no"
            case .unknownSource(let path, let value):
                return "\(path): unknown source \"\(value)\" (one of: \(SourceType.allCases.map(\.rawValue).joined(separator: ", ")))"
            }
        }
    }

    /// The keys a sidecar may hold. Any other is an error, not ignored: a misspelt `licence` line
    /// may be the one declaring no-derivatives music.
    static let keys = ["source", "license", "attribution", "url", "tempo-adjust"]
    /// Other spellings people write for a key.
    static let keyAliases = ["licence": "license"]

    public static func parse(_ text: String, path: String) throws -> RightsSidecar {
        var values: [String: String] = [:]
        // Notepad and other editors start a UTF-8 file with a byte-order mark; it is not part of the first key.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // Any line ending: "\r\n" is one Character, so a split on "\n" read a Windows file as one line.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = withoutComment(raw).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            guard let eq = line.firstIndex(of: "=") else { throw ParseError.invalidLine(path: path, line: index + 1, text: line) }
            let written = line[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            let key = keyAliases[written] ?? written
            guard keys.contains(key) else { throw ParseError.unknownKey(path: path, line: index + 1, key: written) }
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard let plain = unquoted(value) else { throw ParseError.unclosedQuote(path: path, line: index + 1, text: line) }
            // Another value for a key already given (a line appended with `>>`) is no rule to pick by:
            // the last won, and `tempo-adjust = no` then `yes` let no-derivatives music be stretched.
            if let earlier = values[key], earlier != plain { throw ParseError.repeatedKey(path: path, line: index + 1, key: key) }
            values[key] = plain
        }
        let license = values["license"]
        var source: SourceType
        if let raw = values["source"] {
            guard let parsed = SourceType(rawValue: raw.lowercased()) else { throw ParseError.unknownSource(path: path, value: raw) }
            source = parsed
        } else {
            source = license.flatMap(LicenseParser.sourceType(in:)) ?? .unknown
        }
        var adjust: Bool?
        if let value = values["tempo-adjust"] {
            switch value.lowercased() {
            case "yes", "true", "1", "allowed": adjust = true
            case "no", "false", "0", "forbidden": adjust = false
            default: throw ParseError.invalidTempoAdjust(path: path, value: value)
            }
        }
        // A sidecar cannot grant what a no-derivatives licence forbids, recognised or not.
        let allowed = source.allowsTempoAdjustment && !(license.map { LicenseParser.forbidsDerivatives($0) } ?? false) ? adjust : false
        return RightsSidecar(rights: Rights(source: source, license: license, attribution: values["attribution"],
                                            sourceURL: values["url"], tempoAdjustAllowed: allowed, origin: .sidecar))
    }

    /// A value without the quotes around it, as TOML reads it: plan and profile files are TOML, and a
    /// sidecar written the same way (`source = "cc0"`) was refused, its licence kept with the quotes.
    /// In double quotes `\"` and `\\` stand for `"` and `\`; single quotes take the text as it is.
    /// Nil for a quote not closed (the value may have been cut: the sidecar is not read).
    static func unquoted(_ value: String) -> String? {
        guard let first = value.first, first == "\"" || first == "'" else { return value }
        guard first == "\"" else { return value.count >= 2 && value.last == first ? String(value.dropFirst().dropLast()) : nil }
        var text = "", escaped = false
        for (offset, character) in value.dropFirst().enumerated() {
            if escaped {
                text.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return offset == value.count - 2 ? text : nil  // the closing quote ends the value
            } else {
                text.append(character)
            }
        }
        return nil
    }

    /// A line up to its comment: `#` at its start or after a space or tab (`source = cc-by  # …`),
    /// outside quotes. A `#` inside a value, as in a URL's fragment or a quoted name, stays.
    static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open, open == "'" || previous != "\\" { quote = nil }
            } else if character == "\"" || character == "'", previous == " " || previous == "\t" || previous == "=" {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" {
                return line[..<index]
            }
            previous = previous == "\\" && character == "\\" ? " " : character
        }
        return line
    }

    /// What a folder whose sidecar cannot be read gets until it is fixed: its author was declaring
    /// rights beattag cannot read, maybe no-derivatives ones, so no tempo change (rights fail closed).
    public static let unreadable = RightsSidecar(rights: Rights(source: .unknown, tempoAdjustAllowed: false, origin: .sidecar))

    public static func load(directory: String) throws -> RightsSidecar? {
        let path = (directory as NSString).appendingPathComponent(fileName)
        // Not there at all is the usual case; there but unreadable (a folder of that name, no read
        // permission, a link to nowhere) must not pass for "no declaration".
        var st = stat()
        if lstat(path, &st) != 0, errno == ENOENT || errno == ENOTDIR { return nil }
        guard stat(path, &st) == 0 else {
            throw ParseError.unreadable(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        guard st.st_mode & S_IFMT == S_IFREG else { throw ParseError.unreadable(path: path, reason: "not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ParseError.unreadable(path: path, reason: "cannot be opened (permissions?)")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }
}
