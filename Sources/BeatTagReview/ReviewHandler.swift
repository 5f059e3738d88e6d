import FlyingFox
import Foundation

/// The one handler: the gate, then the page's files or the API. Nothing here turns a request's
/// path into a file path: unknown paths are 404.
final class ReviewHandler: HTTPHandler, Sendable {
    let api: ReviewAPI
    let token: String
    let port = Locked<UInt16>(0)

    init(api: ReviewAPI, token: String) {
        self.api = api
        self.token = token
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let gate = RequestGate(token: token, port: port.value)
        let setCookie: Bool
        switch gate.check(request) {
        case .refuse(let status, let message): return Self.hardened(APIError(status, message).response)
        case .pass(let cookie): setCookie = cookie
        }
        var response: HTTPResponse
        do {
            response = try await route(request)
        } catch let error as APIError {
            response = error.response
        } catch {
            response = APIError(.internalServerError, "the request failed: \(error.localizedDescription)").response
        }
        if setCookie { response.headers[.setCookie] = gate.cookieHeader }
        return Self.hardened(response)
    }

    /// The page loads nothing from elsewhere, no other site may frame it, and no type is guessed.
    private static func hardened(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers[HTTPHeader("Content-Security-Policy")] = "default-src 'self'; media-src 'self' blob:; img-src 'self' data:; frame-ancestors 'none'"
        response.headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        response.headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        return response
    }

    private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true)
        if parts.first == "api" { return try await api.respond(to: request, parts: Array(parts.dropFirst())) }
        guard request.method == .GET || request.method == .HEAD else { throw APIError(.notFound, "nothing to POST here") }
        switch request.path {
        case "/", "/index.html": return ReviewPage.response(ReviewPage.html, type: "text/html; charset=utf-8")
        case "/review.js": return ReviewPage.response(ReviewPage.script, type: "text/javascript; charset=utf-8")
        case "/review.css": return ReviewPage.response(ReviewPage.style, type: "text/css; charset=utf-8")
        default: throw APIError(.notFound, "not found")
        }
    }
}
