import Foundation
import HTTPTypes
import Hummingbird

/// Every request passes here before anything else: the page listens on loopback, but any web page
/// the user visits can send requests to it, and a DNS-rebinding name can make them same-origin.
/// - `Host` must be `127.0.0.1:PORT` or `localhost:PORT`;
/// - the session token must come with it: `?token=` (which also sets an HttpOnly cookie), the
///   `X-Beattag-Token` header, or that cookie;
/// - a change must be a POST whose `Origin` is this server (browsers always send it on POST), with
///   a body of at most `maxBody` bytes declared by `Content-Length`.
struct RequestGate: Sendable {
    let token: String
    let port: Int

    /// Cookies on 127.0.0.1 are shared by every port: one named for this port keeps two reviews
    /// (and any other local service) from overwriting or receiving each other's token.
    var cookieName: String { "beattag_token_\(port)" }
    static let tokenHeader = HTTPField.Name("X-Beattag-Token")!
    /// A decision is a few dozen bytes; anything much larger is not one.
    static let maxBody = 16 * 1024

    enum Verdict: Equatable {
        case pass(setCookie: Bool)
        case refuse(HTTPResponse.Status, String)
    }

    var allowedHosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)"] }
    var allowedOrigins: [String] { allowedHosts.map { "http://\($0)" } }

    func check(_ request: Request) -> Verdict {
        // HTTP/1.1's Host header arrives as the request's authority.
        guard let host = request.head.authority, allowedHosts.contains(host.lowercased()) else {
            return .refuse(.forbidden, "this page answers only to 127.0.0.1:\(port) or localhost:\(port)")
        }
        let fromQuery = request.uri.queryParameters["token"].map(String.init)
        let presented = [fromQuery, request.headers[Self.tokenHeader], cookie(request)].compactMap { $0 }
        guard presented.contains(where: matches) else {
            return .refuse(.forbidden, "a valid session token is needed: open the URL `beattag review` printed")
        }
        switch request.method {
        case .get, .head:
            break
        case .post:
            guard let origin = request.headers[.origin], allowedOrigins.contains(origin.lowercased()) else {
                return .refuse(.forbidden, "changes are accepted only from this page (same-origin Origin header)")
            }
            guard let length = request.headers[.contentLength].flatMap({ Int($0) }) else {
                return .refuse(.lengthRequired, "a change needs a JSON body with a Content-Length")
            }
            guard length <= Self.maxBody else { return .refuse(.contentTooLarge, "the body is larger than \(Self.maxBody) bytes") }
        default:
            return .refuse(.methodNotAllowed, "only GET, HEAD and POST are answered")
        }
        return .pass(setCookie: fromQuery.map(matches) ?? false)
    }

    /// The session cookie, set when the page is opened with its token: the page's own requests then
    /// carry it, and scripts elsewhere cannot read it.
    var cookieHeader: String { "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    private func cookie(_ request: Request) -> String? {
        for field in request.headers[values: .cookie].flatMap({ $0.split(separator: ";") }) {
            let pair = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == cookieName { return pair[1] }
        }
        return nil
    }

    /// Compared in constant time: a timing difference must not leak the token a byte at a time.
    private func matches(_ candidate: String) -> Bool {
        let a = Array(candidate.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// 32 random bytes as hex, from the system's generator.
    static func freshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
