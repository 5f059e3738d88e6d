import Foundation

/// A logistic regression and gradient-boosted trees fitted on the same samples, whose log-odds are
/// averaged: what the family and octave decisions use since analysis version 16.
///
/// Why both: the logistic regression can only add the evidence up; the trees can read it together (a
/// half-time feel means "fast" at 170 and "slow" at 120) but are over-sure on music unlike the songs
/// they were fitted on. On held-out songs the mean made fewer mistakes than either, and on another
/// generator's songs left out of the fit it was the better calibrated (docs/tempo.md).
/// `scripts/fit/tempo_models.py --trees` fits both and writes them as Swift source.
public struct BlendedModel: LogOddsModel {
    public let logistic: LogisticModel
    public let trees: BoostedTrees

    public init(logistic: LogisticModel, trees: BoostedTrees) {
        precondition(logistic.features == trees.features, "BlendedModel: the two models read different features")
        self.logistic = logistic
        self.trees = trees
    }

    public var features: [String] { logistic.features }

    public func logit(_ features: [Double]) -> Double { (logistic.logit(features) + trees.logit(features)) / 2 }
}
