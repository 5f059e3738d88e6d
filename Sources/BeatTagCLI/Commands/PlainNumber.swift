import ArgumentParser
import Foundation

/// A number on the command line as people write it: decimal, optionally signed, with an exponent
/// at most. Swift's own parsing takes `0xAF` as 175 and `nan` or `inf` as numbers; none of them
/// is a cadence, a BPM or a number of days.
enum PlainNumber {
    /// For `@Option(transform:)`, which wants a `@Sendable` function.
    static let double: @Sendable (String) throws -> Double = { try parse($0) }

    static func parse(_ text: String) throws -> Double {
        guard text.range(of: #"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil,
              let value = Double(text), value.isFinite else {
            throw ValidationError("not a decimal number")
        }
        return value
    }
}
