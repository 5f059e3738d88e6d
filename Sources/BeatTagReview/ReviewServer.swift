import BeatTagKit
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `beattag review`: the page and its API on 127.0.0.1 only. Every request passes the
/// `RequestGate` first; the page's own files ship inside the binary (`ReviewPage`).
public final class ReviewServer: Sendable {
    public let token: String
    private let responder: ReviewResponder
    private let requestedPort: Int
    private let group = Locked<ServiceGroup?>(nil)
    private let stopping = Locked(false)

    public enum StartError: Error, CustomStringConvertible {
        case cannotListen(port: Int, reason: String)
        public var description: String {
            switch self {
            case .cannotListen(let port, let reason):
                return port == 0 ? "cannot listen on 127.0.0.1: \(reason)"
                    : "cannot listen on 127.0.0.1:\(port): \(reason) (another program uses it? leave out --port for a free one)"
            }
        }
    }

    /// `port` 0 takes a free one.
    public init(catalog: Catalog, readOnly: Bool, port: Int = 0, token: String? = nil) throws {
        self.token = token ?? RequestGate.freshToken()
        requestedPort = port
        responder = ReviewResponder(api: ReviewAPI(catalog: catalog, readOnly: readOnly, audio: try TrackAudio(), overviews: WaveformOverviews()),
                                    token: self.token, port: Locked(port))
    }

    /// Serves until `stop()`; `onListening` gets the page's URL (with its token) once connections are taken.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let quiet = Logger(label: "beattag.review") { _ in SwiftLogNoOpLogHandler() }
        let (responder, token) = (responder, token)
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname("127.0.0.1", port: requestedPort)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                responder.port.value = port
                onListening("http://127.0.0.1:\(port)/?token=\(token)")
            },
            logger: quiet)
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: quiet))
        group.value = serviceGroup
        defer { responder.api.audio.removeFolder() }
        do { try await serviceGroup.run() } catch {
            if stopping.value { return }
            throw StartError.cannotListen(port: requestedPort, reason: Self.reason(error))
        }
    }

    public func stop() async {
        stopping.value = true
        await group.value?.triggerGracefulShutdown()
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

    /// NIO's bind error, in words.
    private static func reason(_ error: Error) -> String {
        let text = "\(error)"
        if text.contains("Address already in use") { return "the port is in use" }
        if let range = text.range(of: "errno: ") ?? text.range(of: "reason: ") { return String(text[range.upperBound...].prefix(80)) }
        return String(text.prefix(120))
    }
}
