import ArgumentParser
import BeatTagKit

/// `--catalog PATH`, shared by every command that reads or writes the catalog.
struct CatalogOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Catalog database to use.", valueName: "path"))
    var catalog: String?

    var path: String { catalog ?? Catalog.defaultPath() }

    func open(create: Bool) throws -> Catalog {
        do { return try Catalog(path: path, create: create) } catch { throw CommandFailure("\(error)") }
    }
}
