@testable import BeatTagKit
import Foundation
import GRDB
import XCTest

/// The cadence distance has one definition (`CadenceRules.ratio`); its SQL form, which orders the
/// catalog's candidates, must agree with the Swift judge value for value.
final class CadenceRulesTests: XCTestCase {
    func testTheSQLDistanceIsTheSwiftDistance() throws {
        let db = try DatabaseQueue()
        let bpms = [60.0, 87.5, 88.1, 120, 158.3, 159.1, 170, 175, 176.4, 192.5, 240]
        for spm in [120.0, 175, 190] {
            for halfTime in [false, true] {
                let rules = CadenceRules(spm: spm, allowHalfTime: halfTime)
                let (sql, arguments) = rules.distanceSQL
                for bpm in bpms {
                    // The expression's placeholders come first in the text, the row's BPM last.
                    let value = try db.read { db in
                        try Double.fetchOne(db, sql: "SELECT \(sql) FROM (SELECT ? AS bpm)", arguments: StatementArguments(arguments + [bpm]))
                    }
                    XCTAssertEqual(try XCTUnwrap(value), rules.distance(bpm: bpm), accuracy: 1e-12, "\(spm) SPM, half-time \(halfTime), \(bpm) BPM")
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
