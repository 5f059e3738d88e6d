import Foundation

public struct Rights: Equatable, Sendable {
    public var source: SourceType
    public var license: String?
    public var attribution: String?
    public var sourceURL: String?
    public var tempoAdjustAllowed: Bool
    public var origin: RightsOrigin

    public init(source: SourceType, license: String? = nil, attribution: String? = nil, sourceURL: String? = nil,
                tempoAdjustAllowed: Bool? = nil, origin: RightsOrigin) {
        self.source = source
        self.license = license
        self.attribution = attribution
        self.sourceURL = sourceURL
        self.tempoAdjustAllowed = tempoAdjustAllowed ?? source.allowsTempoAdjustment
        self.origin = origin
    }

    public static let unknown = Rights(source: .unknown, origin: .none)
}
