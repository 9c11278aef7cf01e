import FolioScore
import Foundation

/// Folio's pages, rendered on the server: a skeleton with the data a page starts with,
/// every string from a file escaped; the ES modules in Assets/ do the rest.
///
/// ```swift
/// let html = HTMLPage.library(scores: list, csrf: token)
/// ```
enum HTMLPage {
    /// The characters that end HTML text or a quoted attribute value, and their references.
    private static let references: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]

    /// `text` safe in HTML text and in quoted attribute values: the characters that end text
    /// or an attribute become references; control characters other than tab, line feed and
    /// carriage return, which HTML forbids, are dropped.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let reference = references[scalar] {
                result += reference
            } else if scalar.value >= 0x20 && scalar.value != 0x7F || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// pdf.js from libjs-pdf is a classic (UMD) script; Folio's own are ES modules. Both
    /// run after parsing, in this order; the worker starter runs at once, from the head.
    private static func script(_ source: String) -> String {
        if source == workerStarter { return "<script src=\"\(escape(source))\"></script>" }
        return source.hasPrefix("/pdfjs/") ? "<script defer src=\"\(escape(source))\"></script>"
            : "<script type=\"module\" src=\"\(escape(source))\"></script>"
    }

    /// The classic script every page runs first: it keeps the tab's errors, unhandled
    /// rejections and CSP violations in `sessionStorage['folio.errors']` (see Assets/errors.js).
    static let errorRecorder = "/assets/errors.js"

    /// The scripts of a page that draws PDFs, before its own module.
    static let workerStarter = "/assets/pdf-worker.js"
    static let pdfScripts = [workerStarter, "/pdfjs/pdf.js"]

    static func shell(title: String, csrf: String, body: String, scripts: [String], bodyClass: String = "") -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="folio-csrf" content="\(escape(csrf))">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title))</title>
        <link rel="stylesheet" href="/assets/folio.css">
        <link rel="manifest" href="/manifest.webmanifest">
        <meta name="theme-color" content="#8a3b12">
        <link rel="icon" href="/assets/icon-192.png">
        <link rel="apple-touch-icon" href="/assets/icon-192.png">
        <script src="\(errorRecorder)"></script>
        \(scripts.filter { $0 == workerStarter }.map(script).joined())
        </head>
        <body class="\(bodyClass)">
        \(body)
        \(scripts.filter { $0 != workerStarter }.map(script).joined(separator: "\n"))
        </body>
        </html>
        """
    }

    static func library(scores: [ScoreService.Score], total: Int, facets: [String: [ScoreService.Facet]], csrf: String) -> String {
        let items = items(scores)
        func filter(_ field: String, _ label: String) -> String {
            let options = (facets[field] ?? []).map { "<option value=\"\(escape($0.value))\">\(escape($0.value)) (\($0.count))</option>" }
            return "<label><span>\(label)</span><select data-filter=\"\(field)\"><option value=\"\">All</option>\(options.joined())</select></label>"
        }
        let ratings = (1...5).map { "<option value=\"\($0)\">\(String(repeating: "★", count: $0))\($0 < 5 ? " or more" : "")</option>" }.joined()
        let sorts = [("", "Best match / title"), ("title", "Title"), ("composer", "Composer"), ("added", "Recently added"),
                     ("rating", "Rating"), ("duration", "Duration")]
            .map { "<option value=\"\($0.0)\">\($0.1)</option>" }.joined()
        let body = """
        <header class="bar">
          <h1>Folio</h1>
          <label class="search"><span class="visually-hidden">Search</span>
            <input id="search" type="search" placeholder="Search titles, composers, tags…" autocomplete="off" autofocus></label>
          <span id="count" class="muted">\(count(total))</span>
          <a class="button" href="/setlists">Setlists</a>
          <span id="who" class="who"></span>
          <label class="button" data-right="library">Add scores<input id="upload" type="file" multiple class="visually-hidden"
            accept=".pdf,.jpg,.jpeg,.png,.txt,.cho,.chordpro,.chopro,.crd,.rtf,.doc,.docx,.odt,.4ss,.4sb,.4sc,.csv,.tsv,.json,.plist,application/pdf,image/jpeg,image/png,text/plain"></label>
        </header>
        <nav class="filters" aria-label="Filters">
          \(filter("composer", "Composer")) \(filter("genre", "Genre")) \(filter("key", "Key")) \(filter("label", "Label")) \(filter("tag", "Tag"))
          <label><span>Rating</span><select data-filter="rating"><option value="">Any</option>\(ratings)</select></label>
          <label><span>Sort</span><select data-filter="sort">\(sorts)</select></label>
        </nav>
        <main id="drop" class="drop">
          <div id="uploads" class="muted" role="status"></div>
          <ul id="scores" class="scores">
        \(items)
          </ul>
          <p class="hint muted">Drop files here: PDFs, images, text, ChordPro, RTF, Word and OpenDocument texts become scores; forScore's setlists (.4ss), backups (.4sb) and containers (.4sc) are imported; a CSV or an Open In .json or .plist named like a score gives it bookmarks or details.</p>
        </main>
        """
        return shell(title: "Folio library", csrf: csrf, body: body, scripts: ["/assets/library.js"])
    }

    /// A search's results as the library page shows them, for the page to swap in: the count
    /// (`#count`) and the list items (`#scores`); with none, "No scores match" and what was
    /// asked (`query`: the words and filters as the page sent them).
    static func results(_ scores: [ScoreService.Score], query: String) -> String {
        let none = query.isEmpty ? "No scores yet" : "No scores match \u{201C}\(escape(query))\u{201D}"
        return """
        <span id="count">\(scores.isEmpty ? none : count(scores.count))</span>
        <ul id="scores">
        \(items(scores))
        </ul>
        """
    }

    /// The rows of a listing: a title that two rows share shows the file's path too, so
    /// Chopin's and Field's "Nocturne" (or two copies of one) are told apart.
    static func items(_ scores: [ScoreService.Score]) -> String {
        var titles: [String: Int] = [:]
        for score in scores { titles[score.title.lowercased(), default: 0] += 1 }
        return scores.map { item($0, showPath: titles[$0.title.lowercased(), default: 0] > 1) }.joined(separator: "\n")
    }

    /// "1 score", "12 scores".
    static func count(_ scores: Int) -> String {
        scores == 1 ? "1 score" : "\(scores) scores"
    }

    static func item(_ score: ScoreService.Score, showPath: Bool = false) -> String {
        let stars = score.rating.flatMap { $0 > 0 ? String(repeating: "★", count: $0) : nil }
        let duration = score.metadata.duration.flatMap { $0 > 0 ? ScoreDuration.format($0) : nil }
        let facts = [score.unreadable.map { _ in "unreadable" }, score.key, duration, stars, score.pages.map { "\($0) p." }]
            .compactMap { $0 }.joined(separator: " · ")
        let path = showPath ? " <span class=\"path muted\">\(escape(score.path))</span>" : ""
        // An anthology (two pieces or more) offers its split here too.
        let split = (score.pieces ?? 0) >= 2
            ? "<button type=\"button\" class=\"split\" data-split=\"\(score.id)\" aria-label=\"Split \(escape(score.title)) into its \(score.pieces ?? 0) pieces\">Split (\(score.pieces ?? 0))</button>"
            : ""
        return """
            <li data-id="\(score.id)"><a href="/scores/\(score.id)"><img class="cover" src="/api/scores/\(score.id)/cover" alt="" loading="lazy" width="43" height="60"><span class="title">\(escape(score.title))</span>
              \(people(score)) <span class="facts muted">\(escape(facts))</span>\(path)</a>\(split)</li>
        """
    }

    /// Who a score is by: its composers, then its arranger and lyricist ("Johannes Brahms ·
    /// arr. Diego F. Guillen"); the score view's details form rewrites the composers' part only.
    static func people(_ score: ScoreService.Score, muted: Bool = false) -> String {
        let byline = score.byline
        let credits = byline.isEmpty ? "" : "<span class=\"credits\">\(score.composers.isEmpty ? "" : " · ")\(escape(byline))</span>"
        return "<span class=\"people\(muted ? " muted" : "")\"><span class=\"composers\">\(escape(score.composers.joined(separator: ", ")))</span>\(credits)</span>"
    }

    /// The picture of the page a score opens on, fetched with the page itself (its
    /// `elementtiming` lets a benchmark see when it was painted); none when the page
    /// count is not known.
    private static func firstPage(_ score: ScoreService.Score, page: Int) -> String {
        guard let pages = score.pages, pages > 0 else { return "" }
        let shown = min(max(page, 1), pages)
        return "<img id=\"first-page\" class=\"first-page\" src=\"/api/scores/\(score.id)/pages/\(shown)/image\" alt=\"\" "
            + "elementtiming=\"first-page\" fetchpriority=\"high\">"
    }

    /// The score viewer, opening on `page` (1-based; clamped to the score's pages): a
    /// picture of that page drawn by the server shows at once, until pdf.js has drawn it.
    static func score(_ score: ScoreService.Score, csrf: String, pdfjs: Bool, page: Int = 1) -> String {
        guard pdfjs else {
            let body = """
            <main class="notice"><h1>\(escape(score.title))</h1>
            <p>The score viewer needs pdf.js. Install it with <code>sudo apt-get install libjs-pdf</code>
            (Debian, Ubuntu), or start <code>folio serve --pdfjs DIR</code> with a folder holding
            <code>pdf.js</code> and <code>pdf.worker.js</code>.</p>
            <p><a href="/api/scores/\(score.id)/pdf">Download the PDF</a> · <a href="/">Library</a></p></main>
            """
            return shell(title: score.title, csrf: csrf, body: body, scripts: [])
        }
        let body = """
        <header class="bar">
          <a href="/" class="back" aria-label="Library">←</a>
          <h1 id="title">\(escape(score.title))</h1>
          \(people(score, muted: true))
          <nav class="tools" aria-label="Tools">
            <button data-tool="view" aria-pressed="true" title="Turn pages (V)">View</button>
            <button data-tool="freetext" title="Text: click, type, Enter (T)">Text</button>
            <button data-tool="square" title="Box: drag a rectangle (R)">Box</button>
            <button data-tool="highlight" title="Highlight: drag (H)">Highlight</button>
            <button data-tool="ink" title="Pen: draw (P)">Pen</button>
            <button data-tool="stamp" title="Stamp: choose a mark, click to place it (S)">Stamp</button>
            <button data-tool="move" title="Move: drag a mark to where it belongs (M)">Move</button>
            <button data-tool="link" data-right="library" title="Link: drag over a D.S., coda or repeat sign, then give the page it jumps to (L)">Link</button>
            <details id="mark-settings" class="menu"><summary title="Colour, line width, text size and font, opacity of new marks">Style <span class="swatch" aria-hidden="true"></span></summary>
              <div>
                <fieldset><legend>Colour</legend><div class="palette"></div>
                  <label>Custom <input type="color" id="setting-color"></label></fieldset>
                <label>Line width <input type="range" id="setting-width" min="0.5" max="12" step="0.5"> <output for="setting-width"></output></label>
                <label>Text size <input type="number" id="setting-size" min="6" max="96" step="1" required> pt</label>
                <label>Font <select id="setting-font"><option value="sans">Sans</option><option value="serif">Serif</option>
                  <option value="serif-italic">Serif italic</option><option value="mono">Monospaced</option></select></label>
                <label>Opacity <input type="range" id="setting-opacity" min="0.1" max="1" step="0.05"> <output for="setting-opacity"></output></label>
              </div>
            </details>
            <label class="visually-hidden" for="symbol">Stamp mark</label>
            <select id="symbol" title="The mark the Stamp tool places">\(stampOptions())</select>
            <label class="button" title="Keep a PNG or JPEG in the library as a stamp of your own">Add a stamp…<input id="stamp-file"
              type="file" accept=".png,.jpg,.jpeg,image/png,image/jpeg" class="visually-hidden"></label>
            <button id="undo" disabled title="Nothing to undo">Undo</button>
            <details id="layers" class="layers" hidden><summary title="Show or hide the file's layers">Layers</summary><div></div></details>
          </nav>
          <span class="pager">\(rehearseButton)<button id="sound-toggle" aria-pressed="false" title="The linked recording and the metronome">♪<span class="word"> Sound</span></button>
            <button id="link-back" hidden title="Back to where the link was followed from">↩ Back</button>
            <button id="fit-width" aria-pressed="false" title="Fit the page's width (scroll down the page); off: the whole page">↔<span class="word"> Width</span></button>
            <button id="two" aria-pressed="false" aria-label="Two pages side by side" title="Two pages side by side">2</button>
            <button id="half" aria-pressed="false" aria-label="Half-page turns" title="Half-page turns: the next page's top half shows while you finish this page">½</button>
            <button id="prev" aria-label="Previous page">‹</button>
            <span id="pageno">–</span><button id="next" aria-label="Next page">›</button>
            \(standButtons(panel: true))</span>
        </header>
        \(soundBar(linking: true))
        \(rehearsalPanel())
        <main class="viewer">
          <div id="stage" class="stage" data-score="\(score.id)">
            \(firstPage(score, page: page))
            <canvas id="page"></canvas>
            <canvas id="overlay" tabindex="0" aria-label="Page; arrow keys, space and PageDown turn pages"></canvas>
          </div>
          <aside class="panel" id="side-panel">
            <div class="tabs" role="tablist" aria-label="Panels">
              <button role="tab" id="tab-page" aria-controls="panel-page" aria-selected="true">Page</button>
              <button role="tab" id="tab-contents" aria-controls="panel-contents" aria-selected="false" tabindex="-1">Contents</button>
              <button role="tab" id="tab-details" aria-controls="panel-details" aria-selected="false" tabindex="-1">Details</button>
            </div>
            <section id="panel-page" role="tabpanel" aria-labelledby="tab-page">
              <h2>On this page</h2>
              <ul id="annotations" class="annotations" aria-label="Your marks; swipe one left to delete it"></ul>
              <label class="others-toggle" hidden><input type="checkbox" id="show-others"> <span id="others-count"></span></label>
              <ul id="others" class="annotations" hidden></ul>
              <h2>Page tools</h2>
              <div class="pagetools">
                <button data-page-tool="rotate-left" data-right="library" title="Turn this page a quarter to the left">↺ Rotate</button>
                <button data-page-tool="rotate-right" data-right="library" title="Turn this page a quarter to the right">↻ Rotate</button>
                <button data-page-tool="crop" data-right="library" title="Crop this page to the music, 10 points around it">Crop</button>
                <button data-page-tool="insert" data-right="library" title="Add a blank page after this one">Add blank</button>
                <button data-page-tool="delete" data-right="library" title="Delete this page (Undo brings it back)">Delete page</button>
              </div>
              <h2>On this device</h2>
              <p class="keep"><button id="keep-offline" aria-pressed="false" title="Store this score, its marks and details on this device, to play it with the server out of reach">Keep offline</button>
                <span id="offline-status" class="muted" role="status"></span></p>
              <h2>Download</h2>
              <p class="downloads"><a href="/api/scores/\(score.id)/pdf" download>PDF</a>
                <a href="/api/scores/\(score.id)/4sc" download>forScore (.4sc)</a>
                <a href="/api/scores/\(score.id)/handout?marks=mine" download title="A PDF with your marks and the shared ones, not others' own">My part</a>
                <a href="/api/scores/\(score.id)/handout?marks=none" download title="A PDF without any marks, to hand out">Clean part</a></p>
            </section>
            <section id="panel-contents" role="tabpanel" aria-labelledby="tab-contents" hidden>
              <h2>Table of contents</h2>
              <ul id="toc" class="toc"></ul>
              <h2>Bookmarks</h2>
              <label class="order">Order <select id="bookmark-order"><option value="custom">Custom (drag to move)</option>
                <option value="page">By page</option></select></label>
              <ul id="bookmarks" class="annotations"></ul>
              <form id="add-bookmark" data-right="library" class="add-bookmark" autocomplete="off">
                <label>Name <input name="name" required maxlength="1000" placeholder="Bookmark name"></label>
                <span class="range"><label>From <input name="start" type="number" min="1" required></label>
                  <label>to <input name="end" type="number" min="1" placeholder="—"></label></span>
                <button type="submit">Add bookmark</button>
              </form>
              <button id="from-toc" data-right="library" disabled>Bookmarks from TOC</button>
              <button id="split" data-right="library" disabled title="One new score per bookmark (else per TOC entry), beside this one; this score stays">Split into pieces</button>
            </section>
            <section id="panel-details" role="tabpanel" aria-labelledby="tab-details" hidden>
        \(detailsForm())
              <details id="history" class="history" data-right="library"><summary>History</summary>
                <label>By <select id="history-member"><option value="">Everyone</option></select></label>
                <ol id="history-list" class="history-list" aria-label="Changes saved to this score, the last first"></ol>
              </details>
            </section>
            <p id="status" class="muted" role="status"></p>
          </aside>
        </main>
        """
        return shell(title: score.title, csrf: csrf, body: body, scripts: pdfScripts + ["/assets/score.js"], bodyClass: "score")
    }

    /// The music stand's own controls (stand.js): night mode, full screen and, where there is
    /// a side panel, the button that opens and folds it.
    static func standButtons(panel: Bool) -> String {
        let toggle = panel ? "<button id=\"panel-toggle\" aria-expanded=\"true\" aria-controls=\"side-panel\" aria-label=\"Panel\" title=\"Panel: marks, contents, details (open or fold)\">☰</button>" : ""
        return "<button id=\"night\" aria-pressed=\"false\" title=\"Night: the page light on dark, for a dark stage\">☾<span class=\"word\"> Night</span></button>"
            + "<button id=\"fullscreen\" aria-pressed=\"false\" aria-label=\"Full screen\" title=\"Full screen: the page alone, as large as the screen\">⤢</button>" + toggle
    }

    /// The sound bar (sound.js): the linked recording's player — track, play, position, A–B
    /// loop, speed — and the metronome — tempo, tap, beats per bar, count-in, the beat light,
    /// the click or the user's sample. With `linking`, the controls that link and unlink the
    /// library's audio files and keep a loop (the score view).
    static func soundBar(linking: Bool) -> String {
        let links = linking ? """
            <label class="visually-hidden" for="link-audio">Link a recording</label>
              <select id="link-audio" title="Link one of the library's audio files to this score"></select>
              <button id="save-loop" title="Keep the A–B loop with this track">Keep loop</button>
              <button id="unlink" title="Unlink this recording from the score (the file stays)">Unlink</button>
            """ : ""
        return """
        <section id="sound" class="soundbar" hidden aria-label="Sound">
          <div class="player">
            <label class="visually-hidden" for="track">Recording</label><select id="track"></select>
            <button id="play" aria-label="Play" title="Play or pause (K, or a pedal's play key)">▶</button>
            <span id="position" class="time">0:00 / –:––</span>
            <input type="range" id="seek" min="0" max="0" step="0.1" value="0" aria-label="Position">
            <button id="set-a" title="The loop starts here">A</button><button id="set-b" title="The loop ends here">B</button>
            <label title="Play the A–B loop again and again"><input type="checkbox" id="loop"> Loop <span id="loop-range" class="muted"></span></label>
            <label>Speed <input type="range" id="speed" min="50" max="150" step="5" value="100"> <output id="speed-value">100 %</output></label>
            \(links)
          </div>
          <div class="metronome">
            <label><span id="beat-unit">♩</span> = <input type="number" id="bpm" min="20" max="400" value="100"></label>
            <button id="tap" title="Tap twice or more at the tempo">Tap</button>
            <label>Beats <input type="number" id="beats" min="1" max="16" value="4"></label>
            <label title="One bar of clicks before the recording starts"><input type="checkbox" id="count-in"> Count-in</label>
            <label title="Click each beat's notes too: three in 6/8, 9/8, 12/8 (a dotted beat), else two"><input type="checkbox" id="subdivide"> Subdivide</label>
            <button id="metronome-start" aria-pressed="false">Start</button>
            <span id="beat" class="beat" aria-hidden="true"></span>
            <label>Sound <select id="click-sound"><option value="click">Click</option><option value="sample">My sample</option></select></label>
            <label class="button" title="Keep a short WAV file as the metronome's sound">Sample…<input type="file" id="sample-file"
              accept=".wav,audio/wav,audio/x-wav" class="visually-hidden"></label>
          </div>
          <p id="sound-status" class="muted" role="status"></p>
        </section>
        """
    }

    /// The musical marks the Stamp tool offers, dynamics first.
    static func stampOptions() -> String {
        let names: [MusicalSymbol: String] = [.fermata: "fermata", .breath: "breath mark", .caesura: "caesura", .accent: "accent",
                                              .staccato: "staccato", .tenuto: "tenuto", .crescendo: "crescendo hairpin",
                                              .diminuendo: "diminuendo hairpin", .crescText: "cresc.", .dimText: "dim.",
                                              .volti: "V.S. (turn quickly)"]
        return MusicalSymbol.allCases.map { symbol in
            "<option value=\"\(escape(symbol.rawValue))\">\(escape(names[symbol] ?? symbol.rawValue))</option>"
        }.joined()
    }

    /// The metadata editor, one control per field as `ScoreFieldForm` describes it (the
    /// description `GET /api/fields` serves); details.js fills it from the API by each
    /// control's `data-input` and sends the values as written — the server reads them.
    static func detailsForm() -> String {
        let controls = ScoreFieldForm.all.map { field -> String in
            let name = escape(field.name), label = escape(field.label)
            let placeholder = field.placeholder.map { " placeholder=\"\(escape($0))\"" } ?? ""
            switch field.input {
            case .stars:
                let stars = (1...(field.maximum ?? 5)).map { value in
                    "<label title=\"\(value) of \(field.maximum ?? 5)\"><input type=\"radio\" name=\"\(name)\" value=\"\(value)\">"
                        + "<span aria-hidden=\"true\">★</span><span class=\"visually-hidden\">\(value) stars</span></label>"
                }.joined()
                return "<fieldset class=\"stars\" data-input=\"stars\" data-name=\"\(name)\"><legend>\(label)</legend>"
                    + "<label title=\"No \(name)\"><input type=\"radio\" name=\"\(name)\" value=\"\"><span aria-hidden=\"true\">∅</span>"
                    + "<span class=\"visually-hidden\">none</span></label>\(stars)</fieldset>"
            case .choice:
                let options = (field.choices ?? []).map { "<option value=\"\(escape($0.value))\">\(escape($0.label))</option>" }.joined()
                return "<label>\(label) <select name=\"\(name)\" data-input=\"choice\"><option value=\"\">—</option>\(options)</select></label>"
            case .text, .list, .number, .duration:
                let numeric = field.input == .text || field.input == .list ? "" : " inputmode=\"numeric\""
                let required = field.required ? " required" : ""
                return "<label>\(label) <input name=\"\(name)\" data-input=\"\(field.input.rawValue)\"\(placeholder)\(numeric)\(required)></label>"
            }
        }
        return """
              <form id="details" class="details" autocomplete="off">
                \(controls.joined(separator: "\n        "))
                <button type="submit" data-right="library">Save details</button>
              </form>
        """
    }
}
