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
            || lower.contains("creative commons") || isLicenceTitle(lower)
        guard hasCC else { return nil }
        // Licence elements as they appear in URLs (by-nc-nd) or names (BY-NC-ND, Attribution-NoDerivatives).
        let normalized = lower.replacingOccurrences(of: #"no[\s-]?deriv(ative)?s?"#, with: "nd", options: .regularExpression)
            .replacingOccurrences(of: #"non[\s-]?commercial"#, with: "nc", options: .regularExpression)
            .replacingOccurrences(of: #"share[\s-]?alike"#, with: "sa", options: .regularExpression)
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

    /// A Creative Commons licence by its title alone, as the deeds name them: "Attribution-
    /// NoDerivatives 4.0 International", "Attribution 3.0 Unported", "Attribution-ShareAlike 4.0".
    /// "Attribution" must come with a licence element or a version: "Attribution: Jane Doe" is a credit.
    private static func isLicenceTitle(_ lower: String) -> Bool {
        guard lower.contains("attribution") else { return false }
        let element = #"attribution[\s-]*(non-?commercial|no-?deriv|share-?alike)"#
        let version = #"attribution[\s-]+[1-4]\.[05]\b"#
        return lower.range(of: element, options: .regularExpression) != nil || lower.range(of: version, options: .regularExpression) != nil
    }

    /// An unrecognised licence that still says no derivatives ("No Derivative Works", "NoDerivs"):
    /// kept as `other` but never time-stretched.
    static func forbidsDerivatives(_ text: String) -> Bool {
        text.lowercased().range(of: #"no[\s-]?deriv"#, options: .regularExpression) != nil
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
                          sourceURL: firstURL(in: license), tempoAdjustAllowed: forbidsDerivatives(license) ? false : nil, origin: .tag)
        }
        return nil
    }

    static func attribution(from tags: TrackTags) -> String? {
        if let copyright = tags.copyright, !copyright.isEmpty, sourceType(in: copyright) == nil { return copyright }
        return tags.artist
    }
}
