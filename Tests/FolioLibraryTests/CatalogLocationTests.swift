@testable import FolioLibrary
import FolioTestSupport
import Foundation
import XCTest

/// `--catalog`'s value: SQLite or a PostgreSQL URL, with the password kept off the command line.
final class CatalogLocationTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-location-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func postgres(_ text: String, _ environment: [String: String] = [:]) throws -> PostgresAddress {
        guard case .postgresql(let address) = try CatalogLocation(parsing: text, environment: environment) else {
            throw TestFailure("\(text) is not a PostgreSQL address")
        }
        return address
    }

    private func refusal(_ text: String, _ environment: [String: String] = [:], line: UInt = #line) -> LibraryError? {
        do {
            let location = try CatalogLocation(parsing: text, environment: environment)
            XCTFail("\(text) was taken as \(location)", line: line)
            return nil
        } catch let error as LibraryError {
            return error
        } catch {
            XCTFail("\(text): \(error)", line: line)
            return nil
        }
    }

    func testAddressesAreReadAsLibpqReadsThem() throws {
        XCTAssertEqual(try CatalogLocation(parsing: "sqlite"), .sqlite(path: nil))
        XCTAssertEqual(try CatalogLocation(parsing: "sqlite:/srv/Noten/katalog.sqlite"), .sqlite(path: "/srv/Noten/katalog.sqlite"))
        XCTAssertEqual(try postgres("postgresql://"), PostgresAddress())
        XCTAssertEqual(try postgres("postgres://db.example.org"), PostgresAddress(host: "db.example.org"))
        // Names in any script, percent-encoded as URLs carry them, or as typed.
        XCTAssertEqual(try postgres("postgresql://m%C3%BCller@db:6543/%D0%BD%D0%BE%D1%82%D1%8B?sslmode=verify-full"),
                       PostgresAddress(host: "db", port: 6543, user: "müller", database: "ноты", tls: .verifyFull))
        XCTAssertEqual(try postgres("postgresql://楽団@[::1]:5433/楽譜"),
                       PostgresAddress(host: "::1", port: 5433, user: "楽団", database: "楽譜"))
        XCTAssertEqual(try postgres("postgresql://folio@/archiv?host=%2Fvar%2Frun%2Fpostgresql&sslmode=disable"),
                       PostgresAddress(host: "/var/run/postgresql", database: "archiv", tls: .disable))
        let socket = try postgres("postgresql://folio@:5444/folio?host=/run/pg")
        XCTAssertTrue(socket.isSocket)
        XCTAssertEqual(socket.socketPath, "/run/pg/.s.PGSQL.5444")
    }

    func testThePasswordComesFromAFileOnlyItsOwnerReadsOrTheEnvironment() throws {
        let file = directory.appendingPathComponent("heslo").path
        try Data("Žluťoučký kůň 🎻\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        XCTAssertEqual(try postgres("postgresql://db/", [CatalogLocation.passwordFileVariable: file]).password, "Žluťoučký kůň 🎻")
        // The file wins over the variable; the variable alone is used.
        XCTAssertEqual(try postgres("postgresql://db/", [CatalogLocation.passwordFileVariable: file,
                                                           CatalogLocation.passwordVariable: "other"]).password, "Žluťoučký kůň 🎻")
        XCTAssertEqual(try postgres("postgresql://db/", [CatalogLocation.passwordVariable: "σύνθημα"]).password, "σύνθημα")
        XCTAssertNil(try postgres("postgresql://db/").password)
        // A file others may read is refused, as libpq refuses such a .pgpass; so is one that is missing.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let readable = refusal("postgresql://db/", [CatalogLocation.passwordFileVariable: file])
        XCTAssertEqual(readable?.code, .io)
        XCTAssertTrue(readable?.message.contains("chmod 600") ?? false, "\(String(describing: readable))")
        XCTAssertEqual(refusal("postgresql://db/", [CatalogLocation.passwordFileVariable: file + ".missing"])?.code, .io)
    }

    func testAPasswordInTheAddressIsRefusedAndNeverRepeated() throws {
        for text in ["postgresql://folio:tajné-heslo@db/folio", "postgres://:tajné-heslo@db", "postgresql://db/folio?password=tajné-heslo"] {
            let error = refusal(text)
            XCTAssertEqual(error?.code, .invalidArgument, text)
            XCTAssertTrue(error?.message.contains(CatalogLocation.passwordFileVariable) ?? false, "\(String(describing: error))")
            XCTAssertFalse(error?.message.contains("tajné-heslo") ?? true, "the message repeats the password: \(String(describing: error))")
        }
    }

    func testWhatIsNotAnAddressGetsAClearError() throws {
        let cases: [(String, String)] = [
            ("mysql://db/folio", "not 'mysql://db/folio'"),
            ("postgresql://db:0/folio", "1 to 65535"),
            ("postgresql://db:65536/folio", "1 to 65535"),
            ("postgresql://db:-1/folio", "1 to 65535"),
            ("postgresql://db:99999999999999999999999/folio", "1 to 65535"),
            ("postgresql://db:/folio", "1 to 65535"),
            ("postgresql://[::1/folio", "closed by ]"),
            ("postgresql://db/folio?sslmode=verify-ca", "sslmode is disable, prefer, require, verify-full"),
            ("postgresql://db/folio?application_name=x", "not a parameter folio reads"),
            ("postgresql://db/folio?host=relative", "from /"),
            ("postgresql://db/%E0%A4", "broken %-escape"),
            ("postgresql://db/a%00b", "NUL"),
            ("postgresql://@db/folio", "user name is empty"),
            ("postgresql://db/\(String(repeating: "ж", count: 32))", "64 bytes; PostgreSQL keeps 63"),
            ("sqlite:", "needs the database file's path"),
            (String(repeating: "x", count: CatalogLocation.maxLength + 1), "at most 4096 bytes"),
        ]
        for (text, expected) in cases {
            let error = refusal(text)
            XCTAssertEqual(error?.code, .invalidArgument, text)
            XCTAssertTrue(error?.message.contains(expected) ?? false, "\(text.prefix(60)): \(String(describing: error))")
        }
        // 63 bytes of Cyrillic and a letter is the longest name taken.
        XCTAssertEqual(try postgres("postgresql://db/\(String(repeating: "ж", count: 31))x").database.utf8.count, 63)
    }

    /// Every address written by `description` reads back as itself (less the password), for
    /// seeded random hosts, ports, names in several scripts and modes.
    func testAnAddressReadsBackAsItIsWritten() throws {
        var generator = SeededGenerator(#function)
        let letters = Array("abcxyzÄöüßřčжщλω楽譜音符🎻 -_.~%@:/?&#=[]")
        func name() -> String {
            var text = ""
            while text.isEmpty || text.utf8.count > PostgresAddress.maxNameBytes {
                text = String((0..<Int.random(in: 1...20, using: &generator)).map { _ in letters.randomElement(using: &generator) ?? "a" })
            }
            return text
        }
        let hosts = ["localhost", "db.example.org", "10.0.0.7", "::1", "fe80::1", "/var/run/postgresql", "/tmp/s p"]
        for _ in 0..<2_000 {
            let address = PostgresAddress(host: hosts.randomElement(using: &generator) ?? "db", port: Int.random(in: 1...65535, using: &generator),
                                          user: name(), database: name(), password: nil,
                                          tls: PostgresAddress.TLS.allCases.randomElement(using: &generator) ?? .prefer)
            XCTAssertEqual(try postgres(address.description), address, address.description)
        }
    }

    /// Random text never crashes the reader and gets either an address or `.invalidArgument`.
    func testRandomTextIsReadOrRefused() throws {
        var generator = SeededGenerator(#function)
        let pieces = ["postgresql://", "postgres://", "sqlite:", "@", ":", "/", "?", "&", "=", "[", "]", "%", "%4", "%41", "65535",
                      "99999999999999999999", "-", "host=", "sslmode=", "disable", "ж", "楽", "\u{0}", "..", " "]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            do {
                _ = try CatalogLocation(parsing: text, environment: [:])
            } catch let error as LibraryError {
                XCTAssertEqual(error.code, .invalidArgument, text)
            }
        }
    }
}
