/// A command that cannot do its job: `BeatTagCLI.run` prints `beattag: <message>` on stderr (one
/// line, no usage dump) and exits with `code`.
public struct CommandFailure: Error, CustomStringConvertible {
    public var message: String
    public var code: Int32

    public init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }

    public var description: String { message }
}
