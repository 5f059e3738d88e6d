import Foundation

/// What to scan and how: the roots, the rights stated for them, `--force`, and how many files at once.
public struct ScanOptions: Sendable {
    public var roots: [String]
    public var source: SourceType?
    public var force = false
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    public init(roots: [String], source: SourceType? = nil, force: Bool = false) {
        self.roots = roots
        self.source = source
        self.force = force
    }
}
