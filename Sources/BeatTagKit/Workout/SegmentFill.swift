/// Chooses whole tracks for one segment so that their lengths add up closest to the time wanted
/// (a playlist changes segment only between tracks), preferring the cheaper (better-ranked) tracks
/// among fills equally close. A 0/1 knapsack over whole seconds.
enum SegmentFill {
    /// Fills within this much of each other count as equally close: rank decides between them.
    static let closeEnough = 5
    /// Longest a segment may run over: beyond it a fill is not offered.
    static let largestOverrun = 45

    /// Indices into `durations` (seconds). `costs`: what using each track costs (lower is better);
    /// by default its rank, the order of `durations` being best first.
    static func choose(durations: [Double], costs: [Int]? = nil, target: Double) -> [Int] {
        let want = Int(target.rounded())
        guard want > 0 else { return [] }
        let limit = want + largestOverrun
        let items = durations.map { max(1, Int($0.rounded())) }
        let unreachable = Int.max / 2
        // cost[s]: the least rank cost of a set of tracks lasting s seconds; taken[i][s]: track i is in it.
        var cost = [Int](repeating: unreachable, count: limit + 1)
        cost[0] = 0
        var taken = [[Bool]](repeating: [], count: items.count)
        for (i, length) in items.enumerated() {
            taken[i] = [Bool](repeating: false, count: limit + 1)
            guard length <= limit else { continue }
            for s in stride(from: limit, through: length, by: -1) where cost[s - length] != unreachable {
                let candidate = cost[s - length] + (costs?[i] ?? i + 1)
                if candidate < cost[s] {
                    cost[s] = candidate
                    taken[i][s] = true
                }
            }
        }
        var best: (s: Int, key: (Int, Int, Int))?
        for s in 0...limit where cost[s] != unreachable {
            // Among fills equally close, one that leaves the segment short (more than 5% under)
            // loses to one that does not: 11 s under a 3-minute segment is short, 10 s over is not.
            let short = RunShortfall.isShort(music: Double(s), planned: Double(want)) ? 1 : 0
            let key = (abs(s - want) / closeEnough, short, cost[s])
            if best == nil || key < best!.key { best = (s, key) }
        }
        guard var s = best?.s else { return [] }
        var chosen: [Int] = []
        for i in stride(from: items.count - 1, through: 0, by: -1) where s > 0 && taken[i][s] {
            chosen.append(i)
            s -= items[i]
        }
        return chosen.sorted()
    }
}
