/// Where a track's rights came from, strongest first.
public enum RightsOrigin: String, Codable, Sendable {
    case tag, sidecar, option, none
}
