// The `beattag` executable: everything else lives in BeatTagCLI (commands) and BeatTagKit (the work).
import BeatTagCLI
import Foundation

var status = BeatTagCLI.run(Array(CommandLine.arguments.dropFirst()))
// Output that never arrived (a full disk, a file closed under it) must not pass for success:
// `beattag list --json > lib.json` on a full disk exited 0 with a cut-off file. (A reader that
// went away, `beattag list | head`, ends the process by SIGPIPE, as for any tool.)
if fflush(stdout) != 0 { Console.standardOutputError.update { $0 = $0 ?? errno } }
if status == 0, let code = Console.standardOutputError.value {
    fputs("beattag: cannot write to stdout: \(String(cString: strerror(code)).lowercased())\n", stderr)
    status = 1
}
exit(status)
