import ArgumentParser
import BeatTagKit
import Foundation

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Set, fix or clear a track's BPM or beat grid by hand; optionally write the BPM into the file.",
        discussion: """
            A hand-set BPM wins over analysis and tags and survives rescans. --double / --half / --times \
            fix an octave (or 3:2) error from the analysed value.

            --shift-beats moves the beat grid where the analysis put it between the beats (the click \
            on the "and"s: 0.5; a sixteenth off: ±0.25; a shuffle's "and": ±0.33); --beat-at names a \
            time a beat falls on. The grid moves as a whole by the nearest quarter, third or half of a \
            beat and keeps the analysed timing. The hand-placed beat survives rescans like a hand BPM \
            and moves the beats that render, review and list use.

            --write also stores the BPM in the file's own tag (ID3 TBPM, Vorbis BPM, MP4 tmpo), rounded \
            to a whole number unless --decimals, and a hand-set BPM's mark beside it (BEATTAG_BPM_SOURCE: \
            an ID3 TXXX frame, a Vorbis comment, an MP4 freeform atom), so a scan into a new catalog \
            knows it was set by hand. The audio is never touched: a tagged copy is checked \
            (tag reads back, audio decodes to the same samples) and then renamed over the original. \
            A symbolic link's file is tagged and the link kept; a file that changed since its scan, is \
            read-only or has other hard links is left alone (rescan, or fix it, first). Ctrl-C stops \
            after the file in progress. --dry-run shows what would change.

            Examples:
              beattag tag song.flac --bpm 172
              beattag tag song.mp3 --double
              beattag tag song.ogg --clear
              beattag tag song.flac --shift-beats 0.5
              beattag tag song.flac --beat-at 61.25
              beattag tag *.flac --write --dry-run
            """)

    @Argument(help: ArgumentHelp("Catalogued audio files.", valueName: "file")) var files: [String]
    @Option(parsing: .unconditional, help: "Set this BPM by hand.", transform: PlainNumber.double) var bpm: Double?
    @Flag(help: "Remove the hand-set BPM (analysis or tag apply again).") var clear = false
    @Flag(help: "Hand-set BPM = analysed × 2.") var double = false
    @Flag(help: "Hand-set BPM = analysed ÷ 2.") var half = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Hand-set BPM = analysed × this (e.g. 1.5, 0.667).", valueName: "factor"), transform: PlainNumber.double) var times: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Move the beat grid by this fraction of a beat (0.5: half a beat later; -0.25: a sixteenth earlier).", valueName: "fraction"), transform: PlainNumber.double) var shiftBeats: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("A beat falls at this time (seconds into the file): move the grid onto it.", valueName: "seconds"), transform: PlainNumber.double) var beatAt: Double?
    @Flag(help: "Remove the hand-placed beat (the analysed grid applies again).") var clearBeat = false
    @Flag(help: "Write the BPM in use into the file's tag.") var write = false
    @Flag(help: "With --write: keep one decimal where the format allows (FLAC, Ogg, Opus, WMA; not MP4 or ID3, whose BPM is a whole number).") var decimals = false
    @Flag(help: "With --write: show what would be written, change nothing.") var dryRun = false
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        let changes = [bpm != nil, clear, double, half, times != nil].filter { $0 }.count
        guard changes <= 1 else { throw ValidationError("give one of --bpm, --clear, --double, --half, --times") }
        let beatChanges = [shiftBeats != nil, beatAt != nil, clearBeat].filter { $0 }.count
        guard beatChanges <= 1 else { throw ValidationError("give one of --shift-beats, --beat-at, --clear-beat") }
        guard changes + beatChanges >= 1 || write else {
            throw ValidationError("nothing to do: give --bpm, --clear, --double, --half, --times, --shift-beats, --beat-at, --clear-beat or --write")
        }
        if let shiftBeats, !HandBeat.isShift(shiftBeats) {
            throw ValidationError("--shift-beats takes a quarter, a third or half of a beat, -1 to 1 (0.5: half a beat; -0.25: a sixteenth earlier)")
        }
        if let beatAt, !(beatAt >= 0 && beatAt.isFinite) { throw ValidationError("--beat-at takes seconds into the file (0 or more)") }
        if dryRun && beatChanges > 0 { throw ValidationError("--dry-run shows a tag write; --shift-beats, --beat-at and --clear-beat change only the catalog") }
        if let times, !(times > 0) { throw ValidationError("--times must be positive") }
        // Before any file is read: a BPM no track can have is a usage error, like every other bad value.
        if let bpm, !TempoRanges.handSet.contains(bpm) { throw ValidationError("--bpm \(ManualBPMError.outOfRange(bpm))") }
        if dryRun && !write { throw ValidationError("--dry-run goes with --write") }
        if decimals && !write { throw ValidationError("--decimals goes with --write (the catalog keeps every decimal anyway)") }
    }

    var change: ManualBPM.Change? {
        if let bpm { return .set(bpm) }
        if clear { return .clear }
        if double { return .scale(2) }
        if half { return .scale(0.5) }
        if let times { return .scale(times) }
        return nil
    }

    var beatChange: HandBeat.Change? {
        if let shiftBeats { return .shift(shiftBeats) }
        if let beatAt { return .at(beatAt) }
        return clearBeat ? .clear : nil
    }

    func run() throws {
        let console = Console.current
        let catalog = try catalogOption.open(create: false)
        // A file being tagged is finished (or its working copy removed) before a Ctrl-C stops the run.
        let stop = Locked(false)
        let interrupts = write && !dryRun
            ? InterruptHandler(console: console, message: "stopping after the file in progress") { stop.value = true } : nil
        defer { interrupts?.restore() }
        var failures = 0
        for file in files {
            if stop.value { throw ExitCode(InterruptHandler.exitStatus) }
            do {
                var written: (path: String, file: BPMTagWriter.WrittenFile)?
                if let change {
                    // A file that cannot be tagged (changed since its scan, read-only, linked twice)
                    // is refused before anything changes.
                    if write && !dryRun { _ = try tagPlan(try ManualBPM.apply(change, to: file, in: catalog, commit: false, beat: beatChange)) }
                    // With a beat change, both in one transaction, on the beats of the new BPM: a
                    // beat change that cannot be made no longer leaves the BPM made.
                    let record = try ManualBPM.apply(change, to: file, in: catalog, commit: !dryRun, beat: beatChange)
                    if dryRun {
                        _ = try writeTag(record, file: file, console: console)
                    } else {
                        console.line(String(format: "%@: BPM %@ (%@)", file, record.bpm.map { String(format: "%.1f", $0) } ?? "none",
                                             record.bpmReason ?? "no source"))
                        if let note = record.beatsAtHandBPMNote { console.line("\(file): \(note)") }
                        if beatChange != nil { console.line("\(file): \(Self.beatText(record))") }
                        if !write { console.noteIfGone(record, named: file) }
                        // A hand BPM cleared here that `tag --write` put in the file comes back in a new catalog.
                        if !write, change == .clear, let tags = try? TagReader.read(path: record.path), let marked = BPMTagMark.manualBPM(in: tags) {
                            console.line("\(file): the file's tag still says \(String(format: "%g", marked)) BPM was set by hand, which a scan "
                                         + "into a new catalog takes up again (`tag --clear --write` removes it)")
                        }
                        // The hand BPM is committed first and the file tagged after, outside the
                        // catalog's lock: a write that fails or is killed never leaves a tagged file
                        // and a catalog without its BPM, and a long file never holds up a scan.
                        if write {
                            do { written = try writeTag(record, file: file, console: console) } catch {
                                throw BPMTagWriteError.failed("BPM saved in the catalog, but the file was not tagged: \(CatalogError.userFacing(error))")
                            }
                        }
                    }
                } else {
                    try moveBeats(file, catalog: catalog, console: console)
                }
                if change == nil && write {
                    guard let found = try catalog.track(path: try catalog.locate(file)) else { throw ManualBPMError.notInCatalog(file) }
                    written = try writeTag(found, file: file, console: console)
                }
                if let written {
                    do { try catalog.noteTagWritten(path: written.path, file: written.file) } catch {
                        throw BPMTagWriteError.failed("tag written, but the catalog could not record the new file "
                                                      + "(\(CatalogError.userFacing(error))): scan it before writing to it again")
                    }
                }
            } catch {
                failures += 1
                console.problem("\(file): \(CatalogError.userFacing(error))")
            }
        }
        if stop.value { throw ExitCode(InterruptHandler.exitStatus) }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The beat change, if one was asked for: in the catalog before any file is tagged, so a write
    /// that fails leaves it made (and said).
    private func moveBeats(_ file: String, catalog: Catalog, console: Console) throws {
        guard let beatChange else { return }
        let record = try HandBeat.apply(beatChange, to: file, in: catalog)
        console.line("\(file): \(Self.beatText(record))")
        if change == nil && !write { console.noteIfGone(record, named: file) }
    }

    /// What a beat change left: "beats moved +0.50 of a beat, onto a hand-placed beat at 61.250 s",
    /// or the analysed beats, with or without a hand-placed beat that keeps them.
    static func beatText(_ record: TrackRecord) -> String {
        guard let anchor = record.beatAnchor else { return "beats as analysed (no hand-placed beat)" }
        let moved = BeatAnchor.shift(of: anchor, on: record.beatsAtBPMInUse) ?? 0
        if moved == 0 { return String(format: "beats as analysed, kept there by a hand-placed beat at %.3f s", anchor) }
        return String(format: "beats moved %+.2f of a beat, onto a hand-placed beat at %.3f s", moved, anchor)
    }

    /// Every check a write makes, and what it would write.
    private func tagPlan(_ record: TrackRecord) throws -> BPMTagWriter.Plan {
        guard let bpm = record.bpm else { throw BPMTagWriteError.failed("no BPM to write") }
        try BPMTagWriter.checkUnchangedSinceScan(record)
        _ = try BPMTagWriter.replaceableFile(record.path)
        return try BPMTagWriter.plan(path: record.path, bpm: bpm, decimals: decimals, manual: record.bpmSource == .manual)
    }

    /// Writes (or with --dry-run shows) the record's BPM into its file; the path and what the
    /// rewritten file now is, when it was rewritten. A dry run makes every check the write would.
    private func writeTag(_ record: TrackRecord, file: String, console: Console) throws -> (path: String, file: BPMTagWriter.WrittenFile)? {
        let plan = try tagPlan(record)
        if dryRun {
            console.line("\(file): would write \(plan.changeText)")
            return nil
        }
        if plan.isNoChange {
            console.line("\(file): BPM tag already \"\(plan.newValue)\"")
            return nil
        }
        let written = try BPMTagWriter.write(plan)
        console.line("\(file): wrote \(plan.changeText)")
        return (record.path, written)
    }
}
