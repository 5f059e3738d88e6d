@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// The learned probability of a beat per onset frame (`BeatActivation`), on rendered drum patterns
/// run through the analysis's own front end.
final class BeatActivationTests: XCTestCase {
    private let rate = 22050

    /// The onset curves the analysis reads from a rendered pattern, its result and its beat times.
    private func analysed(_ pattern: DrumSynth.Pattern, bpm: Double, seconds: Double = 20,
                          leadIn: Double = 0) throws -> (OnsetCurves, AnalysisResult, [Double]) {
        var synth = DrumSynth(sampleRate: rate, bpm: bpm, pattern: pattern, seconds: seconds)
        synth.leadIn = leadIn
        let audio = synth.render()
        let analyzer = TrackAnalyzer(sampleRate: rate)
        audio.withUnsafeBufferPointer { analyzer.process($0) }
        var seen: OnsetCurves?
        let result = try analyzer.finish(inspect: { seen = $0 })
        return (try XCTUnwrap(seen), result, synth.beatTimes)
    }

    /// Mean of the largest probability within two frames of each time.
    private func meanPeak(_ p: [Float], at times: [Double], _ curves: OnsetCurves) -> Double {
        let peaks = times.compactMap { Novelty.peak(p, around: curves.frame(at: Seconds($0)), radius: 2) }
        return peaks.reduce(0, +) / Double(max(1, peaks.count))
    }

    /// A backbeat with eighth-note hats: every beat carries a kick or a snare, every "and" a hat.
    /// The beats must read as likelier beats than the "and"s, and clearly so.
    func testTheBeatsOfABackbeatAreLikelierThanItsAnds() throws {
        for bpm in [96.0, 128, 172] {
            let (curves, _, beats) = try analysed(.backbeat, bpm: bpm)
            let p = try XCTUnwrap(BeatActivation.probabilities(curves))
            XCTAssertEqual(p.count, curves.body.count)
            let ands = zip(beats, beats.dropFirst()).map { ($0 + $1) / 2 }
            let onBeats = meanPeak(p, at: beats, curves), onAnds = meanPeak(p, at: ands, curves)
            XCTAssertGreaterThan(onBeats, onAnds + 0.1, "\(bpm) BPM: beats \(onBeats), ands \(onAnds)")
        }
    }

    /// Where nothing sounds, no frame is likelier than another: the curve the grid is tracked on is
    /// zero in the silence before the first hit, and no beat is placed there.
    func testTheTrackingCurveIsFlatInLeadingSilence() throws {
        let (curves, result, _) = try analysed(.backbeat, bpm: 120, seconds: 16, leadIn: 2)
        XCTAssertEqual(curves.beat.prefix(Int(1.9 * curves.frameRate)).max(), 0)
        XCTAssertGreaterThan(curves.beat.max() ?? 0, 1)
        XCTAssertGreaterThanOrEqual(result.beats.first?.value ?? 0, 1.95, "no beats in the leading silence")
    }

    func testEveryFrameHasEveryNamedFeature() throws {
        let (curves, _, _) = try analysed(.fourOnTheFloor, bpm: 124, seconds: 6)
        let rows = try XCTUnwrap(BeatActivation.features(curves))
        XCTAssertEqual(rows.count, curves.body.count)
        XCTAssertTrue(rows.allSatisfy { $0.count == BeatActivation.featureNames.count })
        XCTAssertEqual(Set(BeatActivation.featureNames).count, BeatActivation.featureNames.count, "names are unique")
    }

    /// Curves given directly have no band levels: nothing to read, and the grid is tracked on the
    /// body curve as before.
    func testWithoutBandLevelsTheGridIsTrackedOnTheBody() {
        let x = (0..<1000).map { Float($0 % 50 == 0 ? 4 : 0) }
        let curves = OnsetCurves(frameRate: 100, all: x, body: x.map { $0 / 2 })
        XCTAssertNil(BeatActivation.features(curves))
        XCTAssertNil(BeatActivation.probabilities(curves))
        XCTAssertEqual(BeatActivation.trackingCurve(curves, soundStart: 10), curves.body)
        XCTAssertEqual(curves.beat, curves.body)
    }
}
