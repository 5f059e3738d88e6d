import Foundation
import XCTest

/// Just enough of the W3C WebDriver protocol (plain HTTP and JSON) to drive Debian's headless
/// Chromium through chromedriver: open a page, run scripts, press keys, take screenshots.
final class WebDriver {
    private let driver = Process()
    private let http: RawHTTP
    private let session: String

    /// Starts chromedriver on a free port and a headless Chromium session (scripts/test.sh installs
    /// both; without them the test is skipped, or fails under CI).
    init() throws {
        let path = try requiredTool("chromedriver")
        let port = UInt16(WebDriver.freePort())
        driver.executableURL = URL(fileURLWithPath: path)
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        http = RawHTTP(port: port)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try? http.json("GET", "/status"))?.0 != 200 { usleep(100_000) }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": ["args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                            "--autoplay-policy=no-user-gesture-required", "--window-size=1280,900",
                                            "--no-first-run", "--disable-extensions"]],
        ]]]
        let (status, reply) = try http.json("POST", "/session", capabilities)
        guard status == 200, let value = (reply as? [String: Any])?["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            driver.terminate()
            throw RawHTTPError("chromedriver refused a session (\(status)): \(String(describing: reply).prefix(300))")
        }
        session = id
    }

    func quit() {
        _ = try? http.json("DELETE", "/session/\(session)")
        if driver.isRunning { driver.terminate(); driver.waitUntilExit() }
    }

    deinit { if driver.isRunning { driver.terminate() } }

    @discardableResult
    private func command(_ method: String, _ path: String, _ body: Any? = nil) throws -> Any? {
        let (status, reply) = try http.json(method, "/session/\(session)\(path)", body ?? (method == "POST" ? [String: Any]() : nil))
        let value = (reply as? [String: Any])?["value"]
        guard status == 200 else { throw RawHTTPError("WebDriver \(method) \(path): \(status) \(String(describing: value).prefix(400))") }
        return value
    }

    func open(_ url: String) throws { try command("POST", "/url", ["url": url]) }

    /// The browser window's size in CSS pixels.
    func resize(width: Int, height: Int) throws { try command("POST", "/window/rect", ["width": width, "height": height]) }

    /// Runs `script` (a function body) in the page and returns what it returns.
    func run(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try command("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    /// Waits (polling) until `condition` (a JavaScript expression) is truthy; its last value.
    @discardableResult
    func wait(for condition: String, seconds: Double = 20, file: StaticString = #filePath, line: UInt = #line) throws -> Any? {
        let deadline = Date().addingTimeInterval(seconds)
        var last: Any?
        while Date() < deadline {
            last = try run("try { return (\(condition)) || null; } catch (e) { return null; }")
            if let last, !(last is NSNull) { return last }
            usleep(100_000)
        }
        let shown = (try? run("const e = document.getElementById('error'); return e && !e.hidden ? e.textContent : ''")) as? String ?? ""
        XCTFail("the page never reached: \(condition)" + (shown.isEmpty ? "" : "; it shows: \(shown)"), file: file, line: line)
        return nil
    }

    /// Key presses through the WebDriver actions API, as a user's keyboard sends them; `pauses`
    /// (milliseconds) between them (tapping a tempo).
    func press(_ keys: [String], pauseMilliseconds: Int = 30) throws {
        var actions: [[String: Any]] = []
        for key in keys {
            actions.append(["type": "keyDown", "value": key])
            actions.append(["type": "keyUp", "value": key])
            actions.append(["type": "pause", "duration": pauseMilliseconds])
        }
        try command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
        try command("DELETE", "/actions")
    }

    /// A mouse click on the first element `selector` (CSS) finds, as WebDriver clicks: at its centre.
    func click(_ selector: String) throws {
        let found = try command("POST", "/element", ["using": "css selector", "value": selector]) as? [String: Any]
        guard let element = found?.values.first as? String else { throw RawHTTPError("no element \(selector)") }
        try command("POST", "/element/\(element)/click")
    }

    static let enter = "\u{E007}", space = " ", tab = "\u{E004}", arrowRight = "\u{E014}", arrowLeft = "\u{E012}"

    /// A PNG of the viewport.
    func screenshot() throws -> Data {
        guard let text = try command("GET", "/screenshot") as? String, let data = Data(base64Encoded: text) else {
            throw RawHTTPError("no screenshot")
        }
        return data
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
