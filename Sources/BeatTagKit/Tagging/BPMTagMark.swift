/// beattag's mark beside a BPM it wrote into a file (`tag --write`): `BEATTAG_BPM_SOURCE=manual 172`
/// (an ID3 TXXX frame, a Vorbis comment, an MP4 freeform atom). A scan into a fresh catalog
/// restores such a BPM as hand-set. The mark names the value it vouches for, so a BPM that another
/// tagger changed afterwards is read as an ordinary tag.
public enum BPMTagMark {
    public static let key = "BEATTAG_BPM_SOURCE"

    public static func value(bpmText: String) -> String { "manual \(bpmText)" }

    /// The hand-set BPM the file carries, if beattag marked its BPM tag as hand-set.
    public static func manualBPM(in tags: TrackTags) -> Double? {
        guard let bpm = tags.bpm, let text = tags.properties["BPM"]?.first,
              tags.properties[key]?.first == value(bpmText: text) else { return nil }
        return bpm
    }
}
