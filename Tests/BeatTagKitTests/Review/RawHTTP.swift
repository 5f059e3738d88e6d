import Foundation
import XCTest

/// A plain HTTP/1.1 client over a socket: it sends exactly the bytes a test writes (any `Host`, a
/// path with `/../` left in, a body that lies about its length), which URLSession would tidy up.
struct RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]  // names lower-cased
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The `error` of a one-line JSON refusal.
        var error: String? {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
            return object["error"] as? String
        }
    }

    let port: UInt16

    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: Data? = nil,
              host: String? = nil, declaredLength: Int? = nil) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let length = declaredLength ?? body?.count { head += "Content-Length: \(length)\r\n" }
        head += "\r\n"
        return try exchange(Data(head.utf8) + (body ?? Data()))
    }

    /// JSON in, JSON out (the WebDriver protocol and the API both speak it).
    func json(_ method: String, _ target: String, _ object: Any? = nil, headers: [(String, String)] = []) throws -> (Int, Any?) {
        let body = try object.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try send(method, target, headers: [("Content-Type", "application/json")] + headers, body: body)
        return (response.status, try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]))
    }

    private func exchange(_ request: Data) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError("socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawHTTPError("connect to port \(port): errno \(errno)") }
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Until the server closes, or the body its Content-Length announced is in (chromedriver
        // keeps the connection open).
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
            if let split = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).lowercased()
                if let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                   let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
                   received.count - split.upperBound >= length { break }
            }
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else { throw RawHTTPError("no HTTP response (\(received.count) bytes)") }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(received[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = Self.dechunked(body) }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunked(_ data: Data) -> Data {
        var out = Data(), rest = data[...]
        while let line = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            let start = line.upperBound
            out.append(rest[start..<min(rest.endIndex, start + size)])
            rest = rest[min(rest.endIndex, start + size + 2)...]
        }
        return out
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
