@testable import BeatTagKit
import XCTest

final class TempoPriorTests: XCTestCase {
    func testSharesAddUpAndMostMusicIsBelowTheRunningRange() {
        let prior = TempoPrior.library
        XCTAssertEqual(prior.buckets.map(\.share).reduce(0, +), 1, accuracy: 1e-12)
        XCTAssertGreaterThan(prior.share(of: 120), prior.share(of: 175))
        XCTAssertGreaterThan(prior.share(of: 90) + prior.share(of: 120), 0.75, "four songs in five below 140")
    }

    func testBucketsAreHalfOpenAndTheLastIsUnbounded() {
        let prior = TempoPrior.library
        XCTAssertEqual(prior.bucket(of: 99.99), 0)
        XCTAssertEqual(prior.bucket(of: 100), 1)
        XCTAssertEqual(prior.bucket(of: 140), 2)
        XCTAssertEqual(prior.bucket(of: 40), 0)
        XCTAssertEqual(prior.bucket(of: 260), prior.buckets.count - 1)
    }
}
