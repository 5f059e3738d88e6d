/// Every tempo range beattag uses, in one place (BPM, or steps per minute for cadences).
public enum TempoRanges {
    /// The levels the analysis tracks and compares: slower or faster readings are folded into it.
    public static let analysed = 50.0...230.0
    /// What the analysis reports in doubt. A library's tempi end at about 200 (`TempoPrior.library`:
    /// 5% at 170–200), and music that can be read above 200 can also be read at its half, in the
    /// busiest range of a library: a slow song read double is far likelier than a song over 200. So
    /// a level above is given only where the octave decisions are sure of it, and otherwise its
    /// half (`TempoEstimator.sureAboveCeiling`; 1% over 200: a 200 BPM groove's level may read 200.5).
    public static let reported = 50.0...202.0
    /// What the tempo salience scans, a little wider than `analysed` so that its edges have neighbours.
    public static let salience = 40.0...250.0
    /// A BPM tag outside this is nonsense and read as none.
    public static let tagged = 20.0...400.0
    /// What a hand-set BPM may be.
    public static let handSet = 30.0...300.0
    /// Running cadences, steps per minute.
    public static let cadence = 100.0...240.0
    /// The tempi a runner uses one step per beat: `stats` charts them, `untagged` puts them first.
    public static let runnable = 140.0...200.0
}
