// The `beattag` executable: everything else lives in BeatTagCLI (commands) and BeatTagKit (the work).
import BeatTagCLI
import Foundation

let status = BeatTagCLI.run(Array(CommandLine.arguments.dropFirst()))
fflush(stdout)
exit(status)
