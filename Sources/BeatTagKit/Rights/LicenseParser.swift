import Foundation

public enum LicenseParser {
    /// Recognises Creative Commons licences from a URL or a short name ("CC BY-ND 4.0",
    /// "https://creativecommons.org/licenses/by-nc-sa/4.0/", "CC0", "Public Domain").
    public static func sourceType(in text: String) -> SourceType? {
        let lower = text.lowercased()
        if lower.contains("publicdomain/zero") || lower.range(of: #"\bcc[\s-]?0\b"#, options: .regularExpression) != nil
            || lower.contains("cc-zero") {
            return .cc0
        }
        if lower.contains("publicdomain/mark") || lower.contains("public domain") { return .publicDomain }
        let hasCC = lower.contains("creativecommons.org") || lower.range(of: #"\bcc\b"#, options: .regularExpression) != nil
            || lower.contains("creative commons")
        guard hasCC else { return nil }
        // Licence elements as they appear in URLs (by-nc-nd) or names (BY-NC-ND, Attribution-NoDerivatives).
        let normalized = lower.replacingOccurrences(of: "noderivatives", with: "nd")
            .replacingOccurrences(of: "noderivs", with: "nd")
            .replacingOccurrences(of: "noncommercial", with: "nc")
            .replacingOccurrences(of: "sharealike", with: "sa")
            .replacingOccurrences(of: "attribution", with: "by")
        let elements = Set(normalized.components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty })
        guard elements.contains("by") else { return .other }
        switch (elements.contains("nc"), elements.contains("sa"), elements.contains("nd")) {
        case (false, false, false): return .ccBy
        case (false, true, _): return .ccBySa
        case (false, false, true): return .ccByNd
        case (true, false, false): return .ccByNc
        case (true, true, _): return .ccByNcSa
        case (true, false, true): return .ccByNcNd
        }
    }

    static func firstURL(in text: String) -> String? {
        guard let range = text.range(of: #"https?://[^\s"'<>]+"#, options: .regularExpression) else { return nil }
        return String(text[range])
    }

    /// Rights stated in the file itself: LICENSE, COPYRIGHT, COPYRIGHTURL (ID3 WCOP), or a CC URL in a comment.
    public static func rights(from tags: TrackTags) -> Rights? {
        let candidates: [String?] = [tags.license, tags.copyrightURL, tags.copyright, tags.comment]
        for case let text? in candidates {
            if let type = sourceType(in: text) {
                let url = [tags.license, tags.copyrightURL, tags.comment].compactMap { $0.flatMap(firstURL) }.first
                return Rights(source: type, license: tags.license ?? url ?? text, attribution: attribution(from: tags),
                              sourceURL: url, origin: .tag)
            }
        }
        if let license = tags.license {
            // An explicit licence we do not recognise: keep it verbatim, do not guess permissions away.
            return Rights(source: .other, license: license, attribution: attribution(from: tags),
                          sourceURL: firstURL(in: license), origin: .tag)
        }
        return nil
    }

    static func attribution(from tags: TrackTags) -> String? {
        if let copyright = tags.copyright, !copyright.isEmpty, sourceType(in: copyright) == nil { return copyright }
        return tags.artist
    }
}
