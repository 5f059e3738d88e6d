import GRDB

/// Why a catalog cannot be used, in words a user can act on (never SQL).
public enum CatalogError: Error, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case notFound(path: String)
    case notACatalog(path: String, reason: String)
    case readOnly(path: String)
    case scanRunning(path: String)
    /// Another process held the catalog longer than the wait allows: try again, nothing is wrong
    /// with the catalog (exit 1, where a catalog that cannot be used is exit 2).
    case busy
    /// A database error while using the catalog, reduced to SQLite's message.
    case database(String)
    /// SQLite found the file damaged, at opening or part-way (a page overwritten, the file cut):
    /// the catalog cannot be used (exit 2, as when it cannot be opened).
    case damaged

    /// The catalog cannot be used as it is (exit status 2), not a try-again (1).
    public var isUnusable: Bool {
        switch self {
        case .damaged, .cannotOpen, .notFound, .notACatalog: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open catalog \(path): \(reason)"
        case .notFound(let path): return "no catalog at \(path) (run `beattag scan FOLDER` first)"
        case .notACatalog(let path, let reason): return "\(path) is not a beattag catalog (\(reason)); nothing was written to it"
        case .readOnly(let path): return "catalog \(path) is read-only: this command needs to write to it"
        case .scanRunning(let path): return "another scan is running on \(path) (without --no-wait, scan waits for it)"
        case .busy: return "catalog error: the catalog stayed busy (another beattag is writing); try again"
        case .database(let message): return "catalog error: \(message)"
        case .damaged: return "catalog error: the catalog file is damaged (move it aside and `beattag scan` your folders again to rebuild it)"
        }
    }

    /// Any error as a user may see it: database errors lose their SQL text.
    public static func userFacing(_ error: Error) -> Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return CatalogError.busy
        case .SQLITE_READONLY: return CatalogError.database("the catalog is read-only")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return CatalogError.damaged
        case .SQLITE_FULL: return CatalogError.database("the disk is full")
        default: return CatalogError.database(error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }
}
