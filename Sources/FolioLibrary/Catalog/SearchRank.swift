import Foundation
import GRDB
import GRDBSQLite

/// The order of a text search's matches: `folio_rank(entry_text)`, an FTS5 auxiliary
/// function registered on every connection of the catalog.
///
/// It is FTS5's own `bm25` (k1 = 1.2, b = 0.75, every column weighing 1), except that a
/// query of one phrase is not multiplied by that phrase's inverse document frequency. That
/// factor is the same for every row, so the order is bm25's, but bm25 computes it by running
/// the phrase a second time over the whole index: for a prefix that 90,000 entries of a
/// library of 100,000 scores match ("score"*) that second pass was more than half of the
/// search. In a query of several phrases each is weighed by its inverse document frequency,
/// exactly as bm25 does. Smaller is better, as with bm25.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.prepareDatabase { db in try SearchRank.register(in: db) }
/// // SELECT rowid FROM entry_text WHERE entry_text MATCH '"písn"*' ORDER BY folio_rank(entry_text)
/// ```
enum SearchRank {
    /// The SQL name of the function.
    static let name = "folio_rank"

    /// Makes `folio_rank` callable on `db`'s connection.
    static func register(in db: Database) throws {
        let api = FTS5.api(db)
        guard let create = api.pointee.xCreateFunction else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 cannot register \(name)")
        }
        let code = create(UnsafeMutablePointer(mutating: api), name, nil, rank, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "FTS5 cannot register \(name)")
        }
    }

    /// bm25's constants.
    static let k1 = 1.2, b = 0.75

    /// The function FTS5 calls for each row: bm25's sum over the phrases of the query, each
    /// phrase's hits in the row weighed against the row's length.
    private static let rank: fts5_extension_function = { api, context, result, _, _ in
        guard let api, let context else { return }
        let functions = api.pointee
        func fail(_ code: Int32) { sqlite3_result_error_code(result, code) }
        guard let phraseCount = functions.xPhraseCount?(context), phraseCount > 0 else {
            sqlite3_result_double(result, 0)
            return
        }
        // [average length, then each phrase's weight]: computed at the query's first row.
        let statistics: UnsafeMutablePointer<Double>
        if let kept = functions.xGetAuxdata?(context, 0) {
            statistics = kept.assumingMemoryBound(to: Double.self)
        } else {
            var code = SQLITE_OK
            guard let computed = Self.statistics(api, context, phrases: Int(phraseCount), code: &code) else {
                return fail(code)
            }
            code = functions.xSetAuxdata?(context, computed, sqlite3_free) ?? SQLITE_ERROR
            guard code == SQLITE_OK else { return fail(code) }  // FTS5 has freed it
            statistics = computed.assumingMemoryBound(to: Double.self)
        }
        var score = 0.0
        let code: Int32 = withUnsafeTemporaryAllocation(of: Double.self, capacity: Int(phraseCount)) { hits in
            hits.initialize(repeating: 0)
            var instances: Int32 = 0
            var code = functions.xInstCount?(context, &instances) ?? SQLITE_ERROR
            var index: Int32 = 0
            while code == SQLITE_OK, index < instances {
                var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
                code = functions.xInst?(context, index, &phrase, &column, &offset) ?? SQLITE_ERROR
                if code == SQLITE_OK, phrase >= 0, phrase < phraseCount { hits[Int(phrase)] += 1 }
                index += 1
            }
            var tokens: Int32 = 0
            if code == SQLITE_OK { code = functions.xColumnSize?(context, -1, &tokens) ?? SQLITE_ERROR }
            guard code == SQLITE_OK else { return code }
            let length = 1 - b + b * Double(tokens) / statistics[0]
            for phrase in 0..<Int(phraseCount) {
                score += statistics[1 + phrase] * ((hits[phrase] * (k1 + 1)) / (hits[phrase] + k1 * length))
            }
            return SQLITE_OK
        }
        guard code == SQLITE_OK else { return fail(code) }
        sqlite3_result_double(result, -score)
    }

    /// The average row length and each phrase's weight (1 for a query of one phrase, else
    /// its inverse document frequency as bm25 computes it), in memory from sqlite3_malloc64;
    /// nil with `code` set when FTS5 fails.
    private static func statistics(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer,
                                   phrases: Int, code: inout Int32) -> UnsafeMutableRawPointer? {
        let functions = api.pointee
        var rows: sqlite3_int64 = 0, tokens: sqlite3_int64 = 0
        code = functions.xRowCount?(context, &rows) ?? SQLITE_ERROR
        if code == SQLITE_OK { code = functions.xColumnTotalSize?(context, -1, &tokens) ?? SQLITE_ERROR }
        guard code == SQLITE_OK else { return nil }
        var weights = [Double](repeating: 1, count: phrases)
        if phrases > 1 {
            for phrase in 0..<phrases {
                var matches: sqlite3_int64 = 0
                code = functions.xQueryPhrase?(context, Int32(phrase), &matches) { _, _, count in
                    count?.assumingMemoryBound(to: sqlite3_int64.self).pointee += 1
                    return SQLITE_OK
                } ?? SQLITE_ERROR
                guard code == SQLITE_OK else { return nil }
                let idf = log((Double(rows) - Double(matches) + 0.5) / (Double(matches) + 0.5))
                weights[phrase] = idf > 0 ? idf : 1e-6
            }
        }
        guard let memory = sqlite3_malloc64(sqlite3_uint64((1 + phrases) * MemoryLayout<Double>.stride)) else {
            code = SQLITE_NOMEM
            return nil
        }
        let values = memory.bindMemory(to: Double.self, capacity: 1 + phrases)
        values[0] = rows > 0 ? Double(tokens) / Double(rows) : 1
        for phrase in 0..<phrases { values[1 + phrase] = weights[phrase] }
        return memory
    }
}
