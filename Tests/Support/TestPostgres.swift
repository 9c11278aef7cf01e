import FolioLibrary
import Foundation

/// A PostgreSQL server from Debian's packages for this test process: `initdb` in a folder of its
/// own, as an unprivileged user when the tests run as root (PostgreSQL refuses root), listening on
/// a loopback port with password logins (scram-sha-256) only. Started at first use and stopped by
/// a watcher when the test process ends, however it ends.
///
/// ```swift
/// let server = try TestPostgres.shared()
/// let url = try server.newDatabase()          // postgresql://folio@127.0.0.1:PORT/t_…
/// // FOLIO_CATALOG_PASSWORD_FILE=server.passwordFile
/// ```
public final class TestPostgres: Sendable {
    /// The login every database belongs to.
    public static let user = "folio"
    public let port: Int
    /// The folder holding the cluster, its socket and the password file.
    public let folder: String
    /// A file (mode 600) holding the password, as `FOLIO_CATALOG_PASSWORD_FILE` names it.
    public let passwordFile: String
    public let password: String
    let bin: String

    private static let started = Started()

    /// The server of this process, started now if it is not yet.
    public static func shared() throws -> TestPostgres {
        try started.get()
    }

    /// `postgresql://folio@127.0.0.1:PORT/NAME` (no password: it is in ``passwordFile``).
    public func url(database: String) -> String {
        let encoded = database.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? database
        return "postgresql://\(Self.user)@127.0.0.1:\(port)/\(encoded)?sslmode=disable"
    }

    /// Creates a database of its own for one test (its name in any script when asked).
    public func newDatabase(prefix: String = "t") throws -> String {
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \"\(name)\"", database: "postgres")
        return name
    }

    /// A new database of its own for one test, and its address as `--catalog` reads it (the
    /// password from ``passwordFile``, named by `FOLIO_CATALOG_PASSWORD_FILE`).
    public func newCatalog(prefix: String = "t") throws -> (name: String, address: PostgresAddress) {
        let name = try newDatabase(prefix: prefix)
        guard case .postgresql(let address) = try CatalogLocation(parsing: url(database: name),
                                                                  environment: [CatalogLocation.passwordFileVariable: passwordFile]) else {
            throw TestFailure("\(url(database: name)) is not read as a PostgreSQL address")
        }
        return (name, address)
    }

    /// Drops a test's database (its connections are ended first).
    public func dropDatabase(_ name: String) {
        _ = try? psql("DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)", database: "postgres")
    }

    /// Runs SQL through `psql` (unaligned, tuples only), the reference client, returning its output.
    @discardableResult
    public func psql(_ sql: String, database: String) throws -> String {
        let result = try TestEnvironment.run(URL(fileURLWithPath: "\(bin)/psql"),
                                             ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                                              "-p", String(port), "-U", Self.user, "-d", database, "-c", sql],
                                             timeout: 60, environment: ["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "5"])
        guard result.status == 0 else {
            throw TestFailure("psql \(sql.prefix(80)): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The whole database as SQL, by `pg_dump` (the reference tool).
    public func dump(database: String) throws -> String {
        let result = try TestEnvironment.run(URL(fileURLWithPath: "\(bin)/pg_dump"),
                                             ["-h", "127.0.0.1", "-p", String(port), "-U", Self.user, "--no-owner", database],
                                             timeout: 120, environment: ["PGPASSWORD": password])
        guard result.status == 0 else { throw TestFailure("pg_dump: \(String(decoding: result.stderr, as: UTF8.self))") }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// Stops the server (`pg_ctl stop -m fast`: connections are ended), as when it goes away under a catalog.
    public func stop() throws {
        let result = try TestEnvironment.runTool("python3", ["-c", Self.callingAlone] + asOwner + ["\(bin)/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"])
        guard result.status == 0 else { throw TestFailure("pg_ctl stop: \(String(decoding: result.stderr, as: UTF8.self))") }
    }

    /// Starts it again on the same port.
    public func start() throws {
        let result = try TestEnvironment.runTool("python3", ["-c", Self.callingAlone] + asOwner
                                                 + ["\(bin)/pg_ctl", "-D", data, "-l", folder + "/server.log", "-o", Self.options(port: port, folder: folder),
                                                    "-w", "-t", "60", "start"], timeout: 120)
        guard result.status == 0 else { throw TestFailure("pg_ctl start: \(String(decoding: result.stderr, as: UTF8.self))") }
    }

    let data: String
    /// `runuser -u nobody --` when the tests run as root.
    let asOwner: [String]

    /// Runs the rest of its arguments through Python, which closes every other descriptor in its
    /// children: the server would otherwise inherit the one Foundation watches to see pg_ctl end,
    /// and it never would.
    static let callingAlone = "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"

    static func options(port: Int, folder: String) -> String {
        "-c listen_addresses=127.0.0.1 -c port=\(port) -c unix_socket_directories='\(folder)' "
            + "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    }

    private init(port: Int, folder: String, password: String, bin: String, data: String, asOwner: [String]) {
        self.port = port
        self.folder = folder
        self.password = password
        self.bin = bin
        self.data = data
        self.asOwner = asOwner
        passwordFile = folder + "/password"
    }

    /// Debian's server programs, newest first (`/usr/lib/postgresql/15/bin`).
    static func serverPrograms() throws -> String {
        let base = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(base)/\(version)/bin/initdb") {
            return "\(base)/\(version)/bin"
        }
        throw TestFailure("PostgreSQL's server is not installed (Debian's postgresql package): run .ci/install-deps")
    }

    /// Starts a cluster: initdb, a free loopback port, pg_ctl start, a watcher that stops it.
    fileprivate static func start() throws -> TestPostgres {
        let bin = try serverPrograms()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let password = "pw-" + UUID().uuidString
        let passwordFile = folder + "/password"
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile)
        // initdb reads its own copy (the test's must stay the test process's).
        let initPassword = folder + "/initdb-password"
        try Data(password.utf8).write(to: URL(fileURLWithPath: initPassword))
        let asRoot = getuid() == 0
        let owner = "nobody"
        if asRoot {
            for path in [folder, initPassword] {
                let chown = try TestEnvironment.runTool("chown", [owner, path])
                guard chown.status == 0 else { throw TestFailure("chown \(path): \(String(decoding: chown.stderr, as: UTF8.self))") }
            }
        }
        func runAsOwner(_ program: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> (status: Int32, stdout: Data, stderr: Data) {
            asRoot ? try TestEnvironment.runTool("runuser", ["-u", owner, "--", "\(bin)/\(program)"] + arguments, timeout: timeout)
                : try TestEnvironment.run(URL(fileURLWithPath: "\(bin)/\(program)"), arguments, timeout: timeout)
        }
        let data = folder + "/data"
        let initdb = try runAsOwner("initdb", ["-D", data, "-U", user, "--pwfile", initPassword, "--auth", "scram-sha-256",
                                            "-E", "UTF8", "--locale", "C.UTF-8", "--no-sync"])
        guard initdb.status == 0 else { throw TestFailure("initdb: \(String(decoding: initdb.stderr, as: UTF8.self))") }
        try? FileManager.default.removeItem(atPath: initPassword)
        var lastError = ""
        // A port picked at random can be taken: a few tries.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let port = Int.random(in: 20_000...60_000, using: &generator)
            let server = TestPostgres(port: port, folder: folder, password: password, bin: bin, data: data,
                                      asOwner: asRoot ? ["runuser", "-u", owner, "--"] : [])
            do {
                try server.start()
                try watch(server, data: data, owner: asRoot ? owner : nil)
                return server
            } catch {
                lastError = "\(error)"
            }
            lastError += "\n" + ((try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? "")
        }
        throw TestFailure("PostgreSQL did not start: \(lastError.suffix(800))")
    }

    /// A shell that waits for this process to end, then stops the server and removes its folder.
    private static func watch(_ server: TestPostgres, data: String, owner: String?) throws {
        let stop = "\(server.bin)/pg_ctl -D '\(data)' -m immediate stop"
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(owner.map { "runuser -u \($0) -- \(stop)" } ?? stop) >/dev/null 2>&1
            rm -rf '\(server.folder)'
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["/bin/sh", "-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }
}

/// The one server of the process, started once (a failure is kept and thrown to every caller).
private final class Started: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<TestPostgres, Error>?

    func get() throws -> TestPostgres {
        lock.lock()
        defer { lock.unlock() }
        if let result { return try result.get() }
        let started = Result { try TestPostgres.start() }
        result = started
        return try started.get()
    }
}
