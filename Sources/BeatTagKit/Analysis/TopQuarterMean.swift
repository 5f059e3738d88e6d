extension Array where Element == Double {
    /// Mean of the largest quarter of the values (at least one; 0 when empty): where a cue is rare,
    /// such as a chord change on few of many beats, the mean of all values drowns it.
    var topQuarterMean: Double {
        guard !isEmpty else { return 0 }
        let top = sorted().suffix(Swift.max(1, count / 4))
        return top.reduce(0, +) / Double(top.count)
    }
}
