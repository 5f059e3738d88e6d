/// How many terminal columns text takes: CJK and other East Asian wide characters take two,
/// combining marks none. Tables pad by this, so Japanese and Chinese titles line up.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut.
    static func truncated(_ text: String, to width: Int) -> String {
        guard of(text) > width, width > 0 else { return text }
        var kept = "", used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        return kept + "…"
    }

    static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return isWide(first.value) ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        value >= 0x1100 && wideRanges.contains { $0.contains(value) }
    }
}
