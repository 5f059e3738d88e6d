import BeatTagKit
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

    /// Writes the command's product to stdout (a playlist for `-o -`) and throws when it did not
    /// arrive (stdout closed, a full disk): a lost product must not pass for success.
    public var writeProduct: @Sendable (String) throws -> Void

    public init(writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
                writeProduct: (@Sendable (String) throws -> Void)? = nil,
                stderrIsTerminal: Bool = false, stdinIsTerminal: Bool = false) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.writeProduct = writeProduct ?? writeOut
        self.stderrIsTerminal = stderrIsTerminal
        self.stdinIsTerminal = stdinIsTerminal
    }

    /// The first error writing to the process's stdout (errno), for the exit status (`main`).
    public static let standardOutputError = Locked<Int32?>(nil)

    public static let standard = Console(
        writeOut: { text in
            if fputs(text, stdout) < 0 {
                let code = errno
                standardOutputError.update { $0 = $0 ?? code }
            }
        },
        writeErr: { text in
            fflush(stdout)  // keep the order a reader of both streams on one terminal expects
            FileHandle.standardError.write(Data(text.utf8))
        },
        writeProduct: { text in
            // Flushed here, so that a reader gone (a closed pipe) is known before the export is recorded.
            guard fputs(text, stdout) >= 0, fflush(stdout) == 0 else {
                throw CommandFailure("cannot write to stdout: \(String(cString: strerror(errno)).lowercased())")
            }
        },
        stderrIsTerminal: isatty(2) == 1, stdinIsTerminal: isatty(0) == 1)

    @TaskLocal public static var current = Console.standard

    public func print(_ text: String = "", terminator: String = "\n") { writeOut(text + terminator) }

    /// One line on stdout, whatever a file name or tag in it holds (`VisibleControls`).
    public func line(_ text: String) { print(VisibleControls.text(text)) }

    /// This console with its report moved to stderr: stdout carries a playlist (`-o -`).
    public func reportingOnStderr(_ yes: Bool = true) -> Console {
        guard yes else { return self }
        var console = self
        console.writeOut = writeErr
        return console
    }

    /// One line on stderr, prefixed `beattag: `.
    /// One line on stderr, whatever a file name in it holds (`VisibleControls`).
    public func problem(_ message: String) { writeErr("beattag: \(VisibleControls.text(message))\n") }

    /// One JSON document on stdout (sorted keys, slashes unescaped).
    public func printJSON<T: Encodable>(_ value: T) throws {
        print(try Console.json(value))
    }

    /// One JSON array on stdout, the same text `printJSON` writes for it, an element at a time as
    /// `produce` hands them over: nothing holds the whole array.
    public func printJSONArray<T: Encodable>(_ produce: (_ element: (T) throws -> Void) throws -> Void) throws {
        var first = true
        try produce { element in writeArrayElement(try Console.json(element), first: &first) }
        writeOut(first ? "[]\n" : "]\n")
    }

    /// The same, of elements handed over as JSON text.
    func printJSONArrayOfText(_ produce: (_ element: (String) throws -> Void) throws -> Void) throws {
        var first = true
        try produce { element in writeArrayElement(element, first: &first) }
        writeOut(first ? "[]\n" : "]\n")
    }

    /// "[" goes with the first element: a catalog found damaged before it leaves no half an array.
    private func writeArrayElement(_ text: String, first: inout Bool) {
        writeOut((first ? "[" : ",") + text)
        first = false
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return String(decoding: try encoder.encode(value), as: UTF8.self) } catch { throw CommandFailure("cannot write JSON: \(error)") }
    }
}
