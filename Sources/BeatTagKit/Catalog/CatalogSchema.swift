import GRDB

/// The catalog's tables, created and upgraded by migrations (catalog/schema.md describes every column).
/// Add a migration for any change; never edit one that has shipped.
enum CatalogSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: tracks") { db in
            try db.create(table: "track") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull().unique()
                t.column("fileSize", .integer).notNull()
                t.column("modifiedAt", .double).notNull()
                t.column("fingerprint", .text).indexed()
                t.column("state", .text).notNull().indexed()
                t.column("format", .text)
                t.column("durationSeconds", .double)
                t.column("sampleRate", .integer)
                t.column("channels", .integer)
                t.column("bitrateKbps", .integer)
                t.column("title", .text)
                t.column("artist", .text)
                t.column("album", .text)
                t.column("genre", .text)
                t.column("year", .integer)
                t.column("trackNumber", .integer)
                t.column("bpmTag", .double)
                t.column("bpmAnalysed", .double)
                t.column("bpmManual", .double)
                t.column("bpm", .double).indexed()
                t.column("bpmSource", .text)
                t.column("bpmReason", .text)
                t.column("confidence", .double)
                t.column("bpmAlternative", .double)
                t.column("bpmAlternativeScore", .double)
                t.column("bpmScore", .double)
                t.column("gridOffset", .double)
                t.column("gridPeriod", .double)
                t.column("tempoSteadiness", .double)
                t.column("tempoVariable", .boolean)
                t.column("tempoMin", .double)
                t.column("tempoMax", .double)
                t.column("beats", .blob)
                t.column("sourceType", .text).notNull().defaults(to: "unknown")
                t.column("license", .text)
                t.column("attribution", .text)
                t.column("sourceURL", .text)
                t.column("tempoAdjustAllowed", .boolean).notNull().defaults(to: true)
                t.column("rightsOrigin", .text).notNull().defaults(to: "none")
                t.column("waveformAnalysed", .boolean).notNull().defaults(to: false)
                t.column("metadataOnlyReason", .text)
                t.column("analysisVersion", .integer)
                t.column("lastError", .text)
                t.column("firstSeenAt", .double).notNull()
                t.column("scannedAt", .double).notNull()
                t.column("missingSince", .double)
            }
        }
        migrator.registerMigration("v2: playlist exports") { db in
            try db.create(table: "playlistExport") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("track", onDelete: .cascade).notNull()
                t.column("exportedAt", .double).notNull().indexed()
                t.column("playlistPath", .text).notNull()
            }
        }
        migrator.registerMigration("v3: decode warnings") { db in
            try db.alter(table: "track") { t in t.add(column: "decodeWarning", .text) }
        }
        migrator.registerMigration("v4: audio identity and library roots") { db in
            try db.alter(table: "track") { t in
                t.add(column: "audioHash", .text).indexed()
                t.add(column: "libraryRoot", .text)
            }
        }
        migrator.registerMigration("v5: beats apart, cadence index") { db in
            // Beat lists are most of a catalog's bytes; inline they made every track row a page, so
            // every scan of the table read the whole catalog. Their own table, read when needed.
            try db.create(table: "trackBeats") { t in
                t.primaryKey("trackId", .integer).references("track", onDelete: .cascade)
                t.column("beats", .blob).notNull()
            }
            try db.execute(sql: "INSERT INTO trackBeats (trackId, beats) SELECT id, beats FROM track WHERE beats IS NOT NULL")
            // Emptied, not dropped: DROP COLUMN needs SQLite 3.35 (Debian 11 and Ubuntu 20.04 have older).
            try db.execute(sql: "UPDATE track SET beats = NULL")
            // Covers the tempo-window count and the nearest-to-cadence choice of `match`.
            try db.create(index: "track_on_bpm_state_path", on: "track", columns: ["bpm", "state", "path"])
            // Covers the review queue of `untagged` (and its count in `stats`).
            try db.create(index: "track_review", on: "track",
                          columns: ["state", "bpmManual", "bpmSource", "confidence", "bpmAlternative", "bpmAlternativeScore", "bpm"])
            // Covers the per-tempo counts of `stats`.
            try db.create(index: "track_stats", on: "track",
                          columns: ["bpm", "tempoAdjustAllowed", "state", "waveformAnalysed", "durationSeconds"])
        }
        migrator.registerMigration("v6: decoder per track") { db in
            try db.alter(table: "track") { t in t.add(column: "decoder", .text) }
            // Until now every decoded track was decoded by libsndfile (this build's: the closest record there is).
            try db.execute(sql: "UPDATE track SET decoder = ? WHERE waveformAnalysed AND state != 'failed'",
                           arguments: [DecoderLibrary.libsndfile.identity])
            // Files libsndfile refused may decode now (FFmpeg): the next scan looks at them again.
            try db.execute(sql: "UPDATE track SET analysisVersion = NULL WHERE state IN ('metadata-only', 'failed') OR (state = 'missing' AND NOT waveformAnalysed)")
        }
        migrator.registerMigration("v7: likes") { db in
            try db.alter(table: "track") { t in t.add(column: "rating", .text) }
        }
        migrator.registerMigration("v8: recordings") { db in
            // Acoustic fingerprints (Chromaprint), apart like beat lists: read only to compare.
            try db.create(table: "trackPrint") { t in
                t.primaryKey("trackId", .integer).references("track", onDelete: .cascade)
                t.column("print", .blob).notNull()
                t.column("hash", .integer).notNull()
            }
            // Copies of one recording share the id of the group's first track; NULL: no other copy known.
            try db.alter(table: "track") { t in t.add(column: "recording", .integer).indexed() }
            try db.create(index: "track_on_duration", on: "track", columns: ["durationSeconds"])
        }
        migrator.registerMigration("v9: liked tracks indexed") { db in
            // `match` reads the liked tracks of a tempo window apart (CadenceSearch): few rows, one small index.
            try db.execute(sql: "CREATE INDEX track_liked_on_bpm ON track(bpm) WHERE rating = 'liked'")
        }
        migrator.registerMigration("v10: search text") { db in
            // The searched fields folded once, when written (`TrackRecord.searchText`): a search then
            // compares plain text instead of folding five fields of every row (100k rows: 0.3 s).
            try db.alter(table: "track") { t in t.add(column: "searchText", .text) }
            try db.execute(sql: "UPDATE track SET searchText = \(Catalog.foldFunction.name)(\(TrackRecord.searchFieldsSQL))")
            // Not for lookups (a search is a substring): a count or a filter reads this small
            // index instead of every wide row.
            try db.create(index: "track_on_searchText", on: "track", columns: ["searchText"])
        }
        migrator.registerMigration("v11: stats leave disliked tracks out") { db in
            // `stats` counts what `match` can offer, and a disliked track never comes back: the
            // rating joins the index that covers its per-tempo counts.
            try db.execute(sql: "DROP INDEX track_stats")
            try db.create(index: "track_stats", on: "track",
                          columns: ["bpm", "tempoAdjustAllowed", "state", "waveformAnalysed", "durationSeconds", "rating"])
        }
        migrator.registerMigration("v12: hand data set aside") { db in
            // A file replaced by another recording under the same name: the hand data entered for
            // the recording that was there waits here until a scan finds that audio again.
            try db.create(table: "handDataAside") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("audioHash", .text).notNull().indexed()
                t.column("bpmManual", .double)
                t.column("rating", .text)
                t.column("formerPath", .text).notNull()
                t.column("setAsideAt", .double).notNull()
            }
        }
        migrator.registerMigration("v13: hand-placed beat") { db in
            // A beat placed by hand (`beattag tag --shift-beats`, the review page's O), kept with
            // the other hand data and set aside with it.
            try db.alter(table: "track") { t in t.add(column: "beatAnchor", .double) }
            try db.alter(table: "handDataAside") { t in t.add(column: "beatAnchor", .double) }
        }
        migrator.registerMigration("v14: grids the analysis moved") { db in
            // Set by analysis version 48 and later (rows analysed before stay NULL until the next
            // scan analyses them again): the review queue lists such grids until a person places a
            // beat or settles the track.
            try db.alter(table: "track") { t in t.add(column: "phaseMoved", .boolean) }
            try db.drop(index: "track_review")
            try db.create(index: "track_review", on: "track",
                          columns: ["state", "bpmManual", "bpmSource", "confidence", "bpmAlternative", "bpmAlternativeScore", "bpm",
                                    "phaseMoved", "beatAnchor"])
        }
        migrator.registerMigration("v15: hand data by recording") { db in
            // The review queue leaves out the copies of a recording settled on another copy
            // (`UntaggedQueue`): these hold only the few tracks with hand data, so finding them does
            // not read every row.
            for column in ["bpmManual", "beatAnchor"] {
                try db.execute(sql: "CREATE INDEX track_\(column)_copies ON track(recording, audioHash) WHERE \(column) IS NOT NULL")
            }
        }
        migrator.registerMigration("v16: decoded again where audio was lost") { db in
            // Analysed from audio that lost stretches, once: Opus libsndfile decoded (it drops
            // packets of ffmpeg-made files; FFmpeg decodes Opus now), and decodes cut short by builds
            // that did not yet put lost stretches back as silence (their words). Their next scan
            // decodes them again (docs/decoding.md).
            try db.execute(sql: """
                UPDATE track SET analysisVersion = 0
                WHERE (format = 'opus' AND decoder LIKE 'libsndfile%') OR decodeWarning LIKE '%decoding stopped at%'
                """)
        }
        migrator.registerMigration("v17: damaged files decoded again") { db in
            // Analysed from a damaged decode, once, by their words: MP3 packets FFmpeg refused were
            // put back as one frame however many they held, FFmpeg's FLAC decode broke off at the
            // first damage (leaving half a track, or libsndfile's short decode), and raw AAC was
            // called cut off by a guessed length. Their next scan decodes them again
            // (docs/decoding.md, "Damaged MP3 frames").
            try db.execute(sql: """
                UPDATE track SET analysisVersion = 0
                WHERE decodeWarning LIKE '%lost to damage%' OR decodeWarning LIKE '%decoding broke off at%'
                   OR decodeWarning LIKE '%its header gives decoded%'
                """)
        }
        migrator.registerMigration("v18: no-derivatives in more words") { db in
            // Licences and notices that say no derivatives in words earlier builds did not read
            // ("BY-ND 4.0", "Keine Bearbeitungen", a copyright notice "No Derivative Works", kept
            // as the attribution): never stretched from now on, without waiting for the file to
            // change. Only ever forbids; a licence read as `other` gets the family it names.
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, sourceType, license, attribution, artist FROM track
                WHERE tempoAdjustAllowed AND (license IS NOT NULL OR attribution IS NOT NULL)
                """)
            for row in rows {
                let license: String? = row["license"], stored: String = row["sourceType"]
                // The attribution is the artist where the file had no notice: a name, not words on rights.
                let attribution: String? = row["attribution"] == row["artist"] as String? ? nil : row["attribution"]
                var source = stored
                if source == SourceType.other.rawValue, let license, let named = LicenseParser.sourceType(in: license) { source = named.rawValue }
                let forbidden = license.map { LicenseParser.forbidsDerivatives($0) } ?? false
                    || attribution.map { LicenseParser.forbidsDerivatives($0, inLicence: false) } ?? false
                    || !(SourceType(rawValue: source)?.allowsTempoAdjustment ?? true)
                guard forbidden || source != stored else { continue }
                try db.execute(sql: "UPDATE track SET sourceType = ?, tempoAdjustAllowed = ? WHERE id = ?",
                               arguments: [source, !forbidden, row["id"] as Int64])
            }
        }
        migrator.registerMigration("v19: forced scans resume") { db in
            // A `scan --force` under way, per root: when it started. Files analysed since then are
            // done; the same scan run again after an interruption goes on with the rest.
            try db.create(table: "forcedScan") { t in
                t.primaryKey("root", .text)
                t.column("since", .double).notNull()
            }
        }
        migrator.registerMigration("v20: search below the scanned folder") { db in
            // A search looks in the path from the scanned folder's name down (`TrackRecord.searchedPath`).
            try db.execute(sql: "UPDATE track SET searchText = \(Catalog.foldFunction.name)(\(TrackRecord.searchFieldsSQL))")
        }
        return migrator
    }
}
