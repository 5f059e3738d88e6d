import Foundation

/// Turns one found file into a catalog row: fingerprint, tags, rights, decode + analysis.
/// Never modifies the file.
public enum TrackProcessor {
    public enum Outcome: String, Sendable {
        case analysed, metadataOnly = "metadata-only", failed
        /// Gone between the walk and its turn: no new row; an existing one becomes missing.
        case vanished
    }

    /// `fingerprint`: when the caller already computed it (the scanner does, to recognise moves).
    /// `timing`: where decoding, analysis and fingerprinting took their time.
    public static func process(_ file: FoundFile, existing: TrackRecord?, sourceOption: SourceType?,
                               now: Double, fingerprint: String? = nil,
                               timing: UnsafeMutablePointer<AudioFileAnalysis.Timing>? = nil) -> (TrackRecord, Outcome) {
        guard FileManager.default.fileExists(atPath: file.path) else { return vanished(file, existing: existing, now: now) }
        let (record, outcome) = read(file, existing: existing, sourceOption: sourceOption, now: now, fingerprint: fingerprint, timing: timing)
        // Deleted while it was read: Linux reads an unlinked file to its end, and the track was
        // stored as analysed, offered by `match`, until the next scan.
        guard FileManager.default.fileExists(atPath: file.path) else { return vanished(file, existing: existing, now: now) }
        return (record, outcome)
    }

    /// Nothing about the file changed that we know of: keep what was stored, mark it missing.
    private static func vanished(_ file: FoundFile, existing: TrackRecord?, now: Double) -> (TrackRecord, Outcome) {
        var gone = existing ?? TrackRecord(path: file.path, fileSize: file.size, modifiedAt: file.modifiedAt, now: now)
        gone.state = .missing
        gone.missingSince = now
        return (gone, .vanished)
    }

    private static func read(_ file: FoundFile, existing: TrackRecord?, sourceOption: SourceType?, now: Double, fingerprint: String?,
                             timing: UnsafeMutablePointer<AudioFileAnalysis.Timing>?) -> (TrackRecord, Outcome) {
        var record = existing ?? TrackRecord(path: file.path, fileSize: file.size, modifiedAt: file.modifiedAt, now: now)
        record.path = file.path
        record.fileSize = file.size
        record.modifiedAt = file.modifiedAt
        record.scannedAt = now
        record.missingSince = nil
        record.analysisVersion = AnalysisResult.currentVersion
        record.lastError = nil
        record.decodeWarning = nil
        record.metadataOnlyReason = nil
        clearAnalysis(&record)

        // The folder's rights first (a failed file keeps them too); tags in the file may override below.
        applyRights(RightsResolver.resolve(tags: nil, sidecar: file.sidecar, option: sourceOption), to: &record)
        // Fingerprinted before anything can fail: an empty file reached through a link is known by it
        // as the one already catalogued (it got a second row), and a file cut to nothing loses the old one.
        record.fingerprint = fingerprint ?? Fingerprint.of(path: file.path, size: file.size)
        if file.size == 0 { return fail(&record, "empty file (0 bytes)") }
        guard FileManager.default.isReadableFile(atPath: file.path) else { return fail(&record, "permission denied") }
        if let what = AudioSniffer.notAudio(path: file.path) { return fail(&record, "not audio: \(what)") }

        let tags = TagReader.readAny(path: file.path)
        if let tags {
            apply(tags, to: &record)
            // A fresh catalog: a BPM that beattag wrote into the file by hand counts as hand-set again.
            if existing == nil, let manual = BPMTagMark.manualBPM(in: tags) { record.bpmManual = manual }
            applyRights(RightsResolver.resolve(tags: tags, sidecar: file.sidecar, option: sourceOption), to: &record)
        }

        // Encrypted audio decodes to noise, if at all: its tags are all there is to catalogue.
        if let tags, tags.drmProtected {
            record.state = .metadataOnly
            record.metadataOnlyReason = metadataOnlyReason(tags: tags, decoderSaid: "encrypted")
            record.chooseBPM()
            return (record, .metadataOnly)
        }
        do {
            let (info, result) = try AudioFileAnalysis.analyse(path: file.path, timing: timing, recordingPrint: true)
            // An empty print says "tried": a file Chromaprint gives nothing for is not decoded again on every scan.
            record.recordingPrint = info.recordingPrint ?? (OptionalLibrary.chromaprint.isAvailable ? RecordingPrint(items: [], hash: 0) : nil)
            record.format = info.format
            record.sampleRate = info.sampleRate
            record.channels = info.channels
            record.durationSeconds = info.durationSeconds
            record.audioHash = info.audioHash
            record.decoder = info.decoder
            record.waveformAnalysed = true
            record.state = .analysed
            record.decodeWarning = result.decodeWarning
            apply(result, to: &record)
            record.chooseBPM()
            return (record, .analysed)
        } catch let error as DecodeError {
            // Metadata-only needs TagLib to have found an audio stream, not just a tag-shaped header.
            if case .cannotOpen(_, let reason) = error, let tags, tags.sampleRate != nil || tags.durationSeconds != nil {
                // …and one the file can hold: a download cut off after its first 512 bytes still has
                // a header promising minutes, and its BPM tag put it first in `match`.
                if let stub = damagedStub(tags: tags, fileSize: file.size) { return fail(&record, "\(error); \(stub)") }
                record.state = .metadataOnly
                record.metadataOnlyReason = metadataOnlyReason(tags: tags, decoderSaid: reason)
                record.chooseBPM()
                return (record, .metadataOnly)
            }
            if case .cannotOpen = error { return fail(&record, "\(error); TagLib cannot read it either") }
            if case .noAudioStream(_, "video only") = error, tags?.container == "MP4" { return fail(&record, "a video with no audio stream") }
            // Marked with the missing decoder's identity ("ffmpeg (not installed)"): a scan once
            // FFmpeg is installed sees another identity and decodes the file (`isUnchanged`).
            if case .decoderMissing = error { record.decoder = DecoderLibrary.ffmpeg.identity }
            return fail(&record, "\(error)")
        } catch {
            // Decoded, but the analysis found nothing to hold on to (too short, silent, no pulse).
            record.waveformAnalysed = true
            return fail(&record, "\(error)")
        }
    }

    /// Fewer bytes a second than any codec writes (2 kbit/s; Opus and xHE-AAC speech go down to 6).
    static let fewestBytesPerSecond = 250.0

    /// Why a file no decoder opens is damaged rather than undecodable (nil: it may be whole): no
    /// length in its header, or less than a second, or fewer bytes than that length needs.
    static func damagedStub(tags: TrackTags, fileSize: Int64) -> String? {
        guard let seconds = tags.durationSeconds, seconds >= 1 else { return "no length in its header (cut short or damaged)" }
        guard Double(fileSize) >= seconds * fewestBytesPerSecond else {
            return String(format: "its header gives %.1f s, more than its %lld bytes can hold (cut short or damaged)", seconds, fileSize)
        }
        return nil
    }

    static func metadataOnlyReason(tags: TrackTags, decoderSaid: String) -> String {
        if tags.drmProtected { return "DRM-protected: the audio cannot be decoded" }
        switch tags.container {
        case let container?: return "\(container) audio that neither libsndfile nor FFmpeg decodes (\(decoderSaid)); catalogued from tags"
        case nil: return "neither libsndfile nor FFmpeg decodes it (\(decoderSaid)); catalogued from tags"
        }
    }

    private static func fail(_ record: inout TrackRecord, _ message: String) -> (TrackRecord, Outcome) {
        record.state = .failed
        record.lastError = message
        record.chooseBPM()
        return (record, .failed)
    }

    static func clearAnalysis(_ r: inout TrackRecord) {
        r.bpmAnalysed = nil; r.confidence = nil; r.bpmAlternative = nil; r.bpmAlternativeScore = nil; r.bpmScore = nil
        r.gridOffset = nil; r.gridPeriod = nil; r.tempoSteadiness = nil; r.tempoVariable = nil
        r.tempoMin = nil; r.tempoMax = nil; r.beats = nil; r.waveformAnalysed = false; r.decoder = nil; r.phaseMoved = nil
    }

    static func apply(_ tags: TrackTags, to r: inout TrackRecord) {
        r.title = tags.title; r.artist = tags.artist; r.album = tags.album; r.genre = tags.genre
        r.year = tags.year; r.trackNumber = tags.trackNumber; r.bpmTag = tags.bpm
        r.durationSeconds = tags.durationSeconds; r.sampleRate = tags.sampleRate; r.channels = tags.channels
        r.bitrateKbps = tags.bitrateKbps
        r.format = tags.container.map { $0.lowercased() }
    }

    static func apply(_ result: AnalysisResult, to r: inout TrackRecord) {
        r.bpmAnalysed = result.bpm.value
        r.confidence = result.confidence
        r.bpmScore = result.octaveProbability
        r.bpmAlternative = result.alternative?.bpm.value
        r.bpmAlternativeScore = result.alternative?.score
        r.beatTimes = result.beats.map(\.value)
        r.phaseMoved = result.phase.halfBeat
        if let grid = result.grid {
            r.gridOffset = grid.offset.value; r.gridPeriod = grid.period.value; r.tempoSteadiness = grid.steadiness
            r.tempoVariable = grid.variableTempo; r.tempoMin = grid.tempoMin.value; r.tempoMax = grid.tempoMax.value
        }
    }

    /// Rights from this scan replace stored ones unless nothing was declared: a rescan without
    /// `--source` keeps what an earlier scan was told.
    static func applyRights(_ rights: Rights, to r: inout TrackRecord) {
        if rights.origin == .none, r.rightsOrigin == RightsOrigin.option.rawValue { return }
        r.sourceType = rights.source
        r.license = rights.license
        r.attribution = rights.attribution
        r.sourceURL = rights.sourceURL
        r.tempoAdjustAllowed = rights.tempoAdjustAllowed
        r.rightsOrigin = rights.origin.rawValue
    }
}
