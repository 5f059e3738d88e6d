import ArgumentParser
import Foundation

/// What people type before ArgumentParser reads it: `--catalog PATH` before the command is moved
/// after it (every command takes it), and a misspelt command gets "did you mean".
enum CommandLineShape {
    static var commandNames: [String] {
        // Aliases too (`show` for `list`): the help lists them, and they were refused here.
        BeatTagCommand.configuration.subcommands.flatMap { [$0.configuration.commandName].compactMap { $0 } + $0.configuration.aliases } + ["help"]
    }

    static func normalized(_ arguments: [String]) throws -> [String] {
        var arguments = arguments
        var leading: [String] = []
        // `beattag --catalog c.sqlite list` → `beattag list --catalog c.sqlite`.
        while let first = arguments.first, first == "--catalog" || first.hasPrefix("--catalog=") {
            let takesNext = first == "--catalog" && arguments.count > 1
            leading += Array(arguments.prefix(takesNext ? 2 : 1))
            arguments.removeFirst(takesNext ? 2 : 1)
        }
        guard let command = arguments.first, !command.hasPrefix("-") else { return leading.isEmpty ? arguments : arguments + leading }
        try refuseUnknown(command)
        // `beattag help nosuch` printed the overview and exited 0: a script would take it as found.
        if command == "help", arguments.count > 1, !arguments[1].hasPrefix("-") {
            try refuseUnknown(arguments[1])
            // No command has commands of its own: `help scan nosuch` printed scan's help, exit 0.
            if let extra = arguments.dropFirst(2).first(where: { !$0.hasPrefix("-") }) {
                throw CommandFailure("'\(arguments[1])' has no command '\(extra)' (`beattag help \(arguments[1])` shows its help)",
                                     code: ExitCode.validationFailure.rawValue)
            }
        }
        try refuseFilesReadAsOptions(arguments.dropFirst())
        return [command] + leading + arguments.dropFirst()
    }

    static func refuseUnknown(_ command: String) throws {
        guard !commandNames.contains(command) else { return }
        let nearest = commandNames.map { ($0, editDistance($0, command)) }.min { $0.1 < $1.1 }
        var message = "unknown command '\(command)'"
        if let nearest, nearest.1 <= max(2, command.count / 3) { message += "; did you mean '\(nearest.0)'?" }
        throw CommandFailure(message + " (`beattag --help` lists the commands)", code: ExitCode.validationFailure.rawValue)
    }

    /// `beattag tag -dash.flac --bpm 140` would be read as the short options -d -a -s -h …, print
    /// help and exit 0 having done nothing: a script would see success. An argument that looks like
    /// a bundle of short options but names an existing file is refused, with the way to name it.
    static func refuseFilesReadAsOptions(_ arguments: ArraySlice<String>) throws {
        for argument in arguments.prefix(while: { $0 != "--" })
        where argument.count > 2 && argument.hasPrefix("-") && !argument.hasPrefix("--") && Double(argument) == nil
            && FileManager.default.fileExists(atPath: argument) {
            throw CommandFailure("'\(argument)' would be read as options; name the file ./\(argument)",
                                 code: ExitCode.validationFailure.rawValue)
        }
    }

    /// Levenshtein distance, for suggestions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
