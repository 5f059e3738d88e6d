import Foundation
import CXattr
#if canImport(Glibc)
import Glibc
#endif

/// A file's extended attributes, carried over to the file written to replace it. Desktop tools keep
/// what the user said of a file there (KDE and GNOME tags, ratings and comments in `user.xdg.*`),
/// and POSIX ACLs live there too (`system.posix_acl_access`): a copy renamed over the file would
/// lose them, since `copyItem` copies the bytes and the mode only.
enum ExtendedAttributes {
    /// The names of the attributes `path` has (an empty list where the file system keeps none).
    static func names(of path: String) -> [String] {
        let size = listxattr(path, nil, 0)
        guard size > 0 else { return [] }
        var buffer = [CChar](repeating: 0, count: size)
        let read = listxattr(path, &buffer, size)
        guard read > 0 else { return [] }
        return buffer[..<read].split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    static func value(_ name: String, of path: String) -> [UInt8]? {
        let size = getxattr(path, name, nil, 0)
        guard size >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: size)
        let read = size == 0 ? 0 : getxattr(path, name, &buffer, size)
        guard read >= 0 else { return nil }
        return Array(buffer[..<read])
    }

    /// Copies every attribute of `source` to `destination`. Returns the names of the ones the user
    /// owns (`user.*`, ACLs) that could not be kept; the kernel's own (`security.*`, `trusted.*`)
    /// are copied where allowed and otherwise left to the file system's defaults.
    @discardableResult
    static func copy(from source: String, to destination: String) -> [String] {
        var lost: [String] = []
        for name in names(of: source) {
            let owned = name.hasPrefix("user.") || name.hasPrefix("system.posix_acl")
            guard let bytes = value(name, of: source) else {
                if owned { lost.append(name) }
                continue
            }
            let status = bytes.withUnsafeBytes { setxattr(destination, name, $0.baseAddress, bytes.count, 0) }
            if status != 0, owned { lost.append(name) }
        }
        return lost
    }
}
