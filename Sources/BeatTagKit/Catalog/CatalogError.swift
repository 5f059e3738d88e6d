public enum CatalogError: Error, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case notFound(path: String)
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open catalog \(path): \(reason)"
        case .notFound(let path): return "no catalog at \(path) (run `beattag scan FOLDER` first)"
        }
    }
}
