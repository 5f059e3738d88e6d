import BeatTagKit
import XCTest

/// The Mixxx rule: a catalog keeps each track's analysis with the version that made it, and a scan
/// re-analyses only rows of another version. So any change to what the analysis outputs must bump
/// `AnalysisResult.currentVersion`, or old catalogs silently keep stale tempi. This test stores, for
/// a few fixtures, what the catalog keeps: tempo, runner-up octave and its probability, confidence,
/// the beat count and grid, the first beats, and whether the analysis moved the tracker's beats half a
/// beat; when that changes and the version does not, it fails.
final class AnalysisSnapshotTests: XCTestCase {
    struct Snapshot: Equatable, CustomStringConvertible {
        var file: String
        var bpm: Double
        var alternative: Double?
        var alternativeScore: Double?
        var confidence: Double
        var beatCount: Int
        /// The fitted grid's tempo (0.01 BPM) and first beat (ms), and its steadiness (0.001).
        var gridBPM: Double
        var gridOffset: Double
        var steadiness: Double
        /// The first eight beats, seconds.
        var beats: [Double]
        var phaseMoved: Bool

        var description: String {
            func number(_ x: Double?) -> String { x.map { "\($0)" } ?? "nil" }
            return "Snapshot(file: \"\(file)\", bpm: \(bpm), alternative: \(number(alternative)), "
                + "alternativeScore: \(number(alternativeScore)), confidence: \(confidence), beatCount: \(beatCount), "
                + "gridBPM: \(gridBPM), gridOffset: \(gridOffset), steadiness: \(steadiness), beats: \(beats), phaseMoved: \(phaseMoved)),"
        }

        /// Equal within what float noise across machines can move (FFTW's plans differ by CPU), far
        /// below what any change to the analysis moves.
        func matches(_ other: Snapshot) -> Bool {
            func close(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
                switch (a, b) {
                case let (a?, b?): return abs(a - b) <= tolerance
                case (nil, nil): return true
                default: return false
                }
            }
            return file == other.file && close(bpm, other.bpm, 0.051) && close(alternative, other.alternative, 0.051)
                && close(alternativeScore, other.alternativeScore, 0.002) && close(confidence, other.confidence, 0.002)
                && beatCount == other.beatCount && close(gridBPM, other.gridBPM, 0.011) && close(gridOffset, other.gridOffset, 0.0011)
                && close(steadiness, other.steadiness, 0.002)
                && beats.count == other.beats.count && zip(beats, other.beats).allSatisfy { abs($0 - $1) <= 0.0011 }
                && phaseMoved == other.phaseMoved
        }
    }

    /// The analysis version these outputs belong to.
    static let version = 49

    static let stored: [Snapshot] = [
        Snapshot(file: "rock-150.flac", bpm: 150.0, alternative: 50.0, alternativeScore: 0.003, confidence: 0.994, beatCount: 28, gridBPM: 150.01, gridOffset: 0.888, steadiness: 0.99, beats: [0.888, 1.289, 1.689, 2.089, 2.488, 2.887, 3.287, 3.686], phaseMoved: false),
        Snapshot(file: "hiphop-90.mp3", bpm: 90.1, alternative: 179.8, alternativeScore: 0.001, confidence: 0.993, beatCount: 18, gridBPM: 90.07, gridOffset: 0.66, steadiness: 0.985, beats: [0.654, 1.329, 1.989, 2.656, 3.323, 3.995, 4.655, 5.321], phaseMoved: false),
        Snapshot(file: "dnb-174.ogg", bpm: 174.1, alternative: 58.0, alternativeScore: 0.005, confidence: 0.981, beatCount: 34, gridBPM: 174.07, gridOffset: 0.291, steadiness: 0.982, beats: [0.303, 0.641, 0.989, 1.33, 1.67, 2.008, 2.348, 2.697], phaseMoved: false),
        Snapshot(file: "house-124.opus", bpm: 124.0, alternative: 62.0, alternativeScore: 0.009, confidence: 0.99, beatCount: 20, gridBPM: 124.0, gridOffset: 0.472, steadiness: 0.99, beats: [0.472, 0.954, 1.44, 1.922, 2.408, 2.889, 3.375, 3.857], phaseMoved: false),
        Snapshot(file: "metal-168.aiff", bpm: 168.0, alternative: 56.0, alternativeScore: 0.003, confidence: 0.992, beatCount: 27, gridBPM: 167.99, gridOffset: 0.344, steadiness: 0.984, beats: [0.344, 0.703, 1.061, 1.414, 1.771, 2.13, 2.488, 2.846], phaseMoved: false),
        Snapshot(file: "odd/Ünïcødé – ритм 160.ogg", bpm: 160.0, alternative: 80.0, alternativeScore: 0.017, confidence: 0.981, beatCount: 31, gridBPM: 160.0, gridOffset: 0.363, steadiness: 0.99, beats: [0.362, 0.739, 1.112, 1.489, 1.863, 2.238, 2.612, 2.987], phaseMoved: false),
    ]

    static let files = ["rock-150.flac", "hiphop-90.mp3", "dnb-174.ogg", "house-124.opus", "metal-168.aiff", "odd/Ünïcødé – ритм 160.ogg"]

    private func analyse(_ file: String) throws -> Snapshot {
        let (_, result) = try AudioFileAnalysis.analyse(path: TestPaths.fixture(file))
        func round(_ x: Double, _ scale: Double) -> Double { (x * scale).rounded() / scale }
        return Snapshot(file: file, bpm: result.bpm.value, alternative: result.alternative.map { BPM.roundToTenth($0.bpm.value) },
                        alternativeScore: result.alternative.map { round($0.score, 1000) }, confidence: round(result.confidence, 1000),
                        beatCount: result.beats.count, gridBPM: round(result.grid?.bpm.value ?? 0, 100),
                        gridOffset: round(result.grid?.offset.value ?? 0, 1000), steadiness: round(result.grid?.steadiness ?? 0, 1000),
                        beats: result.beats.prefix(8).map { round($0.value, 1000) }, phaseMoved: result.phase.halfBeat)
    }

    func testOutputChangesOnlyWithTheAnalysisVersion() throws {
        let current = try Self.files.map(analyse)
        let changed = zip(current, Self.stored).contains { !$0.matches($1) } || current.count != Self.stored.count
        guard changed else {
            XCTAssertEqual(Self.version, AnalysisResult.currentVersion,
                           "the output is unchanged: set AnalysisSnapshotTests.version to AnalysisResult.currentVersion")
            return
        }
        let table = current.map { "        \($0)" }.joined(separator: "\n")
        if Self.version == AnalysisResult.currentVersion {
            XCTFail("""
                The analysis output changed but AnalysisResult.currentVersion is still \(AnalysisResult.currentVersion). \
                Bump it (catalogs re-analyse rows of older versions), then set AnalysisSnapshotTests.version to the \
                new number and `stored` to:
                \(table)
                """)
        } else {
            XCTFail("AnalysisResult.currentVersion is \(AnalysisResult.currentVersion): set AnalysisSnapshotTests.version to it "
                + "and `stored` to:\n\(table)")
        }
    }
}
