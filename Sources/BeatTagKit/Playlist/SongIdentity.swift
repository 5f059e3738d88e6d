import Foundation

/// "The same song": one key for a title on two albums, as a Radio Edit, Remastered, or with a
/// featured artist. Live versions and remixes stay distinct songs.
/// (`removingNotes` goes note by note: a note that names a distinct version is never removed.)
public enum SongIdentity {
    /// Bracketed or dash-separated version notes that do not make a different song. (Compiled once:
    /// a key is made for every match a playlist or workout looks at, tens of thousands at times.)
    private static let versionNotes = [
        #"\s*[\(\[][^\)\]]*\b(feat\.?|ft\.?|featuring|with)\s[^\)\]]*[\)\]]"#,
        #"\s*[\(\[][^\)\]]*\b(radio|single|album|clean|explicit|mono|stereo|original)\s+(edit|version|mix)\b[^\)\]]*[\)\]]"#,
        #"\s*[\(\[][^\)\]]*\b(remaster(ed)?|re-?recorded|explicit|clean|radio edit|edit)\b[^\)\]]*[\)\]]"#,
        #"\s+-\s+[^-]*\b(remaster(ed)?|radio edit|single version|album version|edit)\b.*$"#,
        #"\s+(feat\.?|ft\.?|featuring)\s.*$"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// Words that make a version its own song, wherever they stand in a note: "(Skrillex Remix
    /// Edit)" and "(Live with Orchestra)" are not the studio song, though "edit" and "with" are in them.
    private static let distinctVersion = try! NSRegularExpression(pattern:
        #"\b(live|remix(ed)?|rmx|re-?mix|dub|acoustic|unplugged|instrumental|karaoke|demo|cover|extended|vip|rework|bootleg|orchestra(l)?|symphonic|session|a cappella|acapella)\b"#
        + #"|(?<!radio|single|album|original|clean|explicit|mono|stereo)\s+mix\b"#)

    /// What follows the first credited artist.
    private static let otherArtists = [#"\s+(feat\.?|ft\.?|featuring|with|vs\.?|x)\s+.*$"#, #"\s*(&|,|;|/| and ).*$"#]
        .map { try! NSRegularExpression(pattern: $0) }

    public static func normalizedTitle(_ title: String) -> String {
        var text = title.lowercased()
        for pattern in versionNotes {
            text = removingNotes(matching: pattern, from: text)
        }
        return fold(text)
    }

    /// `text` without the version notes `pattern` finds, except those that name a distinct version.
    private static func removingNotes(matching regex: NSRegularExpression, from text: String) -> String {
        var result = text
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let range = Range(match.range, in: text) else { continue }
            let note = String(text[range])
            if distinctVersion.firstMatch(in: note, range: NSRange(note.startIndex..., in: note)) != nil { continue }
            result.replaceSubrange(range, with: "")
        }
        return result
    }

    /// The first credited artist: "A feat. B", "A & B", "A, B", "A x B" all count as A.
    public static func primaryArtist(_ artist: String) -> String {
        var text = artist.lowercased()
        for separator in otherArtists {
            text = separator.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        }
        return fold(text)
    }

    /// A track without an artist is its own song: two files named `01.flac` in two albums, or two
    /// "Track 1"s, are not one song (copies of one recording are found by their content instead).
    public static func key(for track: TrackRecord) -> String {
        let artist = primaryArtist(track.artist ?? "")
        guard !artist.isEmpty else { return "\u{1f}path\u{1f}" + track.path }
        return artist + "\u{1f}" + normalizedTitle(track.title ?? track.fileStem)
    }

    /// Case, accents, punctuation and spacing folded away.
    static func fold(_ text: String) -> String {
        let plain = TextMatch.fold(text)
        let words = plain.components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }
        return words.joined(separator: " ")
    }
}
