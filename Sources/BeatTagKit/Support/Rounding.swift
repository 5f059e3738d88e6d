import Foundation

/// JSON output keeps the digits that mean something (beat times to 0.1 ms, scores to 0.001): the
/// command-line JSON and the review page's API alike.
public enum Rounding {
    public static func decimals(_ x: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (x * scale).rounded() / scale
    }
}
