import FolioLibrary
import FolioScore
import Foundation

/// Rehearsals apart from HTTP and sockets: a leader starts one from a score or a setlist's
/// performance and gets a short code and a key; members connect by the code (the leader with
/// the key) and receive text messages through the stream ``connect(_:)`` returns. The
/// leader's moves reach every follower, each on their own part of the piece (see
/// `LibraryCatalog/part(forScore:player:)`); followers may look elsewhere and come back; the
/// leader sees who follows and who has no part. Only the leader moves, hands over or ends; a
/// rehearsal ends when its leader ends it or has been gone for ``Limits/leaderGrace`` (or
/// never connected within it).
///
/// ```swift
/// let rehearsals = RehearsalService(catalog: catalog)
/// let started = try await rehearsals.start(score: 12, leader: "Jana")
/// let lead = try await rehearsals.connect(.init(code: started.code, member: "leader-tab-1", name: "Jana", key: started.key))
/// let follow = try await rehearsals.connect(.init(code: started.code, member: "cello-tab-22", name: "Petr", instrument: "Violoncello"))
/// _ = await rehearsals.receive(code: started.code, member: "leader-tab-1", connection: lead.connection,
///                              text: #"{"type":"move","score":12,"page":2}"#)
/// for await text in follow.messages { print(text) }   // hello, position (page 1), position (page 2)…
/// ```
public actor RehearsalService {
    /// How many rehearsals, members and messages are taken.
    public struct Limits: Sendable {
        public var rehearsals = 32
        /// Rehearsals one client address may have running: a leader starts one, a conductor
        /// with two ensembles two; four leave room without letting one client take all 32.
        public var perClient = 4
        public var members = 250
        /// How long a follower whose connection closed keeps their place (a page reload or a
        /// dropped Wi-Fi reconnects well within it); then their slot is free again.
        public var memberGrace: Duration = .seconds(60)
        /// The least time between two member lists sent to the leader: changes within it are
        /// sent together once it has passed, so members toggling cannot flood the leader.
        public var membersInterval: Duration = .milliseconds(500)
        /// Messages a member may send a second, and at once (a pedal held down repeats some
        /// 25 times a second).
        public var perSecond = 30.0
        public var burst = 60.0
        /// How long a rehearsal waits for a leader whose connection dropped.
        public var leaderGrace: Duration = .seconds(20)
        /// Messages kept for a member whose device is slow to read (older ones are dropped:
        /// a later position supersedes them).
        public var backlog = 64
        public init() {}
    }

    /// A started rehearsal: its code, the key that makes a connection its leader's, and the
    /// page others join at.
    public struct Started: Sendable, Codable, Equatable {
        public var code: String
        public var key: String
        public var join: String
    }

    /// A rehearsal as anyone with access may see it before joining.
    public struct Summary: Sendable, Codable, Equatable {
        public var code: String
        public var leader: String
        public var song: String?
        public var position: RehearsalPosition?
        public var members: Int
    }

    /// A connection's request: the rehearsal, the member's id (kept by their page so a
    /// reconnection is the same member), their name, what they play, and the leader's key.
    public struct Connection: Sendable {
        public var code: String
        public var member: String
        public var name: String
        public var instrument: String?
        public var key: String?

        public init(code: String, member: String, name: String, instrument: String? = nil, key: String? = nil) {
            self.code = code
            self.member = member
            self.name = name
            self.instrument = instrument
            self.key = key
        }
    }

    /// A connected member: the number of this connection (a later one replaces it) and the
    /// messages to send them, which end when the rehearsal does or a reconnection replaces it.
    public struct Joined: Sendable {
        public var connection: UInt64
        public var leader: Bool
        public var messages: AsyncStream<String>
    }

    /// What to do with a member's connection after a message.
    public enum Verdict: Sendable, Equatable {
        case keep
        /// Close it (policy violation), saying why.
        case close(String)
    }

    public let catalog: LibraryCatalog
    public let limits: Limits
    private var rehearsals: [String: Rehearsal] = [:]
    private var connections: UInt64 = 0

    public init(catalog: LibraryCatalog, limits: Limits = Limits()) {
        self.catalog = catalog
        self.limits = limits
    }

    /// Starts a rehearsal at the first page of the score `score` (in performance mode, of
    /// the setlist `setlist`'s piece `piece`); `leader` is the leader's name.
    /// `client` is the address that asks (at most ``Limits/perClient`` rehearsals each).
    public func start(score: Int64, setlist: String? = nil, piece: Int? = nil, leader: String,
                      client: String = "local") throws(LibraryError) -> Started {
        let name = try RehearsalMember.checkedName(leader)
        if let setlist, !(1...200).contains(setlist.count) { throw LibraryError(.invalidArgument, "a setlist name has 1 to 200 characters") }
        if let piece, !(1...10_000).contains(piece) { throw LibraryError(.invalidArgument, "piece \(piece) is out of range (valid: 1 to 10000)") }
        guard rehearsals.count < limits.rehearsals else {
            throw LibraryError(.busy, "\(limits.rehearsals) rehearsals are running; end one first", retryAfter: 60)
        }
        guard rehearsals.values.filter({ $0.client == client }).count < limits.perClient else {
            throw LibraryError(.tooMany, "this device's network address has \(limits.perClient) rehearsals running (valid: up to \(limits.perClient)); end one first",
                               retryAfter: 60)
        }
        let parts = try pieceParts(score)
        var code = Self.newCode()
        while rehearsals[code] != nil { code = Self.newCode() }
        let key = Secret.random()
        rehearsals[code] = Rehearsal(code: code, key: key, leaderName: name,
                                     position: RehearsalPosition(score: score, setlist: setlist, piece: piece), song: parts.song,
                                     client: client)
        rehearsals[code]?.title = title(of: score)
        // A leader who never connects leaves no rehearsal behind.
        scheduleEnding(code)
        return Started(code: code, key: key, join: "/rehearse/\(code)")
    }

    /// The rehearsal `code`; `.notFound` when there is none (any more).
    public func summary(code: String) throws(LibraryError) -> Summary {
        let rehearsal = try find(code)
        return Summary(code: rehearsal.code, leader: rehearsal.leaderName, song: rehearsal.song, position: rehearsal.position,
                       members: rehearsal.order.count)
    }

    /// Whether a rehearsal `code` is running.
    public func exists(code: String) -> Bool { rehearsals[Self.normalized(code)] != nil }

    /// Connects a member. With the leader's key the member leads; without it they follow,
    /// starting where the leader is. A member already connected is connected anew (their
    /// old connection's messages end).
    public func connect(_ request: Connection) throws(LibraryError) -> Joined {
        var rehearsal = try find(request.code)
        guard RehearsalMember.isValidID(request.member) else {
            throw LibraryError(.invalidArgument, "a member id has 8 to 64 letters, digits, - or _")
        }
        let name = try RehearsalMember.checkedName(request.name)
        let player = try Self.player(request.instrument)
        let leads: Bool
        if let key = request.key {
            guard Secret.equal(key, rehearsal.key) else {
                throw LibraryError(.conflict, "that is not the leader's key of rehearsal \(rehearsal.code) (was it handed over?)")
            }
            leads = true
        } else {
            leads = false
            guard request.member != rehearsal.leaderID else {
                throw LibraryError(.conflict, "member \(request.member) leads rehearsal \(rehearsal.code): connect with its key")
            }
            guard rehearsal.members[request.member] != nil || rehearsal.order.count < limits.members else {
                throw LibraryError(.busy, "rehearsal \(rehearsal.code) has \(limits.members) members already", retryAfter: 60)
            }
        }
        connections += 1
        let (stream, outbox) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(limits.backlog))
        var member = rehearsal.members[request.member] ?? Member(
            info: RehearsalMember(id: request.member, name: name, instrument: nil, leader: false, attached: true, connected: true),
            rate: MessageRate(perSecond: limits.perSecond, burst: limits.burst))
        // The old connection is told, so that its page stops rather than reconnecting in turn
        // (a duplicated tab carries the same member id).
        member.outbox?.yield(Self.json(["type": "replaced"]))
        member.outbox?.finish()
        member.leaving?.cancel()
        member.leaving = nil
        member.outbox = outbox
        member.connection = connections
        member.info.name = name
        member.info.instrument = player?.written
        member.info.connected = true
        member.player = player
        if rehearsal.members[request.member] == nil { rehearsal.order.append(request.member) }
        if leads {
            if let previous = rehearsal.leaderID, previous != request.member { rehearsal.members[previous]?.info.leader = false }
            rehearsal.leaderID = request.member
            rehearsal.leaderName = name
            rehearsal.ending?.cancel()
            rehearsal.ending = nil
        }
        member.info.leader = leads
        rehearsal.members[request.member] = member
        rehearsals[rehearsal.code] = rehearsal
        send(["type": "hello", "code": rehearsal.code, "you": request.member, "role": leads ? "leader" : "follower",
              "leader": rehearsal.leaderName], to: request.member, in: rehearsal.code)
        if !leads { sendPosition(to: request.member, in: rehearsal.code) }
        sendMembers(in: rehearsal.code)
        return Joined(connection: connections, leader: leads, messages: stream)
    }

    /// Takes a message from a member's connection `connection`. A message the member may not
    /// send (a follower's move) or cannot be read is answered with an error message; too many
    /// messages close the connection.
    public func receive(code: String, member id: String, connection: UInt64, text: String) -> Verdict {
        let code = Self.normalized(code)
        guard var member = rehearsals[code]?.members[id], member.connection == connection else { return .close("not a member of this rehearsal") }
        guard member.rate.take(at: .now) else {
            return .close("too many messages: at most \(Int(limits.perSecond)) a second")
        }
        rehearsals[code]?.members[id] = member
        let leads = rehearsals[code]?.leaderID == id
        do {
            let message = try RehearsalMessage(text: text)
            switch message {
            case .move(let position):
                guard leads else { throw LibraryError(.invalidArgument, "only the leader turns the pages") }
                try move(position, in: code)
            case .handover(let to):
                guard leads else { throw LibraryError(.invalidArgument, "only the leader hands over") }
                try handOver(to: to, in: code)
            case .end:
                guard leads else { throw LibraryError(.invalidArgument, "only the leader ends the rehearsal") }
                end(code, reason: "The leader ended the rehearsal.")
            case .detach, .attach:
                guard !leads else { throw LibraryError(.invalidArgument, "the leader leads: there is no one to follow") }
                let attached = message == .attach
                rehearsals[code]?.members[id]?.info.attached = attached
                if attached { sendPosition(to: id, in: code) }
                sendMembers(in: code)
            case .instrument(let text):
                let player = try Self.player(text)
                rehearsals[code]?.members[id]?.player = player
                rehearsals[code]?.members[id]?.info.instrument = player?.written
                if !leads { sendPosition(to: id, in: code) }
                sendMembers(in: code)
            }
        } catch {
            send(["type": "error", "message": (error as? any Failure)?.message ?? "\(error)"], to: id, in: code)
        }
        return .keep
    }

    /// A member's connection `connection` closed. A follower stays listed as not connected
    /// (they reconnect by themselves); a leader has ``Limits/leaderGrace`` to come back.
    public func disconnect(code: String, member id: String, connection: UInt64) {
        let code = Self.normalized(code)
        guard let member = rehearsals[code]?.members[id], member.connection == connection else { return }
        member.outbox?.finish()
        rehearsals[code]?.members[id]?.outbox = nil
        rehearsals[code]?.members[id]?.connection = nil
        rehearsals[code]?.members[id]?.info.connected = false
        if rehearsals[code]?.leaderID == id {
            scheduleEnding(code)
        } else {
            scheduleLeaving(id, code: code)
        }
        sendMembers(in: code)
    }

    /// Frees a follower's slot after ``Limits/memberGrace`` unless they connected again.
    private func scheduleLeaving(_ id: String, code: String) {
        let grace = limits.memberGrace
        rehearsals[code]?.members[id]?.leaving = Task { [weak self] in
            try? await Task.sleep(for: grace)
            guard !Task.isCancelled else { return }
            await self?.memberGone(id, code: code)
        }
    }

    private func memberGone(_ id: String, code: String) {
        guard let member = rehearsals[code]?.members[id], member.connection == nil, rehearsals[code]?.leaderID != id else { return }
        rehearsals[code]?.members[id] = nil
        rehearsals[code]?.order.removeAll { $0 == id }
        sendMembers(in: code)
    }

    /// Ends `code` after ``Limits/leaderGrace`` unless its leader is connected by then.
    private func scheduleEnding(_ code: String) {
        let grace = limits.leaderGrace
        rehearsals[code]?.ending?.cancel()
        rehearsals[code]?.ending = Task { [weak self] in
            try? await Task.sleep(for: grace)
            guard !Task.isCancelled else { return }
            await self?.leaderGone(code: code)
        }
    }

    /// Ends the rehearsal `code` for its leader (the key proves it).
    public func end(code: String, key: String) throws(LibraryError) {
        let rehearsal = try find(code)
        guard Secret.equal(key, rehearsal.key) else { throw LibraryError(.conflict, "that is not the leader's key of rehearsal \(rehearsal.code)") }
        end(rehearsal.code, reason: "The leader ended the rehearsal.")
    }

    // MARK: - Moves

    private func move(_ position: RehearsalPosition, in code: String) throws {
        guard var rehearsal = rehearsals[code] else { return }
        let newPiece = position.score != rehearsal.position.score
        if newPiece {
            rehearsal.song = try pieceParts(position.score).song
            rehearsal.title = title(of: position.score)
            rehearsal.choices = [:]
        }
        rehearsal.position = position
        rehearsal.sequence += 1
        rehearsals[code] = rehearsal
        var texts: [String: String] = [:]
        for id in rehearsal.order where id != rehearsal.leaderID { sendPosition(to: id, in: code, texts: &texts) }
        // Who has a part changes with the piece.
        if newPiece { sendMembers(in: code) }
    }

    private func handOver(to id: String, in code: String) throws {
        guard var rehearsal = rehearsals[code], let previous = rehearsal.leaderID else { return }
        guard let target = rehearsal.members[id], target.connection != nil, id != previous else {
            throw LibraryError(.invalidArgument, "\(id) is not a connected follower")
        }
        rehearsal.key = Secret.random()
        rehearsal.leaderID = id
        rehearsal.leaderName = target.info.name
        rehearsal.members[id]?.info.leader = true
        rehearsal.members[id]?.info.attached = true
        rehearsal.members[previous]?.info.leader = false
        rehearsal.members[previous]?.info.attached = true
        rehearsals[code] = rehearsal
        send(["type": "lead", "key": rehearsal.key], to: id, in: code)
        send(["type": "follow", "leader": target.info.name], to: previous, in: code)
        sendPosition(to: previous, in: code)
        sendMembers(in: code)
    }

    private func leaderGone(code: String) {
        guard let rehearsal = rehearsals[code] else { return }
        if let leader = rehearsal.leaderID, rehearsal.members[leader]?.connection != nil { return }
        end(code, reason: "The leader left.")
    }

    private func end(_ code: String, reason: String) {
        guard let rehearsal = rehearsals.removeValue(forKey: code) else { return }
        rehearsal.ending?.cancel()
        rehearsal.membersPending?.cancel()
        for member in rehearsal.members.values { member.leaving?.cancel() }
        let text = Self.json(["type": "ended", "reason": reason])
        for member in rehearsal.members.values {
            member.outbox?.yield(text)
            member.outbox?.finish()
        }
    }

    // MARK: - Messages

    private func send(_ object: [String: Any], to id: String, in code: String) {
        rehearsals[code]?.members[id]?.outbox?.yield(Self.json(object))
    }

    /// The leader's position as the follower `id` is shown it: their part of the piece, the
    /// page kept within it. `texts` keeps each part's message of this move, so that a move to
    /// many followers is written once per part, not once per follower.
    private func sendPosition(to id: String, in code: String) {
        var texts: [String: String] = [:]
        sendPosition(to: id, in: code, texts: &texts)
    }

    private func sendPosition(to id: String, in code: String, texts: inout [String: String]) {
        guard var rehearsal = rehearsals[code], let member = rehearsal.members[id], let outbox = member.outbox else { return }
        let key = member.choiceKey
        if let text = texts[key] { outbox.yield(text); return }
        let position = rehearsal.position
        let choice = self.choice(for: member, in: &rehearsal)
        rehearsals[code] = rehearsal
        var page = position.page
        if let pages = choice?.part.pages, pages > 0 { page = min(page, pages) }
        let last = choice?.part.pages.map { page >= $0 } ?? false
        var object: [String: Any] = [
            "type": "position", "sequence": rehearsal.sequence, "score": choice?.part.id ?? position.score, "page": page,
            "halfway": position.halfway && !last, "two": position.two, "leaderScore": position.score, "leaderPage": position.page,
            "sent": (Date().timeIntervalSince1970 * 1000).rounded(),
        ]
        if let choice {
            object["path"] = choice.part.path
            object["fit"] = choice.fit.rawValue
            object["part"] = choice.part.label?.written
            object["pages"] = choice.part.pages
        }
        object["song"] = rehearsal.song
        object["title"] = rehearsal.title
        object["setlist"] = position.setlist
        object["piece"] = position.piece
        let text = Self.json(object)
        texts[key] = text
        outbox.yield(text)
    }

    /// Sends the leader the member list now, or, when one went less than
    /// ``Limits/membersInterval`` ago, once that has passed (one list for all the changes between).
    private func sendMembers(in code: String) {
        guard let rehearsal = rehearsals[code], rehearsal.membersPending == nil else { return }
        let now = ContinuousClock.now
        if let last = rehearsal.membersSent, now - last < limits.membersInterval {
            let wait = limits.membersInterval - (now - last)
            rehearsals[code]?.membersPending = Task { [weak self] in
                try? await Task.sleep(for: wait)
                guard !Task.isCancelled else { return }
                await self?.sendPendingMembers(in: code)
            }
            return
        }
        sendMembersNow(in: code)
    }

    private func sendPendingMembers(in code: String) {
        rehearsals[code]?.membersPending = nil
        sendMembersNow(in: code)
    }

    private func sendMembersNow(in code: String) {
        guard var rehearsal = rehearsals[code], let leader = rehearsal.leaderID else { return }
        rehearsal.membersSent = .now
        var list: [[String: Any]] = []
        for id in rehearsal.order {
            guard let member = rehearsal.members[id] else { continue }
            var info = member.info
            if id != leader {
                let choice = self.choice(for: member, in: &rehearsal)
                info.part = choice?.part.path
                info.fit = choice?.fit
            }
            var entry: [String: Any] = ["id": info.id, "name": info.name, "leader": info.leader, "attached": info.attached,
                                        "connected": info.connected]
            entry["instrument"] = info.instrument
            entry["part"] = info.part
            entry["fit"] = info.fit?.rawValue
            list.append(entry)
        }
        rehearsals[code] = rehearsal
        send(["type": "members", "members": list], to: leader, in: code)
    }

    /// The part a player is shown of the current piece, looked up once per piece and instrument.
    private func choice(for member: Member, in rehearsal: inout Rehearsal) -> PartChoice? {
        if let known = rehearsal.choices[member.choiceKey] { return known }
        let choice = try? catalog.part(forScore: rehearsal.position.score, player: member.player)
        rehearsal.choices[member.choiceKey] = choice
        return choice
    }

    /// Players with the same key are shown the same part.
    static func choiceKey(_ player: PartLabel?) -> String {
        player.map { PartName.key($0.written) } ?? ""
    }

    /// The leader's score's title as the catalog has it, for the followers' header (nil when the
    /// score is gone: the piece's name from its parts still shows).
    private func title(of score: Int64) -> String? {
        try? ScoreService.entry(score, in: catalog).title
    }

    private func pieceParts(_ score: Int64) throws(LibraryError) -> PieceParts {
        do { return try catalog.parts(ofScore: score) } catch {
            throw (error as? LibraryError) ?? LibraryError(.internal, (error as? any Failure)?.message ?? "\(error)")
        }
    }

    private func find(_ code: String) throws(LibraryError) -> Rehearsal {
        guard let rehearsal = rehearsals[Self.normalized(code)] else {
            throw LibraryError(.notFound, "no rehearsal \(code.prefix(12)) (it may have ended)")
        }
        return rehearsal
    }

    private static func player(_ instrument: String?) throws(LibraryError) -> PartLabel? {
        guard let instrument, !instrument.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard let label = PartLabel(userLabel: instrument) else {
            throw LibraryError(.invalidArgument, "an instrument has 1 to \(PartLabel.maxLength) characters without control characters")
        }
        return label
    }

    static func json(_ object: [String: Any]) -> String {
        (try? JSONCoding.text(object: object)) ?? "{}"
    }

    /// Codes are six letters and digits that cannot be mistaken for each other (no 0/O, 1/I).
    static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }

    /// A code as typed: upper case, without spaces or dashes.
    public static func normalized(_ code: String) -> String {
        String(code.uppercased().filter { $0 != " " && $0 != "-" }.prefix(16))
    }

    struct Member {
        var info: RehearsalMember
        /// What the player plays, and the key of the part they are shown (``choiceKey(_:)``),
        /// folded once here rather than for every move.
        var player: PartLabel? { didSet { choiceKey = RehearsalService.choiceKey(player) } }
        private(set) var choiceKey = ""
        var connection: UInt64?
        var outbox: AsyncStream<String>.Continuation?
        var rate: MessageRate
        /// Frees the slot when the grace after a closed connection has passed.
        var leaving: Task<Void, Never>?
    }

    struct Rehearsal {
        let code: String
        var key: String
        var leaderName: String
        var position: RehearsalPosition
        var song: String?
        /// The leader's score's title (see ``title(of:)``).
        var title: String?
        var leaderID: String?
        var members: [String: Member] = [:]
        var order: [String] = []
        var choices: [String: PartChoice?] = [:]
        var sequence = 0
        var ending: Task<Void, Never>?
        /// The address that started it (see ``Limits/perClient``).
        let client: String
        /// When the leader was last sent the member list, and the send waiting for the interval.
        var membersSent: ContinuousClock.Instant?
        var membersPending: Task<Void, Never>?

        init(code: String, key: String, leaderName: String, position: RehearsalPosition, song: String?, client: String) {
            self.client = client
            self.code = code
            self.key = key
            self.leaderName = leaderName
            self.position = position
            self.song = song
        }
    }
}
