@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

final class ZonesTests: XCTestCase {
    struct Zones: Decodable {
        struct Zone: Decodable { var zone: Int; var minHR: Int; var maxHR: Int; var spm: Double; var spmIsDefault: Bool }
        var zones: [Zone]
        var maxHR: Int
        var maxHREstimated: Bool
        var method: String
    }

    private func zones(_ arguments: [String]) throws -> Zones {
        let profile = (try temporaryDirectory(self) as NSString).appendingPathComponent("profile.toml")
        let result = try runBeattag(["zones", "--json", "--profile", profile] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(Zones.self, from: Data(result.stdout.utf8))
    }

    func testKarvonenWithARestingRatePercentOfMaxWithout() throws {
        let karvonen = try zones(["--max-hr", "190", "--rest-hr", "50"])
        XCTAssertEqual(karvonen.zones.map(\.zone), [1, 2, 3, 4, 5])
        XCTAssertEqual(karvonen.zones[3].minHR, 162, "50 + 0.8 × (190 − 50)")
        XCTAssertEqual(karvonen.zones[0].minHR, 120)
        XCTAssertEqual(karvonen.zones[4].maxHR, 190)
        XCTAssertTrue(karvonen.method.contains("Karvonen"))
        let plain = try zones(["--max-hr", "190"])
        XCTAssertEqual(plain.zones[3].minHR, 152, "0.8 × 190")
        XCTAssertEqual(plain.zones[0].minHR, 95)
        XCTAssertFalse(plain.maxHREstimated)
        // Without a resting rate the key is there, null (the help lists it).
        let profile = (try temporaryDirectory(self) as NSString).appendingPathComponent("profile.toml")
        let json = try runBeattag(["zones", "--json", "--max-hr", "190", "--profile", profile]).stdout
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertTrue(object["restHR"] is NSNull, json)
    }

    func testAgeEstimatesTheMaximumAndSaysSo() throws {
        let estimated = try zones(["--age", "40"])
        XCTAssertEqual(estimated.maxHR, 180, "Tanaka: 208 − 0.7 × 40")
        XCTAssertTrue(estimated.maxHREstimated)
        let text = try runBeattag(["zones", "--age", "40", "--profile", (try temporaryDirectory(self) as NSString).appendingPathComponent("p.toml")])
        XCTAssertTrue(text.stdout.contains("estimated from age"), text.stdout)
    }

    func testZoneCadencesDefaultAndSetByHand() throws {
        let z = try zones(["--max-hr", "185", "--zone-spm", "4=174", "--zone-spm", "5=186"])
        XCTAssertEqual(z.zones.map(\.spm), [160, 166, 172, 174, 186])
        XCTAssertEqual(z.zones.map(\.spmIsDefault), [true, true, true, false, false])
    }

    /// Slips a runner makes: the same zone given twice, a resting rate given as the maximum, a
    /// cadence that falls as effort rises.
    func testZoneSlipsAreCaughtOrSaid() throws {
        let profile = (try temporaryDirectory(self) as NSString).appendingPathComponent("profile.toml")
        let twice = try runBeattag(["zones", "--max-hr", "190", "--zone-spm", "4=180", "--zone-spm", "4=170", "--profile", profile])
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(twice.stderr.contains("zone 4 twice (180 and 170)"), twice.stderr)
        XCTAssertEqual(try zones(["--max-hr", "190", "--zone-spm", "4=176", "--zone-spm", "4=176"]).zones[3].spm, 176, "the same value twice is no conflict")
        for (option, value) in [("--max-hr", "40"), ("--max-hr", "250"), ("--rest-hr", "140"), ("--rest-hr", "20")] {
            let r = try runBeattag(["zones", "--max-hr", "190", option, value, "--profile", profile])
            XCTAssertEqual(r.status, 64, "\(option) \(value): \(r.stdout)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        let falling = try runBeattag(["zones", "--max-hr", "190", "--zone-spm", "5=150", "--profile", profile])
        XCTAssertEqual(falling.status, 0, falling.stderr)
        XCTAssertTrue(falling.stderr.contains("zone 5's cadence 150 SPM is below zone 4's 177"), falling.stderr)
        let rising = try runBeattag(["zones", "--max-hr", "190", "--zone-spm", "5=190", "--profile", profile])
        XCTAssertEqual(rising.stderr, "", "nothing to say of rising cadences")
    }

    func testSavedProfileIsUsedAndCommandLineWinsForOneRun() throws {
        let profile = (try temporaryDirectory(self) as NSString).appendingPathComponent("config/beattag/profile.toml")
        let saved = try runBeattag(["zones", "--max-hr", "188", "--rest-hr", "48", "--zone-spm", "4=175", "--save", "--profile", profile])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertTrue(saved.stderr.contains("saved the runner profile"))
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        XCTAssertTrue(text.contains("max_hr = 188") && text.contains("[zone_spm]") && text.contains("4 = 175"), text)

        func json(_ extra: [String]) throws -> Zones {
            let r = try runBeattag(["zones", "--json", "--profile", profile] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return try JSONDecoder().decode(Zones.self, from: Data(r.stdout.utf8))
        }
        XCTAssertEqual(try json([]).maxHR, 188)
        XCTAssertEqual(try json([]).zones[3].spm, 175)
        XCTAssertEqual(try json(["--max-hr", "200"]).maxHR, 200, "the command line applies to this run")
        XCTAssertEqual(try json([]).maxHR, 188, "…and only to it")
        // --age on the command line is the estimate asked for, over a saved (measured) maximum.
        XCTAssertEqual(try json(["--age", "40"]).maxHR, 180, "Tanaka: 208 − 0.7 × 40")
        XCTAssertEqual(try json(["--age", "40", "--max-hr", "190"]).maxHR, 190, "a maximum given with it wins")
    }

    /// `--save` over a profile the runner wrote by hand changes the values and adds what is new;
    /// comments, layout and order stay. A form the line edits do not follow (an inline table) is
    /// written anew, and still holds every setting.
    func testSavingKeepsTheRunnersCommentsAndLayout() throws {
        let profile = (try temporaryDirectory(self) as NSString).appendingPathComponent("profile.toml")
        let handWritten = """
            # my profile: lab test, March
            max_hr = 186   # measured on the treadmill

            # from the watch, mornings
            rest_hr = 52

            [zone_spm]
            # easy days
            2 = 164
            """
        try (handWritten + "\n").write(toFile: profile, atomically: true, encoding: .utf8)
        let saved = try runBeattag(["zones", "--max-hr", "189", "--age", "41", "--zone-spm", "4=176", "--save", "--profile", profile])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(try String(contentsOfFile: profile, encoding: .utf8), """
            # my profile: lab test, March
            max_hr = 189   # measured on the treadmill

            # from the watch, mornings
            rest_hr = 52
            age = 41

            [zone_spm]
            # easy days
            2 = 164
            4 = 176

            """)
        // Saving with nothing new leaves the file as it is.
        let before = try String(contentsOfFile: profile, encoding: .utf8)
        XCTAssertEqual(try runBeattag(["zones", "--save", "--profile", profile]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: profile, encoding: .utf8), before)

        // Unchanged values keep their lines exactly; CRLF endings stay; zone 04 is zone 4; a cadence
        // with many digits is saved as given.
        try "# watch\r\nmax_hr=180\r\nage = 40 # hmm\r\n[zone_spm]\r\n04 = 170.0   # aligned\r\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let crlf = try runBeattag(["zones", "--zone-spm", "3=168.123456789", "--save", "--profile", profile])
        XCTAssertEqual(crlf.status, 0, crlf.stderr)
        XCTAssertEqual(try String(contentsOfFile: profile, encoding: .utf8),
                       "# watch\r\nmax_hr=180\r\nage = 40 # hmm\r\n[zone_spm]\r\n04 = 170.0   # aligned\r\n3 = 168.123456789\r\n")
        XCTAssertEqual(crlf.stderr, "saved the runner profile to \(profile)\n")

        // An inline table: written anew, every setting kept, and the runner told.
        try "max_hr = 180 # note\nzone_spm = { 3 = 170 }\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let rewritten = try runBeattag(["zones", "--zone-spm", "5=185", "--save", "--profile", profile])
        XCTAssertEqual(rewritten.status, 0, rewritten.stderr)
        XCTAssertTrue(rewritten.stderr.contains("(written anew:"), rewritten.stderr)
        let anew = try String(contentsOfFile: profile, encoding: .utf8)
        XCTAssertTrue(anew.contains("max_hr = 180\n") && anew.contains("[zone_spm]\n3 = 170\n5 = 185\n"), anew)

        // A profile named without a folder is saved in the current one.
        let plain = try runBeattag(["zones", "--max-hr", "181", "--save", "--profile", "beattag-test-plain-\(getpid()).toml"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        try FileManager.default.removeItem(atPath: "beattag-test-plain-\(getpid()).toml")
    }

    func testBadProfileInputGetsOneLineErrors() throws {
        let profile = (try temporaryDirectory(self) as NSString).appendingPathComponent("p.toml")
        let none = try runBeattag(["zones", "--profile", profile])
        XCTAssertEqual(none.status, 64, "a missing option is a usage error")
        XCTAssertTrue(none.stderr.contains("--max-hr"), none.stderr)
        let badZone = try runBeattag(["zones", "--max-hr", "190", "--zone-spm", "6=180", "--profile", profile])
        XCTAssertEqual(badZone.status, 64)
        XCTAssertTrue(badZone.stderr.contains("zone=cadence"), badZone.stderr)
        let restAboveMax = try runBeattag(["zones", "--max-hr", "150", "--rest-hr", "140", "--profile", profile])
        XCTAssertEqual(restAboveMax.status, 64)
        XCTAssertEqual(restAboveMax.stderr.split(separator: "\n").count, 1, restAboveMax.stderr)
        try "max_hr = \"high\"\n".write(toFile: profile, atomically: true, encoding: .utf8)
        // A wrong value in the file is a usage error, as the same value given as an option (an audit: 1 here, 64 there).
        let broken = try runBeattag(["zones", "--profile", profile])
        XCTAssertEqual(broken.status, 64)
        XCTAssertTrue(broken.stderr.contains("max_hr"), broken.stderr)
        // A misspelt setting is named, not silently left out (zones without the resting rate).
        try "max_hr = 190\nresting_hr = 50\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let misspelt = try runBeattag(["zones", "--profile", profile])
        XCTAssertEqual(misspelt.status, 64)
        XCTAssertTrue(misspelt.stderr.contains("unknown setting `resting_hr`") && misspelt.stderr.contains("rest_hr"), misspelt.stderr)
        XCTAssertEqual(misspelt.stderr.split(separator: "\n").count, 1, misspelt.stderr)
        try "max_hr = = 190\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let notTOML = try runBeattag(["zones", "--profile", profile])
        XCTAssertEqual(notTOML.status, 64)
        XCTAssertTrue(notTOML.stderr.contains("\(profile):1:"), notTOML.stderr)
        // A value out of range in the file names the file (the runner never typed 500); the same
        // option on the command line is used over it.
        try "max_hr = 500\n[zone_spm]\n4 = 400\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let wrong = try runBeattag(["zones", "--profile", profile])
        XCTAssertEqual(wrong.status, 64)
        XCTAssertTrue(wrong.stderr.hasPrefix("beattag: \(profile): maximum heart rate 500"), wrong.stderr)
        XCTAssertEqual(try runBeattag(["zones", "--max-hr", "190", "--zone-spm", "4=176", "--profile", profile]).status, 0)
        let zone = try runBeattag(["zones", "--max-hr", "190", "--profile", profile])
        XCTAssertTrue(zone.stderr.contains("\(profile): zone 4 cadence 400"), zone.stderr)
    }
}

final class PlanFileTests: XCTestCase {
    func testReadsNameSegmentsFractionalMinutesZonesAndCadences() throws {
        let plan = try PlanFile.parse(PlanFile.example, path: "hills.toml")
        XCTAssertEqual(plan.name, "hills and flats")
        XCTAssertEqual(plan.segments, [
            .init(name: "warm-up", minutes: 8, target: .zone(2)),
            .init(name: "strides", minutes: 1.5, target: .spm(185)),
        ])
        let unnamed = try PlanFile.parse("[[segments]]\nname = \"a\"\nminutes = 2\nzone = 3\n", path: "/plans/sunday long.toml")
        XCTAssertEqual(unnamed.name, "sunday long")
    }

    func testErrorsNameTheLineAndTheField() {
        func error(_ text: String) -> PlanFile.PlanError? {
            do { _ = try PlanFile.parse(text, path: "p.toml"); return nil } catch { return error as? PlanFile.PlanError }
        }
        let both = error("name = \"x\"\n\n[[segments]]\nname = \"a\"\nminutes = 3\nzone = 2\n\n[[segments]]\nname = \"b\"\nminutes = 2\n")
        XCTAssertEqual(both?.line, 8)
        XCTAssertTrue(both?.message.contains("segment 2 (b)") ?? false, "\(String(describing: both))")
        XCTAssertTrue(both?.description.hasPrefix("p.toml:8: ") ?? false)

        let blink = error("[[segments]]\nname = \"a\"\nminutes = 0.0001\nspm = 170\n")
        XCTAssertEqual(blink?.line, 3)
        XCTAssertTrue(blink?.message.contains("from 0.17 (10 s) to 600") ?? false, "\(String(describing: blink))")
        XCTAssertNil(error("[[segments]]\nname = \"stride\"\nminutes = 0.25\nspm = 180\n"), "15 s strides are fine")

        let badZone = error("[[segments]]\nname = \"a\"\nminutes = 3\nzone = 7\n")
        XCTAssertEqual(badZone?.line, 4)
        XCTAssertTrue(badZone?.message.contains("`zone`") ?? false)

        let badMinutes = error("[[segments]]\nname = \"a\"\nminutes = \"ten\"\nspm = 170\n")
        XCTAssertEqual(badMinutes?.line, 3)

        let typo = error("[[segments]]\nname = \"a\"\nminuts = 3\nspm = 170\n")
        XCTAssertEqual(typo?.line, 3)
        XCTAssertTrue(typo?.message.contains("unknown field `minuts`") ?? false)
        // Saved on Windows: the same line (it had none, the whole file read as one line).
        XCTAssertEqual(error("[[segments]]\r\nname = \"a\"\r\nminuts = 3\r\nspm = 170\r\n")?.line, 3)
        // A sub-table or a dotted key is reported at its own line, not the segment's header (match audit LOW).
        let subTable = error("[[segments]]\nname = \"a\"\nminutes = 3\nspm = 170\n[segments.extra]\nx = 1\n")
        XCTAssertEqual(subTable?.line, 5, "\(String(describing: subTable))")
        XCTAssertTrue(subTable?.message.contains("unknown field `extra`") ?? false)
        XCTAssertEqual(error("[[segments]]\nname = \"a\"\nminutes = 3\nspm = 170\ncue.text = \"go\"\n")?.line, 5)
        XCTAssertEqual(error("[[segments]]\nname = \"a\"\nminutes = 3\nspm = 170\n[[segments]]\nname = \"b\"\nminutes = 3\nspm = 170\n"
                             + "[segments.extra]\n")?.line, 9, "the second segment's sub-table")

        let toml = error("name = \"x\"\n[[segments]\n")
        XCTAssertEqual(toml?.line, 2)
        XCTAssertNotNil(toml?.column, "the column too, as the docs say")
        XCTAssertTrue(toml?.message.hasPrefix("not valid TOML") ?? false)

        XCTAssertTrue(error("name = \"empty\"\n")?.message.contains("no segments") ?? false)
        XCTAssertTrue(error("[[segments]]\nname = \"a\"\nminutes = 1\nspm = 300\n")?.message.contains("100–240") ?? false)
        // Plans a person did not mean (an audit: 2000 segments of 600 minutes ran 140 s, silently).
        let segment = "[[segments]]\nname = \"a\"\nminutes = 1\nspm = 170\n"
        XCTAssertEqual(error(String(repeating: segment, count: 301))?.message, "301 segments: a plan holds at most 300")
        XCTAssertNil(error(String(repeating: segment, count: 300)))
        let long = String(repeating: "[[segments]]\nname = \"a\"\nminutes = 600\nspm = 170\n", count: 3)
        XCTAssertEqual(error(long)?.message, "the plan lasts 30.0 h: at most 24 h")
    }
}

final class BuiltInPlanTests: XCTestCase {
    func testFourByFourIsHelgerudsSession() throws {
        let plan = try XCTUnwrap(BuiltInPlans.plan(named: "4x4"))
        XCTAssertEqual(plan.segments.map(\.name), ["warm-up", "work 1", "recovery 1", "work 2", "recovery 2", "work 3", "recovery 3", "work 4", "cool-down"])
        let profile = try RunnerProfile(maxHR: 190).resolved()
        let work = plan.segments.filter { $0.kind == .work }, recovery = plan.segments.filter { $0.kind == .recovery }
        XCTAssertEqual(work.map(\.minutes).reduce(0, +), 16)
        XCTAssertEqual(recovery.map(\.minutes), [3, 3, 3])
        XCTAssertEqual(plan.segments.first?.minutes, 10)
        let slowestWork = work.map { plan.spm(of: $0, profile: profile) }.min()!
        let fastestRecovery = recovery.map { plan.spm(of: $0, profile: profile) }.max()!
        XCTAssertGreaterThan(slowestWork, fastestRecovery)
        XCTAssertEqual(CueText.text(segmentAt: 3, of: plan, spm: 182), "Interval 2 of 4: four minutes in zone 5, 182 steps per minute.")
        XCTAssertEqual(CueText.text(segmentAt: 2, of: plan, spm: 166), "Recovery 1 of 3: three minutes easy in zone 2, 166 steps per minute.")
        XCTAssertEqual(CueText.text(segmentAt: 0, of: plan, spm: 166), "Warm-up: ten minutes in zone 2, 166 steps per minute.")
        for name in BuiltInPlans.names { XCTAssertNotNil(BuiltInPlans.plan(named: name), name) }
    }

    func testCueSaysFractionsInWords() {
        XCTAssertEqual(CueText.duration(1.5), "one and a half minutes")
        XCTAssertEqual(CueText.duration(0.5), "thirty seconds")
        XCTAssertEqual(CueText.duration(2.25), "two minutes fifteen seconds")
        XCTAssertEqual(CueText.duration(45), "forty-five minutes")
    }
}

final class SegmentFillTests: XCTestCase {
    /// Segments at one cadence filled from tracks a little short of each: the error is carried, so
    /// the segment changes stay near the plan instead of drifting (an audit: 0:34 off after ten).
    func testASegmentsFittingErrorIsMadeUpByTheNext() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        for i in 0..<40 {
            var r = TrackRecord(path: "/music/t\(i).flac", fileSize: 1000 + Int64(i), modifiedAt: 0, now: 0)
            r.state = .analysed; r.waveformAnalysed = true
            r.title = "Track \(i)"; r.artist = "Artist \(i)"
            r.bpmAnalysed = 175; r.confidence = 0.95
            r.durationSeconds = i % 2 == 0 ? 130 : 140
            r.fingerprint = "f\(i)"
            r.chooseBPM()
            _ = try catalog.saveScanResult(r)
        }
        let plan = WorkoutPlan(name: "tens", segments: (1...10).map { .init(name: "s\($0)", minutes: 2.2, target: .spm(175)) })
        let profile = RunnerProfile.Resolved(maxHR: 190, maxHREstimated: false, restHR: nil, zoneSPM: [:])
        let workout = try WorkoutBuilder().build(plan, profile: profile, catalog: catalog)
        XCTAssertEqual(workout.segments.map(\.tracks.count), Array(repeating: 1, count: 10))
        // Every segment alone would take a 130-s track (2 s short, the nearest): 20 s off at the end.
        XCTAssertLessThanOrEqual(workout.largestBoundaryError, 6, "\(workout.segments.map(\.filledSeconds))")
        XCTAssertFalse(workout.isShort)
    }

    func testClosestSumWinsThenTheBetterRanked() {
        // 300 s wanted: 200 + 100 is exact.
        XCTAssertEqual(SegmentFill.choose(durations: [200, 150, 100, 160], target: 300), [0, 2])
        // Two exact fills: the one made of better-ranked tracks.
        XCTAssertEqual(SegmentFill.choose(durations: [150, 150, 100, 200], target: 300), [0, 1])
        // Nothing short enough: nothing, rather than a track running far over.
        XCTAssertEqual(SegmentFill.choose(durations: [400], target: 300), [])
        XCTAssertEqual(SegmentFill.choose(durations: [330], target: 300), [0], "within the allowed overrun")
        XCTAssertEqual(SegmentFill.choose(durations: [], target: 300), [])
        // Equally close (11 s under, 10 s over a 3-minute segment): the one that is not short.
        XCTAssertEqual(SegmentFill.choose(durations: [169, 190], target: 180), [1])
    }
}

/// `workout` on a catalog of tracks with known tempi and lengths (decoded fixtures for mpv).
final class WorkoutCommandTests: XCTestCase {
    private var catalogPath = ""
    private var profile = ""

    override func setUpWithError() throws {
        let dir = try temporaryDirectory(self)
        catalogPath = (dir as NSString).appendingPathComponent("c.sqlite")
        profile = (dir as NSString).appendingPathComponent("profile.toml")
        let catalog = try Catalog(path: catalogPath)
        // 120 tracks, 150–199 BPM, 2–5 minutes, 30 artists: enough for every segment of a 40-minute plan.
        var rng = SplitMix64(seed: 11)
        for i in 0..<120 {
            // A file of the row's size and time at its path: a workout leaves out files gone since their scan.
            let path = (dir as NSString).appendingPathComponent("music/a\(i % 30)/t\(i).flac")
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(count: 1000 + i)))
            var st = stat()
            XCTAssertEqual(stat(path, &st), 0)
            var r = TrackRecord(path: path, fileSize: 1000 + Int64(i), modifiedAt: FileWalker.mtime(st), now: 0)
            r.state = .analysed
            r.waveformAnalysed = true
            r.title = "Track \(i)"
            r.artist = "Artist \(i % 30)"
            r.bpmAnalysed = 150 + Double(rng.next() % 50)
            r.confidence = 0.95
            r.durationSeconds = 120 + Double(rng.next() % 180)
            r.fingerprint = "f\(i)"
            r.chooseBPM()
            _ = try catalog.saveScanResult(r)
        }
    }

    struct Document: Decodable {
        struct Track: Decodable { var path: String; var bpm: Double; var durationSeconds: Double; var shiftPercent: Double }
        struct Segment: Decodable {
            var name: String; var zone: Int?; var spm: Double; var plannedSeconds: Double; var filledSeconds: Double
            var short: Bool; var cue: String; var tracks: [Track]
        }
        var name: String
        var segments: [Segment]
        var largestBoundaryErrorSeconds: Double
        var seed: UInt64?
        var short: Bool
        var restHR: Int?
        var heartRateMethod: String?
    }

    /// The JSON says how the zones' heart rates were taken, as `zones --json` does (it gave the
    /// maximum alone, so a reader could not tell Karvonen's rates from shares of the maximum).
    func testTheWorkoutSaysHowItsHeartRatesWereTaken() throws {
        let (plain, byMax) = try workout(["4x4", "--max-hr", "190", "--seed", "1"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(byMax?.heartRateMethod, "percent of maximum")
        XCTAssertNil(byMax?.restHR)
        let (_, byReserve) = try workout(["4x4", "--max-hr", "190", "--rest-hr", "50", "--seed", "1"])
        XCTAssertEqual(byReserve?.heartRateMethod, "Karvonen (heart-rate reserve)")
        XCTAssertEqual(byReserve?.restHR, 50)
    }

    func testTheSameSeedGivesTheSameWorkoutAndTheSeedIsPrinted() throws {
        func paths(_ d: Document?) -> [[String]] { d?.segments.map { $0.tracks.map(\.path) } ?? [] }
        let (first, a) = try workout(["4x4", "--max-hr", "190", "--seed", "42"])
        let (_, b) = try workout(["4x4", "--max-hr", "190", "--seed", "42"])
        XCTAssertEqual(a?.seed, 42)
        XCTAssertTrue(first.stderr.contains("seed 42"), first.stderr)
        XCTAssertFalse(paths(a).isEmpty)
        XCTAssertEqual(paths(a), paths(b), "the same seed, the same workout")
        // Without --seed one is chosen, printed, and gives the same workout when given back.
        let (unseeded, c) = try workout(["4x4", "--max-hr", "190"])
        let seed = try XCTUnwrap(c?.seed)
        XCTAssertTrue(unseeded.stderr.contains("--seed \(seed)"), unseeded.stderr)
        XCTAssertEqual(paths(try workout(["4x4", "--max-hr", "190", "--seed", "\(seed)"]).1), paths(c))
        let others = try (1...4).map { paths(try workout(["4x4", "--max-hr", "190", "--seed", "\($0)"]).1) }
        XCTAssertGreaterThan(Set(others.map { $0.description }).count, 1, "seeds vary the picks among good tracks")
    }

    private func workout(_ arguments: [String]) throws -> (CommandResult, Document?) {
        let result = try runBeattag(["workout"] + arguments + ["--json", "--catalog", catalogPath, "--profile", profile])
        return (result, try? JSONDecoder().decode(Document.self, from: Data(result.stdout.utf8)))
    }

    func testFivesegmentPlanFileFillsEverySegmentWithinTheRules() throws {
        let dir = try temporaryDirectory(self)
        let planPath = (dir as NSString).appendingPathComponent("five.toml")
        try """
            name = "five"
            [[segments]]
            name = "easy"
            minutes = 6
            zone = 2
            [[segments]]
            name = "steady"
            minutes = 5.5
            spm = 170
            [[segments]]
            name = "hard"
            minutes = 4
            zone = 5
            [[segments]]
            name = "float"
            minutes = 3
            zone = 3
            [[segments]]
            name = "home"
            minutes = 5
            zone = 1
            """.write(toFile: planPath, atomically: true, encoding: .utf8)
        let out = (dir as NSString).appendingPathComponent("five.m3u8")
        let (result, document) = try workout([planPath, "--max-hr", "190", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try XCTUnwrap(document, result.stdout)
        XCTAssertEqual(doc.name, "five")
        XCTAssertEqual(doc.segments.map(\.spm), [166, 170, 182, 172, 160])
        var seen = Set<String>()
        for segment in doc.segments {
            XCTAssertFalse(segment.short, segment.name)
            XCTAssertEqual(segment.filledSeconds, segment.plannedSeconds, accuracy: 45, segment.name)
            XCTAssertEqual(segment.filledSeconds, segment.tracks.map(\.durationSeconds).reduce(0, +), accuracy: 0.5)
            for track in segment.tracks {
                XCTAssertTrue(seen.insert(track.path).inserted, "\(track.path) twice")
                XCTAssertLessThanOrEqual(abs(segment.spm / track.bpm - 1), 0.10 + 1e-9, "\(segment.name): \(track.bpm) BPM at \(segment.spm) SPM")
                XCTAssertTrue(track.path.hasPrefix("/"))
            }
        }
        XCTAssertLessThan(doc.largestBoundaryErrorSeconds, 45)
        // The M3U8 names the segments and their cues in comment lines.
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#EXTM3U\n#PLAYLIST:five (beattag workout)\n"))
        XCTAssertTrue(text.contains("# segment 3/5: hard — zone 5 (heart rate 171–190), 182 SPM, 4:00 planned"), text)
        XCTAssertTrue(text.contains("# cue: Hard: four minutes in zone 5, 182 steps per minute."), text)
        let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(entries.count, doc.segments.map(\.tracks.count).reduce(0, +))
    }

    func testFourByFourWorkSegmentsAreFasterThanRecoveries() throws {
        let (result, document) = try workout(["4x4", "--max-hr", "190"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try XCTUnwrap(document)
        XCTAssertEqual(doc.segments.first?.name, "warm-up")
        XCTAssertEqual(doc.segments.last?.name, "cool-down")
        let work = doc.segments.filter { $0.name.hasPrefix("work") }, recovery = doc.segments.filter { $0.name.hasPrefix("recovery") }
        XCTAssertEqual(work.count, 4)
        XCTAssertEqual(recovery.count, 3)
        XCTAssertEqual(work.map(\.plannedSeconds).reduce(0, +), 16 * 60)
        XCTAssertGreaterThan(work.map(\.spm).min()!, recovery.map(\.spm).max()!)
        XCTAssertEqual(work[1].cue, "Interval 2 of 4: four minutes in zone 5, 182 steps per minute.")
        for segment in work {
            XCTAssertTrue(segment.tracks.allSatisfy { $0.bpm * 1.1 >= segment.spm }, "work tracks are fast ones")
        }
    }

    func testDislikedNeverReturnsAndLikedComesFirstAmongEquals() throws {
        let catalog = try Catalog(path: catalogPath)
        let all = try catalog.allTracks()
        // Two tracks as near 175 as each other: the liked one is offered first.
        let near = all.filter { abs(($0.bpm ?? 0) - 176) < 0.5 }
        XCTAssertGreaterThanOrEqual(near.count, 2, "the generated catalog has ties at 176")
        let liked = try XCTUnwrap(near.max { $0.path < $1.path })
        XCTAssertEqual(try runBeattag(["rate", liked.path, "--like", "--catalog", catalogPath]).status, 0)
        let match = try runBeattag(["match", "--spm", "176", "--json", "--catalog", catalogPath])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(match.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual((rows.first?["track"] as? [String: Any])?["path"] as? String ?? rows.first?["path"] as? String, liked.path, match.stdout.prefix(400).description)

        // Dislike everything that fits 182 SPM but one: the work segments cannot use them.
        let fits = all.filter { abs(182 / ($0.bpm ?? 1) - 1) <= 0.1 }
        for track in fits.dropFirst() { XCTAssertEqual(try runBeattag(["rate", track.path, "--dislike", "--catalog", catalogPath]).status, 0) }
        let (result, document) = try workout(["4x4", "--max-hr", "190"])
        XCTAssertEqual(result.status, 3, "work segments are short now: written, exit status 3")
        let used = Set(try XCTUnwrap(document).segments.flatMap(\.tracks).map(\.path))
        XCTAssertTrue(used.isDisjoint(with: fits.dropFirst().map(\.path)))
        XCTAssertTrue(result.stderr.contains("182 SPM is short by"), result.stderr)
        XCTAssertTrue(result.stderr.contains("(\"work 1\" "), result.stderr)
        XCTAssertTrue(result.stderr.contains("beattag untagged"), result.stderr)
        let playlist = try runBeattag(["match", "--spm", "182", "--json", "--catalog", catalogPath])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(playlist.stdout.utf8)) as? [Any])?.count, 1)

        // Clearing brings a track back.
        XCTAssertEqual(try runBeattag(["rate", fits[1].path, "--clear", "--catalog", catalogPath]).status, 0)
        XCTAssertEqual(try catalog.track(path: fits[1].path)?.rating, nil)
    }

    /// Tracks that fit a cadence but already play in other segments are said to, not counted as if
    /// more music were all it took.
    func testTheShortfallSaysWhichTracksPlayElsewhere() throws {
        let dir = try temporaryDirectory(self)
        let planPath = (dir as NSString).appendingPathComponent("twice.toml")
        try "[[segments]]\nname = \"long\"\nminutes = 300\nspm = 175\n\n[[segments]]\nname = \"again\"\nminutes = 4\nspm = 175\n"
            .write(toFile: planPath, atomically: true, encoding: .utf8)
        // Within 2% of 175 SPM the long segment takes every track there is.
        let (result, document) = try workout([planPath, "--max-hr", "190", "--max-shift", "2"])
        XCTAssertEqual(result.status, 3)
        let doc = try XCTUnwrap(document)
        XCTAssertTrue(doc.segments[1].short, "\(doc.segments.map { ($0.plannedSeconds, $0.filledSeconds, $0.tracks.count) })")
        XCTAssertTrue(result.stderr.contains("already in other segments (a track plays once)"), result.stderr)
    }

    func testShortWorkoutIsStillWrittenWithTheShortfall() throws {
        let dir = try temporaryDirectory(self)
        let planPath = (dir as NSString).appendingPathComponent("slow.toml")
        try "[[segments]]\nname = \"fine\"\nminutes = 4\nspm = 175\n\n[[segments]]\nname = \"walk\"\nminutes = 5\nspm = 110\n"
            .write(toFile: planPath, atomically: true, encoding: .utf8)
        let out = (dir as NSString).appendingPathComponent("slow.m3u8")
        let (result, document) = try workout([planPath, "--max-hr", "190", "-o", out])
        XCTAssertEqual(result.status, 3)
        let doc = try XCTUnwrap(document)
        XCTAssertFalse(doc.segments[0].short)
        XCTAssertTrue(doc.segments[1].short, "\(doc.segments.map { ($0.plannedSeconds, $0.filledSeconds, $0.tracks.count) })")
        XCTAssertEqual(doc.segments[1].filledSeconds, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        XCTAssertTrue(result.stderr.contains("110 SPM is short by 5:00 (\"walk\" 0:00 of 5:00)"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").filter { !$0.contains("seed") }.count, 1, "one line per short cadence")
    }

    func testUnknownPlanAndBadPlanFileAreUsageErrors() throws {
        let unknown = try runBeattag(["workout", "5x5", "--json", "--max-hr", "190", "--catalog", catalogPath, "--profile", profile])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("built-in plans: 4x4, easy, tempo, progression"), unknown.stderr)
        let dir = try temporaryDirectory(self)
        let bad = (dir as NSString).appendingPathComponent("bad.toml")
        try "[[segments]]\nname = \"a\"\nminutes = 3\nzone = 9\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try runBeattag(["workout", bad, "--json", "--max-hr", "190", "--catalog", catalogPath, "--profile", profile])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("bad.toml:4: segment 1 (a): `zone` must be"), result.stderr)
    }
}

/// The workout M3U8 on real, decoded files: mpv plays every entry.
final class WorkoutPlaybackTests: XCTestCase {
    func testMpvPlaysTheWorkoutPlaylist() throws {
        let fixtures = try ScannedFixtures(self)
        let (dir, catalog) = (fixtures.folder, fixtures.catalog)
        let plan = (dir as NSString).appendingPathComponent("short.toml")
        try "[[segments]]\nname = \"house\"\nminutes = 0.5\nspm = 128\n\n[[segments]]\nname = \"fast\"\nminutes = 0.5\nspm = 172\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        let out = (dir as NSString).appendingPathComponent("lists/workout.m3u8")
        try FileManager.default.createDirectory(atPath: (out as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // 30-second segments of 12-second clips come out more than 5% short: accepted here.
        let result = try runBeattag(["workout", plan, "--max-hr", "190", "-o", out, "--allow-short", "--catalog", catalog,
                                     "--profile", (dir as NSString).appendingPathComponent("p.toml")])
        XCTAssertEqual(result.status, 0, result.stderr + result.stdout)
        let entries = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertGreaterThanOrEqual(entries.count, 4)
        let (status, loaded, log) = try mpvLoadedEntries(playlist: out)
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(loaded.count, entries.count, log)
    }
}
