import ArgumentParser
import BeatTagKit
import Foundation

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Set, fix or clear a track's BPM by hand; optionally write it into the file.",
        discussion: """
            A hand-set BPM wins over analysis and tags and survives rescans. --double / --half / --times \
            fix an octave (or 3:2) error from the analysed value.

            --write also stores the BPM in the file's own tag (ID3 TBPM, Vorbis BPM, MP4 tmpo), rounded \
            to a whole number unless --decimals. The audio is never touched: a tagged copy is checked \
            (tag reads back, audio decodes to the same samples) and then renamed over the original. \
            --dry-run shows what would change.

            Examples:
              beattag tag song.flac --bpm 172
              beattag tag song.mp3 --double
              beattag tag song.ogg --clear
              beattag tag *.flac --write --dry-run
            """)

    @Argument(help: ArgumentHelp("Catalogued audio files.", valueName: "file")) var files: [String]
    @Option(help: "Set this BPM by hand.") var bpm: Double?
    @Flag(help: "Remove the hand-set BPM (analysis or tag apply again).") var clear = false
    @Flag(help: "Hand-set BPM = analysed × 2.") var double = false
    @Flag(help: "Hand-set BPM = analysed ÷ 2.") var half = false
    @Option(help: ArgumentHelp("Hand-set BPM = analysed × this (e.g. 1.5, 0.667).", valueName: "factor")) var times: Double?
    @Flag(help: "Write the BPM in use into the file's tag.") var write = false
    @Flag(help: "With --write: keep one decimal where the format allows (not MP4).") var decimals = false
    @Flag(help: "With --write: show what would be written, change nothing.") var dryRun = false
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        let changes = [bpm != nil, clear, double, half, times != nil].filter { $0 }.count
        guard changes <= 1 else { throw ValidationError("give one of --bpm, --clear, --double, --half, --times") }
        guard changes == 1 || write else { throw ValidationError("nothing to do: give --bpm, --clear, --double, --half, --times or --write") }
        if let times, !(times > 0) { throw ValidationError("--times must be positive") }
        if dryRun && !write { throw ValidationError("--dry-run goes with --write") }
    }

    var change: ManualBPM.Change? {
        if let bpm { return .set(bpm) }
        if clear { return .clear }
        if double { return .scale(2) }
        if half { return .scale(0.5) }
        if let times { return .scale(times) }
        return nil
    }

    func run() throws {
        let catalog = try catalogOption.open(create: false)
        var failures = 0
        for file in files {
            do {
                var record: TrackRecord
                if let change, !dryRun {
                    record = try ManualBPM.apply(change, to: file, in: catalog)
                    print(String(format: "%@: BPM %@ (%@)", file, record.bpm.map { String(format: "%.1f", $0) } ?? "none",
                                 record.bpmReason ?? "no source"))
                } else {
                    guard let found = try catalog.track(path: FileWalker.absolutePath(file)) else {
                        throw ManualBPMError.notInCatalog(FileWalker.absolutePath(file))
                    }
                    record = found
                }
                if write { try writeTag(record, file: file) }
            } catch {
                failures += 1
                writeStderr("beattag: \(file): \(error)\n")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func writeTag(_ record: TrackRecord, file: String) throws {
        guard let bpm = record.bpm else { throw BPMTagWriteError.failed("no BPM to write") }
        let plan = try BPMTagWriter.plan(path: record.path, bpm: bpm, decimals: decimals)
        let change = "BPM tag \(plan.oldValue.map { "\"\($0)\"" } ?? "(none)") → \"\(plan.newValue)\" [\(plan.container)]"
        if dryRun {
            print("\(file): would write \(change)")
            return
        }
        if plan.oldValue == plan.newValue {
            print("\(file): BPM tag already \"\(plan.newValue)\"")
            return
        }
        try BPMTagWriter.write(plan)
        print("\(file): wrote \(change)")
    }
}

struct TapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap",
        abstract: "Tap a track's tempo on the keyboard and save it as its BPM.",
        discussion: """
            Play the track in your player, then press Enter or Space on every beat. The running BPM and \
            how steady your taps are show after each tap; a pause of over two seconds starts again. \
            Press s to save the BPM (it wins over analysis and survives rescans), q to quit without saving. \
            Needs a terminal.
            """)

    @Argument(help: ArgumentHelp("A catalogued audio file.", valueName: "file")) var file: String
    @OptionGroup var catalogOption: CatalogOption

    func run() throws {
        guard isatty(0) == 1 else {
            throw CleanExit.failure("tap needs a terminal to read your taps; in scripts use `beattag tag FILE --bpm N`", code: 2)
        }
        let catalog = try catalogOption.open(create: false)
        guard let record = try catalog.track(path: FileWalker.absolutePath(file)) else {
            throw CleanExit.failure("\(ManualBPMError.notInCatalog(FileWalker.absolutePath(file)))")
        }
        print("Tapping \(displayName(record))" + (record.bpm.map { String(format: " (now %.1f BPM, %@)", $0, record.bpmSource?.rawValue ?? "") } ?? ""))
        print("Enter/Space on each beat · s save · q quit")
        var original = termios()
        tcgetattr(0, &original)
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(0, TCSANOW, &raw)
        defer { tcsetattr(0, TCSANOW, &original) }
        var taps = TapTempo()
        let start = Date()
        while true {
            var byte: UInt8 = 0
            guard read(0, &byte, 1) == 1 else { break }
            switch byte {
            case 10, 13, 32:
                taps.tap(at: Date().timeIntervalSince(start))
                if let bpm = taps.bpm, let spread = taps.spread {
                    print(String(format: "  %2d taps  %6.1f BPM  ±%.1f", taps.times.count, bpm, spread))
                } else {
                    print("  \(taps.times.count) tap\(taps.times.count == 1 ? "" : "s")…")
                }
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                guard let bpm = taps.bpm, taps.times.count >= 4 else {
                    print("  tap at least 4 beats first")
                    continue
                }
                let saved = try ManualBPM.apply(.set(bpm), to: file, in: catalog)
                print(String(format: "saved %.1f BPM for %@", saved.bpm ?? bpm, displayName(saved)))
                return
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 27, 4:
                print("quit, nothing saved")
                return
            default:
                continue
            }
        }
    }
}

struct UntaggedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untagged",
        abstract: "Tracks that need a human: no BPM, octave in doubt, or low confidence, most useful first.",
        discussion: """
            Low confidence means below 0.8, the tracks `match` marks with `?`: the confidence is the \
            calibrated probability that the analysed tempo is right. Fix them with `beattag tap FILE`, \
            `beattag tag FILE --bpm N`, or `--double` / `--half`.
            """)

    @Option(help: "Show at most this many.") var limit: Int?
    @Flag(help: "JSON instead of a table.") var json = false
    @OptionGroup var catalogOption: CatalogOption

    struct Row: Encodable { var path: String; var reason: String; var bpm: Double?; var alternative: Double?; var confidence: Double? }

    func run() throws {
        let catalog = try catalogOption.open(create: false)
        let all = UntaggedQueue.items(try catalog.allTracks())
        let items = limit.map { Array(all.prefix($0)) } ?? all
        if json {
            printJSON(items.map { Row(path: $0.track.path, reason: $0.reason.rawValue, bpm: $0.track.bpm,
                                      alternative: $0.track.bpmAlternative, confidence: $0.track.confidence) })
            return
        }
        guard !items.isEmpty else { print("nothing needs a human: every track has a BPM you can trust"); return }
        var table = TextTable(columns: ["#", "why", "BPM", "or", "conf", "track"])
        for (i, item) in items.enumerated() {
            let t = item.track
            table.add(["\(i + 1)", item.reason.rawValue, t.bpm.map { String(format: "%.1f", $0) } ?? "-",
                       t.bpmAlternative.map { String(format: "%.1f", $0) } ?? "-", t.confidence.map { String(format: "%.2f", $0) } ?? "-",
                       displayName(t) + "  (\(t.path))"])
        }
        print(table.render(), terminator: "")
        print("\(items.count) of \(all.count) track\(all.count == 1 ? "" : "s") to check")
    }
}
