import ArgumentParser
import BeatTagKit
import Foundation

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
        let console = Console.current
        // The file first: a wrong name is the answer whether or not there is a terminal.
        let catalog = try catalogOption.open(create: false)
        let record: TrackRecord
        do {
            guard let found = try catalog.track(path: try catalog.locate(file)) else { throw ManualBPMError.notInCatalog(file) }
            record = found
        } catch { throw CommandFailure("\(file): \(CatalogError.userFacing(error))") }
        guard console.stdinIsTerminal else {
            throw CommandFailure("tap needs a terminal to read your taps; in scripts use `beattag tag FILE --bpm N`", code: 2)
        }
        console.line("Tapping \(record.displayName())" + (record.bpm.map { String(format: " (now %.1f BPM, %@)", $0, record.bpmSource?.rawValue ?? "") } ?? ""))
        console.print("Enter/Space on each beat · s save · q quit")
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
                guard taps.tap(at: Date().timeIntervalSince(start)) else { continue }  // one press read twice
                if let bpm = taps.bpm, let spread = taps.spread {
                    // Said while tapping, not only when saving: `s` would refuse it and the taps were lost.
                    let outside = TempoRanges.handSet.contains(bpm) ? ""
                        : String(format: "  (outside %g–%g: tap every beat, or pause 2 s to start again)", TempoRanges.handSet.lowerBound, TempoRanges.handSet.upperBound)
                    console.print(String(format: "  %2d taps  %6.1f BPM  ±%.1f", taps.times.count, bpm, spread) + outside)
                } else {
                    console.print("  \(taps.times.count) tap\(taps.times.count == 1 ? "" : "s")…")
                }
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                guard let bpm = taps.bpm, taps.times.count >= 4 else {
                    console.print("  tap at least 4 beats first")
                    continue
                }
                guard TempoRanges.handSet.contains(bpm) else {
                    console.print(String(format: "  %.1f BPM is outside %g–%g: nothing saved; tap again (pause 2 s to start over) or q", bpm,
                                         TempoRanges.handSet.lowerBound, TempoRanges.handSet.upperBound))
                    continue
                }
                let saved = try ManualBPM.apply(.set(bpm), to: file, in: catalog)
                console.line(String(format: "saved %.1f BPM for %@", saved.bpm ?? bpm, saved.displayName()))
                return
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 27, 4:
                console.print("quit, nothing saved")
                return
            default:
                continue
            }
        }
    }
}
