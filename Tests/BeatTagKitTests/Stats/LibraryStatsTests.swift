@testable import BeatTagKit
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

final class LibraryStatsTests: XCTestCase {
    private func catalog(_ tracks: [TrackRecord]) throws -> Catalog {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        for track in tracks { _ = try catalog.saveScanResult(track) }
        return catalog
    }

    /// Stats count what `match` would offer: the same rule, the same duplicates rule, on the fixtures.
    func testUsableCountsAgreeWithTheMatcher() throws {
        let library = try copyOfFixtures(self)
        try FileManager.default.copyItem(atPath: (library as NSString).appendingPathComponent("dnb-174.ogg"),
                                         toPath: (library as NSString).appendingPathComponent("dnb-174 copy.ogg"))
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("f.sqlite"))
        _ = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [library])).run()
        var filter = MatchFilter()
        filter.excludedKeywords = []
        func agree(_ note: String) throws -> Int {
            let stats = try LibraryStats(catalog: catalog)
            for cadence in stats.cadences {
                let matched = try catalog.cadenceMatches(CadenceRules(spm: cadence.spm), filter: filter).matches
                XCTAssertEqual(cadence.usable, matched.count, "at \(cadence.spm) SPM, \(note)")
            }
            return stats.cadences.map(\.usable).reduce(0, +)
        }
        let before = try agree("as scanned")
        XCTAssertGreaterThan(before, 0)
        // A disliked track never matches, so it is not counted usable either (an audit: it was).
        _ = try Rating.set(.disliked, for: (library as NSString).appendingPathComponent("cc0/punk-180.mp3"), in: catalog)
        XCTAssertLessThan(try agree("one disliked"), before)
        // A tap 3% off the analysed beats is matched at the beats' tempo, and counted there (a track
        // without copies: the rock has one, odd/truncated.m4a).
        let rock = (library as NSString).appendingPathComponent("metal-168.aiff")
        let analysed = try XCTUnwrap(try catalog.track(path: rock)?.bpmAnalysed)
        _ = try ManualBPM.apply(.set((analysed * 1.033 * 10).rounded() / 10), to: rock, in: catalog)
        _ = try agree("a tap off its beats")
        // Copies with hand BPMs of their own are one recording, counted once where either fits (it
        // was counted at each), and one tapped copy takes the other along.
        let dnb = ["dnb-174.ogg", "dnb-174 copy.ogg"].map { (library as NSString).appendingPathComponent($0) }
        _ = try ManualBPM.apply(.set(172), to: dnb[0], in: catalog)
        let once = try agree("a tapped copy")
        _ = try ManualBPM.apply(.set(177), to: dnb[1], in: catalog)
        XCTAssertEqual(try agree("copies tapped apart"), once)
        _ = try ManualBPM.apply(.set(87), to: dnb[1], in: catalog)
        _ = try agree("one copy tapped at the half")
    }

    func testBucketsCadencesAndCounts() throws {
        func t(_ bpm: Double?, state: TrackState = .analysed, adjust: Bool = true, copyOf: String? = nil) -> TrackRecord {
            var r = TrackRecord(path: "/m/\(UUID().uuidString)", fileSize: 1, modifiedAt: 0, now: 0)
            r.state = state; r.bpm = bpm; r.tempoAdjustAllowed = adjust; r.confidence = 0.9; r.bpmSource = bpm == nil ? nil : .analysis
            r.waveformAnalysed = state == .analysed
            r.audioHash = copyOf
            if state == .metadataOnly { r.metadataOnlyReason = "AAC" }
            return r
        }
        let tracks = [t(142), t(144.9), t(145), t(200), t(175, adjust: false), t(90), t(nil, state: .metadataOnly),
                      t(nil, state: .failed), t(170, state: .missing), t(152, copyOf: "same"), t(152, copyOf: "same")]
        let stats = try LibraryStats(catalog: try catalog(tracks))
        XCTAssertEqual(stats.buckets.count, 12)
        XCTAssertEqual(stats.buckets[0].tracks, 2)
        XCTAssertEqual(stats.buckets[2].tracks, 2, "both copies are in the library")
        XCTAssertEqual(stats.buckets[1].tracks, 1)
        XCTAssertEqual(stats.buckets[11].tracks, 1, "200 belongs to the last bucket")
        XCTAssertEqual(stats.buckets[7].tracks, 1)
        XCTAssertEqual(stats.metadataOnlyWithoutBPM, 1)
        XCTAssertEqual(stats.failed, 1)
        XCTAssertEqual(stats.missing, 1)
        let at175 = try XCTUnwrap(stats.cadences.first { $0.spm == 175 })
        XCTAssertEqual(at175.usable, 1, "only the ND track at exactly 175; 200 is -12.5%")
        let at150 = try XCTUnwrap(stats.cadences.first { $0.spm == 150 })
        XCTAssertEqual(at150.usable, 4, "142, 144.9, 145 and the two identical copies at 152 once; the ND 175 and 200 are too far")
        XCTAssertEqual(stats.cadences.first { $0.spm == 160 }?.usable, 1, "the copies at 152 once; 145 is +10.3%, the ND 175 may not change")

        // The chart counts every present track with a BPM, as "below" and "above" do: a disliked
        // track is charted (it dropped out of the chart, while "below 140" still counted one).
        var disliked = [t(157), t(80)]
        for i in disliked.indices { disliked[i].rating = .disliked }
        let withDisliked = try LibraryStats(catalog: try catalog(disliked))
        XCTAssertEqual(withDisliked.buckets.map(\.tracks).reduce(0, +) + withDisliked.belowRange + withDisliked.aboveRange, withDisliked.withBPM)
        XCTAssertEqual(withDisliked.buckets[3].tracks, 1)
        XCTAssertEqual(withDisliked.cadences.map(\.usable).reduce(0, +), 0, "nothing disliked is usable")
    }

    func testSVGIsWellFormed() throws {
        var r = TrackRecord(path: "/m/a", fileSize: 1, modifiedAt: 0, now: 0)
        r.state = .analysed; r.bpm = 171
        let svg = try LibraryStats(catalog: try catalog([r])).svg()
        let parser = XMLParser(data: Data(svg.utf8))
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertEqual(svg.components(separatedBy: "<rect ").count - 1, 13, "background + 12 bars")
    }
}
