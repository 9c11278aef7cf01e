import Foundation

extension HTMLPage {
    /// `/trust`: how to make a device trust this server's HTTPS once — the local authority's
    /// fingerprint to compare, its certificate for each kind of device, and the steps.
    static func trust(authority: (name: String, fingerprint: String)?, names: ServerNames?, ownCertificate: Bool) -> String {
        let body: String
        if let (name, fingerprint) = authority {
            let covered = names.map { ($0.dns + $0.addresses).map { "<code>\(escape($0))</code>" }.joined(separator: ", ") } ?? ""
            body = """
                <h2>Trust this Folio once on each device</h2>
                <p>Folio speaks HTTPS with a certificate from its own authority, made on this computer. A device that trusts the
                authority opens Folio without warnings, keeps scores for offline use, and keeps the screen awake on stage.</p>
                <p>Before trusting, compare the fingerprint with the one <code>folio serve</code> printed in its terminal:</p>
                <p class="fingerprint"><code data-fingerprint>\(escape(fingerprint))</code></p>
                <p>The server's certificate is for \(covered).</p>
                <section class="trust-steps">
                <h3>iPad and iPhone</h3>
                <ol>
                <li>Open this page in Safari and tap <a href="/trust/folio.mobileconfig" download>the profile</a>; allow the download.</li>
                <li>Settings → <em>Profile Downloaded</em> (or General → VPN &amp; Device Management) → Install.</li>
                <li>Settings → General → About → Certificate Trust Settings: turn on full trust for “\(escape(name))”.</li>
                </ol>
                <h3>Android</h3>
                <ol>
                <li>Download <a href="/trust/folio-ca.crt" download>the certificate (.crt)</a>.</li>
                <li>Settings → Security → Encryption &amp; credentials → Install a certificate → CA certificate, and pick it.</li>
                </ol>
                <h3>Windows, macOS, ChromeOS</h3>
                <ol>
                <li>Download <a href="/trust/folio-ca.crt" download>the certificate (.crt)</a>.</li>
                <li>Windows: open it → Install Certificate → Local Machine → “Trusted Root Certification Authorities”.
                macOS: open it in Keychain Access, then set “When using this certificate” to Always Trust.
                ChromeOS: Settings → Privacy and security → Manage certificates → Authorities → Import.</li>
                </ol>
                <h3>Firefox and Linux</h3>
                <ol>
                <li>Download <a href="/trust/folio-ca.pem" download>the certificate (.pem)</a>.</li>
                <li>Firefox: Settings → Privacy &amp; Security → Certificates → View Certificates → Authorities → Import, “trust to identify websites”.
                Chromium on Linux: <code>certutil -d sql:$HOME/.pki/nssdb -A -t "C,," -n Folio -i folio-ca.pem</code>.</li>
                </ol>
                </section>
                <p>Only the authority's certificate leaves this computer; its key stays in Folio's certificate folder.</p>
                """
        } else if ownCertificate {
            body = """
                <h2>This Folio uses your own certificate</h2>
                <p>Folio was started with <code>--tls-cert</code> and <code>--tls-key</code>: devices trust it as they trust
                whoever issued that certificate. There is nothing to install here.</p>
                """
        } else {
            body = """
                <h2>This Folio speaks plain HTTP</h2>
                <p>Browsers keep offline scores and the screen awake only on HTTPS pages (or on this computer itself).
                Start Folio with <code>folio serve --https</code> and open this page again to trust it on your devices.</p>
                """
        }
        return shell(title: "Trust Folio — HTTPS on your devices", csrf: "",
                     body: "<header class=\"bar\"><a class=\"home\" href=\"/\">Folio</a></header><main class=\"trust\">\(body)</main>",
                     scripts: [])
    }
}
