import Foundation

/// A fitted ensemble of gradient-boosted regression trees on raw features, as
/// `scripts/fit/tempo_models.py --trees` writes it: flat node arrays, every tree's root in `roots`,
/// a leaf where `feature` is -1. The log-odds are `bias` plus one leaf value per tree (already
/// scaled by the learning rate).
///
/// Why trees where the other models are logistic: which octave a pattern means depends on the tempo
/// and on other features together (a half-time feel is "fast" at 170 and "slow" at 120, a kick on
/// every beat settles what hats cannot); a linear score can only add the evidence up.
public struct BoostedTrees: LogOddsModel {
    /// The features the ensemble was fitted on, in order (it need not split on every one).
    public let features: [String]
    public let bias: Double
    public let roots: [Int]
    public let feature: [Int]
    public let threshold: [Double]
    public let left: [Int]
    public let right: [Int]
    public let value: [Double]

    public init(features: [String], bias: Double, roots: [Int], feature: [Int], threshold: [Double], left: [Int], right: [Int], value: [Double]) {
        precondition([threshold.count, left.count, right.count, value.count].allSatisfy { $0 == feature.count },
                     "BoostedTrees: node arrays of different lengths")
        precondition(feature.allSatisfy { $0 < features.count }, "BoostedTrees: a split on a feature it was not fitted on")
        self.features = features
        self.bias = bias
        self.roots = roots
        self.feature = feature
        self.threshold = threshold
        self.left = left
        self.right = right
        self.value = value
    }

    public func logit(_ features: [Double]) -> Double {
        precondition(features.count == self.features.count, "BoostedTrees: \(features.count) values for \(self.features.count) features")
        var total = bias
        for root in roots {
            var node = root
            while feature[node] >= 0 {
                // The fit compares single-precision features (scikit-learn's trees): so does this, so
                // that a feature on a threshold goes the way it went in the fit.
                node = Double(Float(features[feature[node]])) <= threshold[node] ? left[node] : right[node]
            }
            total += value[node]
        }
        return total
    }
}
