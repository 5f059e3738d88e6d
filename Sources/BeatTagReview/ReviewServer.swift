import BeatTagKit
import FlyingFox
import FlyingSocks
import Foundation

/// `beattag review`: the page and its API on 127.0.0.1 only. Every request passes the
/// `RequestGate` first; the page's own files ship inside the binary (`ReviewPage`).
public final class ReviewServer: Sendable {
    public let token: String
    let catalog: Catalog
    let readOnly: Bool
    private let server: HTTPServer
    private let handler: ReviewHandler
    private let requestedPort: UInt16
    private let stopping = Locked(false)

    public enum StartError: Error, CustomStringConvertible {
        case cannotListen(port: UInt16, reason: String)
        public var description: String {
            switch self {
            case .cannotListen(let port, let reason):
                return port == 0 ? "cannot listen on 127.0.0.1: \(reason)" : "cannot listen on 127.0.0.1:\(port): \(reason) (another program uses it? leave out --port for a free one)"
            }
        }
    }

    /// `port` 0 takes a free one.
    public init(catalog: Catalog, readOnly: Bool, port: UInt16 = 0, token: String? = nil) throws {
        self.catalog = catalog
        self.readOnly = readOnly
        requestedPort = port
        self.token = token ?? RequestGate.freshToken()
        handler = ReviewHandler(api: ReviewAPI(catalog: catalog, readOnly: readOnly, audio: try TrackAudio(), overviews: WaveformOverviews()),
                                token: self.token)
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: QuietLog(), handler: handler)
    }

    /// Serves until `stop()`; `onListening` gets the page's URL (with its token) once connections are taken.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let failure = Locked<Error?>(nil)
        let serving = Task {
            do { try await server.run() } catch { failure.value = error; throw error }
        }
        defer { handler.api.audio.removeFolder() }
        // Listening, or failed to (a port in use fails at once; no need to wait out a timeout).
        while await !server.isListening {
            if let error = failure.value { throw StartError.cannotListen(port: requestedPort, reason: "\(error)") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            serving.cancel()
            throw StartError.cannotListen(port: requestedPort, reason: "no IPv4 address")
        }
        handler.port.value = port
        onListening("http://127.0.0.1:\(port)/?token=\(token)")
        // Closing the listening socket on stop ends `run` with "disconnected": that is the stop.
        do { try await serving.value } catch { if !stopping.value, !(error is CancellationError) { throw error } }
    }

    public func stop() async {
        stopping.value = true
        await server.stop(timeout: 2)
    }

    /// Serves on the calling thread until `requestStop()`: for a command without an async entry.
    public func serveUntilStopped(onListening: @escaping @Sendable (String) -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Locked<Error?>(nil)
        Task {
            do { try await run(onListening: onListening) } catch { failure.value = error }
            done.signal()
        }
        done.wait()
        if let error = failure.value { throw error }
    }

    /// Stops from any thread (a signal handler's reader, say).
    public func requestStop() { Task { await stop() } }

}

/// FlyingFox logs to stdout by default; `review` keeps stdout for its URL.
struct QuietLog: Logging {
    func logDebug(_ debug: @autoclosure () -> String) {}
    func logInfo(_ info: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) {}
    func logError(_ error: @autoclosure () -> String) {}
    func logCritical(_ critical: @autoclosure () -> String) {}
}
