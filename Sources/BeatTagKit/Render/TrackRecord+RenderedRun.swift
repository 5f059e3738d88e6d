extension TrackRecord {
    /// Why this row is no track to play: its file is a run beattag rendered, which a build before
    /// scans left renders out catalogued as a song. Nil for music.
    public var renderedRunProblem: String? { MixFileWriter.isRender(path: path) ? RunPlan.renderReason : nil }
}
