import BeatTagKit
import Foundation

/// The overview the page draws under the beat grid: the peak level in each of `bins` equal slices
/// of the track, decoded once per track and kept while the server runs.
final class WaveformOverviews: @unchecked Sendable {
    struct Overview: Encodable {
        var durationSeconds: Double
        /// Peak |sample| per slice, 0…1.
        var peaks: [Float]
    }

    static let bins = 1200
    private let cache = Locked<[Int64: Overview]>([:])

    func overview(of track: TrackRecord) throws -> Overview {
        let id = track.id ?? 0
        try TrackAudio.requireFileAsScanned(track)  // before the cache: a file gone or changed since is said
        if let known = cache.value[id] { return known }
        let source: any AudioSource
        do { source = try AudioSources.open(path: track.path, blockFrames: 8192, layout: .mono, decoder: track.decoderLibrary) } catch {
            throw APIError(.unprocessableContent, "cannot decode \((track.path as NSString).lastPathComponent): \(error)")
        }
        // Fine peaks first (every 256 frames), folded to `bins` at the end: the length is known
        // exactly only once decoded (MP3 headers guess).
        var fine: [Float] = []
        var current: Float = 0, count = 0
        do {
            // A file that stops decoding part-way shows as far as it decodes, as the scan analysed it.
            try source.readToEnd { block in
                for sample in block {
                    current = max(current, abs(sample))
                    count += 1
                    if count == 256 { fine.append(current); current = 0; count = 0 }
                }
            }
        } catch {
            throw APIError(.unprocessableContent, "cannot decode \((track.path as NSString).lastPathComponent): \(error)")
        }
        if count > 0 { fine.append(current) }
        let frames = Double(fine.count * 256 - (count > 0 ? 256 - count : 0))
        var peaks = [Float](repeating: 0, count: Self.bins)
        for (i, peak) in fine.enumerated() {
            let bin = min(Self.bins - 1, i * Self.bins / max(1, fine.count))
            peaks[bin] = max(peaks[bin], (min(1, peak) * 1000).rounded() / 1000)
        }
        let overview = Overview(durationSeconds: frames / Double(max(1, source.info.sampleRate)), peaks: peaks)
        cache.update { $0[id] = overview }
        return overview
    }
}
