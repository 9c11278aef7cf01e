import FolioTestSupport
import Foundation
import XCTest

/// `folio serve --https` and `--tls-cert/--tls-key` as a user runs them: the address and the
/// fingerprint printed, curl trusting the printed authority only, and every wrong flag or file
/// refused before anything is served.
final class ServeHTTPSCommandTests: CommandTestCase, @unchecked Sendable {
    private var library = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        library = path("Bibliothèque – 图书馆")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: TestEnvironment.repositoryRoot.appendingPathComponent("Samples/Brahms-Cancion_de_Cuna.pdf").path,
                                         toPath: library + "/Brahms.pdf")
    }

    /// A port nothing listens on now.
    private func freePort() throws -> Int {
        let result = try TestEnvironment.runTool("python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        return try XCTUnwrap(Int(String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func testServeHTTPSPrintsTheAddressAndTheFingerprintCurlTrusts() throws {
        let folder = path("tls"), port = try freePort()
        let output = path("serve.out")
        FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = try TestEnvironment.folioBinary()
        process.arguments = ["serve", library, "--port", String(port), "--https", "--tls-dir", folder, "--allow-host", "ноты.local"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        var printed = ""
        for _ in 0..<200 where !printed.contains("/trust") {
            Thread.sleep(forTimeInterval: 0.05)
            printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        XCTAssertTrue(printed.contains("at https://127.0.0.1:\(port)/"), printed)
        XCTAssertTrue(printed.contains("https://127.0.0.1:\(port)/trust"), printed)
        let ca = folder + "/folio-ca.pem"
        let fingerprint = try TestEnvironment.runTool("openssl", ["x509", "-in", ca, "-noout", "-fingerprint", "-sha256"])
        let expected = try XCTUnwrap(String(decoding: fingerprint.stdout, as: UTF8.self).split(separator: "=").last)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(printed.contains("fingerprint \(expected)"), printed)
        // curl trusts the server with the printed authority, by name and by the name in another script.
        var answered: (status: Int32, stdout: Data, stderr: Data)?
        for _ in 0..<100 {
            answered = try TestEnvironment.runTool("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca,
                                                            "https://localhost:\(port)/api/facets"])
            if answered?.status == 0 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(answered.map { String(decoding: $0.stdout, as: UTF8.self) }, "200")
        let idn = try TestEnvironment.runTool("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca,
                                                       "--resolve", "xn--m1acm0b.local:\(port):127.0.0.1", "https://xn--m1acm0b.local:\(port)/api/facets"])
        XCTAssertEqual(String(decoding: idn.stdout, as: UTF8.self), "200", String(decoding: idn.stderr, as: UTF8.self))
        XCTAssertEqual(try TestEnvironment.runTool("curl", ["-sS", "-o", "/dev/null", "https://localhost:\(port)/"]).status, 60)
        // Connections a browser leaves open do not hold the stop: SIGTERM ends the server well
        // within NIOSSL's default 5 s and the first head's 10 s. One kept alive after a request
        // whose client never answers close_notify (as Chromium's idle ones do not); a spare one,
        // its handshake done and no request sent; one that never began its handshake.
        let holder = Process(), said = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import socket, ssl, sys, time
            context = ssl.create_default_context(cafile=sys.argv[2])
            tls = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1]))), server_hostname="localhost")
            tls.sendall(b"GET /api/facets HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
            first = tls.recv(65536).split(b"\\r\\n")[0].decode()
            spare = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1]))), server_hostname="localhost")
            silent = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            print(first, flush=True)
            time.sleep(30)
            """, String(port), ca]
        holder.standardOutput = said
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        let first = String(decoding: said.fileHandleForReading.availableData, as: UTF8.self)
        XCTAssertTrue(first.hasPrefix("HTTP/1.1 200"), first)
        let stopping = Date()
        process.terminate()
        process.waitUntilExit()
        let took = Date().timeIntervalSince(stopping)
        XCTAssertLessThan(took, 2.5, "the stop waited on a connection left open")
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testWrongTLSFlagsAndFilesAreRefusedBeforeServing() throws {
        try Data("-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: path("cert.pem")))
        try Data("garbage – мусор".utf8).write(to: URL(fileURLWithPath: path("key.pem")))
        let port = String(try freePort())
        XCTAssertTrue(try invoke(["serve", library, "--port", port, "--tls-cert", path("cert.pem")], status: 64).err.contains("together"))
        XCTAssertTrue(try invoke(["serve", library, "--port", port, "--tls-dir", path("tls")], status: 64).err.contains("goes with --https"))
        XCTAssertTrue(try invoke(["serve", library, "--port", port, "--https", "--tls-cert", path("cert.pem"), "--tls-key", path("key.pem")],
                                 status: 64).err.contains("not both"))
        let bad = try invoke(["serve", library, "--port", port, "--tls-cert", path("cert.pem"), "--tls-key", path("key.pem")], status: 64)
        XCTAssertTrue(bad.err.contains("--tls-cert \(path("cert.pem"))") && bad.err.contains("is not a PEM certificate chain"), bad.err)
        XCTAssertTrue(try invoke(["serve", library, "--port", port, "--allow-host", "a..b"], status: 64).err.contains("not a host name"))
        // A damaged authority: exit 1, the files as they were.
        let folder = path("tls")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: folder + "/folio-ca.pem"))
        try Data("key – ключ".utf8).write(to: URL(fileURLWithPath: folder + "/folio-ca-key.pem"))
        func files() throws -> [String: Data] {
            try Dictionary(uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: folder).map {
                ($0, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)))
            })
        }
        let before = try files()
        let damaged = try invoke(["serve", library, "--port", port, "--https", "--tls-dir", folder], status: 1)
        XCTAssertTrue(damaged.err.contains("move the folder away"), damaged.err)
        XCTAssertEqual(try files(), before)
        XCTAssertEqual(before.count, 2)
    }
}
