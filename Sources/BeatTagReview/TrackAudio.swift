import BeatTagKit
import CSndfile
import FlyingFox
import Foundation

/// A track's audio for the browser, by catalog id, with HTTP range requests. Formats Chromium and
/// Firefox play are sent as they are; the rest (AAC and ALAC in MP4, WMA, AIFF, …) are decoded by
/// beattag's own decoders once and sent as 16-bit FLAC from a folder that lives as long as the server.
final class TrackAudio: @unchecked Sendable {
    /// Formats (as the catalog names them) a browser plays from the file itself, and their types.
    static let playable: [String: String] = ["mp3": "audio/mpeg", "ogg": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "wav": "audio/wav"]

    let folder: String
    private let lock = NSLock()

    init() throws {
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("beattag-review-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func removeFolder() { try? FileManager.default.removeItem(atPath: folder) }

    func response(for track: TrackRecord, request: HTTPRequest) async throws -> HTTPResponse {
        guard track.state != .missing, FileManager.default.fileExists(atPath: track.path) else {
            throw APIError(.notFound, "the file of track \(track.id ?? 0) is missing")
        }
        let source: (path: String, type: String)
        if let type = Self.playable[track.format ?? ""] {
            source = (track.path, type)
        } else {
            source = (try transcoded(track), "audio/flac")
        }
        return try await FileHTTPHandler(path: URL(fileURLWithPath: source.path), contentType: source.type, cacheControl: [.noStore])
            .handleRequest(request)
    }

    /// The FLAC copy of a track the browser cannot play, made on first request (one at a time: two
    /// requests for one track must not write one file twice).
    private func transcoded(_ track: TrackRecord) throws -> String {
        let target = (folder as NSString).appendingPathComponent("\(track.id ?? 0)-\(Int(track.modifiedAt)).flac")
        lock.lock(); defer { lock.unlock() }
        if FileManager.default.fileExists(atPath: target) { return target }
        let source: any AudioSource
        do { source = try AudioSources.open(path: track.path, blockFrames: 16_384, layout: .stereo) } catch {
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
        var failure: Error?
        do {
            while try source.readBlock({ block in
                _ = sf_writef_float(file, block.baseAddress, sf_count_t(block.count / 2))
            }) {}
        } catch { failure = error }
        sf_close(file)
        guard failure == nil else {
            try? FileManager.default.removeItem(atPath: partial)
            throw APIError(.unprocessableContent, "cannot decode \((track.path as NSString).lastPathComponent): \(failure!)")
        }
        try FileManager.default.moveItem(atPath: partial, toPath: target)
        return target
    }
}
