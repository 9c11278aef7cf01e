import ArgumentParser
import FolioLibrary
import Foundation

/// `folio library bench-search` (hidden): search latency inside one process, as the server
/// sees it — what `Benchmarks/library.sh` measures. Not for everyday use.
struct LibraryBenchSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-search",
        abstract: "Time searches in one process (for Benchmarks/library.sh).",
        discussion: """
            Each line of QUERIES is one search: words for --text, scores alone as the server's search box asks \
            (--bookmarks: bookmarks too, as `folio library search`). Prints one JSON line: \
            {"queries","results","median_ms","p99_ms","max_ms"}.
            Exit codes: 0 timed; 1 no catalog; 64 usage error.
            """,
        shouldDisplay: false
    )

    @Argument(help: "The library folder.") var directory: String
    @Option(help: "A file with one query per line.") var queries: String
    @Option(parsing: .unconditional, help: "At most N results per query (a UI's page); all by default.") var limit: Int?
    @Flag(help: "Search bookmarks too.") var bookmarks = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        let lines = try String(contentsOfFile: queries, encoding: .utf8).split(separator: "\n").map(String.init)
        var times: [Double] = []
        var results = 0
        try LibraryCommand.run("bench-search") {
            let catalog = try location.catalog(folder: directory, create: false)
            for line in lines {
                let start = DispatchTime.now().uptimeNanoseconds
                var query = LibraryQuery(text: line, includeBookmarks: bookmarks)
                query.limit = limit
                results += try catalog.search(query).count
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
        }
        times.sort()
        func quantile(_ q: Double) -> Double { times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * q))] }
        print(String(format: "{\"queries\":%d,\"results\":%d,\"median_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f}",
                     times.count, results, quantile(0.5), quantile(0.99), times.last ?? 0))
    }
}
