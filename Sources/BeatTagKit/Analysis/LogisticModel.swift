import Foundation

/// A fitted logistic regression on raw features: the standardisation is folded into the weights by
/// `scripts/fit/tempo_models.py`, which prints each model as a literal to paste.
public struct LogisticModel: LogOddsModel {
    public let weights: [Double]
    public let bias: Double

    public init(weights: [Double], bias: Double) {
        self.weights = weights
        self.bias = bias
    }

    public func logit(_ features: [Double]) -> Double {
        zip(weights, features).reduce(bias) { $0 + $1.0 * $1.1 }
    }
}
