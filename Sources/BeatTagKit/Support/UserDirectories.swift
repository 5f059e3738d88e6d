import Foundation

/// Where a user's files go by default, read the same way for the catalog and the profile: `$HOME`
/// when set (a test, a sandbox or `sudo -E` points it elsewhere), else the account's home; an XDG
/// base directory only when absolute, as the XDG spec asks (a relative one is ignored).
enum UserDirectories {
    static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    }

    /// `$variable`, else `~/fallback`.
    static func base(_ variable: String, else fallback: String, _ environment: [String: String]) -> String {
        environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home(environment) as NSString).appendingPathComponent(fallback)
    }
}
