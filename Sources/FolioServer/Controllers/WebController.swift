import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// The browser's pages and what they load: the library and score pages, the UI's assets,
/// pdf.js with its fonts and character maps, and the OpenAPI document.
///
/// ```swift
/// WebController(service: server.service, csrf: token, pdfjs: options.pdfjs, hasPDFJS: true).addRoutes(to: router)
/// ```
struct WebController {
    let service: ScoreService
    let csrf: String
    let pdfjs: String
    let hasPDFJS: Bool

    func addRoutes(to router: Router<FolioRequestContext>) {
        router.get("/") { request, _ -> Response in
            let scores = try service.search(try LibraryServer.search(request))
            let total = try service.catalog.counts().scores
            return LibraryServer.html(HTMLPage.library(scores: scores, total: total, facets: try service.facets(), csrf: csrf), csrf: csrf)
        }
        // A search's results rendered as the library page shows them (see HTMLPage.results).
        router.get("/library/results") { request, _ -> Response in
            // What was asked, as the page sent it, for "No scores match …".
            let asked = request.uri.queryParameters.map { $0.key == "q" ? String($0.value) : "\($0.key): \($0.value)" }
                .filter { !$0.hasPrefix("sort:") }.joined(separator: ", ")
            return LibraryServer.html(HTMLPage.results(try service.search(try LibraryServer.search(request)), query: asked), csrf: csrf)
        }
        router.get("/scores/:id") { request, context -> Response in
            let (score, _) = try service.score(try LibraryServer.scoreID(context))
            let page = request.uri.queryParameters.get("page").flatMap { Int($0) } ?? 1
            return LibraryServer.html(HTMLPage.score(score, csrf: csrf, pdfjs: hasPDFJS, page: page), csrf: csrf)
        }
        router.get("/assets/:name") { _, context -> Response in
            try LibraryServer.asset(context.parameters.require("name"))
        }
        router.get("/pdfjs/:name") { _, context -> Response in
            let name = try context.parameters.require("name")
            guard ["pdf.js", "pdf.worker.js", "pdf.min.js", "pdf.worker.min.js"].contains(name),
                  let data = FileManager.default.contents(atPath: pdfjs + "/" + name) else {
                throw LibraryError(.notFound, "no such file of pdf.js: \(name.prefix(80))")
            }
            return LibraryServer.bytes(data, type: "text/javascript; charset=utf-8", cache: "public, max-age=86400")
        }
        // Data pdf.js fetches on demand: the 14 standard fonts (for PDFs that name them
        // without embedding them) and the packed CJK character maps.
        for folder in ["standard_fonts", "cmaps"] {
            let directory = LibraryServer.pdfjsData(folder, pdfjs: pdfjs)  // looked for once, not per request
            router.get("/pdfjs/\(folder)/:name") { _, context -> Response in
                let name = try context.parameters.require("name")
                guard LibraryServer.isPlainName(name), let directory,
                      let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                    throw LibraryError(.notFound, "no such file of pdf.js's \(folder): \(name.prefix(80))")
                }
                return LibraryServer.bytes(data, type: "application/octet-stream", cache: "public, max-age=86400")
            }
        }
        router.get("/api/openapi.yaml") { _, _ -> Response in
            try LibraryServer.asset("openapi.yaml")
        }
    }
}
