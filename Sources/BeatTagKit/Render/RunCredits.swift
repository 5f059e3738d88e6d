import Foundation

/// The credits of a rendered run, beside it (`run.credits.txt` for `run.flac`): each track in it,
/// who to credit, its licence and source, and what the render did to it; first, what those
/// licences ask of whoever shares the file. A run of CC BY music is an adaptation: sharing it
/// needs the credits, the licences and a note of the changes. beattag states what the tracks'
/// rights say; it does not decide whether a file may be shared.
public enum RunCredits {
    /// `records`: the catalogued tracks, one per entry of `timeline.tracks`, in its order.
    public static func text(for timeline: RenderTimeline, records: [TrackRecord], audioFile: String) -> String {
        var order: [String] = [], uses: [String: [RenderTimeline.Track]] = [:], byPath: [String: TrackRecord] = [:]
        for (track, record) in zip(timeline.tracks, records) {
            if uses[track.path] == nil { order.append(track.path) }
            uses[track.path, default: []].append(track)
            byPath[track.path] = record
        }
        var lines = ["Credits for \((audioFile as NSString).lastPathComponent) "
                     + "(\(DurationText.clock(timeline.durationSeconds)), made by beattag from \(order.count) track\(order.count == 1 ? "" : "s"))", ""]
        lines += terms(for: order.compactMap { byPath[$0]?.sourceType }).map { "- " + $0 }
        for (number, path) in order.enumerated() {
            guard let record = byPath[path] else { continue }
            lines += ["", "\(number + 1). \(record.displayName()) (\(record.fileName))",
                      "   Licence: " + record.licenceText]
            if let credit = record.attribution ?? record.artist { lines.append("   Credit: " + credit) } else if record.sourceType.requiresAttribution {
                // The header asks whoever shares the file to credit each: say there is nothing to go on.
                lines.append("   Credit: not known (no attribution or artist given): find who made it before sharing this file")
            }
            if record.sourceType.requiresAttribution, !(record.license ?? "").contains("://") {
                lines.append("   Licence link: not given: find the licence's version and link before sharing this file")
            }
            if let url = record.sourceURL { lines.append("   Source: " + url) }
            lines.append("   In this run: " + changes(uses[path] ?? []))
        }
        // A newline in a name or tag must not start a line of its own.
        return lines.map(VisibleControls.text).joined(separator: "\n") + "\n"
    }

    /// Whether the credits beside `audioFile` are a render's, written for that file.
    public static func describes(audioFile: String) -> Bool {
        creditedFile(besides: audioFile) == (audioFile as NSString).lastPathComponent
    }

    /// The name of the file the credits beside `audioFile` were written for ("Credits for run.flac
    /// (…"): its own, or another render's of the same stem (`RenderCompanions`); nil for none.
    public static func creditedFile(besides audioFile: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path(besides: audioFile)) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        guard let first = head.split(separator: "\n", maxSplits: 1).first, first.hasPrefix("Credits for "),
              let end = first.range(of: " (", options: .backwards) else { return nil }
        return String(first[first.index(first.startIndex, offsetBy: "Credits for ".count)..<end.lowerBound])
    }

    /// `run.flac` → `run.credits.txt`.
    public static func path(besides audioFile: String) -> String {
        (audioFile as NSString).deletingPathExtension + ".credits.txt"
    }

    /// What the licences of `sources` ask of whoever shares the run, one sentence each.
    static func terms(for sources: [SourceType]) -> [String] {
        let kinds = Set(sources)
        let shareAlike = kinds.intersection([.ccBySa, .ccByNcSa]), nonCommercial = kinds.intersection([.ccByNc, .ccByNcSa, .ccByNcNd])
        var terms: [String] = []
        let ownOrUnknown = sources.filter { [.userOwned, .unknown, .other].contains($0) }.count
        if ownOrUnknown > 0 {
            terms.append("\(ownOrUnknown) track\(ownOrUnknown == 1 ? " is" : "s are") your own music or of unknown or other rights: "
                         + "keep this file for your own listening.")
        }
        if kinds.contains(where: \.requiresAttribution) {
            terms.append("Creative Commons tracks: whoever shares this file must credit each as below, name and link its licence, "
                         + "and say that it was changed (excerpted, crossfaded, loudness-matched, and time-stretched where noted).")
        }
        if shareAlike.count > 1 || (!shareAlike.isEmpty && !nonCommercial.isEmpty && shareAlike != [.ccByNcSa]) {
            terms.append("Share-alike tracks and tracks of other licences are mixed here: no one licence meets them all, so do not share this file.")
        } else if let sa = shareAlike.first {
            terms.append("Share-alike: shared, this file must carry the same licence (\(sa.title)).")
        }
        if !nonCommercial.isEmpty { terms.append("Non-commercial tracks: not for commercial use.") }
        if !kinds.isDisjoint(with: [.ccByNd, .ccByNcNd]) {
            terms.append("No-derivatives tracks play at their own tempo, but excerpted and faded: a shared mix may count as an adaptation, "
                         + "which their licence does not allow.")
        }
        if kinds.isSubset(of: [.cc0, .publicDomain]) { terms.append("CC0 and public-domain music only: no conditions (credit is welcome).") }
        return terms
    }

    /// Where the track plays and how it was changed, for each time it enters.
    static func changes(_ uses: [RenderTimeline.Track]) -> String {
        uses.map { use in
            let percent = (use.targetBPM / use.sourceBPM - 1) * 100
            let tempo = abs(percent) < 0.05 ? "own tempo" : String(format: "tempo %+.1f%% (%.1f → %.1f BPM)", percent, use.sourceBPM, use.targetBPM)
            return "\(DurationText.clock(use.startSeconds))–\(DurationText.clock(use.endSeconds)), from \(DurationText.clock(use.sourceStartSeconds)) "
                + "of the track, \(tempo)"
        }.joined(separator: "; ")
    }
}
