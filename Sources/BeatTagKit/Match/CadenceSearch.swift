/// The best few matches in a large catalog without judging every track in the tempo window: the
/// catalog hands out candidates nearest to the cadence first (SQL, on the bpm index), and
/// `CadenceMatcher`, the one judge of every rule, filter and tie, ranks them. A match is final once
/// every candidate nearer to the cadence has been judged; until `limit` are final, it asks for more.
public enum CadenceSearch {
    public struct Result: Sendable {
        public var matches: [CadenceMatch]
        /// Tracks in the tempo window before filters and rights: what `limit` chose from.
        public var inWindow: Int
    }

    public static func best(_ limit: Int, rules: CadenceRules, filter: MatchFilter, in catalog: Catalog) throws -> Result {
        var query = catalog.cadenceQuery(rules)
        query.nearestBy = rules.distanceSQL
        let inWindow = try catalog.count(matching: query)
        let limit = min(limit, inWindow)
        var batch = 2 * limit + 16
        while true {
            query.limit = batch
            let candidates = try catalog.tracks(matching: query)
            let judged = CadenceMatcher.match(candidates, rules: rules, filter: filter).matches
            guard candidates.count == batch else {
                return Result(matches: Array(judged.prefix(limit)), inWindow: inWindow)  // every candidate judged
            }
            // Tracks as near as the farthest candidate may still wait in the catalog: only nearer ones are final.
            let boundary = candidates.compactMap(\.bpm).map(rules.distance).max() ?? 0
            // A match is final when its whole liked band (a liked track outranks others in its whole
            // percent) lies nearer than the boundary; the margin is wider than the matcher's tie tolerance.
            let final = judged.filter { (CadenceMatcher.likedBand(abs($0.shiftPercent)) + 1) / 100 < boundary - 1e-10 }
            if final.count >= limit { return Result(matches: Array(final.prefix(limit)), inWindow: inWindow) }
            batch *= 4
        }
    }
}
