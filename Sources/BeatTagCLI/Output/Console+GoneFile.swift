import BeatTagKit
import Foundation

extension Console {
    /// A catalog edit made for a file that is no longer where it was scanned: the edit is kept (a
    /// rescan that finds the file moved carries it along) and the user is told, once, on stderr.
    func noteIfGone(_ record: TrackRecord, named file: String) {
        guard !FileManager.default.fileExists(atPath: record.path) else { return }
        problem("note: \(file) is no longer there; the catalog keeps this for it (`beattag scan` finds it if it moved)")
    }

    /// Tracks a run or a playlist could not use, once each: the first five by name, then a count.
    func reportLeftOut(_ leftOut: [RunPlan.LeftOut]) {
        var said = Set<String>()
        let once = leftOut.filter { said.insert($0.path).inserted }
        for item in once.prefix(5) { problem("left out \(item.path): \(item.reason)") }
        if once.count > 5 { problem("… and \(once.count - 5) more left out") }
    }
}
