import Foundation

/// The first Ctrl-C (or SIGTERM) asks the command to stop (a scan: after the files in progress); a
/// second one quits at once.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(console: Console, message: String = "stopping after the files in progress", _ onInterrupt: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            var count = 0
            source.setEventHandler {
                count += 1
                if count == 1 {
                    console.writeErr("\nbeattag: \(message) (Ctrl-C again to quit now)\n")
                    onInterrupt()
                } else {
                    exit(130)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    func restore() {
        sources.forEach { $0.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
