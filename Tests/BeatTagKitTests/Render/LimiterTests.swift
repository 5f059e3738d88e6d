@testable import BeatTagKit
import Foundation
import XCTest

/// The mix limiter against a true-peak meter that is not beattag's: ffmpeg's ebur128 (ITU-R BS.1770).
final class LimiterTests: XCTestCase {
    /// Broadband noise (hats, cymbals) 6 dB over full scale: its peaks between samples are what the
    /// limiter must read. With 8 interpolation taps it let −0.4 dBTP through a −1.5 ceiling.
    func testBroadbandSoundStaysUnderTheTruePeakTarget() throws {
        let rate = 44_100
        var limiter = Limiter(sampleRate: rate)
        var random = SplitMix64(seed: 64)
        var left: [Float] = [], right: [Float] = []
        for _ in 0..<(rate * 4 / 4096) {
            var l = (0..<4096).map { _ in Float(random.unit() * 2 - 1) * 2 }
            var r = (0..<4096).map { _ in Float(random.unit() * 2 - 1) * 2 }
            limiter.process(left: &l, right: &r)
            left += l; right += r
        }
        let tail = limiter.flush()
        left += tail.left; right += tail.right
        XCTAssertLessThanOrEqual(left.map(abs).max() ?? 1, pow(10, -1.5 / 20) + 1e-6, "sample peaks at the ceiling")
        var interleaved = [Float](repeating: 0, count: 2 * left.count)
        for i in 0..<left.count { interleaved[2 * i] = left[i]; interleaved[2 * i + 1] = right[i] }
        let raw = (try temporaryDirectory(self) as NSString).appendingPathComponent("limited.f32")
        try interleaved.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
        let (_, log) = try runTool(try requiredTool("ffmpeg"), ["-nostats", "-v", "info", "-f", "f32le", "-ar", "\(rate)", "-ac", "2", "-i", raw,
                                                              "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = log.components(separatedBy: "Summary:").last ?? ""
        let peak = try XCTUnwrap(summary.range(of: "Peak:").flatMap {
            Double(summary[$0.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }, log)
        XCTAssertLessThanOrEqual(peak, -1.0, "true peak, dBTP")
        XCTAssertGreaterThan(peak, -3.0, "limited, not turned down")
    }
}
