@testable import BeatTagKit
import XCTest

/// The pasted weights must line up with the features each model computes: a feature added or
/// removed without a refit would silently shift every weight by one.
final class FittedModelsTests: XCTestCase {
    func testEveryModelHasOneWeightPerFeature() {
        XCTAssertEqual(FamilyDecision.model.weights.count, FamilyDecision.featureNames.count)
        XCTAssertEqual(OctaveDecision.model.weights.count, OctaveDecision.featureNames.count)
        XCTAssertEqual(BeatPhase.model.weights.count, BeatPhase.featureNames.count)
        XCTAssertEqual(ConfidenceEvidence.model.weights.count, ConfidenceEvidence.featureNames.count)
    }

    func testEveryModelComputesItsNamedFeatures() {
        let n = 2000
        let x = (0..<n).map { Float($0 % 50 == 0 ? 4 : 0) }
        let curves = OnsetCurves(frameRate: 100, all: x)
        let beats = stride(from: 0.0, to: Double(n), by: 50).map { FramePosition($0) }
        let slow = OctaveDecision.LevelEvidence(bpm: 60, beats: stride(from: 0.0, to: Double(n), by: 100).map { FramePosition($0) }, salience: 1, onBeat: 2)
        let fast = OctaveDecision.LevelEvidence(bpm: 120, beats: beats, salience: 1, onBeat: 2)
        XCTAssertEqual(OctaveDecision.features(slow: slow, fast: fast, curves: curves).count, OctaveDecision.featureNames.count)
        XCTAssertEqual(BeatPhase.features(beats: beats, curves: curves).count, BeatPhase.featureNames.count)
        XCTAssertEqual(FamilyDecision.features(bpm: 120, frameRate: 100, periodicity: Periodicity(curves)) { _ in 1 }.count,
                       FamilyDecision.featureNames.count)
        let evidence = ConfidenceEvidence(octaveProbability: 0.9, clarity: 3, familyMargin: 2, bpm: 120)
        XCTAssertEqual(evidence.features.count, ConfidenceEvidence.featureNames.count)
    }

    func testLogisticModelIsTheSigmoidOfTheWeightedSum() {
        let model = LogisticModel(weights: [2, -1], bias: 0.5)
        XCTAssertEqual(model.logit([1, 3]), -0.5, accuracy: 1e-12)
        XCTAssertEqual(model.probability([1, 3]), 1 / (1 + exp(0.5)), accuracy: 1e-12)
    }
}
