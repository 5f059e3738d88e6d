import BeatTagKit
import Foundation

extension Console {
    /// A catalog edit made for a file that is no longer where it was scanned: the edit is kept (a
    /// rescan that finds the file moved carries it along) and the user is told, once, on stderr.
    func noteIfGone(_ record: TrackRecord, named file: String) {
        guard !FileManager.default.fileExists(atPath: record.path) else { return }
        problem("note: \(file) is no longer there; the catalog keeps this for it (`beattag scan` finds it if it moved)")
    }
}
