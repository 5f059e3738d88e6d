@testable import BeatTagKit
import XCTest

/// A refused packet of a raw MP3 stream stands for as many frames as its bytes hold.
final class RawStreamPacketsTests: XCTestCase {
    func testARefusedPacketHoldsItsBytesOverTheRecentMeanFrame() {
        var packets = RawStreamPackets()
        XCTAssertEqual(packets.frames(inRefused: 4180), 1, "nothing to compare with yet: one frame")
        // 128 kb/s at 44.1 kHz: 417 or 418 bytes, as the padding bit falls.
        for i in 0..<200 { packets.accepted(size: i % 24 == 0 ? 417 : 418) }
        XCTAssertEqual(packets.frames(inRefused: 418), 1)
        XCTAssertEqual(packets.frames(inRefused: 836), 2)
        XCTAssertEqual(packets.frames(inRefused: 4180), 10)
        XCTAssertEqual(packets.frames(inRefused: 100), 1, "at least the packet's own frame")
        // Only the last 64 count: after louder music, frames of 600 bytes.
        for _ in 0..<64 { packets.accepted(size: 600) }
        XCTAssertEqual(packets.frames(inRefused: 6000), 10)
    }

    func testOnlyRawMPEGAudioStreamsAreCountedThisWay() {
        XCTAssertTrue(RawStreamPackets.isRaw(formatName: "mp3"))
        for indexed in ["aac", "mov,mp4,m4a,3gp,3g2,mj2", "asf", "ogg", "flac"] {
            XCTAssertFalse(RawStreamPackets.isRaw(formatName: indexed), indexed)
        }
    }
}
