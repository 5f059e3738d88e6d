import GRDB

/// `scan --force` analyses every file again, which on a large library takes hours: an interrupted
/// one resumes like any scan. Each root's forced scan is remembered from its start until it
/// completes; the files analysed since then are not analysed again by the same scan run again.
extension Catalog {
    /// When the forced scan of each root began: the start of one still under way (interrupted),
    /// else `now`, which is recorded.
    public func beginForcedScan(of roots: [String], now: Double) throws -> [String: Double] {
        try pool.write { db in
            var since: [String: Double] = [:]
            for root in roots {
                if let earlier = try Double.fetchOne(db, sql: "SELECT since FROM forcedScan WHERE root = ?", arguments: [root]) {
                    since[root] = earlier
                } else {
                    try db.execute(sql: "INSERT INTO forcedScan (root, since) VALUES (?, ?)", arguments: [root, now])
                    since[root] = now
                }
            }
            return since
        }
    }

    /// The forced scan of `roots` is complete.
    public func endForcedScan(of roots: [String]) throws {
        try pool.write { db in
            for root in roots { try db.execute(sql: "DELETE FROM forcedScan WHERE root = ?", arguments: [root]) }
        }
    }
}
