import BeatTagKit
import Foundation
import HTTPTypes
import Hummingbird

/// The one responder: the gate, then the page's files or the API. Nothing here turns a request's
/// path into a file path: unknown paths are 404.
struct ReviewResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let api: ReviewAPI
    let token: String
    let port: Locked<Int>

    func respond(to request: Request, context: Context) async throws -> Response {
        let gate = RequestGate(token: token, port: port.value)
        let setCookie: Bool
        switch gate.check(request) {
        case .refuse(let status, let message): return Self.hardened(APIError(status, message).response)
        case .pass(let cookie): setCookie = cookie
        }
        var response: Response
        do {
            response = try await route(request, context: context)
        } catch let error as APIError {
            response = error.response
        } catch {
            response = APIError(.internalServerError, "the request failed: \(error)").response
        }
        if setCookie { response.headers[.setCookie] = gate.cookieHeader }
        return Self.hardened(response)
    }

    /// The page loads nothing from elsewhere, no other site may frame it, and no type is guessed.
    private static func hardened(_ response: Response) -> Response {
        var response = response
        response.headers[.contentSecurityPolicy] = "default-src 'self'; media-src 'self' blob:; img-src 'self' data:; frame-ancestors 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }

    private func route(_ request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        if parts.first == "api" { return try await api.respond(to: request, parts: Array(parts.dropFirst()), context: context) }
        guard request.method == .get || request.method == .head else { throw APIError(.notFound, "nothing to POST here") }
        switch path {
        case "/", "/index.html": return Response.bytes(Data(ReviewPage.html.utf8), type: "text/html; charset=utf-8")
        case "/review.js": return Response.bytes(Data(ReviewPage.script.utf8), type: "text/javascript; charset=utf-8")
        case "/review.css": return Response.bytes(Data(ReviewPage.style.utf8), type: "text/css; charset=utf-8")
        default: throw APIError(.notFound, "not found")
        }
    }
}
