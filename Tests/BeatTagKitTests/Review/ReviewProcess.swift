import Foundation
import XCTest

/// `beattag review` as a real process: its first stdout line is the URL; SIGINT stops it.
final class ReviewProcess {
    let process = Process()
    let url: String
    let port: UInt16
    let token: String
    /// What the server wrote to stderr (shown when a check on it fails), read from a file that has
    /// no name: it is unlinked once open, so nothing is left in /tmp however the test run ends
    /// (XCTest keeps every test case, and the processes they hold, until the run exits).
    private let errorLog: FileHandle
    var stderr: String {
        errorLog.seek(toFileOffset: 0)
        return String(decoding: errorLog.readDataToEndOfFile(), as: UTF8.self)
    }
    var http: RawHTTP { RawHTTP(port: port) }
    var origin: String { "http://127.0.0.1:\(port)" }
    /// Headers a same-origin script sends with a change.
    var writeHeaders: [(String, String)] { [("X-Beattag-Token", token), ("Origin", origin)] }

    init(catalog: String, extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = URL(fileURLWithPath: TestPaths.executable)
        process.arguments = ["review", "--catalog", catalog] + extra
        let out = Pipe()
        process.standardOutput = out
        let errorPath = (NSTemporaryDirectory() as NSString).appendingPathComponent("beattag-review-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        errorLog = try FileHandle(forReadingFrom: URL(fileURLWithPath: errorPath))
        unlink(errorPath)
        try process.run()
        // The first line, read byte by byte: the server keeps stdout open.
        var line = Data()
        let reader = out.fileHandleForReading
        while true {
            let byte = reader.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        url = String(decoding: line, as: UTF8.self)
        guard let parsed = URLComponents(string: url), let port = parsed.port,
              let token = parsed.queryItems?.first(where: { $0.name == "token" })?.value else {
            process.terminate()
            throw RawHTTPError("review printed no URL first, but \"\(url)\"")
        }
        self.port = UInt16(port)
        self.token = token
    }

    /// Ctrl-C: the server stops cleanly (exit 0) within a few seconds.
    func stop(file: StaticString = #filePath, line: UInt = #line) {
        guard process.isRunning else { return }
        interrupt(process, within: 15, file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "review stops cleanly on Ctrl-C: \(stderr)", file: file, line: line)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
