import FolioPDF
import Foundation

/// The one way a score a person named is found in the catalog, whatever the command: `library
/// show`, `undo`, a setlist's entry, a track's score, a part's source.
///
/// A name is, in this order:
/// - an existing file, absolute or relative to the folder the person is in (`../Real
///   Book/Exercises.pdf` from a subfolder, `/home/me/Scores/Schumann/Widmung.pdf` from outside):
///   the file inside the library it is, or refused when it lies outside;
/// - a path relative to the library (`Schumann/Widmung.pdf`), in either Unicode form;
/// - a bare file name (`Widmung.pdf`) that exactly one catalogued file has; when several have
///   it, every one is listed and the name refused as a usage error, so nothing is guessed;
/// - the score's id in the catalog (`12`), when no file is named so.
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "/home/me/Scores", create: false)
/// try catalog.scorePath(named: "Widmung.pdf", from: "/home/me/Scores/Lieder")   // "Schumann/Widmung.pdf"
/// try catalog.scorePath(named: "../Real Book/Exercises.pdf", from: "/home/me/Scores/Lieder")   // "Real Book/Exercises.pdf"
/// ```
extension LibraryCatalog {
    /// The path in the library of the catalogued score `name` names, seen from `folder` (where
    /// the person is: a relative file name is looked for there first). `.notFound` when no
    /// catalogued score has the name, `.invalidArgument` when several do or the file lies
    /// outside the library.
    public func scorePath(named name: String, from folder: String) throws -> String {
        let path = try libraryName(of: name, from: folder)
        return try storeRead { try Self.score(path, in: $0, byID: true).path }
    }

    /// What `name` is called inside the library: an existing file (absolute, or relative to
    /// `folder`) becomes its path in the library, one outside it is refused; anything else (a
    /// path in the library, a bare name, an id) is passed on as typed.
    ///
    /// ```swift
    /// try catalog.libraryName(of: "Widmung.pdf", from: "/home/me/Scores/Schumann")   // "Schumann/Widmung.pdf"
    /// ```
    public func libraryName(of name: String, from folder: String) throws -> String {
        guard !name.isEmpty, name.utf8.count < 4096, !name.utf8.contains(0) else {
            throw LibraryError(.invalidArgument, "a file's name must be 1 to 4095 bytes without NUL")
        }
        let absolute = PathName.isAbsolute(name) ? name : (folder.hasSuffix("/") ? folder : folder + "/") + name
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), !isFolder.boolValue else { return name }
        guard let relative = files.relative(absolute) else {
            throw LibraryError(.invalidArgument, "\(name) lies outside the library \(files.root) (valid: a file inside it, or --library naming its library)")
        }
        return relative
    }

    /// The catalogued score `name` names — a path relative to the library, a file name exactly
    /// one catalogued file has, or (`byID`) an id — as its id, path and title.
    static func score(_ name: String, in db: any CatalogStatements, byID: Bool = false) throws -> (id: Int64, path: String, title: String) {
        let sql = "SELECT s.id, s.path, e.title FROM score s LEFT JOIN entry e ON e.scoreId = s.id AND e.bookmark IS NULL"
        func found(_ row: CatalogRow) throws -> (id: Int64, path: String, title: String) {
            (try row.value(at: 0), try row.value(at: 1), row.optional(at: 2) ?? name)
        }
        if let row = try db.row(sql + " WHERE s.pathKey = ?", [CatalogPath.key(name)]) {
            return try found(row)
        }
        if !name.contains("/") {
            // A bare file name, compared on the folded key so either Unicode form finds it.
            let key = CatalogPath.key(name)
            let ending = db.dialect == .sqlite ? "substr(s.pathKey, -length(?) - 1)" : "right(s.pathKey, length(?) + 1)"
            let named = try db.rows(sql + """
                 WHERE length(s.pathKey) > length(?) AND \(ending) = '/' || ? ORDER BY \(db.binary("s.path"))
                """, [key, key, key])
            switch named.count {
            case 1: return try found(named[0])
            case 0: break
            default:
                let paths = try named.map { try $0.value(at: 1) as String }
                throw LibraryError(.invalidArgument, "\(name) names \(paths.count) catalogued files: "
                    + paths.prefix(12).joined(separator: ", ") + (paths.count > 12 ? ", …" : "")
                    + "; name one by its path in the library")
            }
            if byID, let id = Int64(name), id > 0, let row = try db.row(sql + " WHERE s.id = ?", [id]) {
                return try found(row)
            }
        }
        throw LibraryError(.notFound, "no catalogued score \(name) in the library (a path in it, a file name, or an id; "
            + "`folio library scan` catalogues new files)")
    }
}
