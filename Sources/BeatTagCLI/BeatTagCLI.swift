import ArgumentParser
import BeatTagKit

/// Runs `beattag` with arguments and returns the exit status: the executable's whole `main`, and how
/// tests run commands in process (with a capturing `Console`).
public enum BeatTagCLI {
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        Console.$current.withValue(console) {
            do {
                let arguments = try CommandLineShape.normalized(arguments)
                var command = try BeatTagCommand.parseAsRoot(arguments)
                try command.run()
                return 0
            } catch let failure as CommandFailure {
                console.problem(failure.message)
                return failure.code
            } catch where CatalogError.userFacing(error) is CatalogError {
                // A catalog error, or a database error reduced to SQLite's message (never the SQL).
                let reason = CatalogError.userFacing(error)
                console.problem("\(reason)")
                return (reason as? CatalogError)?.isUnusable == true ? 2 : 1
            } catch {
                // Help, version, usage errors and ExitCode: ArgumentParser's own text and status.
                let code = BeatTagCommand.exitCode(for: error).rawValue
                let message = BeatTagCommand.fullMessage(for: error)
                if !message.isEmpty {
                    if code == 0 { console.print(message) } else { console.writeErr(message + "\n") }
                }
                return code
            }
        }
    }
}
