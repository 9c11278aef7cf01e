#if canImport(Glibc)
import Glibc
#endif
@testable import FolioLibrary
import FolioScore
import Foundation
import XCTest

/// A scan's listing (folders read in parallel with `readdir` and `fstatat`) finds what a
/// plain walk of the folder with `FileManager` and `lstat` finds: the same PDFs and audio
/// files with the same sizes and times, in the same order, hidden names and symbolic links
/// left out, Czech, Greek and Japanese names as they are, a name that is not UTF-8 skipped.
final class FolderListingTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-listing-\(UUID().uuidString)")
        var files = ["Dvořák - Rusalka.pdf", "Janáček/Jenůfa.pdf", "Janáček/1. jednání/Ουβερτούρα.PDF",
                     "武満徹/雨の樹.pdf", "Janáček/notes.txt", "Audio/Rusalka – Měsíčku.m4a", "Audio/cover.jpg",
                     ".hidden.pdf", ".skryté/skryté.pdf", "Janáček/.Jenůfa.pdf.folio-journal",
                     "Dvor\u{030C}a\u{0301}k/Te\u{0301}ma.pdf"]
        // Enough folders that both cores take some, nested three deep.
        for shelf in 0..<24 {
            files += ["Police \(shelf)/Skladba \(shelf).pdf", "Police \(shelf)/Krabice/Βιβλίο \(shelf).pdf",
                      "Police \(shelf)/Krabice/Víko/楽譜 \(shelf).pdf"]
        }
        for (index, file) in files.enumerated() {
            let url = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: UInt8(index % 256), count: index * 37).write(to: url)
        }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("odkaz.pdf").path,
                                                   withDestinationPath: folder.appendingPathComponent("Dvořák - Rusalka.pdf").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("Odkaz na složku").path,
                                                   withDestinationPath: folder.appendingPathComponent("Janáček").path)
        // A name whose bytes are not UTF-8: it cannot be named as decoded, so it is left out.
        let raw = (Array(folder.path.utf8) + Array("/bad ".utf8) + [0xFF] + Array(".pdf".utf8) + [0]).map { CChar(bitPattern: $0) }
        let descriptor = open(raw, O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testTheListingIsWhatAPlainWalkFinds() throws {
        let listed = try LibraryScanner.files(in: folder.path)
        let walked = try walk(folder.path)
        XCTAssertEqual(listed.scores.map(\.path), walked.scores.map(\.path))
        XCTAssertEqual(listed.scores, walked.scores)
        XCTAssertEqual(listed.audio, walked.audio)
        XCTAssertEqual(listed.scores.count, 5 + 72, "Rusalka, Janáček's two, Takemitsu, the decomposed name, 72 shelved")
        XCTAssertTrue(listed.scores.contains { $0.path == "Janáček/1. jednání/Ουβερτούρα.PDF" })
        XCTAssertTrue(listed.scores.contains { $0.path.utf8.elementsEqual("Dvor\u{030C}a\u{0301}k/Te\u{0301}ma.pdf".utf8) },
                      "a decomposed name is listed as its bytes are")
        XCTAssertFalse(listed.scores.contains { $0.path.hasPrefix(".") || $0.path.contains("/.") || $0.path.hasPrefix("Odkaz") },
                       "hidden names and links are left out")
        XCTAssertFalse(listed.scores.contains { $0.path.hasPrefix("bad") })
        XCTAssertEqual(listed.audio.map(\.path), ["Audio/Rusalka – Měsíčku.m4a"])
    }

    func testAFolderThatCannotBeListedIsAClearError() {
        XCTAssertThrowsError(try LibraryScanner.files(in: folder.appendingPathComponent("Není zde").path)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .io)
            XCTAssertTrue("\(error)".contains("cannot list"), "\(error)")
        }
    }

    /// The reference: every folder listed with FileManager, every entry stated by its full path.
    private func walk(_ root: String) throws -> (scores: [FileStamp], audio: [FileStamp]) {
        var scores: [FileStamp] = [], audio: [FileStamp] = []
        var pending = [""]
        while let relative = pending.popLast() {
            for name in try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? root : root + "/" + relative)
            where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(root + "/" + path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    pending.append(path)
                } else if info.st_mode & S_IFMT == S_IFREG, name.lowercased().hasSuffix(".pdf") {
                    scores.append(FileStamp(path: path, info: info))
                } else if info.st_mode & S_IFMT == S_IFREG, AudioKind.isCandidate(name) {
                    audio.append(FileStamp(path: path, info: info))
                }
            }
        }
        return (scores.sorted { $0.path < $1.path }, audio.sorted { $0.path < $1.path })
    }
}
