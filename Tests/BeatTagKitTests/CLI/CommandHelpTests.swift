@testable import BeatTagCLI
import XCTest

/// Every command's --help, in process: it must print to stdout, exit 0, and teach (an overview,
/// usage, and help text for every option).
final class CommandHelpTests: XCTestCase {
    func testEveryCommandsHelpTeaches() throws {
        let commands = BeatTagCommand.configuration.subcommands
        XCTAssertEqual(commands.count, 15)
        for command in commands {
            let name = command.configuration.commandName ?? "?"
            let help = try runBeattag([name, "--help"])
            XCTAssertEqual(help.status, 0, name)
            XCTAssertEqual(help.stderr, "", name)
            XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: "), "\(name): \(help.stdout.prefix(80))")
            XCTAssertTrue(help.stdout.contains("USAGE: beattag \(name)"), name)
            XCTAssertGreaterThan(command.configuration.abstract.count, 20, "\(name) needs an abstract that says what it does")
            // Every option line has its help text beside or below it.
            let lines = help.stdout.components(separatedBy: "\n")
            guard let start = lines.firstIndex(of: "OPTIONS:") else { XCTFail("\(name): no OPTIONS"); continue }
            for (i, line) in lines.enumerated().dropFirst(start + 1) where line.hasPrefix("  -") {
                let beside = line.trimmingCharacters(in: .whitespaces).contains("  ")
                let below = i + 1 < lines.count && lines[i + 1].hasPrefix("      ") && !lines[i + 1].hasPrefix("  -")
                XCTAssertTrue(beside || below, "\(name): option without help: \(line)")
            }
        }
    }

    func testRootHelpListsEveryCommand() throws {
        let help = try runBeattag(["--help"])
        XCTAssertEqual(help.status, 0)
        for command in BeatTagCommand.configuration.subcommands {
            XCTAssertTrue(help.stdout.contains(command.configuration.commandName ?? "?"))
        }
    }

    func testUsageErrorsGoToStderrWithStatus64() throws {
        let result = try runBeattag(["match", "--spm", "fast"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("Error: "), result.stderr)
    }
}
