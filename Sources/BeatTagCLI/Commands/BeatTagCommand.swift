import ArgumentParser
import BeatTagKit
import Foundation

/// The root command: `beattag` and its subcommands.
public struct BeatTagCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "beattag",
        abstract: "Offline BPM catalog for running to your own music.",
        discussion: """
            Scan folders of music you own (or CC0 / Creative Commons music), measure each track's tempo and \
            beat grid, and find the tracks that fit your running cadence. Nothing leaves this machine.

            Typical use:
              beattag scan ~/Music --source user-owned
              beattag match --spm 175
              beattag list --min-bpm 160 --max-bpm 190
              beattag workout 4x4 --max-hr 190 -o intervals.m3u8

            The catalog lives at $BEATTAG_CATALOG, else $XDG_DATA_HOME/beattag/catalog.sqlite, \
            else ~/.local/share/beattag/catalog.sqlite; every command that uses it takes --catalog PATH.
            """,
        version: "0.1.0",
        subcommands: [
            ScanCommand.self, MatchCommand.self, PlaylistCommand.self, ListCommand.self, TagCommand.self, TapCommand.self,
            UntaggedCommand.self, StatsCommand.self, ZonesCommand.self, WorkoutCommand.self, RenderCommand.self, RateCommand.self,
            ReviewCommand.self, AnalyzeCommand.self, BenchCommand.self,
        ])

    public init() {}
}

extension SourceType: ExpressibleByArgument {}
extension TrackState: ExpressibleByArgument {}
extension TrackQuery.Sort: ExpressibleByArgument {}
