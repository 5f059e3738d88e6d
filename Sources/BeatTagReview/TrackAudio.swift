import BeatTagKit
import CSndfile
import Hummingbird
import Foundation

/// A track's audio for the browser, by catalog id, with HTTP range requests. Formats Chromium and
/// Firefox play are sent as they are; the rest (AAC and ALAC in MP4, WMA, AIFF, …) are decoded by
/// beattag's own decoders once and sent as 16-bit FLAC from a folder that lives as long as the server.
final class TrackAudio: @unchecked Sendable {
    /// Formats (as the catalog names them) a browser plays from the file itself, and their types.
    static let playable: [String: String] = ["mp3": "audio/mpeg", "ogg": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "wav": "audio/wav"]

    let folder: String
    private let lock = NSLock()

    static let folderPrefix = "beattag-review-"

    init() throws {
        let temporary = NSTemporaryDirectory()
        Self.removeFoldersOfEndedServers(in: temporary)
        folder = (temporary as NSString).appendingPathComponent("\(Self.folderPrefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        // Private: nobody else can put anything in it, so removing it later removes only our copies.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// A server stopped by SIGKILL or a crash cannot remove its copies: the next one does, for every
    /// `beattag-review-PID-XXXXXXXX` folder of this user (a real folder, not a link) whose process no
    /// longer exists; its files are unlinked one by one (nothing is followed) and the folder removed.
    /// A live server's folder, another user's, and anything else with such a name are left alone.
    static func removeFoldersOfEndedServers(in temporary: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            let parts = name.dropFirst(folderPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 8, parts[1].allSatisfy(\.isHexDigit),
                  let pid = pid_t(parts[0]), pid > 0, pid != getpid() else { continue }
            let path = (temporary as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            for file in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                unlink((path as NSString).appendingPathComponent(file))
            }
            rmdir(path)
        }
    }

    func removeFolder() { try? FileManager.default.removeItem(atPath: folder) }

    /// The file the catalog describes, not whatever is at its path now: another song saved over it
    /// played under the old song's beats (a decision by ear landed on the wrong recording), and a
    /// link put there to any readable file was sent as audio.
    static func requireFileAsScanned(_ track: TrackRecord) throws {
        guard track.state != .missing, FileManager.default.fileExists(atPath: track.path) else {
            throw APIError(.notFound, "the file of track \(track.id ?? 0) is missing")
        }
        if let problem = track.fileProblemSinceScan { throw APIError(.conflict, "the file of track \(track.id ?? 0) \(problem)") }
        // Nor one the scan could not decode (a link to a text file catalogued as "not audio" was sent as audio/mpeg).
        guard track.isPlayable else {
            throw APIError(.unprocessableContent, "track \(track.id ?? 0) could not be decoded: \(track.lastError ?? "failed")")
        }
    }

    func response(for track: TrackRecord, request: Request, context: some RequestContext) async throws -> Response {
        try Self.requireFileAsScanned(track)
        let source: (path: String, type: String)
        if let type = Self.playable[track.format ?? ""] {
            source = (track.path, type)
        } else {
            source = (try transcoded(track), "audio/flac")
        }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: source.path))?[.size] as? Int else {
            throw APIError(.notFound, "the file of track \(track.id ?? 0) cannot be read")
        }
        var headers: HTTPFields = [.contentType: source.type, .acceptRanges: "bytes", .cacheControl: "no-store"]
        let range: ClosedRange<Int>
        switch ByteRange.parse(request.headers[.range], size: size) {
        case .whole:
            range = 0...max(0, size - 1)
        case .part(let part):
            range = part
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)"
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        let status: HTTPResponse.Status = headers[.contentRange] == nil ? .ok : .partialContent
        headers[.contentLength] = String(size == 0 ? 0 : range.count)
        if request.method == .head || size == 0 { return Response(status: status, headers: headers) }
        let body = try await FileIO().loadFile(path: source.path, range: range, context: context)
        return Response(status: status, headers: headers, body: body)
    }

    /// Makes the FLAC copies of these tracks in the background (the next ones in the queue), so
    /// Play starts at once on them too.
    func prepare(_ tracks: [TrackRecord]) {
        let waiting = tracks.filter { Self.playable[$0.format ?? ""] == nil && $0.state != .missing }
        guard !waiting.isEmpty else { return }
        Task.detached(priority: .utility) { for track in waiting { _ = try? self.transcoded(track) } }
    }

    /// The FLAC copy of a track the browser cannot play, made on first request (one at a time: two
    /// requests for one track must not write one file twice).
    private func transcoded(_ track: TrackRecord) throws -> String {
        let target = (folder as NSString).appendingPathComponent("\(track.id ?? 0)-\(Int(track.modifiedAt)).flac")
        lock.lock(); defer { lock.unlock() }
        if FileManager.default.fileExists(atPath: target) { return target }
        let source: any AudioSource
        do { source = try AudioSources.open(path: track.path, blockFrames: 16_384, layout: .stereo, decoder: track.decoderLibrary) } catch {
            throw APIError(.unprocessableContent, "cannot decode \((track.path as NSString).lastPathComponent): \(error)")
        }
        var info = SF_INFO()
        info.samplerate = Int32(source.info.sampleRate)
        info.channels = 2
        info.format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        let partial = target + ".partial"
        guard let file = sf_open(partial, Int32(SFM_WRITE), &info) else {
            throw APIError(.internalServerError, "cannot write a playable copy: \(String(cString: sf_strerror(nil)))")
        }
        // A file that stops decoding part-way plays as far as it decodes, as the scan analysed it.
        var failure: Error?
        do {
            try source.readToEnd { block in _ = sf_writef_float(file, block.baseAddress, sf_count_t(block.count / 2)) }
        } catch { failure = error }
        sf_close(file)
        if let failure {
            try? FileManager.default.removeItem(atPath: partial)
            throw APIError(.unprocessableContent, "cannot decode \((track.path as NSString).lastPathComponent): \(failure)")
        }
        try FileManager.default.moveItem(atPath: partial, toPath: target)
        return target
    }
}

/// A `Range: bytes=…` header of one range (what media elements send): `a-b`, `a-` or `-n`.
enum ByteRange: Equatable {
    case whole
    case part(ClosedRange<Int>)
    case unsatisfiable

    static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces)), last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case (let a?, let b?) where a <= b:
            return a < size ? .part(a...min(b, size - 1)) : .unsatisfiable
        case (let a?, nil) where spec[1].isEmpty:
            return a < size ? .part(a...(size - 1)) : .unsatisfiable
        case (nil, let n?) where spec[0].isEmpty:
            // The last n bytes; none (`-0`) is a range nothing satisfies (RFC 9110, 14.1.2).
            return n > 0 && size > 0 ? .part(max(0, size - n)...(size - 1)) : .unsatisfiable
        default:
            return .whole  // a header that makes no sense is ignored, as RFC 9110 allows
        }
    }
}
