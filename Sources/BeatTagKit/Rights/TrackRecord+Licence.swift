import Foundation

extension TrackRecord {
    /// The licence as read, then as declared when that says more: "CC BY (https://…/by/4.0/)".
    public var licenceText: String {
        let kind = sourceType.title
        guard let declared = license?.trimmingCharacters(in: .whitespaces), !declared.isEmpty,
              declared.caseInsensitiveCompare(kind) != .orderedSame else { return kind }
        return "\(kind) (\(declared))"
    }

    /// One line crediting the track where its rights ask for it (or name someone to credit):
    /// "CC BY (…); credit: Jane Doe; source: https://…". Nil for music that asks for none.
    public var creditLine: String? {
        guard sourceType.requiresAttribution || attribution != nil else { return nil }
        return ([licenceText] + [(attribution ?? artist).map { "credit: \($0)" }, sourceURL.map { "source: \($0)" }].compactMap { $0 })
            .joined(separator: "; ")
    }
}
