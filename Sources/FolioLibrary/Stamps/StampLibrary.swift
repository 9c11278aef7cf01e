import FolioPDF
import FolioScore
import Foundation

/// The user's own stamps — PNG (transparency kept) and JPEG images, as forScore's Stamps
/// panel takes them — kept in the library beside the catalog (`.folio/stamps`), each under
/// a name of the user's: added once, then placed as often as wanted (`ImageStamp`).
///
/// ```swift
/// let stamps = StampLibrary(folder: "/scores")
/// let stamp = try stamps.add(name: "Dirigent", bytes: png)
/// var request = AnnotationRequest(kind: .stamp, page: 1)
/// request.image = try stamps.bytes(of: stamp.name)
/// ```
public struct StampLibrary: Sendable {
    /// One kept stamp.
    ///
    /// ```swift
    /// for stamp in try StampLibrary(folder: "/scores").list() { print(stamp.name, stamp.width, stamp.height) }
    /// ```
    public struct Stamp: Sendable, Equatable, Codable {
        public var name: String
        /// "png" or "jpeg".
        public var format: String
        public var width: Int
        public var height: Int

        public init(name: String, format: String, width: Int, height: Int) {
            self.name = name
            self.format = format
            self.width = width
            self.height = height
        }
    }

    /// The folder the stamps are kept in.
    public let directory: String
    /// The most stamps kept.
    public static let maxStamps = 500

    public init(folder: String) {
        directory = (folder as NSString).appendingPathComponent(".folio/stamps")
    }

    /// Keeps the image `bytes` as the stamp `name` (checked: a JPEG or PNG of at most
    /// `ImageStamp.maxPixels`); an existing stamp of that name is replaced. Throws
    /// `ScoreError` for the image, `LibraryError` `.invalidArgument` for the name.
    @discardableResult
    public func add(name: String, bytes: [UInt8]) throws -> Stamp {
        let name = try Self.checked(name)
        let image = try ImageStamp.prepared(bytes)
        // Counted by their files: the images themselves need not be opened to count them.
        let existing = kept()
        guard existing.count < Self.maxStamps || existing.contains(where: { $0.name == name }) else {
            throw LibraryError(.invalidArgument, "the library keeps \(Self.maxStamps) stamps (valid: up to \(Self.maxStamps)); remove one first")
        }
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw LibraryError(.io, "cannot create \(directory): \(error.localizedDescription)")
        }
        let format = image.format == .png ? "png" : "jpeg"
        for other in ["png", "jpeg"] where other != format { try? FileManager.default.removeItem(atPath: file(name, other)) }
        do { try SafeFile.write(to: file(name, format), bytes: bytes) } catch {
            throw LibraryError(.io, "cannot write the stamp \(name): \(error)")
        }
        return Stamp(name: name, format: format, width: image.width, height: image.height)
    }

    /// The kept stamps, by name.
    public func list() throws -> [Stamp] {
        kept().compactMap { stamp in
            guard let data = FileManager.default.contents(atPath: file(stamp.name, stamp.format)),
                  let image = try? ImageStamp.prepared(Array(data)) else { return nil }
            return Stamp(name: stamp.name, format: stamp.format, width: image.width, height: image.height)
        }
    }

    /// The stamps' files in the folder, by name: not hidden, ending in .png or .jpeg.
    private func kept() -> [(name: String, format: String)] {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return files.sorted().compactMap { file in
            let format = (file as NSString).pathExtension, name = (file as NSString).deletingPathExtension
            return ["png", "jpeg"].contains(format) && name.unicodeScalars.first != "." ? (name, format) : nil
        }
    }

    /// The image of the stamp `name`, and its format ("png" or "jpeg").
    public func image(of name: String) throws -> (bytes: [UInt8], format: String) {
        let name = try Self.checked(name)
        for format in ["png", "jpeg"] {
            if let data = FileManager.default.contents(atPath: file(name, format)) { return (Array(data), format) }
        }
        throw LibraryError(.notFound, "no stamp named \(name)")
    }

    /// The bytes of the stamp `name`.
    public func bytes(of name: String) throws -> [UInt8] {
        try image(of: name).bytes
    }

    /// Removes the stamp `name`; the marks already placed keep their picture.
    public func remove(_ name: String) throws {
        let name = try Self.checked(name)
        var removed = false
        for format in ["png", "jpeg"] where FileManager.default.fileExists(atPath: file(name, format)) {
            do { try FileManager.default.removeItem(atPath: file(name, format)) } catch {
                throw LibraryError(.io, "cannot remove the stamp \(name): \(error.localizedDescription)")
            }
            removed = true
        }
        guard removed else { throw LibraryError(.notFound, "no stamp named \(name)") }
    }

    private func file(_ name: String, _ format: String) -> String {
        (directory as NSString).appendingPathComponent("\(name).\(format)")
    }

    /// A stamp's name in composed form: 1 to 100 characters and at most 200 bytes (a file
    /// name and its temporary sibling stay within 255), no folders, not hidden, no control
    /// characters.
    static func checked(_ name: String) throws -> String {
        let name = name.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100, name.utf8.count <= 200, name.unicodeScalars.first != ".",
              !name.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" || $0 == ":" }),
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        else {
            throw LibraryError(.invalidArgument, "a stamp's name is 1 to 100 characters (at most 200 bytes) without /, \\, :, control characters or a leading dot")
        }
        return name
    }
}
