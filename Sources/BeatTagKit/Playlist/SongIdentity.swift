import Foundation

/// "The same song": one key for a title on two albums, as a Radio Edit, Remastered, or with a
/// featured artist. Live versions and remixes stay distinct songs.
public enum SongIdentity {
    /// Bracketed or dash-separated version notes that do not make a different song.
    private static let versionNotes = [
        #"\s*[\(\[][^\)\]]*\b(feat\.?|ft\.?|featuring|with)\s[^\)\]]*[\)\]]"#,
        #"\s*[\(\[][^\)\]]*\b(radio|single|album|clean|explicit|mono|stereo|original)\s+(edit|version|mix)\b[^\)\]]*[\)\]]"#,
        #"\s*[\(\[][^\)\]]*\b(remaster(ed)?|re-?recorded|explicit|clean|radio edit|edit)\b[^\)\]]*[\)\]]"#,
        #"\s+-\s+[^-]*\b(remaster(ed)?|radio edit|single version|album version|edit)\b.*$"#,
        #"\s+(feat\.?|ft\.?|featuring)\s.*$"#,
    ]

    public static func normalizedTitle(_ title: String) -> String {
        var text = title.lowercased()
        for pattern in versionNotes {
            text = text.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        return fold(text)
    }

    /// The first credited artist: "A feat. B", "A & B", "A, B", "A x B" all count as A.
    public static func primaryArtist(_ artist: String) -> String {
        var text = artist.lowercased()
        for separator in [#"\s+(feat\.?|ft\.?|featuring|with|vs\.?|x)\s+.*$"#, #"\s*(&|,|;|/| and ).*$"#] {
            text = text.replacingOccurrences(of: separator, with: "", options: .regularExpression)
        }
        return fold(text)
    }

    public static func key(for track: TrackRecord) -> String {
        let title = track.title ?? track.fileStem
        return primaryArtist(track.artist ?? "") + "\u{1f}" + normalizedTitle(title)
    }

    /// Case, accents, punctuation and spacing folded away.
    static func fold(_ text: String) -> String {
        let plain = TextMatch.fold(text)
        let words = plain.components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }
        return words.joined(separator: " ")
    }
}
