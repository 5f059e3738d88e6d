import BeatTagKit
import BeatTagTestSupport
import Foundation

/// A third generator for the tempo and beat models, none of which is fitted on it: the test suite's
/// drum machine, every pattern at every 5 BPM from 60 to 200, straight and swung, written as a
/// corpus `beattag bench` reads (truth.csv with a `style` per pattern, `<file>.beats`). A model
/// change that gains on the development corpora and loses here has learned their generator, not
/// the beat. `swift run -c release beattag-fixtures --sweep DIR` (≈ 330 clips of 24 s, FLAC).
enum DrumSynthSweep {
    static let patterns: [(name: String, pattern: DrumSynth.Pattern, swings: [Double])] = [
        ("backbeat", .backbeat, [0.5, 0.62]), ("four", .fourOnTheFloor, [0.5, 0.62]), ("twostep", .twoStep, [0.5, 0.62]),
        ("hiphop", .hiphop, [0.5, 0.62]), ("skank", .skank, [0.5, 0.62]), ("waltz", .waltz, [0.5]), ("sixeight", .sixEight, [0.5]),
    ]

    static func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var truth = "file,bpm,meter,style,notes\n"
        for (name, pattern, swings) in patterns {
            for swing in swings {
                for step in stride(from: 60.0, through: 200, by: 5) {
                    // 6/8: the sweep runs over the eighths; the beat is the dotted quarter, a third.
                    let bpm = name == "sixeight" ? step / 3 : step
                    guard TempoRanges.analysed.contains(bpm) else { continue }
                    var synth = DrumSynth(sampleRate: 22050, bpm: bpm, pattern: pattern, seconds: 24)
                    synth.swing = swing
                    let style = swing == 0.5 ? name : "\(name)-swung"
                    let file = String(format: "%@-%03.0f.flac", style, step)
                    let target = (folder as NSString).appendingPathComponent(file)
                    try AudioWriter.write(synth.render(), sampleRate: 22050, to: target, as: .flac)
                    try synth.beatAnnotation.write(toFile: target + ".beats", atomically: true, encoding: .utf8)
                    let meter = name == "sixeight" ? "6/8" : "\(pattern.beatsPerBar)/4"
                    truth += String(format: "%@,%.3f,%@,%@,swing %.2f\n", file, bpm, meter, style, swing)
                }
            }
        }
        try truth.write(toFile: (folder as NSString).appendingPathComponent("truth.csv"), atomically: true, encoding: .utf8)
    }
}
