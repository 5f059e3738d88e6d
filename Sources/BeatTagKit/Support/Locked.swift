import Foundation

/// A value shared between threads (a signal's reader and the render loop, the review server's
/// tasks), behind a lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    public init(_ value: Value) { stored = value }
    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place under one hold of the lock (a get then a set could lose a change).
    public func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
