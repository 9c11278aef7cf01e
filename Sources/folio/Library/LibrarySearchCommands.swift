import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// The filters `library list` and `library search` take, combined with AND.
struct LibraryFilterOptions: ParsableArguments {
    @Option(help: "Words to find (prefixes match, case and accents ignored) in titles, composers, genres, tags, labels, references and bookmark titles.")
    var text: String?
    @Option(help: ArgumentHelp("A composer: a whole value (case and accents ignored), else words that begin words of one (\"chopin\", \"bach j\"); repeatable.",
                               valueName: "name")) var composer: [String] = []
    @Option(help: "A genre, matched as --composer is (repeatable).") var genre: [String] = []
    @Option(help: "A tag, matched as --composer is (repeatable).") var tag: [String] = []
    @Option(help: "A label, matched as --composer is (repeatable).") var label: [String] = []
    @Option(help: "A key, as \"F# minor\" or \"Eb\".") var key: String?
    @Option(help: "Rating 0-5, with an optional <, <=, >, >= (\">=4\").") var rating: String?
    @Option(help: "Difficulty 0-3, with an optional comparison.") var difficulty: String?
    @Option(help: "Duration in seconds or m:ss, with an optional comparison (\"<5:00\").") var duration: String?
    @Option(help: "Page count, with an optional comparison (\">10\").") var pages: String?
    @Option(help: "title, composer, added, rating or duration (default: relevance with --text, else title).")
    var sort: LibraryQuery.Sort?
    @Option(parsing: .unconditional, help: "At most N results, the best first.") var limit: Int?
    @Flag(help: "One JSON object per line.") var json = false
    @Flag(help: "CSV with a header row.") var csv = false

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv cannot be combined") }
        if let limit, limit < 1 { throw ValidationError("--limit \(limit) is out of range (valid: 1 or more)") }
    }

    func query(includeBookmarks: Bool) throws -> LibraryQuery {
        var query = LibraryQuery(text: text, includeBookmarks: includeBookmarks)
        query.composers = composer
        query.genres = genre
        query.tags = tag
        query.labels = label
        query.key = try key.map { try MusicalKey(parsing: $0) }
        query.rating = try rating.map { try .init(parsing: $0, field: "rating", valid: ScoreMetadata.ratingRange) }
        query.difficulty = try difficulty.map {
            try .init(parsing: $0, field: "difficulty", valid: ScoreMetadata.difficultyRange)
        }
        query.duration = try duration.map { try .init(parsing: $0, field: "duration", valid: 0...Int(Int32.max), duration: true) }
        query.pages = try pages.map { try .init(parsing: $0, field: "pages", valid: 0...Int(Int32.max)) }
        query.sort = sort
        query.limit = limit
        return query
    }

    func print(_ entries: [LibraryEntry]) {
        if csv { Swift.print(LibraryOutput.csvHeader) }
        for entry in entries {
            Swift.print(json ? LibraryOutput.json(entry) : csv ? LibraryOutput.csvRow(entry) : LibraryOutput.text(entry))
        }
    }
}

extension LibraryQuery.Sort: ExpressibleByArgument {}

/// `folio library list`.
struct LibraryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the catalogued scores, filtered and sorted.",
        discussion: """
            Scores only; `folio library search` also returns bookmarks as results of their own. \
            --json prints one line per result: {"id","path","title","composers","genres","tags","labels","reference", \
            "rating","difficulty","duration","key","pages","bookmark"} (path relative to the library; bookmark null \
            for a whole score, else {"title","start","end"} with 1-based pages; "unreadable" says why for a file that \
            could not be read, which the text output flags "[unreadable: why]").
            Example: folio library list ~/Scores --composer brahms --rating ">=4" --sort title
            Exit codes: 0 listed; 1 no catalog or it could not be read; 64 usage error or invalid filter.
            """
    )

    @Argument(help: "The library folder (default: --library, $FOLIO_LIBRARY, else the nearest folder at or above the current one that holds .folio/).")
    var directory: String?
    @OptionGroup var location: LibraryLocation
    @OptionGroup var filters: LibraryFilterOptions

    func run() throws {
        let entries = try LibraryCommand.run("list") {
            try location.catalog(folder: directory, create: false).search(try filters.query(includeBookmarks: false))
        }
        filters.print(entries)
    }
}

/// `folio library search`.
struct LibrarySearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search scores and the bookmarks inside them (a song in a fake book is found by its title).",
        discussion: """
            The words to find come as arguments (or --text): full-text search with SQLite FTS5, case and accents \
            ignored ("dvorak" finds "Dvořák"), prefixes match, results ranked. A first argument is the library only \
            when it is a folder that holds a catalog (.folio/); any other word is searched for, a subfolder named like a \
            composer included. Without one: --library, $FOLIO_LIBRARY, or the library at or above the current folder. \
            A bookmark result carries its own fields, or the score's where it has none; its "bookmark" is \
            {"title","start","end"}. Output as for `folio library list`. Nothing found is said on standard error \
            and exits 1, as grep does.
            Examples: folio library search autumn leaves
                      folio library search ~/Scores --text "autumn leaves" --composer kosma
            Exit codes: 0 found; 1 nothing found, no catalog, or it could not be read; 64 usage error or invalid \
            filter.
            """
    )

    @Argument(help: "The words to find (a first argument that is a folder holding .folio/ is the library).")
    var words: [String] = []
    @OptionGroup var location: LibraryLocation
    @OptionGroup var filters: LibraryFilterOptions

    func validate() throws {
        if !words.isEmpty, filters.text != nil, !LibraryCatalog.isLibrary(words[0]) || words.count > 1 {
            throw ValidationError("give the words as arguments or as --text, not both")
        }
    }

    func run() throws {
        // A library first is the library, as `folio library search DIR --text …` always took it;
        // a folder without a catalog (a composer's subfolder, "Чайковский") is a word to find.
        let folder = words.first.flatMap { LibraryCatalog.isLibrary($0) && location.library == nil ? $0 : nil }
        let typed = (folder == nil ? words : Array(words.dropFirst())).joined(separator: " ")
        var filters = self.filters
        if !typed.isEmpty { filters.text = typed }
        let query = filters
        let entries = try LibraryCommand.run("search") {
            try location.catalog(folder: folder, create: false).search(try query.query(includeBookmarks: true))
        }
        guard !entries.isEmpty else {
            printError("folio library search: nothing found\(query.text.map { " for \"\($0)\"" } ?? "")")
            throw ExitCode(1)
        }
        query.print(entries)
    }
}

/// `folio library show`.
struct LibraryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one catalogued score (by id, path or file name) with its bookmarks.",
        discussion: """
            The score is named as every command names one: a file by any path (absolute, or relative to the \
            current folder, from inside or outside the library), a path relative to the library, a file name \
            only one catalogued file has, or the score's id. A file name several files have lists them all. \
            Under the score, the people its file names beyond forScore's fields, by role: a composer a notation \
            program wrote where forScore does not look (shown as the composer until forScore's fields name one; \
            folio meta adopt writes it there), an arranger (/Arranger) and a lyricist (/Poet), never counted \
            as composers. --json gives them as "credits": [{"name","role","source"}].
            Example: folio library show Widmung.pdf; folio library show "../Real Book/Exercises.pdf"
            Example: folio library show 12 --library ~/Scores
            Exit codes: 0 shown; 1 no such score or no catalog; 64 usage error (a name several files have, \
            a file outside the library).
            """
    )

    @Argument(help: "The score: a file by any path, a path in the library, a file name only one score has, or its id.")
    var score: String
    @OptionGroup var location: LibraryLocation
    @Flag(help: "One JSON object per line: the score, then its bookmarks.") var json = false

    func run() throws {
        let (folder, entries) = try LibraryCommand.run("show") {
            let (catalog, path) = try location.score(score)
            return (catalog.folder, try catalog.show(path))
        }
        for entry in entries {
            print(json ? LibraryOutput.json(entry) : LibraryOutput.text(entry))
            if !json, entry.bookmark == nil {
                let file = (folder as NSString).appendingPathComponent(entry.path)
                for line in LibraryOutput.credits(entry, file: file) { print(line) }
            }
        }
    }
}

/// `folio library facets`.
struct LibraryFacetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "facets",
        abstract: "List composers, genres, tags, labels and keys with how many scores carry each.",
        discussion: """
            --json prints one line per value: {"field","value","count"}.
            Exit codes: 0 listed; 1 no catalog or it could not be read; 64 usage error.
            """
    )

    @Argument(help: "The library folder (default: --library, $FOLIO_LIBRARY, else the nearest folder at or above the current one that holds .folio/).")
    var directory: String?
    @OptionGroup var location: LibraryLocation
    @Flag(help: "One JSON object per line.") var json = false

    func run() throws {
        let facets = try LibraryCommand.run("facets") { try location.catalog(folder: directory, create: false).facets() }
        for facet in facets {
            if json {
                print(JSONValue.object([("field", .string(facet.field)), ("value", .string(facet.value)),
                                        ("count", .int(facet.count))]).encoded)
            } else {
                print("\(facet.field)\t\(facet.count)\t\(facet.value)")
            }
        }
    }
}
