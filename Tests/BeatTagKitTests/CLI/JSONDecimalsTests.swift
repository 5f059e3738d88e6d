@testable import BeatTagCLI
@testable import BeatTagKit
import XCTest

/// `list --json` writes beat times digit by digit (`JSONEncoder` took 20 s over a large catalog's):
/// the text must be the one `JSONEncoder` writes for the same values rounded to 0.1 ms.
final class JSONDecimalsTests: XCTestCase {
    func testBeatTimesReadAsJSONEncoderWritesThem() throws {
        var generator = SplitMix64(seed: 3)
        var values: [Double] = [0, 1, 2.5, 0.00004, 0.00005, 0.99996, 9.99995, 12.3450, 1e-9, 123_456.789_06, -0.5, -3.000_04]
        for _ in 0..<5000 { values.append(Double(generator.next() % 4_000_000_000) / 1_000_000) }
        let rounded = values.map { Rounding.decimals($0, 4) }
        let expected = String(decoding: try JSONEncoder().encode(rounded), as: UTF8.self)
        XCTAssertEqual(JSONDecimals.array(values, decimals: 4), expected)
        // And it reads back as the rounded values.
        XCTAssertEqual(try JSONDecoder().decode([Double].self, from: Data(JSONDecimals.array(values, decimals: 4).utf8)), rounded)
        XCTAssertEqual(JSONDecimals.array([], decimals: 4), "[]")
    }
    /// A row of `list --json` is the text JSONEncoder writes for the row with its beats: keys sorted,
    /// "beats" among them (written apart, it came last).
    func testAListedRowKeepsItsKeysInOrder() throws {
        let scanned = try ScannedSong(self, fixture: "house-128.wav", as: "house.wav")
        XCTAssertEqual(try runBeattag(["tag", scanned.song, "--double", "--catalog", scanned.catalog]).status, 0)
        let text = try runBeattag(["list", "--json", "--catalog", scanned.catalog]).stdout
        let keys = text.components(separatedBy: "\"").enumerated().compactMap { i, part in
            i % 2 == 1 && text.components(separatedBy: "\"")[i + 1].hasPrefix(":") ? part : nil
        }
        XCTAssertTrue(keys.contains("beats") && keys.contains("bpmManual"), "\(keys)")
        XCTAssertEqual(keys, keys.sorted(), text)
        let row = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual((row["beats"] as? [Double])?.count ?? 0, 49, "doubled: twice the 25 analysed beats less one")
    }
}
