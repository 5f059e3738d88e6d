import ArgumentParser
import BeatTagKit
import Foundation

/// `--catalog PATH`, shared by every command that reads or writes the catalog.
struct CatalogOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Catalog database to use.", valueName: "path"))
    var catalog: String?

    var path: String { catalog ?? Catalog.defaultPath() }

    mutating func validate() throws {
        if let catalog, catalog.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--catalog needs a file path (it was empty)")
        }
    }

    /// Readers open the catalog read-only: they work on a read-only file and beside a running scan.
    /// A catalog that cannot be used is unusable input: exit status 2; one kept busy by another
    /// writer past the wait is a try-again: 1.
    func open(create: Bool, access: Catalog.Access = .readWrite) throws -> Catalog {
        do { return try Catalog(path: path, create: create, access: access) } catch {
            let reason = CatalogError.userFacing(error)
            if case .busy? = reason as? CatalogError { throw CommandFailure("\(reason)", code: 1) }
            throw CommandFailure("\(reason)", code: 2)
        }
    }
}
