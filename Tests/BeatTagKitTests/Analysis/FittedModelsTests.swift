@testable import BeatTagKit
import XCTest

/// The pasted weights must line up with the features each model computes: a feature added or
/// removed without a refit would silently shift every weight by one.
final class FittedModelsTests: XCTestCase {
    func testEveryModelHasOneWeightPerFeature() {
        XCTAssertEqual(FamilyDecision.model.logistic.weights.count, FamilyDecision.featureNames.count)
        XCTAssertEqual(FamilyDecision.model.trees.featureCount, FamilyDecision.featureNames.count)
        XCTAssertEqual(OctaveDecision.model.logistic.weights.count, OctaveDecision.featureNames.count)
        XCTAssertEqual(OctaveDecision.model.trees.featureCount, OctaveDecision.featureNames.count)
        XCTAssertEqual(TripleDecision.model.logistic.weights.count, TripleDecision.featureNames.count)
        XCTAssertEqual(TripleDecision.model.trees.featureCount, TripleDecision.featureNames.count)
        XCTAssertEqual(HemiolaDecision.model.logistic.weights.count, HemiolaDecision.featureNames.count)
        XCTAssertEqual(HemiolaDecision.model.trees.featureCount, HemiolaDecision.featureNames.count)
        XCTAssertEqual(BeatPhase.model.logistic.weights.count, BeatPhase.featureNames.count)
        XCTAssertEqual(BeatPhase.model.trees.featureCount, BeatPhase.featureNames.count)
        XCTAssertEqual(SixteenthShift.model.weights.count, SixteenthShift.featureNames.count)
        XCTAssertEqual(ConfidenceEvidence.model.weights.count, ConfidenceEvidence.featureNames.count)
    }

    func testEveryModelComputesItsNamedFeatures() {
        let n = 2000
        let x = (0..<n).map { Float($0 % 50 == 0 ? 4 : 0) }
        let curves = OnsetCurves(frameRate: 100, all: x)
        let beats = curves.grid(every: 50)
        let slow = OctaveDecision.LevelEvidence(bpm: 60, beats: curves.grid(every: 100), salience: 1, onBeat: 2)
        let fast = OctaveDecision.LevelEvidence(bpm: 120, beats: beats, salience: 1, onBeat: 2)
        XCTAssertEqual(OctaveDecision.features(slow: slow, fast: fast, curves: curves).count, OctaveDecision.featureNames.count)
        XCTAssertEqual(TripleDecision.features(slow: slow, fast: fast, curves: curves).count, TripleDecision.featureNames.count)
        XCTAssertEqual(HemiolaDecision.features(slow: slow, fast: fast, curves: curves).count, HemiolaDecision.featureNames.count)
        XCTAssertEqual(BeatPhase.features(beats: beats, curves: curves).count, BeatPhase.featureNames.count)
        XCTAssertEqual(SixteenthShift.features(beats: beats, curves: curves, fraction: 0.25).count, SixteenthShift.featureNames.count)
        XCTAssertEqual(FamilyDecision.features(bpm: 120, frameRate: 100, periodicity: Periodicity(curves),
                                               relativeSalience: { _ in 1 }, pitchSalience: { _ in 1 }).count,
                       FamilyDecision.featureNames.count)
        let evidence = ConfidenceEvidence(octaveProbability: 0.9, clarity: 3, familyMargin: 2, bpm: 120)
        XCTAssertEqual(evidence.features.count, ConfidenceEvidence.featureNames.count)
    }

    func testLogisticModelIsTheSigmoidOfTheWeightedSum() {
        let model = LogisticModel(weights: [2, -1], bias: 0.5)
        XCTAssertEqual(model.logit([1, 3]), -0.5, accuracy: 1e-12)
        XCTAssertEqual(model.probability([1, 3]), 1 / (1 + exp(0.5)), accuracy: 1e-12)
    }

    /// Two trees by hand: a stump on feature 1, and a depth-2 tree on features 0 then 1.
    func testBoostedTreesAddOneLeafPerTreeToTheBias() {
        let trees = BoostedTrees(
            featureCount: 2, bias: 0.25, roots: [0, 3],
            feature: [1, -1, -1, 0, 1, -1, -1, -1],
            threshold: [0.5, 0, 0, 2, 1, 0, 0, 0],
            left: [1, -1, -1, 4, 5, -1, -1, -1],
            right: [2, -1, -1, 7, 6, -1, -1, -1],
            value: [0, -1, 1, 0, 0, 0.5, -0.5, 2])
        XCTAssertEqual(trees.logit([0, 0]), 0.25 - 1 + 0.5, accuracy: 1e-12)
        XCTAssertEqual(trees.logit([0, 0.7]), 0.25 + 1 + 0.5, accuracy: 1e-12)
        XCTAssertEqual(trees.logit([0, 1.5]), 0.25 + 1 - 0.5, accuracy: 1e-12)
        XCTAssertEqual(trees.logit([3, 0]), 0.25 - 1 + 2, accuracy: 1e-12)
        // A feature exactly on a threshold goes left, as in the fit.
        XCTAssertEqual(trees.logit([2, 0.5]), 0.25 - 1 + 0.5, accuracy: 1e-12)
        XCTAssertEqual(trees.probability([3, 0]), 1 / (1 + exp(-1.25)), accuracy: 1e-12)

        let blend = BlendedModel(logistic: LogisticModel(weights: [1, 1], bias: 0), trees: trees)
        XCTAssertEqual(blend.logit([3, 0]), (3 + 1.25) / 2, accuracy: 1e-12)
        XCTAssertEqual(blend.probability([3, 0]), 1 / (1 + exp(-2.125)), accuracy: 1e-12)
    }
}
