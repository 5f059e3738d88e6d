import Foundation

/// Text comparison for filters and search: case- and diacritic-insensitive, so `--artist bjork`
/// finds Björk and `--search "sigur ros"` finds Sigur Rós. The one place that folds text.
public enum TextMatch {
    public static func fold(_ text: String) -> String {
        // Plain ASCII (most tags) needs only lower case, and that is 20 times cheaper than Foundation's folding.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Runs of spaces, tabs and newlines as one space: "White  Noise" holds the words "white noise".
    /// Text without such a run comes back as it is, unscanned by Foundation.
    public static func collapsingSpaces(_ text: String) -> String {
        var previousWasSpace = false, needed = false
        for byte in text.utf8 {
            let space = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if space && (previousWasSpace || byte != 0x20) { needed = true; break }
            previousWasSpace = space
        }
        guard needed else { return text }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
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
    /// Compares UTF-8 bytes (folded text needs no other equivalence): the default keywords are
    /// checked against three fields of every track, and Foundation's search cost seconds at 100,000.
    public static func containsFoldedWord(_ word: String, inFolded text: String) -> Bool {
        let needle = Array(word.utf8)
        guard !needle.isEmpty else { return false }
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                let end = start + needle.count
                guard zip(bytes[start..<end], needle).allSatisfy({ $0 == $1 }) else { continue }
                if !isLetter(endingAt: start, in: bytes), !isLetter(startingAt: end, in: bytes) { return true }
            }
            return false
        }
    }

    /// Whether the character whose UTF-8 ends just before `index` is a letter (false at the start).
    private static func isLetter(endingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard index > 0 else { return false }
        var first = index - 1
        while first > 0, bytes[first] & 0xC0 == 0x80 { first -= 1 }
        return isLetter(bytes[first..<index])
    }

    /// Whether the character whose UTF-8 starts at `index` is a letter (false at the end).
    private static func isLetter(startingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard index < bytes.count else { return false }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return isLetter(bytes[index..<end])
    }

    private static func isLetter(_ utf8: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if utf8.count == 1 { let byte = utf8[utf8.startIndex]; return (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        return String(decoding: utf8, as: UTF8.self).first?.isLetter ?? false
    }
}
