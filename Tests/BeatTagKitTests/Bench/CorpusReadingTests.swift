@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// `bench` reads corpora an outsider hands it: annotation files in the layouts published sets and
/// spreadsheets write are read right, and what cannot be read stops the run with its place, never
/// a beat or a row dropped without a word (a CRLF beats file scored F 0; a beat line with a space
/// after it was dropped; a space-separated one lost every beat and read as "no annotations").
final class CorpusReadingTests: XCTestCase {
    /// A folder holding `truth` as truth.csv and `files` (name → contents); the audio need not exist to be read.
    func corpus(truth: Data, files: [String: Data] = [:]) throws -> String {
        let folder = try temporaryDirectory(self)
        try truth.write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("truth.csv")))
        for (name, data) in files { try data.write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name))) }
        return folder
    }

    func testBeatFilesInEveryCommonLayoutGiveTheSameBeats() throws {
        let beats = [0.25, 0.7125, 1.175, 1.6375, 2.1]
        let layouts: [(String, String)] = [
            ("tab and bar position", beats.enumerated().map { "\($1)\t\($0 % 4 + 1)" }.joined(separator: "\n") + "\n"),
            ("CRLF", beats.map { "\($0)" }.joined(separator: "\r\n") + "\r\n"),
            ("CRLF, two columns", beats.map { "\($0)\t1" }.joined(separator: "\r\n")),
            ("CR", beats.map { "\($0)" }.joined(separator: "\r")),
            ("spaces", beats.map { "\($0) 1" }.joined(separator: "\n")),
            ("two spaces", beats.map { "\($0)  1" }.joined(separator: "\n")),
            ("comma", beats.map { "\($0),1" }.joined(separator: "\n")),
            ("whitespace around", beats.map { "  \($0) \t" }.joined(separator: "\n")),
            ("header, comment, blank lines", "time\tbeat\n# tapped\n\n" + beats.map { "\($0)\t1" }.joined(separator: "\n\n")),
            ("byte-order mark", "\u{FEFF}" + beats.map { "\($0)" }.joined(separator: "\n")),
        ]
        for (layout, text) in layouts {
            let folder = try corpus(truth: Data("file,bpm\nsong.wav,128\n".utf8), files: ["song.wav.beats": Data(text.utf8)])
            XCTAssertEqual(try Corpus(folder: folder).clips.first?.beats, beats, layout)
        }
        // In time order as mir_eval reads it: the same time twice, and a time before 0, are beats.
        let merged = try corpus(truth: Data("file,bpm\nsong.wav,128\n".utf8), files: ["song.wav.beats": Data("-0.01\n0.5\n0.5\t1\n1.0\n".utf8)])
        XCTAssertEqual(try Corpus(folder: merged).clips.first?.beats, [-0.01, 0.5, 0.5, 1.0])
        // A comment in Windows-1252, or the whole file in UTF-16: the times are what counts.
        for (encoding, data) in [("cp1252", Data("# annotated by Jos\u{E9}\n0.25\n0.7125\n".data(using: .isoLatin1)!)),
                                 ("utf16", "time\n0.25\n0.7125\n".data(using: .utf16)!)] {
            let folder = try corpus(truth: Data("file,bpm\nsong.wav,128\n".utf8), files: ["song.wav.beats": data])
            XCTAssertEqual(try Corpus(folder: folder).clips.first?.beats, [0.25, 0.7125], encoding)
        }
        // Named after the file's stem, as the Ballroom and GTZAN-Rhythm sets name them.
        let stem = try corpus(truth: Data("file,bpm\nsong.wav,128\n".utf8), files: ["song.beats": Data("0.25 1\n0.7125 2\n".utf8)])
        XCTAssertEqual(try Corpus(folder: stem).clips.first?.beats, [0.25, 0.7125])
    }

    /// A spreadsheet's export: a byte-order mark, CRLF, semicolons with a decimal comma, a header in
    /// capitals with spaces, comment and empty rows, quoted fields; absolute paths in `file`.
    func testTruthFilesAsSpreadsheetsWriteThem() throws {
        let truth = "\u{FEFF}# made in a spreadsheet\r\nFile ; BPM ; Style\r\na.wav;128,5;house\r\n\"b; c.wav\";90;hiphop\r\n;;\r\n"
        let clips = try Corpus(folder: try corpus(truth: Data(truth.utf8))).clips
        XCTAssertEqual(clips.map(\.file), ["a.wav", "b; c.wav"])
        XCTAssertEqual(clips.map(\.bpm), [128.5, 90])
        XCTAssertEqual(clips.map(\.group), ["house", "hiphop"])
        // Names as written: one that begins with "#", a quote inside a name, spaces kept where the file has them.
        let names = try corpus(truth: Data("sep=\t\nfile\tbpm\n#1 Crush.wav\t120\n12\" Mix.wav\t124\n\" spaced.wav\"\t90\n# a comment\n".utf8),
                               files: [" spaced.wav": Data()])
        let named = try Corpus(folder: names).clips
        XCTAssertEqual(named.map(\.file), ["#1 Crush.wav", "12\" Mix.wav", " spaced.wav"])
        XCTAssertEqual(named.map(\.bpm), [120, 124, 90])
        let absolute = TestPaths.fixture("house-128.wav")
        let elsewhere = try Corpus(folder: try corpus(truth: Data("file,bpm\n\(absolute),128\n".utf8))).clips
        XCTAssertEqual(elsewhere.first?.path, absolute)
        XCTAssertEqual(elsewhere.first?.beats.count, try Corpus(folder: TestPaths.fixtures).clips.first { $0.file == "house-128.wav" }?.beats.count)
    }

    func testWhatCannotBeReadStopsTheRunAtItsPlace() throws {
        let cases: [(String, Data, [String: Data], String)] = [
            ("a row without its bpm", Data("file,bpm,style\na.wav,128,x\nb.wav\n".utf8), [:], "truth.csv row 3: no bpm for b.wav"),
            ("no tempo", Data("file,bpm\na.wav,nan\n".utf8), [:], "row 2: bpm \"nan\" of a.wav is not a tempo"),
            ("zero", Data("file,bpm\na.wav,0\n".utf8), [:], "row 2: bpm \"0\" of a.wav is not a tempo"),
            ("listed twice", Data("file,bpm\na.wav,128\nb.wav,90\na.wav,128\n".utf8), [:], "row 4: a.wav is listed already (row 2)"),
            ("no header", Data("a.wav,128\n".utf8), [:], "needs `file` and `bpm` columns in its first line; it reads: \"a.wav\", \"128\""),
            ("empty", Data(), [:], "it is empty"),
            ("Latin-1", Data([0x66, 0x69, 0x6C, 0x65, 0x2C, 0x62, 0x70, 0x6D, 0x0A, 0x63, 0x61, 0x66, 0xE9, 0x2E, 0x77, 0x61, 0x76, 0x2C, 0x39, 0x30, 0x0A]),
             [:], "truth.csv is not UTF-8 text"),
            ("beats out of order", Data("file,bpm\na.wav,128\n".utf8), ["a.wav.beats": Data("1.0\n1.5\n1.2\n".utf8)],
             "a.wav.beats line 3: beat 1.2 s comes before the one above it (1.5 s)"),
            ("a first line that is a beat misread", Data("file,bpm\na.wav,128\n".utf8), ["a.wav.beats": Data("0.5s\n1.0\n".utf8)],
             "a.wav.beats line 1: \"0.5s\" does not start with a beat time"),
            ("a line that is no beat", Data("file,bpm\na.wav,128\n".utf8), ["a.wav.beats": Data("1.0\n1.5\nbeat\n2.0\n".utf8)],
             "a.wav.beats line 3: \"beat\" does not start with a beat time in seconds"),
        ]
        for (what, truth, files, message) in cases {
            let folder = try corpus(truth: truth, files: files)
            XCTAssertThrowsError(try Corpus(folder: folder), what) { error in
                XCTAssertTrue("\(error)".contains(message), "\(what): \(error)")
            }
        }
        XCTAssertEqual("\(try XCTUnwrap(Result { try Corpus(folder: "/no/such/corpus") }.failure))", "/no/such/corpus: no such folder")
    }

    /// Beat F is the mean over the clips with annotated beats, a clip that fails included at 0 (as
    /// mir_eval scores no beats): a silent clip left the rest reading 1.00 for the corpus. A clip
    /// with no annotated beat past the first 5 s is not scored (it read 1.00 whatever was tracked);
    /// one cut short is scored and said.
    func testAClipThatFailsScoresNoBeatsAndOneWithNothingToScoreIsLeftOut() throws {
        let dir = try temporaryDirectory(self)
        let folder = try benchCorpus("corpus", in: dir, copies: ["house-128.wav", "house-128.wav.beats"].map { ($0, $0) },
                                     truth: "file,bpm\nhouse-128.wav,128\nsilent.wav,120\nshort.wav,128\ncut.wav,128\n")
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        try AudioWriter.write([Float](repeating: 0, count: 44_100 * 12), sampleRate: 44_100, to: path("silent.wav"), as: .wav)
        try String((0..<24).map { String(format: "%.3f\n", 0.5 * Double($0)) }.joined()).write(toFile: path("silent.wav.beats"), atomically: true, encoding: .utf8)
        // The house clip with the end of its data cut off.
        let house = try Data(contentsOf: URL(fileURLWithPath: path("house-128.wav")))
        try String((0..<9).map { String(format: "%.5f\n", 0.46875 * Double($0)) }.joined()).write(toFile: path("short.wav.beats"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: path("house-128.wav.beats"), toPath: path("cut.wav.beats"))
        try house.prefix(house.count * 9 / 10).write(to: URL(fileURLWithPath: path("cut.wav")))
        // 4 s of clicks at 128 BPM.
        let clicks = (0..<44_100 * 4).map { i -> Float in i % 20_672 < 200 ? 0.8 * Float(sin(Double(i) * 0.3)) : 0 }
        try AudioWriter.write(clicks, sampleRate: 44_100, to: path("short.wav"), as: .wav)

        let report = TempoBenchmark.run(corpus: try Corpus(folder: folder))
        let byFile = Dictionary(uniqueKeysWithValues: report.clips.map { ($0.file, $0) })
        let house128 = try XCTUnwrap(byFile["house-128.wav"]?.fMeasure)
        XCTAssertGreaterThan(house128, 0.9)
        XCTAssertNotNil(byFile["silent.wav"]?.error)
        XCTAssertEqual(byFile["silent.wav"]?.fMeasure, 0)
        XCTAssertNil(byFile["short.wav"]?.fMeasure, "nothing annotated past 5 s")
        XCTAssertEqual(try XCTUnwrap(byFile["cut.wav"]?.warning).contains("decoded"), true)
        let cut = try XCTUnwrap(byFile["cut.wav"]?.fMeasure)
        XCTAssertEqual(report.overall.beatClips, 3)
        XCTAssertEqual(try XCTUnwrap(report.overall.fMeasure), (house128 + 0 + cut) / 3, accuracy: 1e-9)
        let text = try runBeattag(["bench", "--corpus", folder])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("4 clips, 3 with beats annotated past 5 s; 1 not analysed"), text.stdout)
        XCTAssertTrue(text.stdout.contains("  not analysed: silent.wav: "), text.stdout)
        XCTAssertTrue(text.stdout.contains("  scored with a warning: cut.wav: only "), text.stdout)
        XCTAssertFalse(text.stdout.contains("not in truth.csv"), text.stdout)
        // Audio the truth does not list is said (hidden files aside).
        try FileManager.default.copyItem(atPath: path("short.wav"), toPath: path("extra.wav"))
        try FileManager.default.copyItem(atPath: path("short.wav"), toPath: path(".hidden.wav"))
        XCTAssertEqual(try Corpus(folder: folder).unlisted, ["extra.wav"])
    }
}

private extension Result {
    var failure: Failure? { if case .failure(let error) = self { return error } else { return nil } }
}
