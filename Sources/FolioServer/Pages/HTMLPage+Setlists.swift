import FolioLibrary
import Foundation

extension HTMLPage {
    static func setlists(_ list: [SetlistSummary], csrf: String) -> String {
        let items = list.map { setlist in
            """
                <li><a href="/setlists/\(escape(pathComponent(setlist.name)))"><span class="title">\(escape(setlist.name))</span>
                  <span class="facts muted">\(setlist.count == 1 ? "1 piece" : "\(setlist.count) pieces")</span></a></li>
            """
        }.joined(separator: "\n")
        let body = """
        <header class="bar">
          <a href="/" class="back" aria-label="Library">←</a>
          <h1>Setlists</h1>
          <form id="create" class="inline">
            <label><span class="visually-hidden">New setlist</span><input name="name" placeholder="New setlist…" required maxlength="500"></label>
            <button type="submit">Create</button>
          </form>
        </header>
        <main>
          <p id="status" class="muted" role="status"></p>
          <ul id="setlists" class="scores">
        \(items.isEmpty ? "<li class=\"muted empty\">No setlists yet.</li>" : items)
          </ul>
        </main>
        """
        return shell(title: "Setlists", csrf: csrf, body: body, scripts: ["/assets/setlists.js"])
    }

    static func setlist(_ setlist: SetlistService.Shown, csrf: String) -> String {
        let name = escape(pathComponent(setlist.name))
        let body = """
        <header class="bar">
          <a href="/setlists" class="back" aria-label="Setlists">←</a>
          <h1 id="name">\(escape(setlist.name))</h1>
          <nav class="tools" aria-label="Setlist">
            <a class="button" href="/setlists/\(name)/perform">Perform</a>
            <button id="keep-offline" aria-pressed="false" title="Store every piece of this setlist on this device, to play it with the server out of reach">Keep offline</button>
            <a class="button" href="/api/setlists/\(name)/4ss">4SS</a>
            <a class="button" href="/api/setlists/\(name)/pdf?download=1">PDF</a>
            <button id="delete">Delete</button>
          </nav>
        </header>
        <main class="builder" data-setlist="\(escape(setlist.name))">
          <section>
            <h2>Pieces</h2>
            <ol id="entries" class="entries"></ol>
            <p id="total" class="total"></p>
            <p id="not-carried" class="muted" hidden></p>
            <p id="offline-status" class="muted" role="status"></p>
            <p id="status" class="muted" role="status"></p>
          </section>
          <section>
            <h2>Add</h2>
            <label class="search"><span class="visually-hidden">Find scores to add</span>
              <input id="find" type="search" placeholder="Find scores…" autocomplete="off"></label>
            <ul id="found" class="annotations"></ul>
            <form id="placeholder" class="inline">
              <label><span class="visually-hidden">Placeholder title</span><input name="title" placeholder="Placeholder (music not in the library)" required maxlength="500"></label>
              <button type="submit">Add placeholder</button>
            </form>
          </section>
        </main>
        """
        return shell(title: setlist.name, csrf: csrf, body: body, scripts: ["/assets/setlists.js"])
    }

    static func perform(_ setlist: SetlistService.Shown, csrf: String, pdfjs: Bool) -> String {
        guard pdfjs else {
            return shell(title: setlist.name, csrf: csrf, body: """
                <main class="notice"><h1>\(escape(setlist.name))</h1><p>Performance mode needs pdf.js:
                <code>sudo apt-get install libjs-pdf</code>, or <code>folio serve --pdfjs DIR</code>.</p></main>
                """, scripts: [])
        }
        let body = """
        <header class="bar one-row">
          <a href="/setlists/\(escape(pathComponent(setlist.name)))" class="back" aria-label="Setlist">←</a>
          <h1>\(escape(setlist.name))</h1>
          <span id="piece" class="people muted"></span>
          <span class="pager">\(rehearseButton)<button id="sound-toggle" aria-pressed="false" title="Each piece's recording and the metronome">♪<span class="word"> Sound</span></button>
            <button id="two" aria-pressed="false" aria-label="Two pages side by side" title="Two pages side by side (2)">2</button>
            <button id="half" aria-pressed="false" aria-label="Half-page turns" title="Half-page turns: the next page's top half shows while you finish this page (H)">½</button>
            <button id="prev" aria-label="Previous page">‹</button><span id="pageno">–</span>
            <button id="next" aria-label="Next page">›</button>
            \(standButtons(panel: false))</span>
        </header>
        \(soundBar(linking: false))
        \(rehearsalPanel())
        <main class="viewer">
          <div id="stage" class="stage view perform" data-setlist="\(escape(setlist.name))" tabindex="0"
            aria-label="Setlist pages; arrow keys, space and PageDown turn pages"></div>
        </main>
        """
        return shell(title: setlist.name, csrf: csrf, body: body, scripts: pdfScripts + ["/assets/perform.js"], bodyClass: "score")
    }

    /// A name as one URL path segment.
    static func pathComponent(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
