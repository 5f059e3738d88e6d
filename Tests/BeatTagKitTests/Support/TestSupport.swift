import BeatTagCLI
import BeatTagKit
import GRDB
import Foundation
import XCTest

enum TestPaths {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Fixtures/library").path

    static func fixture(_ relative: String) -> String { (fixtures as NSString).appendingPathComponent(relative) }
    /// A clip of ../shared/corpus-dev (beside the repository, also in CI); skips the test elsewhere.
    static func sharedClip(_ name: String) throws -> String {
        let clip = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus-dev/\(name)").path
        guard FileManager.default.fileExists(atPath: clip) else { throw XCTSkip("../shared/corpus-dev is not beside the repository") }
        return clip
    }

    /// The built `beattag` executable next to the test bundle.
    static var executable: String {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("beattag").path
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("beattag").path
    }
}

/// A plain SQLite connection for checks the catalog API does not offer (integrity, raw counts). It
/// waits on locks: a catalog closed a moment ago by an in-process command may still be checkpointing.
func checkingConnection(_ path: String) throws -> DatabaseQueue {
    var config = Configuration()
    config.busyMode = .timeout(10)
    return try DatabaseQueue(path: path, configuration: config)
}

/// A fresh temporary folder, removed when the test ends.
func temporaryDirectory(_ test: XCTestCase) throws -> String {
    let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("beattag-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
    return dir
}

/// `folder` (made, with its parents) holding copies of the named fixtures, by their last name.
@discardableResult
func folder(_ folder: String, holding fixtures: [String]) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in fixtures {
        try FileManager.default.copyItem(atPath: TestPaths.fixture(name), toPath: (folder as NSString).appendingPathComponent((name as NSString).lastPathComponent))
    }
    return folder
}

/// A private copy of Fixtures/library (the repository's copy is never scanned in place by tests that change it).
func copyOfFixtures(_ test: XCTestCase) throws -> String {
    let dir = try temporaryDirectory(test)
    let target = (dir as NSString).appendingPathComponent("library")
    try FileManager.default.copyItem(atPath: TestPaths.fixtures, toPath: target)
    return target
}

/// A copy of the fixtures scanned (in process) into a fresh catalog in a folder of its own, the
/// folder for the test's other files.
struct ScannedFixtures {
    var library: String
    var catalog: String
    var folder: String { (catalog as NSString).deletingLastPathComponent }
    var scan: CommandResult

    init(_ test: XCTestCase) throws {
        library = try copyOfFixtures(test)
        catalog = (try temporaryDirectory(test) as NSString).appendingPathComponent("c.sqlite")
        scan = try runBeattag(["scan", library, "--catalog", catalog])
    }
}

/// One fixture copied as `name` into `subfolder` of a fresh temporary folder (with a
/// `.beattag-rights` holding `rights` beside it, if given) and scanned into a catalog of its own
/// there; the temporary folder is for the test's other files.
struct ScannedSong {
    var folder: String
    var music: String
    var song: String
    var catalog: String

    init(_ test: XCTestCase, fixture: String, as name: String, in subfolder: String = "music", rights: String? = nil,
         scanOptions: [String] = []) throws {
        folder = try temporaryDirectory(test)
        music = (folder as NSString).appendingPathComponent(subfolder)
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        song = (music as NSString).appendingPathComponent(name)
        try FileManager.default.copyItem(atPath: TestPaths.fixture(fixture), toPath: song)
        if let rights { try rights.write(toFile: (music as NSString).appendingPathComponent(".beattag-rights"), atomically: true, encoding: .utf8) }
        catalog = (folder as NSString).appendingPathComponent("c.sqlite")
        let scan = try runBeattag(["scan", music, "--catalog", catalog] + scanOptions)
        XCTAssertEqual(scan.status, 0, scan.stderr)
    }
}

struct ClearFixture {
    var file: String
    var bpm: Double
    var beats: [Double]
}

/// Clips in Fixtures/library/truth.csv with their generated beat times.
func clearFixtures() throws -> [ClearFixture] {
    try Corpus(folder: TestPaths.fixtures).clips.map { ClearFixture(file: $0.path, bpm: $0.bpm, beats: $0.beats) }
}

struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// What a command printed, collected from any thread (scan reports problems from its workers).
private final class OutputCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var out = "", err = ""
    func appendOut(_ text: String) { lock.lock(); out += text; lock.unlock() }
    func appendErr(_ text: String) { lock.lock(); err += text; lock.unlock() }
    var result: (String, String) { lock.lock(); defer { lock.unlock() }; return (out, err) }
}

/// Runs a `beattag` command in this process through `BeatTagCLI`, as the executable would, and
/// returns its exit status and what it printed.
@discardableResult
func runBeattag(_ arguments: [String]) throws -> CommandResult {
    let capture = OutputCapture()
    let console = Console(writeOut: capture.appendOut, writeErr: capture.appendErr)
    let status = BeatTagCLI.run(arguments, console: console)
    let (out, err) = capture.result
    return CommandResult(status: status, stdout: out, stderr: err)
}

/// Runs the built `beattag` executable: for the end-to-end checks that need a real process
/// (environment, signals, exit status as a shell sees it).
@discardableResult
func runBinary(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    try runProcess(TestPaths.executable, arguments, environment: environment)
}

/// Runs `executable` with `arguments` and collects what it printed.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { _, new in new }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read before waiting so a full pipe cannot block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

/// The id of a process that has run and exited (a pid no process holds now, short of reuse).
func deadProcessID() throws -> Int32 {
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    return finished.processIdentifier
}

/// Sets a file's mtime `seconds` in the past (a working file nothing has written for that long).
func age(_ path: String, by seconds: Double) {
    let then = Date().timeIntervalSince1970 - seconds
    var times = [timeval(tv_sec: Int(then), tv_usec: 0), timeval(tv_sec: Int(then), tv_usec: 0)]
    utimes(path, &times)
}

/// Sends `signal` to a running process and waits for it to end, at most `seconds`: a signal the
/// process lost fails the test at once instead of letting it run for hours.
func interrupt(_ process: Process, with signal: Int32 = SIGINT, within seconds: TimeInterval = 30,
               file: StaticString = #filePath, line: UInt = #line) {
    kill(process.processIdentifier, signal)
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning {
        XCTFail("the process was still running \(Int(seconds)) s after signal \(signal)", file: file, line: line)
        kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
}

/// The whole file as mono, through the decoder `AudioSources` chooses.
func decodeAll(_ path: String) throws -> [Float] {
    try readAll(AudioSources.open(path: path))
}

/// What `source` hands over from here to its end, interleaved in its layout.
func readAll(_ source: any AudioSource) throws -> [Float] {
    var samples: [Float] = []
    while try source.readBlock({ samples.append(contentsOf: $0) }) {}
    return samples
}

/// A tool a test checks results with: required under CI (scripts/test.sh installs it), skipped elsewhere.
func requiredTool(_ name: String) throws -> String {
    for dir in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
        return "\(dir)/\(name)"
    }
    if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(name) missing: scripts/test.sh should install it") }
    throw XCTSkip("\(name) not installed")
}

/// Runs a tool to the end: its status and its stdout and stderr together.
func runTool(_ executable: String, _ arguments: [String], cwd: String? = nil) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The entries mpv loaded from a playlist (it prints LOADED <path> for each).
func mpvLoadedEntries(playlist: String) throws -> (status: Int32, loaded: [String], log: String) {
    let (status, log) = try runTool(try requiredTool("mpv"), ["--no-config", "--ao=null", "--vo=null", "--end=0.2",
                                                              "--term-playing-msg=LOADED ${path}", "--playlist=\(playlist)"], cwd: "/")
    // mpv redraws its status line with a carriage return, so a LOADED message can follow one on the same "\n" line.
    return (status, log.components(separatedBy: .newlines).filter { $0.hasPrefix("LOADED ") }, log)
}
