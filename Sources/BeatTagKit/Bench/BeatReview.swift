/// Does the review queue find the beat grids that are off the beat? Over the clips read at the
/// right tempo (Acc1) with annotated beats: how many grids are off the beat (beat F below 0.5), and
/// how many of them `untagged` lists at all (a person hears them with their click) and for their
/// beats (`UntaggedQueue.Reason.beatsMoved`); how many clips, at any tempo, it lists for their
/// beats, and how many of those are off; and the mean beat F once a person has listened to those
/// and placed a beat where the click was off (`ClipResult.fMeasureHandBeat` for them).
public struct BeatReview: Codable, Sendable {
    /// Below this beat F a grid counts as off the beat (half a beat off scores about 0).
    public static let offBeat = 0.5

    public var clipsAtRightTempo: Int
    public var offBeat: Int
    public var offBeatListed: Int
    public var offBeatListedForBeats: Int
    /// Clips listed for their beats, at any tempo, and those among them read at the right tempo and off the beat.
    public var listedForBeats: Int
    public var listedForBeatsOffBeat: Int
    /// Mean beat F over the clips with beat annotations, as analysed and after that review; nil without annotations.
    public var fMeasure: Double?
    public var fMeasureAfterReview: Double?

    public init(_ results: [TempoBenchmark.ClipResult]) {
        func reason(_ r: TempoBenchmark.ClipResult) -> UntaggedQueue.Reason? { r.queueReason(beats: true) }
        func isOffBeat(_ r: TempoBenchmark.ClipResult) -> Bool { r.isRightTempo && (r.fMeasure ?? 1) < Self.offBeat }
        let right = results.filter { $0.fMeasure != nil && $0.isRightTempo }
        let off = right.filter(isOffBeat)
        clipsAtRightTempo = right.count
        offBeat = off.count
        offBeatListed = off.filter { reason($0) != nil }.count
        offBeatListedForBeats = off.filter { reason($0) == .beatsMoved }.count
        let forBeats = results.filter { $0.estimate != nil && reason($0) == .beatsMoved }
        listedForBeats = forBeats.count
        listedForBeatsOffBeat = forBeats.filter(isOffBeat).count
        let annotated = results.filter { $0.fMeasure != nil }
        func mean(_ f: (TempoBenchmark.ClipResult) -> Double?) -> Double? {
            annotated.isEmpty ? nil : annotated.compactMap(f).reduce(0, +) / Double(annotated.count)
        }
        fMeasure = mean(\.fMeasure)
        fMeasureAfterReview = mean { reason($0) == .beatsMoved ? $0.fMeasureHandBeat ?? $0.fMeasure : $0.fMeasure }
    }
}
