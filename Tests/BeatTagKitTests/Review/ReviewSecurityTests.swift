import Foundation
import XCTest

/// Every request is hostile until it shows the token, the right Host and (for a change) the page's
/// own Origin. Sent with a plain HTTP client to a real `beattag review` process.
final class ReviewSecurityTests: XCTestCase {
    func testEveryRefusalFromThePlainHTTPClient() throws {
        let fixture = try ReviewFixture(self)
        let review = try ReviewProcess(catalog: fixture.catalog)
        defer { review.stop() }
        let http = review.http
        let id = try fixture.id(of: "house-128.wav")
        let auth = [("X-Beattag-Token", review.token)]

        // Listening on 127.0.0.1 only (the kernel's table of listening sockets says so).
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let listening = table.split(separator: "\n").filter { $0.contains(String(format: ":%04X 00000000:0000 0A", review.port)) }
        XCTAssertEqual(listening.count, 1, table)
        XCTAssertTrue(listening.first?.contains(String(format: "0100007F:%04X", review.port)) ?? false, "bound to 127.0.0.1")

        func refused(_ response: RawHTTP.Response, _ status: Int, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(response.status, status, "\(why): \(response.text)", file: file, line: line)
            XCTAssertNotNil(response.error, "\(why): a one-line JSON error", file: file, line: line)
            XCTAssertEqual(response.text.trimmingCharacters(in: .newlines).split(separator: "\n").count, 1, why, file: file, line: line)
            XCTAssertFalse(response.text.contains("SQL") || response.text.contains("Fatal") || response.text.contains("/etc/passwd") && response.text.contains("root:"),
                           why, file: file, line: line)
        }

        // No token, a wrong one, one a byte short: 403, whatever is asked.
        for target in ["/", "/review.js", "/api/queue", "/api/tracks/\(id)", "/api/tracks/\(id)/audio", "/api/stats", "/nothing"] {
            refused(try http.send("GET", target), 403, "no token: \(target)")
            refused(try http.send("GET", target, headers: [("X-Beattag-Token", String(repeating: "0", count: 64))]), 403, "wrong token: \(target)")
        }
        refused(try http.send("GET", "/api/queue?token=\(review.token.dropLast())"), 403, "token a byte short")
        refused(try http.send("GET", "/api/queue", headers: [("Cookie", "beattag_token=nope")]), 403, "wrong cookie")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: [("Origin", review.origin)], body: Data(#"{"action":"double"}"#.utf8)), 403, "POST without token")

        // The token in the URL opens the page and sets an HttpOnly cookie that works from then on.
        let page = try http.send("GET", "/?token=\(review.token)")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("<title>beattag review</title>"))
        let cookie = try XCTUnwrap(page.headers["set-cookie"])
        XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie)
        XCTAssertTrue(page.headers["content-security-policy"]?.contains("default-src 'self'") ?? false, "nothing loaded from elsewhere")
        let pair = String(cookie.split(separator: ";")[0])
        // Named for this port: cookies on 127.0.0.1 are shared by every port, and a second review
        // (or another local service) must neither overwrite nor receive this one's token.
        XCTAssertTrue(pair.hasPrefix("beattag_token_\(review.port)="), pair)
        XCTAssertEqual(try http.send("GET", "/api/queue", headers: [("Cookie", pair)]).status, 200)
        let otherPort = pair.replacingOccurrences(of: "beattag_token_\(review.port)=", with: "beattag_token_\(Int(review.port) + 1)=")
        refused(try http.send("GET", "/api/queue", headers: [("Cookie", otherPort)]), 403, "the token under another port's name")

        // DNS rebinding: the right token under another name is still refused.
        refused(try http.send("GET", "/api/queue", headers: auth, host: "evil.example"), 403, "Host: evil.example")
        refused(try http.send("GET", "/api/queue", headers: auth, host: "evil.example:\(review.port)"), 403, "Host: evil.example:PORT")
        refused(try http.send("GET", "/api/queue", headers: auth, host: "127.0.0.1:1"), 403, "another port")
        XCTAssertEqual(try http.send("GET", "/api/queue", headers: auth, host: "localhost:\(review.port)").status, 200)

        // Changes: POST only, with the page's own Origin.
        let double = Data(#"{"action":"double"}"#.utf8)
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: auth + [("Origin", "http://evil.example")], body: double), 403, "cross-origin POST")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: auth + [("Origin", "null")], body: double), 403, "Origin: null")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: auth, body: double), 403, "POST without Origin")
        refused(try http.send("GET", "/api/tracks/\(id)/bpm?action=double", headers: auth), 404, "a change by GET")
        refused(try http.send("PUT", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: double), 405, "PUT")
        refused(try http.send("DELETE", "/api/tracks/\(id)", headers: review.writeHeaders), 405, "DELETE")
        XCTAssertNil(try fixture.listed("house-128.wav")["bpmManual"] as? Double, "nothing above changed the catalog")

        // Paths: nothing from a request is ever opened; traversal, plain or encoded, finds nothing.
        for target in ["/../../../../etc/passwd", "/api/../../etc/passwd", "/api/tracks/\(id)/../../../../etc/passwd",
                       "/%2e%2e/%2e%2e/etc/passwd", "/api/tracks/%2e%2e%2f%2e%2e%2fetc%2fpasswd/audio", "/..%2f..%2f..%2fetc%2fpasswd",
                       "/api/tracks/\(id)%2f..%2f..%2f/audio", "/review.js/../../../etc/passwd"] {
            let response = try http.send("GET", target, headers: auth)
            XCTAssertTrue([400, 404].contains(response.status), "\(target): \(response.status) \(response.text.prefix(200))")
            XCTAssertFalse(response.text.contains("root:"), target)
        }
        // Ids: only a catalogued one.
        refused(try http.send("GET", "/api/tracks/999999", headers: auth), 404, "unknown id")
        refused(try http.send("GET", "/api/tracks/999999/audio", headers: auth), 404, "unknown id's audio")
        refused(try http.send("GET", "/api/tracks/-1", headers: auth), 404, "negative id")
        refused(try http.send("GET", "/api/tracks/1e3", headers: auth), 404, "id not a number")
        refused(try http.send("POST", "/api/tracks/999999/bpm", headers: review.writeHeaders, body: double), 404, "decision on an unknown id")

        // Bodies: malformed, wrong shape, huge (declared or sent), none.
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data(#"{"bpm": "#.utf8)), 400, "malformed JSON")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data(#"{"action":"explode"}"#.utf8)), 400, "unknown action")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data(#"[1,2,3]"#.utf8)), 400, "wrong shape")
        refused(try http.send("POST", "/api/tracks/\(id)/rating", headers: review.writeHeaders, body: Data("{}".utf8)), 400, "a rating body without a rating")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data(#"{"bpm": 4000}"#.utf8)), 422, "BPM out of range")
        let absurd = try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data(#"{"bpm": 1e300}"#.utf8))
        refused(absurd, 422, "an absurd BPM")
        XCTAssertEqual(absurd.error, "1e+300 BPM is outside 30–300", "a few digits of it, not three hundred")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data(repeating: 0x61, count: 200_000)), 413, "200 kB body")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data("{}".utf8), declaredLength: 1 << 40), 413, "a terabyte declared")
        refused(try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders), 411, "no body, no length")
        refused(try http.send("GET", "/api/queue?limit=abc", headers: auth), 400, "limit not a number")
        for body in [#"{"shift": 0}"#, #"{"shift": 0.05}"#, #"{"shift": 3}"#, #"{"shift": 0.5, "at": 2}"#, #"{"action": "double"}"#, "{}"] {
            refused(try http.send("POST", "/api/tracks/\(id)/beat", headers: review.writeHeaders, body: Data(body.utf8)), 400, "beat " + body)
        }
        refused(try http.send("POST", "/api/tracks/\(id)/beat", headers: review.writeHeaders, body: Data(#"{"at": 99999}"#.utf8)), 422, "a beat past the end")
        XCTAssertNil(try fixture.listed("house-128.wav")["bpmManual"] as? Double, "no refused request changed the catalog")
        XCTAssertNil(try fixture.listed("house-128.wav")["beatAnchor"] as? Double)

        // The server is still there and answers the right request.
        let fine = try http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: double)
        XCTAssertEqual(fine.status, 200, fine.text)
    }

    /// A catalog this user cannot write (or `--read-only`): the page says so, and changes are refused.
    func testAReadOnlyCatalogGivesAReadOnlyPage() throws {
        let fixture = try ReviewFixture(self)
        let id = try fixture.id(of: "house-128.wav")
        func check(_ review: ReviewProcess) throws {
            defer { review.stop() }
            let (status, session) = try review.http.json("GET", "/api/session", headers: [("X-Beattag-Token", review.token)])
            XCTAssertEqual(status, 200)
            XCTAssertEqual((session as? [String: Any])?["readOnly"] as? Bool, true)
            let refused = try review.http.send("POST", "/api/tracks/\(id)/bpm", headers: review.writeHeaders, body: Data(#"{"action":"double"}"#.utf8))
            XCTAssertEqual(refused.status, 403)
            XCTAssertTrue(refused.error?.contains("read-only") ?? false, refused.text)
            let beat = try review.http.send("POST", "/api/tracks/\(id)/beat", headers: review.writeHeaders, body: Data(#"{"shift": 0.5}"#.utf8))
            XCTAssertEqual(beat.status, 403, beat.text)
            XCTAssertEqual(try review.http.send("GET", "/api/tracks/\(id)/audio", headers: [("X-Beattag-Token", review.token)]).status, 200, "listening still works")
        }
        try check(try ReviewProcess(catalog: fixture.catalog, extra: ["--read-only"]))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: fixture.catalog)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: fixture.catalog) }
        if access(fixture.catalog, W_OK) != 0 {  // root writes any file: then only --read-only can be checked
            try check(try ReviewProcess(catalog: fixture.catalog))
        }
        XCTAssertNil(try fixture.listed("house-128.wav")["bpmManual"] as? Double)
    }

    func testPortInUseAndBadCatalogAreOneLineErrors() throws {
        let fixture = try ReviewFixture(self)
        let first = try ReviewProcess(catalog: fixture.catalog)
        defer { first.stop() }
        let second = try runBinary(["review", "--port", "\(first.port)", "--catalog", fixture.catalog])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("cannot listen on 127.0.0.1:\(first.port)"), second.stderr)
        XCTAssertEqual(second.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count, 1, second.stderr)
        let missing = try runBinary(["review", "--catalog", (fixture.scanned.folder as NSString).appendingPathComponent("none.sqlite")])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertEqual(missing.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count, 1, missing.stderr)
        let badPort = try runBinary(["review", "--port", "70000", "--catalog", fixture.catalog])
        XCTAssertEqual(badPort.status, 64, badPort.stderr)
    }
}
