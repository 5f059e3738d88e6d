import Foundation

/// A fitted model that scores features as log-odds; its probability is their logistic function.
public protocol LogOddsModel: Sendable {
    func logit(_ features: [Double]) -> Double
}

extension LogOddsModel {
    public func probability(_ features: [Double]) -> Double { 1 / (1 + exp(-logit(features))) }
}
