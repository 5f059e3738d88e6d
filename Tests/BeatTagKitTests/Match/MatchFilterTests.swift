@testable import BeatTagKit
import XCTest

final class MatchFilterTests: XCTestCase {
    private func track(_ title: String, bpm: Double = 175, genre: String? = nil, artist: String? = nil, album: String? = nil,
                       confidence: Double = 0.8, source: SourceType = .userOwned, manual: Bool = false) -> TrackRecord {
        var r = TrackRecord(path: "/m/\(title).ogg", fileSize: 1, modifiedAt: 0, now: 0)
        r.state = .analysed
        r.title = title; r.genre = genre; r.artist = artist; r.album = album
        r.confidence = confidence; r.sourceType = source
        if manual { r.bpmManual = bpm } else { r.bpmAnalysed = bpm }
        r.chooseBPM()
        return r
    }

    private func titles(_ tracks: [TrackRecord], _ filter: MatchFilter, spm: Double = 175) -> [String] {
        CadenceMatcher.match(tracks, rules: CadenceRules(spm: spm), filter: filter).matches.compactMap(\.track.title)
    }

    func testGenreIncludeExcludeCaseInsensitive() {
        let tracks = [track("a", genre: "Drum & Bass"), track("b", genre: "Punk Rock"), track("c", genre: "Pop"), track("d")]
        var f = MatchFilter()
        f.includeGenres = ["drum", "PUNK"]
        XCTAssertEqual(Set(titles(tracks, f)), ["a", "b"])
        f = MatchFilter()
        f.excludeGenres = ["pop"]
        XCTAssertEqual(Set(titles(tracks, f)), ["a", "b", "d"], "a track without a genre is not excluded by a genre")
    }

    func testArtistAndGenreIgnoreAccents() {
        let tracks = [track("a", genre: "Électro", artist: "Björk"), track("b", genre: "Rock", artist: "Bjorn Again")]
        var f = MatchFilter()
        f.artists = ["bjork"]
        XCTAssertEqual(titles(tracks, f), ["a"])
        f = MatchFilter()
        f.includeGenres = ["electro"]
        XCTAssertEqual(titles(tracks, f), ["a"])
    }

    func testArtistConfidenceAndRightsFilters() {
        let tracks = [track("a", artist: "The Prodigy", confidence: 0.3), track("b", artist: "Other", confidence: 0.9, source: .cc0),
                      track("c", confidence: 0.1, manual: true)]
        var f = MatchFilter()
        f.artists = ["prodigy"]
        XCTAssertEqual(titles(tracks, f), ["a"])
        f = MatchFilter()
        f.minConfidence = 0.5
        XCTAssertEqual(Set(titles(tracks, f)), ["b", "c"], "a hand-set BPM needs no analysis confidence")
        f = MatchFilter()
        f.sources = [.cc0]
        XCTAssertEqual(titles(tracks, f), ["b"])
    }

    func testDefaultWorkoutKeywordsAreWholeWordsAndCanBeTurnedOff() {
        let tracks = [track("Sleep Well"), track("Asleep at the Wheel"), track("Run", album: "Christmas Hits"), track("Go")]
        XCTAssertEqual(Set(titles(tracks, MatchFilter())), ["Asleep at the Wheel", "Go"])
        var off = MatchFilter()
        off.excludedKeywords = []
        XCTAssertEqual(titles(tracks, off).count, 4)
        let result = CadenceMatcher.match(tracks, rules: CadenceRules(spm: 175))
        XCTAssertEqual(result.filtered[.keyword], 2)
    }

    func testHalfTimeOnlyWhenAskedAndLabelled() throws {
        let tracks = [track("slow", bpm: 88), track("exact", bpm: 176)]
        XCTAssertEqual(titles(tracks, MatchFilter(), spm: 176), ["exact"])
        let result = CadenceMatcher.match(tracks, rules: CadenceRules(spm: 176, allowHalfTime: true))
        XCTAssertEqual(result.matches.map { $0.track.title ?? "" }, ["exact", "slow"], "1:1 before half-time at equal change")
        let half = try XCTUnwrap(result.matches.last)
        XCTAssertTrue(half.halfTime)
        XCTAssertEqual(half.adjustedBPM, 88, accuracy: 1e-9)
        XCTAssertEqual(half.shiftPercent, 0, accuracy: 1e-9)
    }

    func testNearestTemposExplainAnEmptyResult() {
        let result = CadenceMatcher.match([track("a", bpm: 120), track("b", bpm: 140), track("c", bpm: 100)], rules: CadenceRules(spm: 175))
        XCTAssertTrue(result.matches.isEmpty)
        XCTAssertEqual(result.nearest, [140, 120, 100])
        XCTAssertEqual(result.rejected[.tooFar], 3)
    }
}
