import BeatTagKit
import XCTest

final class BeatListScalingTests: XCTestCase {
    /// A drifting beat list: each interval a little longer than the one before.
    private let beats: [Double] = (0..<9).reduce(into: [0.5]) { list, i in list.append(list.last! + 0.5 + 0.01 * Double(i)) }

    func testTheLevelIsTheSimpleRatioWithinFourPercent() {
        XCTAssertTrue(BeatListScaling.level(from: 87.5, to: 175).map { $0 == (2, 1) } ?? false)
        XCTAssertTrue(BeatListScaling.level(from: 174, to: 87).map { $0 == (1, 2) } ?? false)
        XCTAssertTrue(BeatListScaling.level(from: 120, to: 180).map { $0 == (3, 2) } ?? false)
        XCTAssertTrue(BeatListScaling.level(from: 120, to: 123.5).map { $0 == (1, 1) } ?? false, "a tapped tempo a little off is the same level")
        XCTAssertNil(BeatListScaling.level(from: 120, to: 150), "5:4 is no level: the stored beats do not hold")
    }

    func testDoublingPutsABeatHalfwayBetweenEachTwo() {
        let doubled = BeatListScaling.rescaled(beats, to: (2, 1))
        XCTAssertEqual(doubled.count, 2 * beats.count - 1)
        for i in 0..<(beats.count - 1) {
            XCTAssertEqual(doubled[2 * i], beats[i])
            XCTAssertEqual(doubled[2 * i + 1], (beats[i] + beats[i + 1]) / 2, accuracy: 1e-12, "the drift is followed")
        }
    }

    func testHalvingKeepsEveryOtherAndThreeHalvesInterpolates() {
        XCTAssertEqual(BeatListScaling.rescaled(beats, to: (1, 2)), stride(from: 0, to: beats.count, by: 2).map { beats[$0] })
        let threeHalves = BeatListScaling.rescaled(beats, to: (3, 2))
        XCTAssertEqual(threeHalves[0], beats[0])
        XCTAssertEqual(threeHalves[1], beats[0] + (beats[1] - beats[0]) * 2 / 3, accuracy: 1e-12)
        XCTAssertEqual(threeHalves[3], beats[2], "every third new beat is an old one")
        XCTAssertEqual(BeatListScaling.rescaled(beats, to: (1, 1)), beats)
    }

    func testTheRecordGivesTheBeatsAtTheTempoInUse() {
        var record = TrackRecord(path: "/x.flac", fileSize: 1, modifiedAt: 0, now: 0)
        record.beatTimes = beats
        record.bpmAnalysed = 116
        record.bpm = 116
        let stored = record.beatTimes  // as the catalog keeps them (32-bit)
        XCTAssertEqual(record.beatsInUse, stored)
        record.bpm = 232
        XCTAssertEqual(record.beatsInUse.count, 2 * beats.count - 1)
        record.bpm = 145  // 5:4
        XCTAssertEqual(record.beatsInUse, [], "no simple multiple: no grid vouched for")
        record.bpmAnalysed = nil
        XCTAssertEqual(record.beatsInUse, stored, "nothing to compare with: the stored list")
    }
}
