import FolioLibrary
@testable import FolioServer
import FolioTestSupport
import Foundation
import XCTest

/// The login throttle of several servers sharing one catalog in PostgreSQL: guesses on one count
/// on all, the allowance is one for all, a proof on one is known to all; with the shared ledger
/// away each server still counts alone; and one server with a shared ledger judges every
/// sequence of guesses as one server in memory does.
final class SharedLoginThrottleTests: XCTestCase {
    private var server: TestPostgres!
    private var databases: [String] = []
    private var opened: [PostgresCatalog] = []
    private var address: PostgresAddress?

    override func setUpWithError() throws {
        server = try TestPostgres.shared()
    }

    override func tearDownWithError() throws {
        for database in opened { database.close() }
        for name in databases { server.dropDatabase(name) }
    }

    private func policy(burst: Int = 1_000) -> LoginThrottle.Policy {
        var policy = LoginThrottle.Policy()
        policy.freeFailures = 2
        policy.banAfter = 5
        policy.banDuration = .seconds(60)
        policy.firstDelay = .milliseconds(1)
        policy.maxDelay = .milliseconds(8)
        policy.globalBurst = burst
        policy.globalPerMinute = 1
        return policy
    }

    /// A server's throttle counting in this test's catalog database.
    private func throttle(_ policy: LoginThrottle.Policy) throws -> LoginThrottle {
        if address == nil {
            let catalog = try server.newCatalog(prefix: "hádání")
            databases.append(catalog.name)
            address = catalog.address
        }
        guard let address else { throw TestFailure("no address") }
        let database = try PostgresCatalog(address: address, maxConnections: 2)
        opened.append(database)
        return LoginThrottle(policy: policy, shared: PostgresGuessLedger(database: database))
    }

    func testGuessesOnOneServerCountOnAll() throws {
        let first = try throttle(policy()), second = try throttle(policy())
        let client = "2001:db8::7"
        XCTAssertNil(second.banned(client))
        XCTAssertEqual([first.failed(client), first.failed(client), second.failed(client)].map(\.failures), [1, 2, 3])
        XCTAssertEqual(second.failed(client).delay, .milliseconds(2), "the fourth failure, counted across both")
        let fifth = first.failed(client)
        XCTAssertEqual(fifth.bannedFor, 60)
        // The other server asked a second ago at most: it knows within that second.
        Thread.sleep(forTimeInterval: LoginThrottle.sharedFreshness + 0.1)
        XCTAssertNotNil(second.banned(client))
        XCTAssertNotNil(first.banned(client))
        // Another client is untouched; a proof on one server is known to the other.
        XCTAssertNil(second.banned("192.0.2.8"))
        first.succeeded("192.0.2.8")
        XCTAssertTrue(second.isProven("192.0.2.8"))
        XCTAssertFalse(second.isProven(client))
        // A right password from the banned client does not lift its ban.
        second.succeeded(client)
        Thread.sleep(forTimeInterval: LoginThrottle.sharedFreshness + 0.1)
        XCTAssertNotNil(first.banned(client))
    }

    func testTheAllowanceIsOneForAllServers() throws {
        let first = try throttle(policy(burst: 6)), second = try throttle(policy(burst: 6))
        second.succeeded("198.51.100.1")   // a musician's own device, proven
        for index in 0..<6 {
            _ = (index.isMultiple(of: 2) ? first : second).failed("203.0.113.\(index)")
        }
        // Six guesses from six addresses on two servers: guessing pauses on both for an address not proven.
        XCTAssertNotNil(first.guessingPaused("203.0.113.99"))
        XCTAssertNotNil(second.guessingPaused("203.0.113.99"))
        XCTAssertNil(first.guessingPaused("198.51.100.1"), "a proven address is let in")
    }

    /// While PostgreSQL is away a server counts alone; once it is back, the shared records count.
    func testWithTheSharedLedgerAwayEachServerCountsAlone() throws {
        let first = try throttle(policy())
        try server.stop()
        defer { try? server.start() }
        let client = "192.0.2.77"
        let verdicts = (0..<5).map { _ in first.failed(client) }
        XCTAssertEqual(verdicts.map(\.failures), [1, 2, 3, 4, 5])
        XCTAssertEqual(verdicts.last?.bannedFor, 60)
        XCTAssertNotNil(first.banned(client))
        try server.start()
        // Back: the shared ledger is the one that counts again (it never heard of those guesses),
        // not what this server kept meanwhile.
        Thread.sleep(forTimeInterval: LoginThrottle.sharedFreshness + 0.1)
        XCTAssertNil(first.banned(client))
        XCTAssertEqual(first.failed(client).failures, 1)
    }

    /// Seeded random guesses and proofs from five clients, judged by a throttle in memory and by
    /// one with a shared ledger: the same counts, delays and bans.
    func testASharedLedgerJudgesAsMemoryDoes() throws {
        var generator = SeededGenerator(#function)
        let memory = LoginThrottle(policy: policy(burst: 12)), shared = try throttle(policy(burst: 12))
        let clients = ["192.0.2.1", "2001:db8::1", "müller-pc.fritz.box", "小林のiPad", "10.0.0.5"]
        for step in 0..<120 {
            let client = clients.randomElement(using: &generator) ?? clients[0]
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                XCTAssertEqual(memory.failed(client), shared.failed(client), "step \(step): \(client) failed")
            case 6..<8:
                memory.succeeded(client)
                shared.succeeded(client)
                // The shared throttle notes a proof once a minute: its answers below hold either way.
            default:
                XCTAssertEqual(memory.banned(client) != nil, shared.banned(client) != nil, "step \(step): \(client) banned?")
            }
            XCTAssertEqual(memory.guessingPaused("198.51.100.9") != nil, shared.guessingPaused("198.51.100.9") != nil, "step \(step)")
        }
    }
}
