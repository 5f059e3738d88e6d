import ArgumentParser
import BeatTagKit
import Foundation

@main
struct BeatTagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beattag",
        abstract: "Offline BPM catalog for running to your own music.",
        discussion: """
            Scan folders of music you own (or CC0 / Creative Commons music), measure each track's tempo and \
            beat grid, and find the tracks that fit your running cadence. Nothing leaves this machine.

            Typical use:
              beattag scan ~/Music --source user-owned
              beattag match --spm 175
              beattag list --min-bpm 160 --max-bpm 190

            The catalog lives at $BEATTAG_CATALOG, else $XDG_DATA_HOME/beattag/catalog.sqlite, \
            else ~/.local/share/beattag/catalog.sqlite; every command takes --catalog PATH.
            """,
        version: "0.1.0",
        subcommands: [ScanCommand.self, MatchCommand.self, PlaylistCommand.self, ListCommand.self, TagCommand.self, TapCommand.self, UntaggedCommand.self, StatsCommand.self, AnalyzeCommand.self, BenchCommand.self])
}

struct CatalogOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Catalog database to use.", valueName: "path"))
    var catalog: String?

    var path: String { catalog ?? Catalog.defaultPath() }

    func open(create: Bool) throws -> Catalog {
        do { return try Catalog(path: path, create: create) } catch { throw CleanExit.failure("\(error)") }
    }
}

extension SourceType: ExpressibleByArgument {}
extension TrackState: ExpressibleByArgument {}

/// One-line errors on stderr and a chosen exit code, without ArgumentParser's usage dump.
enum CleanExit {
    static func failure(_ message: String, code: Int32 = 1) -> Error {
        FileHandle.standardError.write(Data("beattag: \(message)\n".utf8))
        return ExitCode(code)
    }
}

func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if let data = try? encoder.encode(value) { print(String(decoding: data, as: UTF8.self)) }
}

var stderrIsTerminal: Bool { isatty(2) == 1 }
var stdoutIsTerminal: Bool { isatty(1) == 1 }

func writeStderr(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
