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
        do { return try Catalog(path: path, create: create, access: access) } catch { throw Self.failure(error) }
    }

    /// Writable if it can be, else read-only: for commands whose only write is a record kept for
    /// later (a playlist's export, for `--fresh`). On a catalog this user cannot write they refused
    /// (exit 2) to write a playlist; now the playlist is written and the record said to be missing.
    func openWritableIfPossible() throws -> (Catalog, readOnly: Bool) {
        do { return (try Catalog(path: path, create: false), false) } catch CatalogError.readOnly {
            return (try open(create: false, access: .readOnly), true)
        } catch { throw Self.failure(error) }
    }

    private static func failure(_ error: Error) -> CommandFailure {
        let reason = CatalogError.userFacing(error)
        if case .busy? = reason as? CatalogError { return CommandFailure("\(reason)", code: 1) }
        return CommandFailure("\(reason)", code: 2)
    }
}
