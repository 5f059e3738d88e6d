import Foundation

/// Which BPM a track uses, and why: the user has listened, so a hand-set BPM wins. Between a BPM tag
/// and analysis: when they agree within 4% the analysis is kept for its finer value; when the tag is
/// the analysis's double or half and the analysis is in doubt (confidence below 0.8, the level
/// `match` marks), the tag settles the octave (octave is where analysis errs); otherwise a confident
/// analysis (≥ 0.5) wins (it comes with a beat grid), and a tag beats a doubtful one.
public enum BPMPolicy {
    /// Analysis at or above this confidence is trusted over a disagreeing BPM tag.
    public static let confidentAnalysis = 0.5
    /// Tag and analysis this close (relative) agree.
    public static let agreement = 0.04

    public struct Choice: Equatable, Sendable {
        public var bpm: Double?
        public var source: BPMSource?
        /// One line for `tag` and `list --json`: where the BPM came from.
        public var reason: String?

        public init(_ bpm: Double?, _ source: BPMSource?, _ reason: String?) {
            (self.bpm, self.source, self.reason) = (bpm, source, reason)
        }
    }

    public static func choose(manual: Double?, analysed: Double?, tag: Double?, confidence: Double?,
                              waveformAnalysed: Bool) -> Choice {
        if let manual { return Choice(manual, .manual, "set by hand") }
        let confidence = confidence ?? 0
        let confident = confidence >= confidentAnalysis
        switch (analysed, tag) {
        case let (analysed?, tag?):
            if abs(analysed / tag - 1) <= agreement {
                return Choice(analysed, .analysis, String(format: "analysis agrees with the BPM tag (%.1f)", tag))
            }
            if confidence < ConfidenceEvidence.trusted, [2.0, 0.5].contains(where: { abs(tag / analysed / $0 - 1) <= agreement }) {
                return Choice(tag, .tag, String(format: "BPM tag settles the octave (analysis read %.1f, confidence %.2f)", analysed, confidence))
            }
            if confident {
                return Choice(analysed, .analysis, String(format: "analysis (confidence %.2f) overrides the BPM tag %.1f", confidence, tag))
            }
            return Choice(tag, .tag, String(format: "BPM tag preferred: analysis (%.1f) has low confidence %.2f", analysed, confidence))
        case let (analysed?, nil):
            return Choice(analysed, .analysis, confident ? "analysis" : "analysis (low confidence)")
        case let (nil, tag?):
            return Choice(tag, .tag, waveformAnalysed ? "BPM tag" : "BPM tag (audio not analysed)")
        case (nil, nil):
            return Choice(nil, nil, nil)
        }
    }
}

extension TrackRecord {
    /// Sets `bpm`, `bpmSource` and `bpmReason` from the stored values by `BPMPolicy`.
    public mutating func chooseBPM() {
        let choice = BPMPolicy.choose(manual: bpmManual, analysed: bpmAnalysed, tag: bpmTag, confidence: confidence,
                                      waveformAnalysed: waveformAnalysed)
        (bpm, bpmSource, bpmReason) = (choice.bpm, choice.source, choice.reason)
    }

    /// This file is `old`'s recording under a new path: its row (id, first sighting) and what was
    /// entered by hand carry over.
    mutating func adoptHandData(from old: TrackRecord) {
        id = old.id
        firstSeenAt = old.firstSeenAt
        bpmManual = old.bpmManual ?? bpmManual
        rating = old.rating ?? rating
        beatAnchor = old.beatAnchor ?? beatAnchor
        // Rights a scan was told (`--source`) are the user's word too, kept where nothing else speaks:
        // a no-derivatives file moved and retagged must not come back stretchable.
        if rightsOrigin == RightsOrigin.none.rawValue, old.rightsOrigin == RightsOrigin.option.rawValue {
            sourceType = old.sourceType
            license = old.license
            attribution = old.attribution
            sourceURL = old.sourceURL
            tempoAdjustAllowed = old.tempoAdjustAllowed
            rightsOrigin = old.rightsOrigin
        }
        chooseBPM()
    }
}
