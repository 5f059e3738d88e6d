public enum RightsResolver {
    /// Tags in the file win over a folder's sidecar, which wins over the scan's `--source`.
    public static func resolve(tags: TrackTags?, sidecar: RightsSidecar?, option: SourceType?) -> Rights {
        if let tags, let fromTags = LicenseParser.rights(from: tags) { return fromTags }
        if let sidecar { return sidecar.rights }
        if let option { return Rights(source: option, origin: .option) }
        return .unknown
    }
}
