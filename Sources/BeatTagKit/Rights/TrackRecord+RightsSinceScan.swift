extension TrackRecord {
    /// This row with the rights `sidecar` and `option` give it now, when they differ from its own;
    /// nil when they agree, or when its rights are the file's own tags (no sidecar overrides those).
    /// A scan updates an unchanged file's row with it; a render asks it of the sidecar as it is now.
    /// A no-derivatives notice in the file's comment or copyright that names no licence ("may not
    /// be altered") forbids a tempo change whatever the folder says, but the row keeps only the
    /// rights, not the notice: where the folder and the scan would allow what the row forbids, the
    /// tags are read again (few rows: those that forbid). Without that the next plain scan made
    /// such a track stretchable (a CLI audit).
    func withRightsNow(sidecar: RightsSidecar?, option: SourceType?) -> TrackRecord? {
        guard rightsOrigin != RightsOrigin.tag.rawValue else { return nil }
        var now = self
        TrackProcessor.applyRights(RightsResolver.resolve(tags: nil, sidecar: sidecar, option: option), to: &now)
        if now.tempoAdjustAllowed, !tempoAdjustAllowed {
            // Tags that cannot be read now (the file made unreadable) keep the row as it is: never
            // made stretchable on less than the scan knew.
            guard let tags = TagReader.readAny(path: path) else { return nil }
            now = self
            TrackProcessor.applyRights(RightsResolver.resolve(tags: tags, sidecar: sidecar, option: option), to: &now)
        }
        return now.sameRights(as: self) ? nil : now
    }

    /// Why the catalog's rights for this track may be out of date: the `.beattag-rights` in force
    /// for it now (its folder's or one above) says otherwise, or is gone. Read where a tempo change
    /// hangs on them (a render): the next scan applies them, and until then the track is not played.
    public var rightsProblemSinceScan: String? {
        guard withRightsNow(sidecar: FileWalker.sidecar(forFileAt: path), option: nil) != nil else { return nil }
        return "the rights of its folder (\(RightsSidecar.fileName)) changed since the last scan (scan it again)"
    }
}
