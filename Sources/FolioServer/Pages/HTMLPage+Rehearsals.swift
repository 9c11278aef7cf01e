import Foundation

/// Rehearsal pages: the leader's panel (on the score view and in performance mode) and the
/// follower's page (`/rehearse/CODE`: join with a name and an instrument, then follow).
extension HTMLPage {
    /// The Rehearse button's panel: the code, the join link and its QR code, who follows
    /// (rehearsal.js fills it).
    static func rehearsalPanel() -> String {
        """
        <aside id="rehearsal" class="rehearsal" hidden aria-label="Rehearsal">
          <p>Join at <a class="join" href="#"></a> with code <strong class="code"></strong></p>
          <img class="qr" alt="QR code of the join link" width="164" height="164">
          <p class="loopback muted" hidden>This address works on this computer only: for other devices, open Folio by
            this computer's network name or address (<code>folio serve --host 0.0.0.0</code>) and start the rehearsal there.</p>
          <p class="rehearsal-status muted" role="status"></p>
          <h2>Players</h2>
          <ul class="members annotations"></ul>
          <button class="end">End rehearsal</button>
        </aside>
        """
    }

    /// The Rehearse button, for the pager of a page that leads.
    static let rehearseButton = """
        <button id="rehearse" data-right="lead" aria-pressed="false" title="Lead a rehearsal: the others' devices follow your page turns, each on their part">⇉<span class="word"> Rehearse</span></button>
        """

    /// The follower's page. `code` is the rehearsal's (already known to exist), or nil for
    /// the page that asks for one; `error` says why a code was refused.
    static func rehearse(code: String?, error: String?, csrf: String, pdfjs: Bool) -> String {
        guard let code else {
            let body = """
            <main class="notice">
              <h1>Join a rehearsal</h1>
              \(error.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>" } ?? "")
              <form method="get" action="/rehearse" class="inline" id="find-rehearsal">
                <label>Code <input name="code" required maxlength="16" autocomplete="off" autocapitalize="characters"
                  pattern="[A-Za-z0-9 -]{4,16}" placeholder="K7M3QX"></label>
                <button type="submit">Join</button>
              </form>
              <p class="muted">The leader's screen shows the code, the link and a QR code.</p>
            </main>
            """
            return shell(title: "Join a rehearsal", csrf: csrf, body: body, scripts: [])
        }
        guard pdfjs else {
            return shell(title: "Rehearsal", csrf: csrf, body: """
                <main class="notice"><h1>Rehearsal \(escape(code))</h1><p>Following a rehearsal needs pdf.js on the server:
                <code>sudo apt-get install libjs-pdf</code>, or <code>folio serve --pdfjs DIR</code>.</p></main>
                """, scripts: [])
        }
        let body = """
        <header class="bar">
          <a href="/" class="back" aria-label="Library">←</a>
          <h1>Rehearsal <span class="code">\(escape(code))</span></h1>
          <span id="piece" class="people"></span>
          <span id="part" class="people muted"></span>
          <span class="pager" id="following" hidden><span id="follow-status" class="muted" role="status"></span>
            <button id="rejoin" hidden title="Go back to the leader's page and follow again">Rejoin</button>
            <button id="end-rehearsal" hidden title="End the rehearsal for everyone">End rehearsal</button>
            <button id="prev" aria-label="Previous page">‹</button><span id="pageno">–</span>
            <button id="next" aria-label="Next page">›</button></span>
        </header>
        <main class="viewer">
          <form id="join" class="notice join-form" autocomplete="on">
            <h2>Join rehearsal \(escape(code))</h2>
            <label>Your name <input name="name" required maxlength="60" autocomplete="name"></label>
            <label>Your instrument <input name="instrument" list="instruments" maxlength="100"
              placeholder="Trumpet in Bb, Violin II… (empty: the full score)"></label>
            <datalist id="instruments"></datalist>
            <button type="submit">Follow</button>
          </form>
          <div id="stage" class="stage view perform" data-code="\(escape(code))" tabindex="0" hidden
            aria-label="The leader's page on your part; arrow keys look elsewhere"></div>
        </main>
        """
        return shell(title: "Rehearsal \(code)", csrf: csrf, body: body, scripts: pdfScripts + ["/assets/follow.js"], bodyClass: "score")
    }
}
