import CTagLibShim

/// A string the shim allocated: copied into Swift, then freed with the shim's allocator.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { bt_free(pointer) }
    return String(cString: pointer)
}
