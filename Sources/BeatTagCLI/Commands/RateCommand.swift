import ArgumentParser
import BeatTagKit
import Foundation

struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Like or dislike tracks: liked ones come first, disliked ones never come back.",
        discussion: """
            A disliked track never appears in match, playlist or workout; a liked one is picked first among \
            tracks whose tempo change is within the same whole percent. Kept in the catalog as hand data: \
            rescans, moves and retags keep it; --clear removes it.

            Examples:
              beattag rate song.flac --like
              beattag rate "Slow Ballad.mp3" --dislike
              beattag rate song.flac --clear
            """)

    @Argument(help: ArgumentHelp("Catalogued audio files.", valueName: "file")) var files: [String]
    @Flag(help: "Like: first among equals.") var like = false
    @Flag(help: "Dislike: never in match, playlist or workout.") var dislike = false
    @Flag(help: "Remove the rating.") var clear = false
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        guard [like, dislike, clear].filter({ $0 }).count == 1 else { throw ValidationError("give one of --like, --dislike or --clear") }
    }

    func run() throws {
        let console = Console.current
        let catalog = try catalogOption.open(create: false)
        let rating: TrackRating? = like ? .liked : dislike ? .disliked : nil
        var failures = 0
        for file in files {
            do {
                let record = try Rating.set(rating, for: file, in: catalog)
                console.line("\(file): \(record.rating?.rawValue ?? "no rating")")
                console.noteIfGone(record, named: file)
            } catch {
                failures += 1
                console.problem("\(file): \(CatalogError.userFacing(error))")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
