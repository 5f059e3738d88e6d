import Foundation

/// A fitted logistic regression on raw features: the standardisation is folded into the weights by
/// `scripts/fit/tempo_models.py`, which writes each model as a `…+Generated.swift` file.
public struct LogisticModel: LogOddsModel {
    public let features: [String]
    public let weights: [Double]
    public let bias: Double

    public init(features: [String], weights: [Double], bias: Double) {
        precondition(features.count == weights.count, "LogisticModel: \(weights.count) weights for \(features.count) features")
        self.features = features
        self.weights = weights
        self.bias = bias
    }

    public func logit(_ features: [Double]) -> Double {
        precondition(features.count == weights.count, "LogisticModel: \(features.count) values for \(weights.count) features")
        return zip(weights, features).reduce(bias) { $0 + $1.0 * $1.1 }
    }
}
