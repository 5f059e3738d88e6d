import Foundation

/// Where a command's output goes: the process's stdout/stderr when run as `beattag`, a buffer when a
/// test runs the command in process. Commands read `Console.current` once at the start and hand that
/// value to any callback that may run on another thread (task-locals do not follow worker threads).
public struct Console: Sendable {
    public var writeOut: @Sendable (String) -> Void
    public var writeErr: @Sendable (String) -> Void
    /// Progress lines are drawn only on a terminal.
    public var stderrIsTerminal: Bool
    /// `tap` reads keystrokes and needs a terminal.
    public var stdinIsTerminal: Bool

    public init(writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
                stderrIsTerminal: Bool = false, stdinIsTerminal: Bool = false) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.stderrIsTerminal = stderrIsTerminal
        self.stdinIsTerminal = stdinIsTerminal
    }

    public static let standard = Console(
        writeOut: { text in fputs(text, stdout) },
        writeErr: { text in
            fflush(stdout)  // keep the order a reader of both streams on one terminal expects
            FileHandle.standardError.write(Data(text.utf8))
        },
        stderrIsTerminal: isatty(2) == 1, stdinIsTerminal: isatty(0) == 1)

    @TaskLocal public static var current = Console.standard

    public func print(_ text: String = "", terminator: String = "\n") { writeOut(text + terminator) }

    /// This console with its report moved to stderr: stdout carries a playlist (`-o -`).
    public func reportingOnStderr(_ yes: Bool = true) -> Console {
        guard yes else { return self }
        var console = self
        console.writeOut = writeErr
        return console
    }

    /// One line on stderr, prefixed `beattag: `.
    public func problem(_ message: String) { writeErr("beattag: \(message)\n") }

    /// One JSON document on stdout (sorted keys, slashes unescaped).
    public func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(value) } catch { throw CommandFailure("cannot write JSON: \(error)") }
        print(String(decoding: data, as: UTF8.self))
    }
}
