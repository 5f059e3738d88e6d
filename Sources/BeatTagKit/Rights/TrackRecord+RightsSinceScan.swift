extension TrackRecord {
    /// Why the catalog's rights for this track may be out of date: the `.beattag-rights` in force
    /// for it now (its folder's or one above) says otherwise, or is gone. Read where a tempo change
    /// hangs on them (a render): the next scan applies them, and until then the track is not played.
    /// Nil when they agree, or when the rights are the file's own tags (no sidecar overrides those).
    public var rightsProblemSinceScan: String? {
        guard rightsOrigin != RightsOrigin.tag.rawValue else { return nil }
        var now = self
        TrackProcessor.applyRights(RightsResolver.resolve(tags: nil, sidecar: FileWalker.sidecar(forFileAt: path), option: nil), to: &now)
        guard !now.sameRights(as: self) else { return nil }
        return "the rights of its folder (\(RightsSidecar.fileName)) changed since the last scan (scan it again)"
    }
}
