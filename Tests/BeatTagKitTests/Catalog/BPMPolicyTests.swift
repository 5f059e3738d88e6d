import BeatTagKit
import XCTest

/// Which BPM wins, case by case: one row per situation a library produces.
final class BPMPolicyTests: XCTestCase {
    struct Row {
        var name: String
        var manual: Double?, analysed: Double?, tag: Double?, confidence: Double?
        var waveformAnalysed = true
        var bpm: Double?, source: BPMSource?, reason: String?
    }

    let table: [Row] = [
        Row(name: "hand-set wins over everything", manual: 172, analysed: 86, tag: 90, confidence: 0.99,
            bpm: 172, source: .manual, reason: "set by hand"),
        Row(name: "hand-set on a metadata-only track", manual: 165, analysed: nil, tag: nil, confidence: nil, waveformAnalysed: false,
            bpm: 165, source: .manual, reason: "set by hand"),
        Row(name: "tag and analysis agree within 4%: analysis kept", manual: nil, analysed: 174.6, tag: 174, confidence: 0.3,
            bpm: 174.6, source: .analysis, reason: "analysis agrees with the BPM tag (174.0)"),
        Row(name: "a tag at half a doubtful analysis settles the octave", manual: nil, analysed: 194, tag: 97, confidence: 0.7,
            bpm: 97, source: .tag, reason: "BPM tag settles the octave (analysis read 194.0, confidence 0.70)"),
        Row(name: "a tag at double a doubtful analysis settles the octave", manual: nil, analysed: 87.1, tag: 174, confidence: 0.3,
            bpm: 174, source: .tag, reason: "BPM tag settles the octave (analysis read 87.1, confidence 0.30)"),
        Row(name: "a trusted analysis keeps its octave against the tag", manual: nil, analysed: 165, tag: 82, confidence: 0.8,
            bpm: 165, source: .analysis, reason: "analysis (confidence 0.80) overrides the BPM tag 82.0"),
        Row(name: "confident analysis overrides a tag that is no octave of it", manual: nil, analysed: 170, tag: 113, confidence: 0.9,
            bpm: 170, source: .analysis, reason: "analysis (confidence 0.90) overrides the BPM tag 113.0"),
        Row(name: "confidence exactly at the threshold counts as confident", manual: nil, analysed: 170, tag: 128,
            confidence: BPMPolicy.confidentAnalysis, bpm: 170, source: .analysis,
            reason: "analysis (confidence 0.50) overrides the BPM tag 128.0"),
        Row(name: "doubtful analysis loses to the tag", manual: nil, analysed: 190, tag: 126, confidence: 0.49,
            bpm: 126, source: .tag, reason: "BPM tag preferred: analysis (190.0) has low confidence 0.49"),
        Row(name: "analysis alone, confident", manual: nil, analysed: 128, tag: nil, confidence: 0.8,
            bpm: 128, source: .analysis, reason: "analysis"),
        Row(name: "analysis alone, doubtful", manual: nil, analysed: 128, tag: nil, confidence: 0.2,
            bpm: 128, source: .analysis, reason: "analysis (low confidence)"),
        Row(name: "analysis without a confidence counts as doubtful", manual: nil, analysed: 128, tag: 100, confidence: nil,
            bpm: 100, source: .tag, reason: "BPM tag preferred: analysis (128.0) has low confidence 0.00"),
        Row(name: "tag of an analysed file whose analysis failed", manual: nil, analysed: nil, tag: 140, confidence: nil,
            bpm: 140, source: .tag, reason: "BPM tag"),
        Row(name: "tag of a metadata-only file", manual: nil, analysed: nil, tag: 140, confidence: nil, waveformAnalysed: false,
            bpm: 140, source: .tag, reason: "BPM tag (audio not analysed)"),
        Row(name: "nothing known", manual: nil, analysed: nil, tag: nil, confidence: nil, bpm: nil, source: nil, reason: nil),
    ]

    func testTable() {
        for row in table {
            let choice = BPMPolicy.choose(manual: row.manual, analysed: row.analysed, tag: row.tag, confidence: row.confidence,
                                          waveformAnalysed: row.waveformAnalysed)
            XCTAssertEqual(choice, BPMPolicy.Choice(row.bpm, row.source, row.reason), row.name)
        }
    }

    func testTrackRecordAppliesThePolicy() {
        var record = TrackRecord(path: "/music/a.flac", fileSize: 1, modifiedAt: 0, now: 0)
        (record.bpmAnalysed, record.bpmTag, record.confidence, record.waveformAnalysed) = (190, 126, 0.3, true)
        record.chooseBPM()
        XCTAssertEqual(record.bpm, 126)
        XCTAssertEqual(record.bpmSource, .tag)
        record.bpmManual = 180
        record.chooseBPM()
        XCTAssertEqual(record.bpm, 180)
        XCTAssertEqual(record.bpmSource, .manual)
    }
}
