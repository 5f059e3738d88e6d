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
        public var description: String {
            switch self {
            case .invalidLine(let path, let line, let text): return "\(path):\(line): expected `key = value`, got \"\(text)\""
            case .invalidTempoAdjust(let path, let value): return "\(path): tempo-adjust is \"\(value)\", expected yes or no"
            case .unknownSource(let path, let value):
                return "\(path): unknown source \"\(value)\" (one of: \(SourceType.allCases.map(\.rawValue).joined(separator: ", ")))"
            }
        }
    }

    public static func parse(_ text: String, path: String) throws -> RightsSidecar {
        var values: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = withoutComment(raw).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            guard let eq = line.firstIndex(of: "=") else { throw ParseError.invalidLine(path: path, line: index + 1, text: line) }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
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
        let allowed = source.allowsTempoAdjustment && !(license.map(LicenseParser.forbidsDerivatives) ?? false) ? adjust : false
        return RightsSidecar(rights: Rights(source: source, license: license, attribution: values["attribution"],
                                            sourceURL: values["url"], tempoAdjustAllowed: allowed, origin: .sidecar))
    }

    /// A line up to its comment: `#` at its start or after a space or tab (`source = cc-by  # …`).
    /// A `#` inside a value, as in a URL's fragment, stays.
    static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#", previous == " " || previous == "\t" { return line[..<index] }
            previous = line[index]
        }
        return line
    }

    /// What a folder whose sidecar cannot be read gets until it is fixed: its author was declaring
    /// rights beattag cannot read, maybe no-derivatives ones, so no tempo change (rights fail closed).
    public static let unreadable = RightsSidecar(rights: Rights(source: .unknown, tempoAdjustAllowed: false, origin: .sidecar))

    public static func load(directory: String) throws -> RightsSidecar? {
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }
}
