import ArgumentParser
import BeatTagKit
import BeatTagReview
import Foundation

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Settle doubtful tempi by ear: a local page with the queue, each track's beat grid and a click on its beats.",
        discussion: """
            Serves a page on 127.0.0.1 only (never another interface) and prints its URL, with a fresh \
            random token, as the first line. Open it in a browser on this machine (--open does). The \
            queue is `beattag untagged`'s, doubtful first: press P to hear the track with a click on \
            its beats (C: click at ×2 or ÷2), then R if it is right, D ×2, H ÷2, 3 ×3/2, 2 ×2/3, or tap \
            the beat with Space and press Enter. If the click falls between the beats, O moves the \
            grid half a beat (again: back); tracks queued as "beats moved half a beat" need only that \
            check (R if the click is on the beat). Decisions are hand-set BPMs and hand-placed beats, as \
            `beattag tag` makes them: kept through scans. The Library tab searches, filters and rates \
            the whole catalog, and plays any track with its click (O works there too). \
            Scripts can use the same JSON API (docs/review.md). Ctrl-C stops the server.
            """)

    @Option(help: "Port on 127.0.0.1 (default: a free one).") var port: Int?
    @Flag(help: "Open the page in the desktop's browser (xdg-open).") var open = false
    @Flag(name: .customLong("read-only"), help: "Listen and browse only: no decision or rating is saved (also what a catalog you cannot write gives).")
    var readOnlyFlag = false
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be from 1 to 65535") }
    }

    func run() throws {
        let console = Console.current
        let (opened, readOnly) = try openCatalog()
        let server = try ReviewServer(catalog: opened, readOnly: readOnly, port: port ?? 0)
        let openPage = open
        let interrupts = InterruptHandler(console: console, message: "stopping the review page") { server.requestStop() }
        defer { interrupts.restore() }
        do {
            try server.serveUntilStopped { url in
                console.print(url)
                fflush(stdout)
                console.writeErr("beattag: review page for \(opened.path)\(readOnly ? " (read-only)" : ""); Ctrl-C stops it\n")
                if openPage { Self.openInBrowser(url, console: console) }
            }
        } catch { throw CommandFailure("\(error)") }
    }

    /// Writable if it can be: a catalog this user cannot write still serves a page to listen with
    /// (and says so).
    private func openCatalog() throws -> (Catalog, readOnly: Bool) {
        readOnlyFlag ? (try catalogOption.open(create: false, access: .readOnly), true) : try catalogOption.openWritableIfPossible()
    }

    private static func openInBrowser(_ url: String, console: Console) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { console.writeErr("beattag: cannot run xdg-open (\(error)); open the URL above by hand\n") }
    }
}
