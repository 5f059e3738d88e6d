public enum AnalysisError: Error, CustomStringConvertible, Equatable {
    case tooShort(seconds: Double)
    case silent
    case noPulse
    public var description: String {
        switch self {
        case .tooShort(let s): return String(format: "too short to analyse (%.1f s; at least 4 s needed)", s)
        case .silent: return "silent: no signal to analyse"
        case .noPulse: return "no periodic pulse found"
        }
    }
}
