import GRDB

extension TrackRecord {
    /// Reads a row column by column, with concrete conversions. GRDB's `Decodable` path, and even its
    /// generic `decode` per column, cost most of `match`'s time when it judges 100,000 rows (a
    /// keyed container or generic metadata per value). A column that does not hold what it should
    /// (a damaged catalog) throws, as it did there.
    public init(row: Row) throws {
        let values = TrackRecord.columnValues(of: row)
        var next = 0
        // The keys are taken in `CodingKeys` order (a test reads every column back).
        func take() -> DatabaseValue { defer { next += 1 }; return values[next] }
        func text() -> String? { String.fromDatabaseValue(take()) }
        func double() -> Double? { Double.fromDatabaseValue(take()) }
        func int() -> Int? { Int.fromDatabaseValue(take()) }
        func int64() -> Int64? { Int64.fromDatabaseValue(take()) }
        func bool() -> Bool? { Bool.fromDatabaseValue(take()) }
        func required<T>(_ value: T?) throws -> T {
            guard let value else { throw UnreadableColumn(name: CodingKeys.allCases[next - 1].rawValue) }
            return value
        }
        func optional<T>(_ raw: String?, _ make: (String) -> T?) throws -> T? {
            guard let raw else { return nil }
            return try required(make(raw))
        }
        id = int64()
        path = try required(text())
        fileSize = try required(int64())
        modifiedAt = try required(double())
        fingerprint = text()
        state = try required(text().flatMap(TrackState.init(rawValue:)))
        format = text()
        durationSeconds = double()
        sampleRate = int()
        channels = int()
        bitrateKbps = int()
        title = text()
        artist = text()
        album = text()
        genre = text()
        year = int()
        trackNumber = int()
        bpmTag = double()
        bpmAnalysed = double()
        bpmManual = double()
        bpm = double()
        bpmSource = try optional(text(), BPMSource.init(rawValue:))
        bpmReason = text()
        confidence = double()
        bpmAlternative = double()
        bpmAlternativeScore = double()
        bpmScore = double()
        gridOffset = double()
        gridPeriod = double()
        tempoSteadiness = double()
        tempoVariable = bool()
        tempoMin = double()
        tempoMax = double()
        sourceType = try required(text().flatMap(SourceType.init(rawValue:)))
        license = text()
        attribution = text()
        sourceURL = text()
        tempoAdjustAllowed = try required(bool())
        rightsOrigin = try required(text())
        waveformAnalysed = try required(bool())
        metadataOnlyReason = text()
        analysisVersion = int()
        lastError = text()
        decodeWarning = text()
        firstSeenAt = try required(double())
        scannedAt = try required(double())
        missingSince = double()
        audioHash = text()
        libraryRoot = text()
        decoder = text()
        rating = try optional(text(), TrackRating.init(rawValue:))
        recording = int64()
        beatAnchor = double()
        phaseMoved = bool()
    }

    /// The row's values in `CodingKeys` order: as they stand when the query selected
    /// `TrackQuery.recordColumns` (every query that reads many rows), else looked up by name.
    private static func columnValues(of row: Row) -> [DatabaseValue] {
        let all = Array(row.databaseValues)
        let keys = CodingKeys.allCases
        if all.count == keys.count, row.columnNames.first == keys.first?.rawValue, row.columnNames.last == keys.last?.rawValue {
            return all
        }
        return keys.map { key in (row[key.rawValue] as DatabaseValue?) ?? .null }
    }

    /// A stored value this build cannot read.
    struct UnreadableColumn: Error, CustomStringConvertible {
        var name: String
        var description: String { "the catalog's \(name) column holds a value this beattag cannot read" }
    }
}
