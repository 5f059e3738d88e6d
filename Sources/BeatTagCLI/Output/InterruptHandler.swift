import CSignalPipe
import BeatTagKit
import Foundation

/// The first Ctrl-C (or SIGTERM, or SIGHUP from a closed terminal) asks the command to stop (a scan: after the files in progress); a
/// second one quits at once.
///
/// The signal handler itself only writes a byte to a pipe (CSignalPipe); one reader thread per
/// process hands each signal to the handler in force. (libdispatch's signal sources lost about one
/// Ctrl-C in thirty here.)
final class InterruptHandler: @unchecked Sendable {
    private static let lock = NSLock()
    private static var current: InterruptHandler?
    private static var readerStarted = false

    private let console: Console
    /// What the first signal is answered with, asked when it comes (a scan waiting for another has no files in progress).
    private let message: @Sendable () -> String
    private let onInterrupt: @Sendable () -> Void
    private var count = 0
    private static var firstSignal: Int32?

    /// The exit status of a command stopped by a signal, as shells give it: 128 + the signal's number
    /// (130 for Ctrl-C, 143 for SIGTERM, 129 for a closed terminal).
    static var exitStatus: Int32 { 128 + (lock.withLock { firstSignal } ?? SIGINT) }

    convenience init(console: Console, message: String = "stopping after the files in progress", _ onInterrupt: @escaping @Sendable () -> Void) {
        self.init(console: console, message: { message }, onInterrupt)
    }

    init(console: Console, message: @escaping @Sendable () -> String, _ onInterrupt: @escaping @Sendable () -> Void) {
        self.console = console
        self.message = message
        self.onInterrupt = onInterrupt
        let fd = bt_signal_pipe_install()
        guard fd >= 0 else { return }  // no pipe: the signals keep their default action
        Self.lock.withLock {
            Self.current = self
            if !Self.readerStarted {
                Self.readerStarted = true
                let reader = Thread { Self.readSignals(from: fd) }
                reader.name = "beattag-signals"
                reader.start()
            }
        }
    }

    func restore() {
        Self.lock.withLock { if Self.current === self { Self.current = nil } }
        bt_signal_pipe_restore()
    }

    private static func readSignals(from fd: Int32) {
        var byte: UInt8 = 0
        while true {
            let got = read(fd, &byte, 1)
            if got < 0, errno == EINTR { continue }
            guard got == 1 else { return }
            lock.withLock { current }?.signalled(Int32(byte))
        }
    }

    /// A closed terminal sends SIGHUP more than once (the shell forwards it, then the kernel sends
    /// it to the foreground group): only Ctrl-C or SIGTERM again quits at once, and nothing is
    /// written to a terminal that is gone.
    private func signalled(_ signal: Int32) {
        count += 1
        Self.lock.withLock { if Self.firstSignal == nil { Self.firstSignal = signal } }
        if count == 1 {
            if signal != SIGHUP {
                console.writeErr("\nbeattag: \(message()) (\(signal == SIGTERM ? "a second SIGTERM" : "Ctrl-C again") to quit now)\n")
            }
            onInterrupt()
        } else if signal != SIGHUP {
            OpenWorkingFiles.removeAll()  // quitting at once leaves no partial render or tagged copy behind
            exit(Self.exitStatus)
        }
    }
}
