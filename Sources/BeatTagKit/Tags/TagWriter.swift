import CTagLibShim

/// Writes tag properties (an empty value removes the key). Callers own the copy-verify-replace protocol.
public enum TagWriter {
    public static func write(path: String, properties: [(key: String, value: String)]) throws {
        guard let handle = bt_tag_open(path) else { throw TagError.unreadable(path) }
        defer { bt_tag_close(handle) }
        for (key, value) in properties where bt_tag_set_property(handle, key, value) != 1 {
            throw TagError.writeFailed("the format does not accept \(key)")
        }
        guard bt_tag_save(handle) == 1 else { throw TagError.writeFailed("TagLib could not save \(path)") }
    }
}
