import Foundation

/// A fitted model that scores features as log-odds; its probability is their logistic function.
/// It carries the names of the features it was fitted on, in order (`features`), so that the code
/// that feeds it can be checked against them by name (`reading(_:as:)`), not by count.
public protocol LogOddsModel: Sendable {
    var features: [String] { get }
    func logit(_ features: [Double]) -> Double
}

extension LogOddsModel {
    public func probability(_ features: [Double]) -> Double { 1 / (1 + exp(-logit(features))) }

    /// The model, when `names` (what the code computes, in order) are the features it was fitted on;
    /// else `FeatureMismatch`. A model fitted on other features would read every value wrong, or drop
    /// one without a sound.
    public func reading(_ names: [String], as owner: String) throws -> Self {
        guard names == features else { throw FeatureMismatch(owner: owner, fitted: features, computed: names) }
        return self
    }
}

/// A fitted model and the code that feeds it disagree on the features: a refit is due
/// (`scripts/fit/refit.sh`), or a feature was added, removed or moved without one.
public struct FeatureMismatch: Error, CustomStringConvertible, Equatable {
    public let owner: String
    public let fitted: [String]
    public let computed: [String]

    public var description: String {
        let missing = fitted.filter { !computed.contains($0) }, extra = computed.filter { !fitted.contains($0) }
        var parts: [String] = []
        if !extra.isEmpty { parts.append("computed but not fitted: \(extra.joined(separator: ", "))") }
        if !missing.isEmpty { parts.append("fitted but not computed: \(missing.joined(separator: ", "))") }
        if parts.isEmpty { parts.append("the same names in another order") }
        return "\(owner): the model was fitted on other features than the code computes (\(parts.joined(separator: "; "))); refit it (scripts/fit/refit.sh)"
    }
}

/// Where each decision takes its fitted model: checked by name once, on first use. A mismatch is a
/// build that must not ship (`FittedModelsTests` checks all eight), so it stops with the reason.
enum FittedModel {
    static func load<Model: LogOddsModel>(_ model: Model, reads names: [String], as owner: String) -> Model {
        do { return try model.reading(names, as: owner) } catch { preconditionFailure("\(error)") }
    }
}
