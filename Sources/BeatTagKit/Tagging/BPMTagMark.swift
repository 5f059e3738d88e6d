import Foundation

/// beattag's mark beside a BPM it wrote into a file (`tag --write`): `BEATTAG_BPM_SOURCE=manual 172`
/// (an ID3 TXXX frame, a Vorbis comment, an MP4 freeform atom). A scan into a fresh catalog
/// restores such a BPM as hand-set. The mark names the value it vouches for, so a BPM that another
/// tagger changed afterwards is read as an ordinary tag. Where the tag holds the BPM rounded (an
/// integer by default, always in MP4's `tmpo`), the mark keeps the hand-set value too,
/// `manual 172 (171.6)`: a fresh catalog restored 172 for a hand-set 171.6.
public enum BPMTagMark {
    public static let key = "BEATTAG_BPM_SOURCE"

    public static func value(bpmText: String, handSet bpm: Double? = nil) -> String {
        guard let bpm, let written = Double(bpmText), abs(written - bpm) > 0.005 else { return "manual \(bpmText)" }
        var exact = String(format: "%.2f", bpm)  // a point whatever the locale
        while exact.hasSuffix("0") { exact.removeLast() }
        if exact.hasSuffix(".") { exact.removeLast() }
        return "manual \(bpmText) (\(exact))"
    }

    /// The hand-set BPM the file carries, if beattag marked its BPM tag as hand-set.
    public static func manualBPM(in tags: TrackTags) -> Double? {
        guard let bpm = tags.bpm, let text = tags.properties["BPM"]?.first, let mark = tags.properties[key]?.first else { return nil }
        if mark == value(bpmText: text) { return bpm }
        // `manual 172 (171.6)`: the exact value, if the tag is still its rounding.
        let prefix = value(bpmText: text) + " ("
        guard mark.hasPrefix(prefix), mark.hasSuffix(")"), let exact = Double(mark.dropFirst(prefix.count).dropLast()),
              abs(exact - bpm) <= 0.5 else { return nil }
        return exact
    }
}
