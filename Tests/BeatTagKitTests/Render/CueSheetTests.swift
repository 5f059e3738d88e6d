@testable import BeatTagKit
import XCTest

/// The CUE sheet beside a run.
final class CueSheetTests: XCTestCase {
    private func track(at start: Double) -> RenderTimeline.Track {
        RenderTimeline.Track(path: "/m/\(Int(start)).flac", startSeconds: start, endSeconds: start + 30, sourceStartSeconds: 0, stretch: 1,
                             beatMap: [], sourceBPM: 170, targetBPM: 170, tempoAdjustAllowed: true, segment: nil)
    }

    /// A long workout changes more often than the format numbers (01–99): a 4×4 of a small library
    /// wrote TRACK 100 to 110. The stretches of click go first, then one last entry stands for the rest.
    func testNoMoreThanNinetyNineTracks() {
        func sheet(tracks: Int, clickSegments: Int) -> String {
            let segments = (0..<clickSegments).map { RenderTimeline.Segment(name: "s\($0)", spm: 170, startSeconds: Double($0) * 100,
                                                                           endSeconds: Double($0 + 1) * 100, clickFromSeconds: Double($0) * 100 + 95) }
            var timeline = RenderTimeline(durationSeconds: Double(tracks) * 30, spm: 170, beats: 1, sampleRate: 44100, click: false,
                                          tracks: (0..<tracks).map { track(at: Double($0) * 30) })
            timeline.segments = segments
            return CueSheet.text(for: timeline, audioFile: "/out/run.flac", titles: [], performers: [])
        }
        func numbers(_ text: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix("  TRACK ") }.map { String($0.split(separator: " ")[1]) }
        }
        let fits = sheet(tracks: 90, clickSegments: 9)
        XCTAssertEqual(numbers(fits).count, 99)
        XCTAssertTrue(fits.contains("click alone"), "all of them while they fit")
        let clicksOut = sheet(tracks: 95, clickSegments: 9)
        XCTAssertEqual(numbers(clicksOut).count, 95)
        XCTAssertFalse(clicksOut.contains("click alone"))
        let capped = sheet(tracks: 120, clickSegments: 9)
        XCTAssertEqual(numbers(capped).last, "99")
        XCTAssertEqual(numbers(capped).count, 99)
        XCTAssertTrue(capped.contains("TITLE \"22 more: see the credits\"\n    INDEX 01 49:00:00"), capped)
    }
}
