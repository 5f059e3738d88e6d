@testable import BeatTagKit
import XCTest

/// The audio hash is stored in catalogs (hand data follows a recording by it): the quantising done
/// eight samples at a time must give what one sample at a time gives, bit for bit.
final class AudioHashTests: XCTestCase {
    func testEightAtOnceQuantiseAsOneAtATime() {
        // Halves of a step, the float just below and above them, beyond full scale, tiny values, both signs.
        var values: [Float] = [0, -0, 1, -1, 1.5, -1.5, 65536, -65536, 16_777_216, -16_777_216, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        for step in [0, 1, 2, 100, 32766, 32767, 32768, 40000] {
            for half in [Float(step) + 0.5, -Float(step) - 0.5] {
                let sample = half / 32767
                values += [sample, sample.nextUp, sample.nextDown, sample.nextUp.nextUp, sample.nextDown.nextDown]
            }
        }
        var random = SystemRandomNumberGenerator()
        values += (0..<20_000).map { _ in Float.random(in: -1.2...1.2, using: &random) }
        while values.count % 8 != 0 { values.append(0.25) }
        for start in stride(from: 0, to: values.count, by: 8) {
            let eight = AudioHash.quantised(SIMD8<Float>(values[start..<(start + 8)]))
            for lane in 0..<8 {
                XCTAssertEqual(eight[lane], Int32(AudioHash.quantised(values[start + lane])), "\(values[start + lane])")
            }
        }
    }

    func testAHashDoesNotDependOnHowTheAudioIsCutIntoBlocks() {
        let samples = (0..<10_007).map { Float(sin(Double($0) * 0.013)) * 0.8 }
        var whole = AudioHash(sampleRate: 100), pieces = AudioHash(sampleRate: 100)
        samples.withUnsafeBufferPointer { whole.add($0) }
        var start = 0
        for size in [1, 7, 8, 9, 4096, 3, 100_000] where start < samples.count {
            let end = min(samples.count, start + size)
            samples[start..<end].withUnsafeBufferPointer { pieces.add($0) }
            start = end
        }
        XCTAssertEqual(whole.value, pieces.value)
        // Catalogs hold hashes made one sample at a time: FNV-1a over each sample × 32767, rounded
        // half away from zero, clamped to 16 bits, as two bytes in one 64-bit step.
        var reference: UInt64 = 0xcbf2_9ce4_8422_2325
        for sample in samples[0..<6000] {
            reference = (reference ^ UInt64(UInt16(bitPattern: Int16(clamping: Int((sample * 32767).rounded()))))) &* 0x0000_0100_0000_01b3
        }
        XCTAssertEqual(whole.value, String(reference, radix: 16))
        // The first minute only (100 Hz: 6,000 samples).
        var minute = AudioHash(sampleRate: 100)
        samples[0..<6000].withUnsafeBufferPointer { minute.add($0) }
        XCTAssertEqual(whole.value, minute.value)
    }
}
