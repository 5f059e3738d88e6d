import Foundation

/// How many columns a terminal has: asked of the terminal on `descriptor` each time (a window
/// resized mid-scan is followed), else `$COLUMNS`; nil when neither says (at least `minimum`).
enum TerminalWidth {
    static func columns(of descriptor: Int32, minimum: Int = 20) -> Int? {
        var size = winsize()
        if isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, Int(size.ws_col) >= minimum { return Int(size.ws_col) }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns >= minimum { return columns }
        return nil
    }
}
