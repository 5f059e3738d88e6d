@testable import BeatTagKit
import Foundation
import XCTest

/// The change has one definition (`CadenceRules.ratio`): the judge's `shiftPercent` and the
/// distance `CadenceSearch` walks by must agree, and the distance must grow outward from the target
/// tempo on both sides, or the walk would not read nearest first.
final class CadenceRulesTests: XCTestCase {
    func testTheWalksDistanceIsTheJudgesAndGrowsOutward() throws {
        for spm in [120.0, 175, 190] {
            for halfTime in [false, true] {
                let rules = CadenceRules(spm: spm, allowHalfTime: halfTime)
                for steps in rules.stepCounts {
                    let target = spm / Double(steps)
                    let up = stride(from: target, through: target * 1.12, by: 0.05).map { rules.distance(bpm: $0, stepsPerBeat: steps) }
                    let down = stride(from: target, through: target * 0.88, by: -0.05).map { rules.distance(bpm: $0, stepsPerBeat: steps) }
                    XCTAssertEqual(up, up.sorted(), "\(spm) SPM, \(steps) steps a beat, upward")
                    XCTAssertEqual(down, down.sorted(), "\(spm) SPM, \(steps) steps a beat, downward")
                }
                for bpm in [60.0, 87.5, 88.1, 120, 158.3, 159.1, 170, 175, 176.4, 192.5] {
                    guard case let .fits(steps, _, shift) = rules.fit(bpm: bpm, tempoAdjustAllowed: true) else { continue }
                    XCTAssertEqual(abs(shift) / 100, rules.distance(bpm: bpm, stepsPerBeat: steps), accuracy: 1e-12, "\(spm) SPM, \(bpm) BPM")
                    XCTAssertEqual(rules.distance(bpm: bpm, stepsPerBeat: steps), rules.stepCounts.map { rules.distance(bpm: bpm, stepsPerBeat: $0) }.min()!,
                                   accuracy: 1e-12, "the fit takes the nearer step count")
                }
            }
        }
    }

    func testNoDerivativesPlaysOnlyWithinHalfAPercentEverywhere() {
        let rules = CadenceRules(spm: 175)
        XCTAssertEqual(CadenceRules.unstretchedTolerance, 0.005)
        if case .fits = rules.fit(bpm: 174.2, tempoAdjustAllowed: false) {} else { XCTFail("0.46% off fits unchanged") }
        XCTAssertEqual(rules.fit(bpm: 173.5, tempoAdjustAllowed: false), .rightsForbidChange, "0.86% off: not without a change")
        if case .fits = rules.fit(bpm: 173.5, tempoAdjustAllowed: true) {} else { XCTFail("0.86% off fits with a change") }
    }
}
