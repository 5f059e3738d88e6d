import Foundation

/// What to scan and how: the roots, the rights stated for them, `--force`, `--prune`, whether to wait
/// for another scan of the catalog, and how many files at once.
public struct ScanOptions: Sendable {
    public var roots: [String]
    public var source: SourceType?
    public var force = false
    /// Mark tracks missing even under a root that is empty or lost most of its files (an unmounted
    /// disk looks like that, so without `prune` such a root is reported and its tracks are kept).
    public var prune = false
    /// Wait for a scan already running on the catalog (else fail with `CatalogError.scanRunning`).
    public var waitForOtherScan = true
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    public init(roots: [String], source: SourceType? = nil, force: Bool = false) {
        self.roots = roots
        self.source = source
        self.force = force
    }
}
