@testable import BeatTagKit
import XCTest

final class RightsTests: XCTestCase {
    func testRecognisesCreativeCommonsFromURLsAndNames() {
        let cases: [(String, SourceType?)] = [
            ("https://creativecommons.org/publicdomain/zero/1.0/", .cc0),
            ("CC0 1.0 Universal", .cc0),
            ("https://creativecommons.org/licenses/by/4.0/", .ccBy),
            ("CC BY-SA 4.0", .ccBySa),
            ("http://creativecommons.org/licenses/by-nd/3.0/", .ccByNd),
            ("Creative Commons Attribution-NonCommercial-NoDerivatives 4.0", .ccByNcNd),
            ("https://creativecommons.org/licenses/by-nc-sa/4.0/deed.de", .ccByNcSa),
            ("cc by-nc 2.0", .ccByNc),
            ("Public Domain", .publicDomain),
            // The deeds' own titles, without "CC" (an audit found these read as `other`, stretchable).
            ("Attribution-NoDerivatives 4.0 International", .ccByNd),
            ("Attribution-NonCommercial-NoDerivatives 4.0 International", .ccByNcNd),
            ("Attribution-ShareAlike 4.0 International", .ccBySa),
            ("Attribution 3.0 Unported", .ccBy),
            ("CC BY No-Derivatives", .ccByNd),
            // Element codes without "CC", and the localised deeds' names (an audit found all of
            // these read as `other`, stretchable).
            ("BY-ND 4.0", .ccByNd),
            ("BY-ND", .ccByNd),
            ("by-nd/4.0", .ccByNd),
            ("by-nc-sa 3.0", .ccByNcSa),
            ("Namensnennung - Keine Bearbeitungen 4.0 International", .ccByNd),
            ("Namensnennung - Nicht-kommerziell - Weitergabe unter gleichen Bedingungen 4.0 International", .ccByNcSa),
            ("Attribution - Pas de Modification 4.0 International", .ccByNd),
            ("Reconocimiento-SinObraDerivada 4.0 Internacional", .ccByNd),
            // The 3.0 deeds' names run together (a second audit), a compact code, another Spanish name.
            ("Namensnennung-NichtKommerziell-KeineBearbeitung 3.0 Deutschland", .ccByNcNd),
            ("Namensnennung-KeineBearbeitung 3.0 Deutschland", .ccByNd),
            ("Namensnennung-Keine kommerzielle Nutzung-Keine Bearbeitung 2.0 Deutschland", .ccByNcNd),
            ("Paternité-PasdeModification 2.0 France", .ccByNd),
            ("CCBYND", .ccByNd),
            ("Atribución-NoDerivadas 3.0", .ccByNd),
            ("Attribution: Jane Doe", nil),
            ("Produced by SA Smith", nil),
            ("(C) 2020 Some Label. All rights reserved.", nil),
            ("Soccer club", nil),
        ]
        for (text, expected) in cases { XCTAssertEqual(LicenseParser.sourceType(in: text), expected, text) }
    }

    func testNoDerivativesForbidTempoAdjustment() {
        XCTAssertFalse(SourceType.ccByNd.allowsTempoAdjustment)
        XCTAssertFalse(SourceType.ccByNcNd.allowsTempoAdjustment)
        for type in SourceType.allCases where type != .ccByNd && type != .ccByNcNd {
            XCTAssertTrue(type.allowsTempoAdjustment, type.rawValue)
        }
    }

    func testRightsFromCommentURL() {
        var tags = TrackTags()
        tags.artist = "Someone"
        tags.comment = "Free download. License: https://creativecommons.org/licenses/by/4.0/ enjoy"
        let rights = LicenseParser.rights(from: tags)
        XCTAssertEqual(rights?.source, .ccBy)
        XCTAssertEqual(rights?.sourceURL, "https://creativecommons.org/licenses/by/4.0/")
        XCTAssertEqual(rights?.attribution, "Someone")
        XCTAssertEqual(rights?.origin, .tag)
    }

    func testUnknownExplicitLicenceIsKeptAsOther() {
        var tags = TrackTags()
        tags.license = "Free Art License 1.3"
        XCTAssertEqual(LicenseParser.rights(from: tags)?.source, .other)
        XCTAssertEqual(LicenseParser.rights(from: tags)?.license, "Free Art License 1.3")
        XCTAssertEqual(LicenseParser.rights(from: tags)?.tempoAdjustAllowed, true)
        tags.license = "Label licence: No Derivative Works"
        XCTAssertEqual(LicenseParser.rights(from: tags)?.source, .other)
        XCTAssertEqual(LicenseParser.rights(from: tags)?.tempoAdjustAllowed, false, "no derivatives, in any words, is never stretched")
    }

    func testSidecarParsing() throws {
        let sidecar = try RightsSidecar.parse("""
            # rights of this folder
            source = cc-by
            license = https://creativecommons.org/licenses/by/4.0/
            attribution = Jane Doe
            url = https://example.org/album
            """, path: "x")
        XCTAssertEqual(sidecar.rights.source, .ccBy)
        XCTAssertEqual(sidecar.rights.attribution, "Jane Doe")
        XCTAssertEqual(sidecar.rights.sourceURL, "https://example.org/album")
        XCTAssertTrue(sidecar.rights.tempoAdjustAllowed)
        XCTAssertEqual(try RightsSidecar.parse("license = CC BY-ND 4.0", path: "x").rights.source, .ccByNd)
        XCTAssertFalse(try RightsSidecar.parse("source = user-owned\ntempo-adjust = no", path: "x").rights.tempoAdjustAllowed)
        XCTAssertFalse(try RightsSidecar.parse("source = cc-by-nd\ntempo-adjust = yes", path: "x").rights.tempoAdjustAllowed,
                       "a sidecar cannot grant what ND forbids")
        XCTAssertThrowsError(try RightsSidecar.parse("source cc0", path: "x"))
        XCTAssertThrowsError(try RightsSidecar.parse("source = mine", path: "x"))
        // A key given again with another value: no rule says which holds (the last did, so a line
        // appended with `>>` made no-derivatives music stretchable). The same value twice is one.
        XCTAssertThrowsError(try RightsSidecar.parse("source = cc-by\ntempo-adjust = no\ntempo-adjust = yes", path: "x")) {
            XCTAssertEqual("\($0)", "x:3: tempo-adjust is given again with another value (which holds is not clear: keep one line)")
        }
        XCTAssertThrowsError(try RightsSidecar.parse("source = cc-by-nd\nsource = cc-by", path: "x"))
        XCTAssertThrowsError(try RightsSidecar.parse("licence = CC BY-ND 4.0\nlicense = CC BY 4.0", path: "x"))
        XCTAssertEqual(try RightsSidecar.parse("source = cc0\nsource = cc0", path: "x").rights.source, .cc0)
        XCTAssertThrowsError(try RightsSidecar.parse("source = cc-by\ntempo-adjust = maybe", path: "x"))
        // An unknown key is an error, not ignored: it may be the line declaring no derivatives.
        XCTAssertThrowsError(try RightsSidecar.parse("source = cc-by\nlicense-url = https://creativecommons.org/licenses/by-nd/4.0/", path: "x")) {
            XCTAssertEqual("\($0)", "x:2: unknown key \"license-url\" (one of: source, license, attribution, url, tempo-adjust)")
        }
        // The British spelling, and a byte-order mark before the first key (Notepad writes one).
        let licence = try RightsSidecar.parse("licence = https://creativecommons.org/licenses/by-nd/4.0/", path: "x")
        XCTAssertEqual(licence.rights.source, .ccByNd)
        XCTAssertFalse(licence.rights.tempoAdjustAllowed)
        let marked = try RightsSidecar.parse("\u{FEFF}license = https://creativecommons.org/licenses/by-nd/4.0/\r\nattribution = Jane Doe\r\n", path: "x")
        XCTAssertEqual(marked.rights.source, .ccByNd)
        XCTAssertEqual(marked.rights.attribution, "Jane Doe")

        // Comments after a value, as docs/rights.md writes them; a URL's fragment is no comment.
        let commented = try RightsSidecar.parse("""
            source = cc-by-nd   # no derivatives
            license = https://example.org/licence#terms
            tempo-adjust = yes  # optional
            """, path: "x")
        XCTAssertEqual(commented.rights.source, .ccByNd)
        XCTAssertEqual(commented.rights.license, "https://example.org/licence#terms")
        XCTAssertFalse(commented.rights.tempoAdjustAllowed)
        XCTAssertTrue(try RightsSidecar.parse("source = cc-by\ntempo-adjust = yes  # optional", path: "x").rights.tempoAdjustAllowed)
        XCTAssertFalse(try RightsSidecar.parse("source = cc-by\ntempo-adjust = no\t# keep", path: "x").rights.tempoAdjustAllowed)
        XCTAssertFalse(try RightsSidecar.parse("license = Attribution-NoDerivatives 4.0 International", path: "x").rights.tempoAdjustAllowed)
        XCTAssertFalse(try RightsSidecar.parse("license = our own no-derivatives terms", path: "x").rights.tempoAdjustAllowed)

        // Values quoted as in the TOML of plans and profiles: the quotes are not part of them
        // (`source = "cc0"` was refused, a quoted licence kept with its quotes).
        let quoted = try RightsSidecar.parse("source = \"cc0\"\nattribution = 'Jane Doe'\nlicense = \"CC0 1.0\"", path: "x")
        XCTAssertEqual(quoted.rights.source, .cc0)
        XCTAssertEqual(quoted.rights.attribution, "Jane Doe")
        XCTAssertEqual(quoted.rights.license, "CC0 1.0")
        XCTAssertEqual(try RightsSidecar.parse("license = \"CC BY-NC-ND 4.0\"", path: "x").rights.license, "CC BY-NC-ND 4.0")
        // As TOML reads them: escapes in double quotes, a # inside quotes, and a quote left open is an
        // error said with its line (it was kept as a character; the value may have been cut).
        XCTAssertEqual(try RightsSidecar.parse("attribution = \"Jane \\\"JD\\\" Doe\"", path: "x").rights.attribution, "Jane \"JD\" Doe")
        XCTAssertEqual(try RightsSidecar.parse("attribution = \"C:\\\\music\"  # where", path: "x").rights.attribution, "C:\\music")
        XCTAssertEqual(try RightsSidecar.parse("attribution = \"The #1 Band\"  # who", path: "x").rights.attribution, "The #1 Band")
        XCTAssertEqual(try RightsSidecar.parse("attribution = 'It\\s' # raw", path: "x").rights.attribution, "It\\s")
        XCTAssertEqual(try RightsSidecar.parse("attribution = O'Brien # name", path: "x").rights.attribution, "O'Brien")
        for open in ["attribution = \"Jane", "source = 'cc0", "attribution = \"Jane\" Doe\""] {
            XCTAssertThrowsError(try RightsSidecar.parse("source = cc-by\n" + open, path: "x"), open) { error in
                XCTAssertEqual("\(error)", "x:2: a quote is opened and not closed in \"\(open)\"")
            }
        }
        // No licence is both share-alike and no-derivatives: a typo, no licence, never stretched (it read BY-SA).
        let both = try RightsSidecar.parse("license = CC BY-SA-ND 4.0", path: "x")
        XCTAssertEqual(both.rights.source, .other)
        XCTAssertFalse(both.rights.tempoAdjustAllowed)
        // A code with an element no licence has may hide an nd (a typo of by-nd): no licence, not stretched.
        for code in ["cc-by-zz", "CC BY-NX 4.0", "https://creativecommons.org/licenses/by-dn/4.0/"] {
            let typo = try RightsSidecar.parse("license = \(code)", path: "x")
            XCTAssertEqual(typo.rights.source, .other, code)
            XCTAssertFalse(typo.rights.tempoAdjustAllowed, code)
        }
        for known in ["CC BY-NC-SA 4.0", "https://creativecommons.org/licenses/by-sa/3.0/de/", "cc-by"] {
            XCTAssertTrue(try RightsSidecar.parse("license = \(known)", path: "x").rights.tempoAdjustAllowed, known)
        }
    }

    /// No derivatives in any words, in any rights tag, is never stretched, whatever else decides.
    func testNoDerivativesInAnyRightsTagForbidsTempoChange() throws {
        let sidecar = try RightsSidecar.parse("source = cc-by", path: "x")
        var tags = TrackTags()
        tags.copyright = "(c) 2020 Foo Records. No Derivative Works."
        var rights = RightsResolver.resolve(tags: tags, sidecar: sidecar, option: nil)
        XCTAssertEqual(rights.source, .ccBy, "the sidecar still names the licence")
        XCTAssertFalse(rights.tempoAdjustAllowed, "the file's own notice forbids the change")
        tags = TrackTags()
        tags.license = "CC BY 4.0"
        tags.comment = "licence: BY-ND"
        XCTAssertFalse(RightsResolver.resolve(tags: tags, sidecar: nil, option: nil).tempoAdjustAllowed, "the stricter reading stands")
        for license in ["BY-ND 4.0", "Keine Bearbeitungen", "label terms: ND", "Sin derivadas"] {
            tags = TrackTags()
            tags.license = license
            rights = RightsResolver.resolve(tags: tags, sidecar: nil, option: .userOwned)
            XCTAssertFalse(rights.tempoAdjustAllowed, license)
        }
        for harmless in ["2nd pressing", "Andante", "Free Art License 1.3", "All rights reserved"] {
            tags = TrackTags()
            tags.license = harmless
            XCTAssertTrue(RightsResolver.resolve(tags: tags, sidecar: nil, option: nil).tempoAdjustAllowed, harmless)
        }
        // In a notice or a comment a bare "ND" is a name, not an element (a second audit: flagged);
        // the words of a notice that forbids changes count.
        for (copyright, comment) in [("(c) 2021 ND Records", nil), (nil, "Track 2 of 10 - ND")] as [(String?, String?)] {
            tags = TrackTags()
            (tags.copyright, tags.comment) = (copyright, comment)
            XCTAssertTrue(RightsResolver.resolve(tags: tags, sidecar: nil, option: .userOwned).tempoAdjustAllowed, "\(copyright ?? comment ?? "")")
        }
        for notice in ["© 2020 Foo. Do not modify, remix or alter this recording.", "This recording may not be altered.", "Licence: BY-ND"] {
            tags = TrackTags()
            tags.copyright = notice
            XCTAssertFalse(RightsResolver.resolve(tags: tags, sidecar: nil, option: .userOwned).tempoAdjustAllowed, notice)
        }
    }

    /// A notice that names no licence ("may not be altered") in an MP3's comment, and a licence in
    /// a FLAC's comment, which ffmpeg and taggers write as the Vorbis field DESCRIPTION: never
    /// stretched, on the first scan and on every plain scan after it. The notice was lost on the
    /// second scan ("rights changed 1", then offered at −4.6%), the DESCRIPTION never read (a CLI audit).
    func testNoDerivativesInACommentHoldsOnEveryScan() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let ffmpeg = try requiredTool("ffmpeg")
        for (name, comment) in [("notice.mp3", "This recording may not be altered"),
                                ("desc.flac", "CC BY-ND 4.0 https://creativecommons.org/licenses/by-nd/4.0/")] {
            let (status, log) = try runTool(ffmpeg, ["-v", "error", "-y", "-i", TestPaths.fixture("rock-150.flac"), "-map_metadata", "-1",
                                                     "-metadata", "comment=\(comment)", (music as NSString).appendingPathComponent(name)])
            XCTAssertEqual(status, 0, log)
        }
        // A file with both fields: a notice in either holds.
        var both = TrackTags()
        both.setDescriptive(from: ["COMMENT": ["Track 2 of 10"], "DESCRIPTION": ["No Derivative Works"]])
        XCTAssertFalse(RightsResolver.resolve(tags: both, sidecar: nil, option: .userOwned).tempoAdjustAllowed)
        let flac = try Data(contentsOf: URL(fileURLWithPath: (music as NSString).appendingPathComponent("desc.flac")))
        XCTAssertNotNil(flac.range(of: Data("DESCRIPTION=CC BY-ND".utf8)), "ffmpeg wrote the comment as DESCRIPTION")
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        for scan in 1...3 {
            let result = try runBeattag(["scan", music, "--source", "user-owned", "--catalog", catalog])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.contains("rights changed"), "scan \(scan): \(result.stdout)")
            let rows = try Catalog(path: catalog, create: false).allTracks()
            XCTAssertEqual(rows.count, 2)
            for row in rows { XCTAssertFalse(row.tempoAdjustAllowed, "scan \(scan): \((row.path as NSString).lastPathComponent)") }
            XCTAssertEqual(rows.first { $0.path.hasSuffix("desc.flac") }?.sourceType, .ccByNd)
            let match = try runBeattag(["match", "--spm", "155", "--json", "--catalog", catalog])
            let offered = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(match.stdout.utf8)) as? [Any], match.stderr)
            XCTAssertTrue(offered.isEmpty, "scan \(scan): a 150 BPM track offered at 155 SPM: \(match.stdout)")
        }
    }

    func testPrecedenceTagOverSidecarOverOption() throws {
        var tagged = TrackTags()
        tagged.license = "CC BY 4.0"
        let sidecar = try RightsSidecar.parse("source = cc0", path: "x")
        XCTAssertEqual(RightsResolver.resolve(tags: tagged, sidecar: sidecar, option: .userOwned).source, .ccBy)
        XCTAssertEqual(RightsResolver.resolve(tags: TrackTags(), sidecar: sidecar, option: .userOwned).source, .cc0)
        XCTAssertEqual(RightsResolver.resolve(tags: TrackTags(), sidecar: nil, option: .userOwned).source, .userOwned)
        XCTAssertEqual(RightsResolver.resolve(tags: nil, sidecar: nil, option: nil), .unknown)
    }
}
