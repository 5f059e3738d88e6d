import BeatTagKit
import Hummingbird
import Foundation

/// The JSON API under `/api/` (docs/review.md): the page uses nothing else, and scripts may too.
/// Audio and tracks are found by catalog id only: no path from a request is ever opened.
struct ReviewAPI: Sendable {
    let catalog: Catalog
    let readOnly: Bool
    let audio: TrackAudio
    let overviews: WaveformOverviews

    func respond(to request: Request, parts: [Substring], context: some RequestContext) async throws -> Response {
        // HEAD is answered wherever GET is (the server sends the headers without the body).
        switch (request.method == .head ? .get : request.method, parts.count) {
        case (.get, 1) where parts[0] == "session":
            return try json(Session(readOnly: readOnly, catalog: catalog.path, remaining: try UntaggedQueue.count(in: catalog),
                                    sources: SourceType.allCases.map(\.rawValue)))
        case (.get, 1) where parts[0] == "queue":
            return try queue(request)
        case (.get, 1) where parts[0] == "stats":
            return try json(LibraryStats(catalog: catalog))
        case (.get, 1) where parts[0] == "tracks":
            return try library(request)
        case (.get, 2) where parts[0] == "tracks":
            let record = try track(parts[1])
            let reason = try UntaggedQueue.reason(ofTrack: record.id ?? -1, in: catalog)
            var answer = ReviewTrack(record, reason: reason, withBeats: true)
            answer.queued = reason != nil
            return try json(answer)
        case (.get, 3) where parts[0] == "tracks" && parts[2] == "overview":
            return try json(try overviews.overview(of: try track(parts[1])))
        case (.get, 3) where parts[0] == "tracks" && parts[2] == "audio":
            return try await audio.response(for: try track(parts[1]), request: request, context: context)
        case (.post, 3) where parts[0] == "tracks" && parts[2] == "bpm":
            return try await decide(request, id: parts[1])
        case (.post, 3) where parts[0] == "tracks" && parts[2] == "beat":
            return try await placeBeat(request, id: parts[1])
        case (.post, 3) where parts[0] == "tracks" && parts[2] == "rating":
            return try await rate(request, id: parts[1])
        default:
            throw APIError(.notFound, "no such API call: \(request.method.rawValue) \(request.uri.path)")
        }
    }

    struct Session: Encodable { var readOnly: Bool; var catalog: String; var remaining: Int; var sources: [String] }
    struct Page: Encodable { var tracks: [ReviewTrack]; var remaining: Int?; var total: Int? }

    /// `GET /api/queue?limit=N&offset=K`: the `untagged` order, doubtful first, from its K-th track.
    private func queue(_ request: Request) throws -> Response {
        let limit = try integer(request, "limit", default: 50, in: 0...1000)
        let offset = try integer(request, "offset", default: 0, in: 0...10_000_000)
        let (items, total) = try UntaggedQueue.items(in: catalog, limit: limit, offset: offset)
        if offset == 0 { audio.prepare(items.prefix(3).map(\.track)) }
        return try json(Page(tracks: items.map { ReviewTrack($0.track, reason: $0.reason) }, remaining: total))
    }

    /// `GET /api/tracks?q=&min=&max=&source=&state=&liked=1&sort=&offset=&limit=`: the library, a page at a time.
    private func library(_ request: Request) throws -> Response {
        var query = TrackQuery()
        func text(_ name: String) -> String? { Self.query(request, name) }
        query.search = text("q")
        query.minBPM = try number(request, "min")
        query.maxBPM = try number(request, "max")
        if let source = text("source") {
            guard let value = SourceType(rawValue: source) else { throw APIError(.badRequest, "unknown source \"\(source)\"") }
            query.sources = [value]
        }
        if let state = text("state") {
            guard let value = TrackState(rawValue: state) else { throw APIError(.badRequest, "unknown state \"\(state)\"") }
            query.state = value
        }
        query.likedOnly = text("liked") == "1"
        if let sort = text("sort") {
            guard let value = TrackQuery.Sort(rawValue: sort) else { throw APIError(.badRequest, "unknown sort \"\(sort)\"") }
            query.sort = value
        }
        query.limit = try integer(request, "limit", default: 50, in: 1...500)
        query.offset = try integer(request, "offset", default: 0, in: 0...10_000_000)
        let tracks = try catalog.tracks(matching: query)
        return try json(Page(tracks: tracks.map { ReviewTrack($0) }, total: try catalog.count(matching: query)))
    }

    /// `POST /api/tracks/{id}/bpm` with `{"bpm": X}` or `{"action": …}`: the path of `beattag tag`.
    /// `{"action": "undo", "bpm": X}` takes back the hand-set X just saved (409 if it changed since).
    private func decide(_ request: Request, id: Substring) async throws -> Response {
        struct Decision: Decodable { var bpm: Double?; var action: String? }
        let decision: Decision = try await body(request)
        let track = try track(id)
        let change: ManualBPM.Change
        switch (decision.bpm, decision.action) {
        case (let bpm?, nil): change = .set(bpm)
        case (nil, "double"?): change = .scale(2)
        case (nil, "half"?): change = .scale(0.5)
        case (nil, "threeHalves"?): change = .scale(1.5)
        case (nil, "twoThirds"?): change = .scale(2.0 / 3)
        case (nil, "clear"?): change = .clear
        case (let bpm?, "undo"?): change = .undo(saved: bpm)
        case (nil, "confirm"?):
            guard let bpm = track.bpm else { throw APIError(.unprocessableContent, "no BPM to confirm; send one with {\"bpm\": X}") }
            change = .set(bpm)
        default:
            throw APIError(.badRequest, "send {\"bpm\": X} or {\"action\": \"double\" | \"half\" | \"threeHalves\" | \"twoThirds\" | \"confirm\" | \"clear\"}, or {\"action\": \"undo\", \"bpm\": X}")
        }
        _ = try writing { try ManualBPM.apply(change, to: track.path, in: catalog) }
        let record = try self.track(id)  // with its beats, now counted at the new BPM
        return try json(Page(tracks: [ReviewTrack(record, withBeats: true)], remaining: try UntaggedQueue.count(in: catalog)))
    }

    /// `POST /api/tracks/{id}/beat` with `{"shift": F}` (a fraction of a beat), `{"at": S}` (a beat
    /// falls at S seconds) or `{"action": "clear"}`: the path of `beattag tag --shift-beats`. A shift
    /// is relative: with `"from"`, the hand-placed beat the page showed (null: none), it is refused
    /// (409) when the beats were moved since, as a second tab's O undid the first's.
    private func placeBeat(_ request: Request, id: Substring) async throws -> Response {
        struct Placement: Decodable {
            var shift: Double?, at: Double?, action: String?
            /// Present (`"from": null` included) when the caller says what grid it moved from.
            var from: Double??
            enum CodingKeys: CodingKey { case shift, at, action, from }
            init(from decoder: Decoder) throws {
                let fields = try decoder.container(keyedBy: CodingKeys.self)
                shift = try fields.decodeIfPresent(Double.self, forKey: .shift)
                at = try fields.decodeIfPresent(Double.self, forKey: .at)
                action = try fields.decodeIfPresent(String.self, forKey: .action)
                if fields.contains(.from) { from = .some(try fields.decodeNil(forKey: .from) ? nil : fields.decode(Double.self, forKey: .from)) }
            }
        }
        let placement: Placement = try await body(request)
        let track = try track(id)
        if case .some(let shown) = placement.from {
            let now = track.beatAnchor
            // The page has the anchor to 0.1 ms (`ReviewTrack`).
            guard (shown == nil && now == nil) || (shown != nil && now != nil && abs(shown! - now!) < 0.001) else {
                throw APIError(.conflict, "its beats were moved since this page showed them (another tab, or `beattag tag`): reload the page to see where they are")
            }
        }
        let change: HandBeat.Change
        switch (placement.shift, placement.at, placement.action) {
        case (let shift?, nil, nil) where HandBeat.isShift(shift): change = .shift(shift)
        case (nil, let at?, nil): change = .at(at)
        case (nil, nil, "clear"?): change = .clear
        default:
            throw APIError(.badRequest, "send {\"shift\": F} (a quarter, third or half of a beat, -1 to 1), {\"at\": S} (seconds) or {\"action\": \"clear\"}")
        }
        _ = try writing { try HandBeat.apply(change, to: track.path, in: catalog) }
        return try json(Page(tracks: [ReviewTrack(try self.track(id), withBeats: true)], remaining: try UntaggedQueue.count(in: catalog)))
    }

    /// `POST /api/tracks/{id}/rating` with `{"rating": "liked" | "disliked" | null}`.
    private func rate(_ request: Request, id: Substring) async throws -> Response {
        // `{"rating": null}` clears; a body without `rating` (`{}`) is no verdict at all, not a clear.
        struct Verdict: Decodable {
            var rating: TrackRating?
            enum CodingKeys: CodingKey { case rating }
            init(from decoder: Decoder) throws {
                let fields = try decoder.container(keyedBy: CodingKeys.self)
                guard fields.contains(.rating) else {
                    throw DecodingError.keyNotFound(CodingKeys.rating, .init(codingPath: [], debugDescription: "no rating"))
                }
                rating = try fields.decodeNil(forKey: .rating) ? nil : fields.decode(TrackRating.self, forKey: .rating)
            }
        }
        let verdict: Verdict = try await body(request)
        let track = try track(id)
        let record = try writing { try Rating.set(verdict.rating, for: track.path, in: catalog) }
        return try json(ReviewTrack(record))
    }

    // MARK: - Parts

    private func track(_ id: Substring) throws -> TrackRecord {
        guard id.allSatisfy(\.isASCII), id.allSatisfy(\.isNumber), let value = Int64(id), let track = try catalog.track(id: value) else {
            throw APIError(.notFound, "no track with id \(id.prefix(24))")
        }
        return track
    }

    private func writing<T>(_ body: () throws -> T) throws -> T {
        guard !readOnly else { throw APIError(.forbidden, "the catalog is read-only: nothing can be changed from this page") }
        do { return try body() } catch let error as ManualBPMError {
            if case .changedSince = error { throw APIError(.conflict, "\(error)") }
            throw APIError(.unprocessableContent, "\(error)")
        } catch let error as CatalogError {
            throw APIError(.serviceUnavailable, "\(error)")
        } catch {
            throw APIError(.serviceUnavailable, "\(CatalogError.userFacing(error))")
        }
    }

    private func body<T: Decodable>(_ request: Request) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: RequestGate.maxBody) } catch {
            throw APIError(.contentTooLarge, "the body is larger than \(RequestGate.maxBody) bytes")
        }
        do { return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView)) } catch {
            throw APIError(.badRequest, "the body is not the JSON this call takes (see docs/review.md)")
        }
    }

    /// A query parameter, decoded; nil when absent or empty.
    static func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init)?.nilIfEmpty
    }

    private func integer(_ request: Request, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = Self.query(request, name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError(.badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private func number(_ request: Request, _ name: String) throws -> Double? {
        guard let text = Self.query(request, name) else { return nil }
        guard let number = Double(text), number.isFinite else { throw APIError(.badRequest, "\(name) must be a number") }
        return number
    }

    func json<T: Encodable>(_ value: T) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response.bytes(try encoder.encode(value), type: "application/json")
    }
}

/// A refusal as the API gives it: a status and one line of JSON, `{"error": "…"}`.
struct APIError: Error {
    var status: HTTPResponse.Status
    var message: String
    init(_ status: HTTPResponse.Status, _ message: String) { self.status = status; self.message = message }

    var response: Response {
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data("{\"error\":\"refused\"}".utf8)
        return Response.bytes(body + Data("\n".utf8), type: "application/json", status: status)
    }
}

extension Response {
    /// A whole body from memory, never cached.
    static func bytes(_ data: Data, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
