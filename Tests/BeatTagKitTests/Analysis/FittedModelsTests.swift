@testable import BeatTagKit
import XCTest

/// Each fitted model carries the names of the features it was fitted on; the analysis checks them
/// against the features its code computes, by name: a feature added, removed or moved without a
/// refit would otherwise shift or drop weights without a sound.
final class FittedModelsTests: XCTestCase {
    func testEveryModelWasFittedOnTheFeaturesItsCodeComputes() throws {
        let checks: [(String, [String], () throws -> Void)] = [
            ("FamilyDecision", FamilyDecision.featureNames, { _ = try FamilyDecision.fitted.reading(FamilyDecision.featureNames, as: "FamilyDecision") }),
            ("OctaveDecision", OctaveDecision.featureNames, { _ = try OctaveDecision.fitted.reading(OctaveDecision.featureNames, as: "OctaveDecision") }),
            ("TripleDecision", TripleDecision.featureNames, { _ = try TripleDecision.fitted.reading(TripleDecision.featureNames, as: "TripleDecision") }),
            ("HemiolaDecision", HemiolaDecision.featureNames, { _ = try HemiolaDecision.fitted.reading(HemiolaDecision.featureNames, as: "HemiolaDecision") }),
            ("BeatPhase", BeatPhase.featureNames, { _ = try BeatPhase.fitted.reading(BeatPhase.featureNames, as: "BeatPhase") }),
            ("SixteenthShift", SixteenthShift.featureNames, { _ = try SixteenthShift.fitted.reading(SixteenthShift.featureNames, as: "SixteenthShift") }),
            ("ConfidenceEvidence", ConfidenceEvidence.featureNames, { _ = try ConfidenceEvidence.fitted.reading(ConfidenceEvidence.featureNames, as: "ConfidenceEvidence") }),
            ("BeatActivation", BeatActivation.featureNames, { _ = try BeatActivation.fitted.reading(BeatActivation.featureNames, as: "BeatActivation") }),
        ]
        for (owner, names, check) in checks {
            XCTAssertFalse(names.isEmpty, owner)
            XCTAssertNoThrow(try check(), owner)
        }
        // The blended models' two halves were fitted on the same features.
        XCTAssertEqual(OctaveDecision.fitted.trees.features, OctaveDecision.fitted.logistic.features)
    }

    /// The check fails on a deliberate mismatch: a feature added to the code, one dropped, two swapped.
    func testTheFeatureCheckFailsOnAMismatch() {
        let fitted = OctaveDecision.fitted
        let names = OctaveDecision.featureNames
        func mismatch(_ computed: [String]) -> FeatureMismatch? {
            do { _ = try fitted.reading(computed, as: "OctaveDecision"); return nil } catch { return error as? FeatureMismatch }
        }
        let added = mismatch(names + ["kickOnEveryBeat"])
        XCTAssertEqual(added?.computed.last, "kickOnEveryBeat")
        XCTAssertTrue(added?.description.contains("computed but not fitted: kickOnEveryBeat") ?? false, added?.description ?? "no error")
        let dropped = mismatch(Array(names.dropLast()))
        XCTAssertTrue(dropped?.description.contains("fitted but not computed: \(names.last!)") ?? false, dropped?.description ?? "no error")
        var swapped = names
        swapped.swapAt(0, 1)
        XCTAssertTrue(mismatch(swapped)?.description.contains("another order") ?? false)
        // A logistic model built on other names than the code computes is refused the same way.
        let renamed = LogisticModel(features: ["a", "b"], weights: [1, 2], bias: 0)
        XCTAssertThrowsError(try renamed.reading(["a", "c"], as: "test"))
        XCTAssertNoThrow(try renamed.reading(["a", "b"], as: "test"))
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
        let model = LogisticModel(features: ["x", "y"], weights: [2, -1], bias: 0.5)
        XCTAssertEqual(model.logit([1, 3]), -0.5, accuracy: 1e-12)
        XCTAssertEqual(model.probability([1, 3]), 1 / (1 + exp(0.5)), accuracy: 1e-12)
    }

    /// Two trees by hand: a stump on feature 1, and a depth-2 tree on features 0 then 1.
    func testBoostedTreesAddOneLeafPerTreeToTheBias() {
        let trees = BoostedTrees(
            features: ["x", "y"], bias: 0.25, roots: [0, 3],
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

        let blend = BlendedModel(logistic: LogisticModel(features: ["x", "y"], weights: [1, 1], bias: 0), trees: trees)
        XCTAssertEqual(blend.logit([3, 0]), (3 + 1.25) / 2, accuracy: 1e-12)
        XCTAssertEqual(blend.probability([3, 0]), 1 / (1 + exp(-2.125)), accuracy: 1e-12)
    }
}
