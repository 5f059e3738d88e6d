@testable import BeatTagKit
import XCTest

/// Paging nearest-first must give exactly what judging the whole tempo window gives.
final class CadenceSearchTests: XCTestCase {
    func testTheBestFewAreTheMatchersBestFew() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        var generator = SplitMix64(seed: 7)
        for i in 0..<600 {
            var r = TrackRecord(path: "/m/\(i).flac", fileSize: 1, modifiedAt: 0, now: 0)
            r.state = .analysed
            r.waveformAnalysed = true
            // Whole-number tempi (a dozen tracks share each: ties at every page boundary, ranked by
            // confidence), a few no-derivatives tracks, a few identical copies.
            r.bpmAnalysed = Double(130 + generator.next() % 70)
            r.confidence = Double(generator.next() % 100) / 100
            r.tempoAdjustAllowed = generator.next() % 10 != 0
            r.audioHash = i % 50 == 0 ? "copy" : "\(i)"
            // The copies differ in source quality: the one offered may lie farther from the cadence.
            r.format = i % 100 == 0 ? "flac" : "mp3"
            // Liked tracks outrank others within their whole percent; a few disliked and missing.
            r.rating = i % 7 == 0 ? .liked : (i % 11 == 0 ? .disliked : nil)
            if i % 13 == 0 { r.state = .missing }
            // Two in three left out by the workout keywords: pages hold few matches, so several are asked for.
            r.title = i % 3 != 0 ? "Christmas \(i)" : "Song \(i)"
            r.chooseBPM()
            _ = try catalog.saveScanResult(r)
        }
        for spm in [150.0, 165, 175, 190] {
            for halfTime in [false, true] {
                let rules = CadenceRules(spm: spm, allowHalfTime: halfTime)
                let all = CadenceMatcher.match(try catalog.cadenceCandidates(rules), rules: rules, filter: MatchFilter()).matches
                for limit in [1, 5, 25, 200] {
                    let best = try CadenceSearch.best(limit, rules: rules, filter: MatchFilter(), in: catalog).matches
                    XCTAssertEqual(best.map(\.track.path), all.prefix(limit).map(\.track.path), "\(spm) SPM, half-time \(halfTime), limit \(limit)")
                }
            }
        }
    }

    /// A dense window (2,000 tracks within ±10% of the cadence, a few liked): the best five are the
    /// matcher's, read from a number of rows set by the limit, not by the window.
    func testADenseWindowIsReadAboutAsFarAsTheLimit() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        var generator = SplitMix64(seed: 11)
        for i in 0..<2000 {
            var r = TrackRecord(path: String(format: "/m/%04d.flac", i), fileSize: 1, modifiedAt: 0, now: 0)
            (r.state, r.waveformAnalysed, r.audioHash) = (.analysed, true, "\(i)")
            r.bpmAnalysed = 160 + Double(generator.next() % 3000) / 100  // 160.00-189.99
            r.confidence = 0.9
            r.rating = i % 97 == 0 ? .liked : nil
            r.chooseBPM()
            _ = try catalog.saveScanResult(r)
        }
        let rules = CadenceRules(spm: 175)
        let all = CadenceMatcher.match(try catalog.cadenceCandidates(rules), rules: rules, filter: MatchFilter()).matches
        let best = try CadenceSearch.best(5, rules: rules, filter: MatchFilter(), in: catalog)
        XCTAssertEqual(best.matches.map(\.track.path), all.prefix(5).map(\.track.path))
        XCTAssertEqual(best.inWindow, 2000)
        XCTAssertLessThanOrEqual(best.rowsRead, 4 * (5 + 16), "a page each way for the liked and the other tracks, of 2,000")
    }

    /// One big tie (every track at the same tempo): only confidence ranks them, so no page may be
    /// taken as final before the whole tie has been judged.
    func testATieAtThePageBoundaryIsJudgedWhole() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        for i in 0..<100 {
            var r = TrackRecord(path: String(format: "/m/%03d.flac", i), fileSize: 1, modifiedAt: 0, now: 0)
            (r.state, r.waveformAnalysed, r.bpmAnalysed, r.audioHash) = (.analysed, true, 172, "\(i)")
            r.confidence = Double((i * 37) % 100) / 100  // the most confident are not the first by path
            r.chooseBPM()
            _ = try catalog.saveScanResult(r)
        }
        let rules = CadenceRules(spm: 175)
        let best = try CadenceSearch.best(5, rules: rules, filter: MatchFilter(), in: catalog).matches
        XCTAssertEqual(best.compactMap(\.track.confidence), [0.99, 0.98, 0.97, 0.96, 0.95])
    }
    /// A hand or tag BPM up to 4% off the analysed beats (a tap, a rounded tag) is judged by the
    /// beats' tempo, which the render stretches: `--max-shift` held for the tap and the render
    /// then stretched further. Read through the windows or a page at a time, the matches are those
    /// of judging every track, also where the BPM in use lies outside the window and the beats in it.
    func testAHandBPMOffItsBeatsIsJudgedByTheBeats() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        var generator = SplitMix64(seed: 5)
        for i in 0..<400 {
            var r = TrackRecord(path: String(format: "/m/%03d.flac", i), fileSize: 1, modifiedAt: 0, now: 0)
            (r.state, r.waveformAnalysed, r.audioHash) = (.analysed, true, "\(i)")
            r.bpmAnalysed = 130 + Double(generator.next() % 8000) / 100
            r.confidence = Double(generator.next() % 100) / 100
            r.tempoAdjustAllowed = generator.next() % 8 != 0
            let off = 1 + (Double(generator.next() % 780) - 390) / 10000  // within ±3.9%
            switch i % 4 {
            case 0: r.bpmManual = (r.bpmAnalysed! * off * 10).rounded() / 10
            case 1: (r.bpmTag, r.confidence) = ((r.bpmAnalysed! * 2 * off).rounded(), 0.3)  // a tag settles the octave
            default: break
            }
            r.chooseBPM()
            _ = try catalog.saveScanResult(r)
        }
        let everyTrack = try catalog.tracks(matching: TrackQuery())
        XCTAssertGreaterThan(everyTrack.filter { $0.bpmSource == .tag }.count, 50)
        for spm in [150.0, 165, 175, 190] {
            for (maxShift, halfTime) in [(10.0, false), (2, false), (3, true)] {
                let rules = CadenceRules(spm: spm, maxShiftPercent: maxShift, allowHalfTime: halfTime)
                let judgedWhole = CadenceMatcher.match(everyTrack, rules: rules, filter: MatchFilter()).matches
                XCTAssertEqual(try catalog.cadenceMatches(rules, filter: MatchFilter()).matches.map(\.track.path), judgedWhole.map(\.track.path))
                for limit in [1, 10, 60] {
                    let best = try CadenceSearch.best(limit, rules: rules, filter: MatchFilter(), in: catalog).matches
                    XCTAssertEqual(best.map(\.track.path), judgedWhole.prefix(limit).map(\.track.path), "\(spm) SPM ±\(maxShift)%, limit \(limit)")
                }
                for match in judgedWhole {
                    let beats = try XCTUnwrap(match.track.beatsBPM)
                    XCTAssertEqual(match.bpm, beats, accuracy: 1e-9, match.track.path)
                    XCTAssertLessThanOrEqual(abs(spm / (beats * Double(match.stepsPerBeat)) - 1) * 100, maxShift + 1e-9, match.track.path)
                }
                // Some are judged differently from their BPM in use: the case is in the test.
                if spm == 175, maxShift == 10, !halfTime {
                    XCTAssertTrue(judgedWhole.contains { abs($0.track.bpm! - $0.bpm) > 1 })
                    XCTAssertTrue(judgedWhole.contains { !rules.bpmWindow(stepsPerBeat: 1).contains($0.track.bpm!) }, "beats in the window, BPM in use outside it")
                }
            }
        }
    }
    /// A BPM set by hand on one copy of a recording holds for the others: they are matched at it,
    /// though their own BPM lies elsewhere, also when the copy that holds it is gone (the
    /// recording was offered at no cadence: read at 140, judged at 210).
    func testACopyIsFoundAtTheBPMSetOnAnother() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        for (i, (state, hand)) in [(TrackState.missing, 210.0 as Double?), (.analysed, nil), (.analysed, nil)].enumerated() {
            var r = TrackRecord(path: "/m/\(i).flac", fileSize: 1, modifiedAt: 0, now: 0)
            (r.state, r.waveformAnalysed, r.bpmAnalysed, r.confidence, r.bpmManual) = (state, true, 140, 0.9, hand)
            (r.recording, r.audioHash) = i < 2 ? (1, "copy-\(i)") : (nil, "other")
            r.chooseBPM()
            _ = try catalog.saveScanResult(r)
        }
        let at210 = CadenceRules(spm: 210)
        XCTAssertEqual(try catalog.cadenceMatches(at210, filter: MatchFilter()).matches.map(\.track.path), ["/m/1.flac"])
        XCTAssertEqual(try CadenceSearch.best(5, rules: at210, filter: MatchFilter(), in: catalog).matches.map(\.track.path), ["/m/1.flac"])
        XCTAssertEqual(try catalog.cadenceMatches(CadenceRules(spm: 140), filter: MatchFilter()).matches.map(\.track.path), ["/m/2.flac"])
    }
}
