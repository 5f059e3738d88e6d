@testable import BeatTagKit
import XCTest

/// The credits beside a rendered run: every track credited once with its licence and changes, and
/// the licences' terms said for the mix as a whole.
final class RunCreditsTests: XCTestCase {
    private func record(_ path: String, _ source: SourceType, title: String, artist: String, license: String? = nil,
                        attribution: String? = nil, url: String? = nil) -> TrackRecord {
        var record = TrackRecord(path: path, fileSize: 1, modifiedAt: 0, now: 0)
        (record.sourceType, record.title, record.artist, record.license, record.attribution, record.sourceURL) =
            (source, title, artist, license, attribution, url)
        return record
    }

    private func use(_ path: String, at start: Double, from source: Double, bpm: Double, to target: Double) -> RenderTimeline.Track {
        RenderTimeline.Track(path: path, startSeconds: start, endSeconds: start + 60, sourceStartSeconds: source, stretch: bpm / target,
                             beatMap: [], sourceBPM: bpm, targetBPM: target, tempoAdjustAllowed: true, segment: nil)
    }

    func testEachTrackIsCreditedOnceWithItsLicenceSourceAndChanges() {
        let by = record("/m/a.flac", .ccBy, title: "Hill", artist: "Ann", license: "https://creativecommons.org/licenses/by/4.0/",
                        attribution: "Ann Example", url: "https://example.org/hill")
        let zero = record("/m/b.ogg", .cc0, title: "Flat", artist: "Bo")
        let timeline = RenderTimeline(durationSeconds: 180, spm: 175, beats: 525, sampleRate: 44100, click: false,
                                      tracks: [use("/m/a.flac", at: 0, from: 12, bpm: 171, to: 175), use("/m/b.ogg", at: 60, from: 0, bpm: 175, to: 175),
                                               use("/m/a.flac", at: 120, from: 72, bpm: 171, to: 175)])
        let text = RunCredits.text(for: timeline, records: [by, zero, by], audioFile: "/out/run.flac")
        XCTAssertTrue(text.hasPrefix("Credits for run.flac (3:00, made by beattag from 2 tracks)"), text)
        XCTAssertEqual(text.components(separatedBy: "Ann – Hill (a.flac)").count - 1, 1, "once, however often it plays: \(text)")
        XCTAssertTrue(text.contains("   Licence: CC BY (https://creativecommons.org/licenses/by/4.0/)"), text)
        XCTAssertTrue(text.contains("   Credit: Ann Example"), text)
        XCTAssertTrue(text.contains("   Source: https://example.org/hill"), text)
        XCTAssertTrue(text.contains("0:00–1:00, from 0:12 of the track, tempo +2.3% (171.0 → 175.0 BPM); 2:00–3:00, from 1:12"), text)
        XCTAssertTrue(text.contains("   Licence: CC0\n   Credit: Bo\n   In this run: 1:00–2:00, from 0:00 of the track, own tempo"), text)
        XCTAssertTrue(text.contains("must credit each as below"), text)
        XCTAssertEqual(RunCredits.path(besides: "/out/run.flac"), "/out/run.credits.txt")
    }

    /// A CC BY-SA track with no creator named and no licence link: the header asks to credit each
    /// and link its licence, so its entry says what is missing (it said nothing of either).
    func testACreativeCommonsTrackWithoutCreatorOrLinkSaysWhatIsMissing() {
        var anonymous = record("/m/anon.wav", .ccBySa, title: "Anon", artist: "")
        anonymous.artist = nil
        let linked = record("/m/a.flac", .ccBy, title: "Hill", artist: "Ann", license: "https://creativecommons.org/licenses/by/4.0/")
        let timeline = RenderTimeline(durationSeconds: 120, spm: 175, beats: 350, sampleRate: 44100, click: false,
                                      tracks: [use("/m/anon.wav", at: 0, from: 0, bpm: 175, to: 175), use("/m/a.flac", at: 60, from: 0, bpm: 175, to: 175)])
        let text = RunCredits.text(for: timeline, records: [anonymous, linked], audioFile: "/out/run.flac")
        XCTAssertTrue(text.contains("   Licence: CC BY-SA\n   Credit: not known (no attribution or artist given): find who made it before sharing this file\n"
                                    + "   Licence link: not given: find the licence's version and link before sharing this file\n"), text)
        XCTAssertEqual(text.components(separatedBy: "Licence link").count - 1, 1, "a track whose licence is linked needs no line: \(text)")
        XCTAssertEqual(text.components(separatedBy: "not known").count - 1, 1, text)
    }

    func testTheLicencesTermsForTheWholeMix() {
        func says(_ sources: [SourceType], _ phrase: String) -> Bool { RunCredits.terms(for: sources).contains { $0.contains(phrase) } }
        XCTAssertEqual(RunCredits.terms(for: [.cc0, .publicDomain]), ["CC0 and public-domain music only: no conditions (credit is welcome)."])
        XCTAssertTrue(says([.cc0, .userOwned], "1 track is your own music"))
        XCTAssertTrue(says([.ccBySa, .ccBy], "must carry the same licence (CC BY-SA)"))
        XCTAssertTrue(says([.ccByNcSa, .ccByNc], "must carry the same licence (CC BY-NC-SA)"))
        XCTAssertTrue(says([.ccBySa, .ccByNc], "do not share this file"))
        XCTAssertTrue(says([.ccBySa, .ccByNcSa], "do not share this file"))
        XCTAssertFalse(says([.ccBySa, .ccBy], "do not share"))
        XCTAssertTrue(says([.ccByNc], "not for commercial use"))
        XCTAssertTrue(says([.ccByNd, .cc0], "No-derivatives tracks"))
        XCTAssertFalse(says([.ccBy], "no conditions"))
    }
}
