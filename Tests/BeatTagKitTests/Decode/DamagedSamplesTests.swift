@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// A float file can carry samples no recording holds: NaN, infinities, values far beyond full
/// scale. One such sample used to stop the process (SIGILL quantising it for the audio hash), and a
/// scan that met it died on every run. Both decoders now hand them over as silence, and the track
/// carries a warning that names them.
final class DamagedSamplesTests: XCTestCase {
    private static let rate = 22050
    /// Where the damage sits (sample index → value written), and what must be read back.
    private static let damage: [(index: Int, written: Float)] = [(30_000, .nan), (60_000, .infinity), (90_000, -.infinity), (120_000, -1e30)]
    /// Hot (a float file has headroom above full scale): passed unchanged.
    private static let hot = (index: 150_000, value: Float(1.5))

    private func damagedFile() throws -> (path: String, intact: [Float]) {
        var synth = DrumSynth(sampleRate: Self.rate, bpm: 120, pattern: .backbeat, seconds: 12)
        let intact = synth.render()
        var samples = intact
        for d in Self.damage { samples[d.index] = d.written }
        samples[Self.hot.index] = Self.hot.value
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("damaged.wav")
        try AudioWriter.writeFloatWAV(samples, sampleRate: Self.rate, to: path)
        return (path, intact)
    }

    func testBothDecodersRepairWhatNoRecordingHolds() throws {
        let (path, intact) = try damagedFile()
        let sources: [(String, (ChannelLayout) throws -> any AudioSource)] = [
            ("libsndfile", { try SndfileSource(path: path, layout: $0) }),
            ("FFmpeg", { try FFmpegSource(path: path, layout: $0) }),
        ]
        for (name, open) in sources {
            for layout in [ChannelLayout.mono, .stereo] {
                let source = try open(layout)
                let read = try readAll(source)
                let mono = stride(from: 0, to: read.count, by: layout.width).map { read[$0] }
                XCTAssertEqual(mono.count, intact.count, "\(name) \(layout)")
                XCTAssertTrue(read.allSatisfy { $0.isFinite && abs($0) <= SampleRepair.ceiling }, "\(name) \(layout)")
                for d in Self.damage { XCTAssertEqual(mono[d.index], 0, "\(name) \(layout): \(d.written)") }
                XCTAssertEqual(mono[Self.hot.index], Self.hot.value, "\(name) \(layout)")
                let untouched = Set(Self.damage.map(\.index) + [Self.hot.index])
                XCTAssertTrue(intact.indices.allSatisfy { untouched.contains($0) || mono[$0] == intact[$0] }, "\(name) \(layout): intact samples changed")
                XCTAssertEqual(source.repairedSamples, Self.damage.count * layout.width, "\(name) \(layout)")
            }
        }
        // A float file written at 24-bit integer scale is hot everywhere, not damaged.
        let integerScale = (path as NSString).deletingLastPathComponent + "/integer-scale.wav"
        try AudioWriter.writeFloatWAV(intact.map { $0 * 8_388_607 }, sampleRate: Self.rate, to: integerScale)
        for (name, open) in [("libsndfile", { try SndfileSource(path: integerScale) as any AudioSource }), ("FFmpeg", { try FFmpegSource(path: integerScale) })] {
            let source = try open()
            XCTAssertEqual(try readAll(source), intact.map { $0 * 8_388_607 }, name)
            XCTAssertEqual(source.repairedSamples, 0, name)
        }
        // …and every stage of the analysis stays finite on it (the hash, the spectra, the tempo).
        let (info, result) = try AudioFileAnalysis.analyse(path: integerScale)
        XCTAssertEqual(result.bpm.value, 120, accuracy: 120 * 0.04)
        XCTAssertTrue(result.confidence.isFinite)
        XCTAssertNil(result.decodeWarning)
        XCTAssertNotNil(info.audioHash)
    }

    func testTheAnalysisGoesOnAndSaysWhatItRepaired() throws {
        let (path, _) = try damagedFile()
        var analyses = 0
        let (info, result) = try AudioFileAnalysis.analyse(path: path, inspect: { _ in analyses += 1 })
        XCTAssertEqual(result.bpm.value, 120, accuracy: 120 * 0.04)
        XCTAssertEqual(result.decodeWarning, "4 damaged samples (not numbers, or far beyond full scale) read as silence")
        XCTAssertNotNil(info.audioHash)
        XCTAssertEqual(info.decoder, DecoderLibrary.libsndfile.identity)
        XCTAssertEqual(analyses, 1, "a repaired file is no reason to decode it twice")
    }

    func testAScanKeepsGoingAndTheRowSaysWhy() throws {
        let (path, _) = try damagedFile()
        let library = (path as NSString).deletingLastPathComponent
        var synth = DrumSynth(sampleRate: Self.rate, bpm: 100, pattern: .backbeat, seconds: 10)
        try AudioWriter.write(synth.render(), sampleRate: Self.rate, to: (library as NSString).appendingPathComponent("intact.wav"), as: .wav)
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("catalog.sqlite"))
        let summary = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [library])).run()
        XCTAssertEqual(summary.analysed, 2)
        let damaged = try XCTUnwrap(try catalog.track(path: path))
        XCTAssertEqual(damaged.state, .analysed)
        XCTAssertNil(damaged.lastError)
        XCTAssertEqual(damaged.bpm ?? 0, 120, accuracy: 120 * 0.04)
        XCTAssertTrue(damaged.decodeWarning?.hasPrefix("4 damaged samples") ?? false, damaged.decodeWarning ?? "nil")
        XCTAssertNil(try catalog.track(path: (library as NSString).appendingPathComponent("intact.wav"))?.decodeWarning)
    }
}
