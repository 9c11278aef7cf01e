import ArgumentParser
import FolioScore
import Foundation

/// `folio links`: a score's links — jumps for D.S., codas and repeats, web addresses, an
/// engraver's point-and-click links.
struct LinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "List a score's links, or add a jump from a place on one page to another page (D.S., coda, repeat).",
        subcommands: [LinksListCommand.self, LinksAddCommand.self]
    )
}

/// `folio links list`.
struct LinksListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the links of a score, one a line: id, page, place, where it leads.",
        discussion: """
            A place is x,y,width,height in points from the page's top-left as displayed. Point-and-click links \
            (an engraver's textedit: links) are marked; `folio lint --fix` removes them.
            Exit codes: 0 listed; 1 the file could not be read; 64 invalid value.
            """)

    @Option(parsing: .unconditional, help: "Only this page (1-based).") var page: Int?
    @Flag(help: "One JSON object per link.") var json = false
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String

    func run() throws {
        let links: [ScoreLink]
        do {
            links = try ScoreLink.list(try ScoreFile(file, password: password).open(), page: page)
        } catch {
            throw CommandError.report(error, command: "links list", file: file)
        }
        for link in links {
            var kind = "none", target = "", value = JSONValue.null
            switch link.target {
            case .page(let number)?: (kind, target, value) = ("page", "page \(number)", .int(number))
            case .uri(let uri)?: (kind, target, value) = (link.isPointAndClick ? "point-and-click" : "uri", uri, .string(uri))
            case .other(let what)?: (kind, target, value) = ("other", what, .string(what))
            case nil: break
            }
            if json {
                print(JSONValue.object([("id", .string(link.id)), ("page", .int(link.page)), ("rect", .numbers(link.rect)),
                                        ("kind", .string(kind)), ("target", value)]) as String)
            } else {
                print("\(link.id)\tp. \(link.page)\t\(link.rect.map(JSONValue.format).joined(separator: ","))\t\(kind)\t\(target)")
            }
        }
    }
}

/// `folio links add`.
struct LinksAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a jump link: tapping the place on one page goes to another page, in every viewer.",
        discussion: """
            Example (a D.S. on page 3 back to the sign on page 1):
              folio links add score.pdf --from 3:480,700,60,40 --to 1
            --from is PAGE:x,y,width,height in points from the page's top-left as displayed (see `folio annot list`). \
            Prints the new link's id. Saved as an incremental update. Exit codes: 0 saved; 1 the file failed \
            (untouched); 64 invalid value.
            """)

    @Option(help: "Where the link is: PAGE:x,y,width,height (points from the displayed page's top-left).") var from: String
    @Option(parsing: .unconditional, help: "The page it jumps to, 1-based.") var to: Int
    @OptionGroup var options: EditFileOptions

    func run() throws {
        let place: (page: Int, rect: [Double])
        do { place = try ScoreLink.place(from) } catch { throw CommandError.report(error, command: "links add", file: nil) }
        let id = try options.update("links add") { document in
            try ScoreLink.add(to: document, from: place.page, rect: place.rect, to: to)
        }
        print(id)
    }
}
