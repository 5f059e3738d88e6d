// Regenerates Fixtures/library deterministically: `swift run beattag-fixtures Fixtures/library`.
// `--sweep DIR` writes the drum-machine sweep corpus instead (DrumSynthSweep.swift).
// Clear clips at known tempi with their beat times (truth.csv + <file>.beats, the corpus layout
// `beattag bench` reads), tag and licence cases, and the odd files a scan must survive.
import BeatTagKit
import BeatTagTestSupport
import Foundation

if CommandLine.arguments.dropFirst().first == "--sweep" {
    let folder = CommandLine.arguments.dropFirst(2).first ?? "/tmp/beattag-drumsynth-sweep"
    do { try DrumSynthSweep.write(to: folder) } catch {
        FileHandle.standardError.write(Data("beattag-fixtures: \(error)\n".utf8))
        exit(1)
    }
    print("drum machine sweep written to \(folder)")
    exit(0)
}

let root = CommandLine.arguments.dropFirst().first ?? "Fixtures/library"
let fm = FileManager.default

func path(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

func makeDirectory(_ relative: String) throws {
    try fm.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
}

struct Clip {
    var file: String
    var style: String
    var bpm: Double
    var pattern: DrumSynth.Pattern
    var sampleRate = 22050
    var container: AudioWriter.Container
    var introBars = 0
    var leadIn = 0.0
    var swing = 0.5
    var seconds = 12.0
    var tags: [(key: String, value: String)] = []
}

let fixturesArtist = "beattag fixtures"
let clips: [Clip] = [
    Clip(file: "rock-150.flac", style: "rock", bpm: 150, pattern: .backbeat, sampleRate: 44100, container: .flac, leadIn: 0.5,
         tags: [("TITLE", "Backbeat at 150"), ("ARTIST", fixturesArtist), ("ALBUM", "Fixtures"), ("GENRE", "Rock"),
                ("DATE", "2026"), ("TRACKNUMBER", "1")]),
    // No tags at all.
    Clip(file: "house-128.wav", style: "house", bpm: 128, pattern: .fourOnTheFloor, container: .wav),
    Clip(file: "dnb-174.ogg", style: "dnb", bpm: 174, pattern: .twoStep, container: .ogg, introBars: 2, leadIn: 0.3,
         tags: [("TITLE", "Two-step at 174"), ("ARTIST", fixturesArtist), ("GENRE", "Drum & Bass"), ("BPM", "174")]),
    Clip(file: "hiphop-90.mp3", style: "hiphop", bpm: 90, pattern: .hiphop, container: .mp3, swing: 0.58,
         tags: [("TITLE", "Boom bap at 90"), ("ARTIST", fixturesArtist), ("GENRE", "Hip-Hop"),
                ("LICENSE", "https://creativecommons.org/licenses/by-nd/4.0/"), ("COPYRIGHT", "2026 beattag fixtures")]),
    Clip(file: "trance-140.flac", style: "trance", bpm: 140, pattern: .fourOnTheFloor, container: .flac,
         tags: [("TITLE", "Four to the floor at 140"), ("ARTIST", fixturesArtist),
                ("COMMENT", "Licensed under CC BY-SA 4.0: https://creativecommons.org/licenses/by-sa/4.0/")]),
    Clip(file: "cc0/cardio-165.ogg", style: "cardio", bpm: 165, pattern: .backbeat, container: .ogg,
         tags: [("TITLE", "Cardio at 165"), ("ARTIST", fixturesArtist), ("BPM", "82")]),
    Clip(file: "cc0/punk-180.mp3", style: "punk", bpm: 180, pattern: .backbeat, container: .mp3, leadIn: 1.0,
         tags: [("TITLE", "Punk at 180"), ("ARTIST", fixturesArtist), ("LICENSE", "CC BY 4.0")]),
    // AIFF, 11.025 kHz: a rate the analysis takes as it is.
    Clip(file: "metal-168.aiff", style: "metal", bpm: 168, pattern: .backbeat, sampleRate: 11025, container: .aiff, seconds: 10,
         tags: [("TITLE", "Double-time at 168"), ("ARTIST", "Opus & AIFF Band")]),
    // Opus is always 48 kHz: the 48k → 11025 Hz path.
    Clip(file: "house-124.opus", style: "house", bpm: 124, pattern: .fourOnTheFloor, sampleRate: 48000, container: .opus, seconds: 10,
         tags: [("TITLE", "Opus at 124"), ("ARTIST", "Opus & AIFF Band"), ("GENRE", "House")]),
    Clip(file: "odd/Ünïcødé – ритм 160.ogg", style: "rock", bpm: 160, pattern: .backbeat, container: .ogg,
         tags: [("TITLE", "Ünïcødé – ритм"), ("ARTIST", "Björk-ish Ensemble")]),
]

func writeClip(_ clip: Clip) throws {
    var synth = DrumSynth(sampleRate: clip.sampleRate, bpm: clip.bpm, pattern: clip.pattern, seconds: clip.seconds)
    synth.introBars = clip.introBars
    synth.leadIn = clip.leadIn
    synth.swing = clip.swing
    let audio = synth.render()
    let target = path(clip.file)
    try? fm.removeItem(atPath: target)
    try AudioWriter.write(audio, sampleRate: clip.sampleRate, to: target, as: clip.container,
                          quality: [.wav, .flac, .aiff].contains(clip.container) ? nil : 0.6)
    if !clip.tags.isEmpty { try TagWriter.write(path: target, properties: clip.tags) }
    try synth.beatAnnotation.write(toFile: target + ".beats", atomically: true, encoding: .utf8)
}


/// Runs the ffmpeg command-line tool (fixtures only; beattag itself links FFmpeg's libraries).
/// `-bitexact` keeps the output byte-identical from run to run.
func ffmpeg(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffmpeg", "-loglevel", "error", "-y"] + arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw FixtureError("ffmpeg \(arguments.joined(separator: " ")) failed") }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

let bitexact = ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]

/// What FFmpeg decodes and libsndfile does not: each made from a lossless clip above, so its beats
/// are that clip's beats (the decoder must put the audio back where it was).
struct Encoded {
    var file: String
    var from: String
    var codec: [String]
    var title: String
}

let encoded: [Encoded] = [
    Encoded(file: "encoded/trance-140-aac.m4a", from: "trance-140.flac", codec: ["-c:a", "aac", "-b:a", "48k"], title: "AAC at 140"),
    Encoded(file: "encoded/house-128-alac.m4a", from: "house-128.wav", codec: ["-c:a", "alac"], title: "ALAC at 128"),
    Encoded(file: "encoded/house-128-aac.mp4", from: "house-128.wav", codec: ["-c:a", "aac", "-b:a", "40k"], title: "AAC in MP4 at 128"),
    Encoded(file: "encoded/trance-140.wma", from: "trance-140.flac", codec: ["-c:a", "wmav2", "-b:a", "32k"], title: "WMA at 140"),
]

func writeFFmpegFixtures() throws {
    guard (try? ffmpeg(["-version"])) != nil else {
        print("ffmpeg not found; kept the existing M4A, MP4 and WMA fixtures")
        return
    }
    try makeDirectory("encoded")
    var truth = try String(contentsOfFile: path("truth.csv"), encoding: .utf8)
    for e in encoded {
        let clip = clips.first { $0.file == e.from }!
        try? fm.removeItem(atPath: path(e.file))
        try ffmpeg(["-i", path(e.from)] + bitexact + e.codec
                   + ["-metadata", "title=\(e.title)", "-metadata", "artist=\(fixturesArtist)", path(e.file)])
        try? fm.removeItem(atPath: path(e.file) + ".beats")
        try fm.copyItem(atPath: path(e.from) + ".beats", toPath: path(e.file) + ".beats")
        let format = (e.file as NSString).pathExtension
        truth += "\(e.file),\(clip.bpm),\(clip.pattern.beatsPerBar)/4,\(clip.style),\(format),from \(e.from)\n"
    }
    try truth.write(toFile: path("truth.csv"), atomically: true, encoding: .utf8)

    // AAC in MP4 with a BPM tag: analysed, and the tag agrees.
    let m4a = path("odd/aac-tagged.m4a")
    try ffmpeg(["-i", path("house-128.wav"), "-t", "6", "-c:a", "aac", "-b:a", "32k", "-metadata", "title=AAC at 128",
                "-metadata", "artist=\(fixturesArtist)", "-metadata", "genre=House"] + bitexact + [m4a])
    try TagWriter.write(path: m4a, properties: [("BPM", "128")])

    // iTunes' AAC files: 2112 samples of priming, declared only by the iTunSMPB tag (no edit list).
    // FFmpeg's encoder primes 1024; 1088 samples of silence before the audio make up the rest.
    let padded = path("odd/itunes-priming.wav.tmp")
    let source = try SndfileSource(path: path("house-128.wav"))
    var samples: [Float] = []
    while try source.readMonoBlock({ samples.append(contentsOf: $0) }) {}
    try AudioWriter.write([Float](repeating: 0, count: 1088) + samples, sampleRate: source.info.sampleRate, to: padded, as: .wav)
    let itunes = path("odd/itunes-priming.m4a")
    try? fm.removeItem(atPath: itunes)
    try ffmpeg(["-f", "wav", "-i", padded, "-c:a", "aac", "-b:a", "32k", "-use_editlist", "0", "-metadata", "title=iTunes priming"]
               + bitexact + [itunes])
    try fm.removeItem(atPath: padded)
    let frames = samples.count
    let packets = (2112 + frames + 1023) / 1024
    try MP4Edit.addITunesItem(name: "iTunSMPB", value: String(format: " 00000000 00000840 %08X %016X", packets * 1024 - 2112 - frames, frames),
                              toFile: itunes)
    try? fm.removeItem(atPath: itunes + ".beats")
    try fm.copyItem(atPath: path("house-128.wav.beats"), toPath: itunes + ".beats")

    // iTunes Store DRM (FairPlay): the sample entry says `drms`; no decoder takes it, TagLib reads the tags.
    let drm = path("odd/drm-protected.m4a")
    try? fm.removeItem(atPath: drm)
    try fm.copyItem(atPath: m4a, toPath: drm)
    try MP4Edit.renameSampleEntry("mp4a", to: "drms", inFile: drm)

    // A video with no sound.
    try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=32x32:rate=5:duration=1", "-c:v", "mpeg4", "-fflags", "+bitexact",
                "-flags:v", "+bitexact", "-map_metadata", "-1", path("odd/video-only.mp4")])

    // An M4A whose download broke off at 90%: the index comes first (faststart), the samples stop short.
    let cut = path("odd/truncated.m4a")
    try ffmpeg(["-i", path("rock-150.flac"), "-c:a", "aac", "-b:a", "32k", "-movflags", "+faststart"] + bitexact + [cut])
    let whole = try Data(contentsOf: URL(fileURLWithPath: cut))
    try whole.prefix(whole.count * 9 / 10).write(to: URL(fileURLWithPath: cut))
}

do {
    for dir in ["", "cc0", "odd", ".hidden"] { try makeDirectory(dir) }
    var truth = "file,bpm,meter,style,format,notes\n"
    for clip in clips {
        try writeClip(clip)
        let meter = "\(clip.pattern.beatsPerBar)/4"
        truth += "\(clip.file),\(clip.bpm),\(meter),\(clip.style),\(clip.container.rawValue),\(clip.sampleRate) Hz\n"
    }
    try truth.write(toFile: path("truth.csv"), atomically: true, encoding: .utf8)

    try "source = cc0\nlicense = https://creativecommons.org/publicdomain/zero/1.0/\nattribution = beattag fixtures\n"
        .write(toFile: path("cc0/.beattag-rights"), atomically: true, encoding: .utf8)

    // Odd cases a scan must survive.
    try "This is a text file, not an MP3.\n".write(toFile: path("odd/notes.mp3"), atomically: true, encoding: .utf8)
    fm.createFile(atPath: path("odd/empty.wav"), contents: Data())
    var corrupt = Data("fLaC".utf8)
    var rng: UInt64 = 42
    for _ in 0..<4000 { rng = rng &* 6364136223846793005 &+ 1442695040888963407; corrupt.append(UInt8(truncatingIfNeeded: rng >> 33)) }
    fm.createFile(atPath: path("odd/corrupt.flac"), contents: corrupt)
    // WAV content behind an .mp3 name: recognised by content, decodes fine.
    var short = DrumSynth(sampleRate: 11025, bpm: 120, pattern: .backbeat, seconds: 6)
    let shortAudio = short.render()
    try AudioWriter.write(shortAudio, sampleRate: 11025, to: path("odd/disguised.mp3.tmp"), as: .wav)
    try? fm.removeItem(atPath: path("odd/disguised.mp3"))
    try fm.moveItem(atPath: path("odd/disguised.mp3.tmp"), toPath: path("odd/disguised.mp3"))
    // A FLAC cut off mid-stream.
    try AudioWriter.write(shortAudio, sampleRate: 11025, to: path("odd/truncated.flac"), as: .flac)
    let whole = try Data(contentsOf: URL(fileURLWithPath: path("odd/truncated.flac")))
    try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: path("odd/truncated.flac")))
    // Too short to analyse (2 s).
    var jingle = DrumSynth(sampleRate: 11025, bpm: 120, pattern: .backbeat, seconds: 2)
    try AudioWriter.write(jingle.render(), sampleRate: 11025, to: path("odd/jingle-2s.wav"), as: .wav)
    // Hidden folders are skipped.
    try AudioWriter.write(shortAudio, sampleRate: 11025, to: path(".hidden/skip-me.wav"), as: .wav)
    // A symbolic link loop.
    try? fm.removeItem(atPath: path("odd/loop"))
    try fm.createSymbolicLink(atPath: path("odd/loop"), withDestinationPath: "..")
    try writeFFmpegFixtures()
    print("fixtures written to \(root)")
} catch {
    FileHandle.standardError.write(Data("beattag-fixtures: \(error)\n".utf8))
    exit(1)
}
