public enum RightsResolver {
    /// Tags in the file win over a folder's sidecar, which wins over the scan's `--source`.
    /// Whatever decides, a file whose tags say no derivatives (in a copyright notice or a comment
    /// too) is never time-stretched: rights fail closed.
    public static func resolve(tags: TrackTags?, sidecar: RightsSidecar?, option: SourceType?) -> Rights {
        var rights = decide(tags: tags, sidecar: sidecar, option: option)
        if let tags, LicenseParser.forbidsDerivatives(tags) { rights.tempoAdjustAllowed = false }
        return rights
    }

    private static func decide(tags: TrackTags?, sidecar: RightsSidecar?, option: SourceType?) -> Rights {
        if let tags, let fromTags = LicenseParser.rights(from: tags) { return fromTags }
        if let sidecar { return sidecar.rights }
        if let option { return Rights(source: option, origin: .option) }
        return .unknown
    }
}
