/// A render stopped on request (Ctrl-C): the partial file is gone, nothing was written.
public struct RenderCancelled: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "interrupted; no output written" }
}
