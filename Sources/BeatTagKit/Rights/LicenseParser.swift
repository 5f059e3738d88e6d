import Foundation

public enum LicenseParser {
    /// Recognises Creative Commons licences from a URL or a short name ("CC BY-ND 4.0",
    /// "https://creativecommons.org/licenses/by-nc-sa/4.0/", "CC0", "Public Domain").
    public static func sourceType(in text: String) -> SourceType? {
        let lower = inEnglish(text.lowercased())
        if lower.contains("publicdomain/zero") || lower.range(of: #"\bcc[\s-]?0\b"#, options: .regularExpression) != nil
            || lower.contains("cc-zero") {
            return .cc0
        }
        if lower.contains("publicdomain/mark") || lower.contains("public domain") { return .publicDomain }
        let hasCC = lower.contains("creativecommons.org") || lower.range(of: #"\bcc\b"#, options: .regularExpression) != nil
            || lower.contains("creative commons") || isLicenceTitle(lower) || hasElementCode(lower)
        guard hasCC else { return nil }
        // A code with an element no licence has ("cc-by-zz", a typo of by-nd?) names no licence.
        if hasUnknownElement(lower) { return .other }
        // Licence elements as they appear in URLs (by-nc-nd) or names (BY-NC-ND, Attribution-NoDerivatives).
        let normalized = lower.replacingOccurrences(of: #"no[\s-]?deriv(ative)?s?"#, with: "nd", options: .regularExpression)
            .replacingOccurrences(of: #"non[\s-]?commercial"#, with: "nc", options: .regularExpression)
            .replacingOccurrences(of: #"share[\s-]?alike"#, with: "sa", options: .regularExpression)
            .replacingOccurrences(of: "attribution", with: "by")
        let elements = Set(normalized.components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty })
        guard elements.contains("by") else { return .other }
        switch (elements.contains("nc"), elements.contains("sa"), elements.contains("nd")) {
        // No licence is both share-alike and no-derivatives ("CC BY-SA-ND"): a typo names none (it was BY-SA).
        case (_, true, true): return .other
        case (false, false, false): return .ccBy
        case (false, true, false): return .ccBySa
        case (false, false, true): return .ccByNd
        case (true, false, false): return .ccByNc
        case (true, true, false): return .ccByNcSa
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

    /// A licence's element code without "CC" before it: "BY-ND 4.0", "by-nc-sa", a URL's tail
    /// "by-nd/4.0" (an audit found these read as `other`, stretchable). Hyphens only: "by sa" is prose.
    private static func hasElementCode(_ lower: String) -> Bool {
        lower.range(of: #"\bby(?:[-_](?:nc|sa|nd))+\b"#, options: .regularExpression) != nil
    }

    /// Creative Commons licence names as the localised deeds give them (German, French, Spanish,
    /// Italian, Dutch, Portuguese), in English words, so that a no-derivatives licence is one in any
    /// of them: "Namensnennung - Keine Bearbeitungen 4.0 International" read as `other`, stretchable.
    static func inEnglish(_ lower: String) -> String {
        localisedNames.reduce(lower) { text, name in
            name.pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: name.english)
        }
    }

    /// Compiled once: every scanned file's tags, and catalog v18's 100,000 rows, go through them.
    private static let localisedNames: [(pattern: NSRegularExpression, english: String)] = [
        // Run together too, as the 3.0 deeds name them: "Namensnennung-KeineBearbeitung 3.0 Deutschland".
        (#"keine[\s-]*bearbeitung(en)?|pas[\s-]*de[\s-]*modifications?|sin[\s-]*(obra[\s-]*)?derivadas?|no[\s-]*derivadas?|non[\s-]*opere[\s-]*derivate|geen[\s-]*afgeleide[\s-]*werken|sem[\s-]*deriva(ções|coes|dos)"#, "noderivatives"),
        (#"nicht[\s-]*kommerziell|keine[\s-]*kommerzielle[\s-]*nutzung|pas[\s-]*d['’]?[\s-]*utilisation[\s-]*commerciale|no[\s-]*comercial|non[\s-]*commerciale|niet[\s-]*commercieel|não[\s-]*comercial"#, "noncommercial"),
        (#"weitergabe[\s-]*unter[\s-]*gleichen[\s-]*bedingungen|partage[\s-]*dans[\s-]*les[\s-]*mêmes[\s-]*conditions|compartir[\s-]*igual|condividi[\s-]*allo[\s-]*stesso[\s-]*modo|gelijk[\s-]*delen|compartilha[\s-]*igual"#, "sharealike"),
        (#"namensnennung|paternité|reconocimiento|atribución|attribuzione|naamsvermelding|atribuição"#, "attribution"),
        // Codes written as one word: "CCBYND", "ccbyncsa".
        (#"\bccby(nc)?(nd|sa)?\b"#, "cc by-$1-$2"),
    ].map { (try! NSRegularExpression(pattern: $0.0), $0.1) }

    /// Text that says no derivatives, recognised as a licence or not ("No Derivative Works",
    /// "NoDerivs", "BY-ND", a localised name, "do not modify"): never time-stretched. Rights fail
    /// closed, so a licence field, a copyright notice or a comment saying so is enough. A bare "ND"
    /// element counts in a licence field only: in a notice it is a name ("(c) 2021 ND Records").
    static func forbidsDerivatives(_ text: String, inLicence: Bool = true) -> Bool {
        let lower = inEnglish(text.lowercased())
        let whole = NSRange(lower.startIndex..., in: lower)
        if noDerivativesWords.contains(where: { $0.firstMatch(in: lower, range: whole) != nil }) { return true }
        return inLicence && (lower.components(separatedBy: CharacterSet.alphanumerics.inverted).contains("nd") || hasUnknownElement(lower))
    }

    /// An element code ("by-nc-nd") with an element that is none of the licences' (nc, sa, nd): a
    /// typo may hide an nd, so in a licence field it forbids, as an unreadable licence would.
    private static func hasUnknownElement(_ lower: String) -> Bool {
        let whole = NSRange(lower.startIndex..., in: lower)
        return elementCode.matches(in: lower, range: whole).contains { match in
            guard let range = Range(match.range, in: lower) else { return false }
            return lower[range].split(whereSeparator: { $0 == "-" || $0 == "_" }).dropFirst().contains { !["nc", "sa", "nd"].contains($0) }
        }
    }

    private static let elementCode = try! NSRegularExpression(pattern: #"\bby(?:[-_][a-z]+)+\b"#)

    private static let noDerivativesWords: [NSRegularExpression] = [
        #"no[\s-]?deriv"#, #"\b(by|nc)[-_ ]nd\b"#,
        #"\bdo(n['’]?t| not)\s+(modify|alter|remix|edit)\b"#, #"\b(may|must|shall)\s+not\s+be\s+(modified|altered|remixed|edited)\b"#,
        #"\bno\s+(modifications|alterations)\b"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// The tags' own words forbid derivatives, whatever licence they name (a LICENSE of CC BY with a
    /// COPYRIGHT of "No Derivative Works"): the stricter reading stands.
    static func forbidsDerivatives(_ tags: TrackTags) -> Bool {
        [tags.license, tags.copyrightURL].contains { $0.map { forbidsDerivatives($0) } ?? false }
            || [tags.copyright, tags.comment].contains { $0.map { forbidsDerivatives($0, inLicence: false) } ?? false }
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
