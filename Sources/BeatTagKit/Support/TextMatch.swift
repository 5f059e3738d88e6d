import Foundation

/// Text comparison for filters and search: case- and diacritic-insensitive, so `--artist bjork`
/// finds Björk and `--search "sigur ros"` finds Sigur Rós. The one place that folds text.
public enum TextMatch {
    public static func fold(_ text: String) -> String {
        // Plain ASCII (most tags) needs only lower case, and that is 20 times cheaper than Foundation's folding.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// `needle` somewhere in `text` (both folded).
    public static func contains(_ text: String?, _ needle: String) -> Bool {
        guard let text else { return false }
        return fold(text).contains(fold(needle))
    }

    /// `word` in `text` with no letter right before or after it (both folded): "intro" excludes
    /// "Intro (Live)" but not "Introspection".
    public static func containsWord(_ word: String, in text: String) -> Bool {
        containsFoldedWord(fold(word), inFolded: fold(text))
    }

    /// `containsWord` for text and word already folded (a filter folds its words once, not per track).
    public static func containsFoldedWord(_ word: String, inFolded text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let range = text.range(of: word, range: searchRange) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before?.isLetter ?? false), !(after?.isLetter ?? false) { return true }
            searchRange = range.upperBound..<text.endIndex
        }
        return false
    }
}
