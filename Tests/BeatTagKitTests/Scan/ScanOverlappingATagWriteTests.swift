@testable import BeatTagKit
import XCTest

/// A `tag --write` that lands while a scan analyses the same file (a scan audit): the scan's view of
/// the file from before the write must not replace what the write recorded, or the next write is
/// refused as "changed since it was scanned" and the next scan analyses the file again.
final class ScanOverlappingATagWriteTests: XCTestCase {
    func testTheWrittenFilesFactsAreKept() throws {
        let dir = try temporaryDirectory(self)
        let file = (dir as NSString).appendingPathComponent("song.flac")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: file)
        let catalog = try Catalog(path: (dir as NSString).appendingPathComponent("catalog.sqlite"))
        _ = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [file], force: true)).run()
        let scanned = try XCTUnwrap(try catalog.track(path: file))

        // The scan walked and analysed the file as it was...
        let walked = FoundFile(path: file, size: scanned.fileSize, modifiedAt: scanned.modifiedAt, sidecar: nil)
        let (snapshot, outcome) = TrackProcessor.process(walked, existing: scanned, sourceOption: nil, now: Date().timeIntervalSince1970)
        XCTAssertEqual(outcome, .analysed)
        // ...then the write landed before the scan stored its row.
        _ = try ManualBPM.apply(.set(140), to: file, in: catalog)
        let written = try BPMTagWriter.write(try BPMTagWriter.plan(path: file, bpm: 140, decimals: false, manual: true))
        try catalog.noteTagWritten(path: file, file: written)
        _ = try catalog.saveScanResult(snapshot)

        let row = try XCTUnwrap(try catalog.track(path: file))
        XCTAssertEqual(row.fileSinceScan(), .asScanned, "the row describes the file on disk")
        XCTAssertEqual(row.bpmTag, 140)
        XCTAssertNoThrow(try BPMTagWriter.checkUnchangedSinceScan(row), "a second write is allowed")
        let rescan = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [file])).run()
        XCTAssertEqual(rescan.unchanged, 1, "not analysed again")
    }
}
