/// Text from files (names, tags) made safe to print: control characters shown in caret notation
/// (`^[`, `^J`, as `cat -v` does) instead of sent. A downloaded file named with an escape sequence
/// must not retitle or clear the terminal, and a newline in a name must not split a one-line error
/// or a line of the credits. Bidirectional embeddings, overrides and isolates are shown as code
/// points too: a name holding U+202E prints the rest of the line backwards ("evil", U+202E,
/// "3pm.exe" shows as "evilexe.mp3"), whatever else the line says after it.
public enum VisibleControls {
    public static func text(_ raw: String) -> String {
        guard raw.unicodeScalars.contains(where: isControl) else { return raw }
        var out = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F: out.append("^"); out.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F: out.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                out.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
