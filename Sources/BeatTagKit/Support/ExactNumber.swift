/// A number as it was given, in the fewest digits that read back as the same value: 176, 29.96,
/// 170.123456789, 1e+300. For values a person typed, said back in a message or saved in a file:
/// fixed decimals would round 29.96 to a "30.0 is outside 30–300" or print 300 digits of 1e300.
public enum ExactNumber {
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
