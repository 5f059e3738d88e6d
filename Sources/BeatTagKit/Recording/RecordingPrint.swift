import Foundation

/// A recording's acoustic fingerprint: Chromaprint's raw items (one 32-bit word per ~124 ms) of
/// its first two minutes, and their 32-bit SimHash. Two encodings of one recording (FLAC and its
/// AAC, Opus or MP3 copy, another bit rate) give nearly the same bits; two recordings do not.
/// Compared here, bit by bit: never through a hash of the bytes, which any re-encode changes.
public struct RecordingPrint: Equatable, Sendable {
    public var items: [UInt32]
    /// `chromaprint_hash_fingerprint`: close (few differing bits) for similar prints.
    public var hash: UInt32

    public init(items: [UInt32], hash: UInt32) {
        self.items = items
        self.hash = hash
    }

    /// Audio fingerprinted from the start of a track.
    public static let seconds = 120.0
    /// Two prints whose bits differ in at most this share, at their best alignment, can be one
    /// recording. Unrelated music differs in about half of its bits, lossy copies of one recording
    /// in a few percent; but audio without pitched sound (drums alone) gives prints that differ
    /// little whatever it is, so more must agree (`isSameRecording`, docs/recordings.md).
    public static let sameRecordingBitErrorRate = 0.15
    /// One recording has one tempo: analysed BPMs of two copies agree within `tempoTolerance` (or at
    /// an octave, where one copy's analysis chose the other level).
    public static func sameTempo(_ a: Double?, _ b: Double?, within tolerance: Double = tempoTolerance) -> Bool {
        guard let a, let b, a > 0, b > 0 else { return true }
        return [1.0, 2.0, 0.5].contains { abs(a * $0 / b - 1) <= tolerance }
    }
    /// Copies of one recording read at most 0.35% apart (44 development clips as AAC, Opus and 48 kHz
    /// MP3 beside the original: 132 pairs, 99% within 0.12%). It was 1%: drum tracks at 175 and 176
    /// BPM, and metronome tracks a BPM apart, were one recording, and `match` offered the one it had
    /// to stretch instead of the one at the cadence.
    public static let tempoTolerance = 0.005
    /// Clicks and tones print alike whatever they are, so their tempo is all that tells them apart,
    /// and their analysis reads it to the tenth: a metronome at 199 is not one at 200.
    static let constantPrintTempoTolerance = 0.002
    /// Alignments tried either way, in items (about 1 s): priming and lead-ins differ by encoder.
    public static let largestShift = 8
    /// Fewer items in common (about 5 s) say nothing.
    public static let fewestItems = 40

    /// The share of differing bits at the best alignment within ±`largestShift` items; 1 when the
    /// prints overlap by fewer than `fewestItems`.
    public func bitErrorRate(to other: RecordingPrint) -> Double {
        (-RecordingPrint.largestShift...RecordingPrint.largestShift).compactMap { bitErrorRate(to: other, shift: $0) }.min() ?? 1
    }

    /// The share of differing bits with `other` moved `shift` items later; nil for too little overlap.
    func bitErrorRate(to other: RecordingPrint, shift: Int) -> Double? {
        let a = max(0, shift), b = max(0, -shift)
        let count = min(items.count - a, other.items.count - b)
        guard count >= RecordingPrint.fewestItems else { return nil }
        var differing = 0
        for i in 0..<count { differing += (items[a + i] ^ other.items[b + i]).nonzeroBitCount }
        return Double(differing) / Double(32 * count)
    }

    /// How unlike itself the print is 1.5–4 s away (median): how much a close match says. Music
    /// changes from one bar to the next (0.34–0.49 on corpus-dev); a drum loop without pitched
    /// sound much less (0.10–0.35, the fixtures), and two such loops at one tempo print almost alike.
    public var selfContrast: Double {
        let distances = (12...32).flatMap { [bitErrorRate(to: self, shift: $0), bitErrorRate(to: self, shift: -$0)] }.compactMap { $0 }.sorted()
        return distances.isEmpty ? 0 : distances[distances.count / 2]
    }

    /// One recording: prints within `sameRecordingBitErrorRate`, and either the analysed tempi
    /// agree or the match is far closer (a quarter) than either print is to its own displaced self,
    /// which music whose analysis read two encodings at different tempi still is.
    /// `tempoTolerance`: how far the tempi may read apart, for every kind of print; nil: the grouping's
    /// (`tempoTolerance`, `constantPrintTempoTolerance`).
    public func isSameRecording(as other: RecordingPrint, bpm: Double? = nil, otherBPM: Double? = nil,
                                tempoTolerance: Double? = nil) -> Bool {
        let distance = bitErrorRate(to: other)
        guard distance <= RecordingPrint.sameRecordingBitErrorRate else { return false }
        // A print that never changes (a steady tone and clicks) is like any other such print: at
        // different tempi it says nothing (an audit: click tracks at 120 and 150 BPM were one recording).
        let contrast = min(selfContrast, other.selfContrast)
        guard contrast >= RecordingPrint.leastContrast else {
            return RecordingPrint.sameTempo(bpm, otherBPM, within: tempoTolerance ?? RecordingPrint.constantPrintTempoTolerance)
        }
        return RecordingPrint.sameTempo(bpm, otherBPM, within: tempoTolerance ?? RecordingPrint.tempoTolerance) || distance <= 0.25 * contrast
    }

    /// Below this self-contrast a print is all but constant.
    static let leastContrast = 0.02

    /// SimHashes of copies of one recording differ in 0–1 bits (corpus-dev clips and their AAC and
    /// Opus copies), of different recordings in 4 or more, of random words in 16: prints whose
    /// hashes differ in more than this many bits are not compared.
    public static let hashBits = 8

    public func hashIsNear(_ otherHash: UInt32) -> Bool { (hash ^ otherHash).nonzeroBitCount <= RecordingPrint.hashBits }

    /// Little-endian words, as the catalog stores them.
    public var data: Data {
        var data = Data(capacity: items.count * 4)
        for item in items { withUnsafeBytes(of: item.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    public init(data: Data, hash: UInt32) {
        let bytes = [UInt8](data)
        let items = stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
        }
        self.init(items: items, hash: hash)
    }

    /// As the catalog keeps it: the SimHash in an SQLite integer column (`trackPrint.hash`).
    init(data: Data, storedHash: Int64) {
        self.init(data: data, hash: UInt32(truncatingIfNeeded: storedHash))
    }
}
