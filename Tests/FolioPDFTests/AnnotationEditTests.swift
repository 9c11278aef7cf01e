import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// Random sequences of add, edit and remove on copies of corpus files, each saved
/// incrementally and reopened, compared with a model; Links and Widgets never change.
final class AnnotationEditTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-annotedit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    struct Expected: Equatable, CustomStringConvertible {
        var page: Int
        var subtype: String
        var rect: PDFRect
        var contents: String?
        var color: String?
        var description: String { "p\(page + 1) \(subtype) \(rect.array) \(contents ?? "-") \(color ?? "-")" }
    }

    /// Corpus files to edit: the score with links, and files with form widgets that qpdf
    /// accepts and that need no password.
    private func files() throws -> [String] {
        var chosen = [TestEnvironment.annotatedScore]
        for path in try TestEnvironment.corpusPDFs() where chosen.count < 4 {
            let full = try TestEnvironment.corpusFile(path)
            guard let document = try? PDFDocument(path: full), !document.isEncrypted, document.pageCount < 50,
                  document.annotations().contains(where: { $0.subtype == "Widget" }),
                  document.pages().allSatisfy({ $0.reference != nil }),
                  try TestEnvironment.runTool("qpdf", ["--check", full]).status == 0
            else { continue }
            chosen.append(path)
        }
        return chosen
    }

    func testRandomAddEditRemoveSequencesMatchTheModel() throws {
        let kinds: [PDFAnnotationKind] = [.freeText, .square, .circle, .highlight, .underline, .strikeOut, .squiggly,
                                          .ink, .line, .note]
        var random = SplitMix(seed: 1013)
        let sources = try files()
        XCTAssertGreaterThanOrEqual(sources.count, 3, "the score and files with widgets")
        var steps = 0
        for (fileIndex, source) in sources.enumerated() {
            let path = directory.appendingPathComponent("r\(fileIndex).pdf").path
            try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile(source), toPath: path)
            let untouched = try PDFDocument(path: path).annotations().filter { !$0.isMarkup && $0.subtype != "Popup" }
            var model: [String: Expected] = [:]
            for step in 0..<25 {
                let document = try PDFDocument(path: path)
                let pages = document.pages()
                let operation = model.isEmpty ? 0 : random.next(3)
                let label = "\(source) step \(step)"
                func randomRect(_ pageIndex: Int) -> PDFRect {
                    let geometry = PDFPageGeometry(page: pages[pageIndex])
                    let (width, height) = geometry.displaySize
                    let w = Double(30 + random.next(70)), h = Double(20 + random.next(30))
                    let x = Double(random.next(max(1, Int(width - w - 20)))) + 10
                    let y = Double(random.next(max(1, Int(height - h - 20)))) + 10
                    return geometry.toUser(x: x, y: y, width: w, height: h)
                }
                switch operation {
                case 0:
                    let kind = kinds[random.next(kinds.count)]
                    let pageIndex = random.next(pages.count)
                    var draft = PDFAnnotationDraft(kind: kind)
                    let rect = randomRect(pageIndex)
                    draft.rect = rect
                    draft.quads = [rect]
                    draft.strokes = [[PDFPoint(x: rect.x1 + 3, y: rect.y1 + 3), PDFPoint(x: rect.x2 - 3, y: rect.y2 - 3),
                                      PDFPoint(x: rect.x2 - 3, y: rect.y1 + 3)]]
                    draft.points = [PDFPoint(x: rect.x1 + 10, y: rect.y1 + 10), PDFPoint(x: rect.x2 - 10, y: rect.y2 - 10)]
                    if kind == .note { draft.rect = nil }
                    draft.contents = "Step \(step): \(["cresc.", "Atem", "rit. — à tempo", "V.S."][random.next(4)])"
                    let color = PDFColor(red: Double(random.next(256)) / 255, green: Double(random.next(256)) / 255,
                                         blue: Double(random.next(256)) / 255)
                    draft.color = color
                    let added = try document.addAnnotation(draft, toPage: pageIndex)
                    model[added.id] = Expected(page: pageIndex, subtype: kind.subtype, rect: added.rect,
                                               contents: draft.contents, color: kind == .freeText ? nil : color.hex)
                case 1:
                    let id = model.keys.sorted()[random.next(model.count)]
                    var expected = try XCTUnwrap(model[id])
                    var change = PDFAnnotationChange()
                    switch random.next(4) {
                    case 0:
                        change.contents = "edited at step \(step)"
                        expected.contents = change.contents
                    case 1:
                        let color = PDFColor(red: 0, green: Double(random.next(256)) / 255, blue: 1)
                        change.color = color
                        if expected.subtype != "FreeText" { expected.color = color.hex }
                    case 2 where expected.subtype != "Text":
                        let rect = randomRect(expected.page)
                        change.rect = rect
                        expected.rect = rect
                    default:
                        change.opacity = Double(random.next(100)) / 100
                    }
                    let edited = try document.editAnnotation(id: id, change)
                    XCTAssertEqual(edited.id, id, label)
                    if change.rect == nil { expected.rect = edited.rect }
                    model[id] = expected
                default:
                    let id = model.keys.sorted()[random.next(model.count)]
                    try document.removeAnnotations(ids: [id])
                    model[id] = nil
                }
                try PDFSaver.saveIncrementally(document, to: path)
                steps += 1
                // Reopened: exactly the model, and the links and widgets as they were.
                let reopened = try PDFDocument(path: path)
                let all = reopened.annotations()
                let ours = all.filter { $0.isMarkup && $0.name != nil && model[$0.id] != nil }
                XCTAssertEqual(ours.count, model.count, "\(label): annotations Folio added")
                for item in ours {
                    let expected = try XCTUnwrap(model[item.id])
                    let actual = Expected(page: item.pageIndex, subtype: item.subtype, rect: item.rect,
                                          contents: item.contents, color: item.color?.hex)
                    XCTAssertEqual(actual.subtype, expected.subtype, label)
                    XCTAssertEqual(actual.page, expected.page, label)
                    XCTAssertEqual(actual.contents, expected.contents, label)
                    XCTAssertEqual(actual.color, expected.color, label)
                    XCTAssertTrue(zip(actual.rect.array, expected.rect.array).allSatisfy { abs($0 - $1) < 0.01 },
                                  "\(label): \(actual) vs \(expected)")
                    XCTAssertTrue(item.hasAppearance, "\(label): \(item.subtype) keeps an appearance")
                }
                let others = all.filter { !$0.isMarkup && $0.subtype != "Popup" }
                XCTAssertEqual(others.map(\.reference), untouched.map(\.reference), "\(label): links and widgets stay")
                XCTAssertTrue(zip(others, untouched).allSatisfy { $0.dictionary == $1.dictionary }, "\(label): unchanged")
                let popups = all.filter { $0.subtype == "Popup" && $0.name == nil }
                XCTAssertTrue(popups.allSatisfy { popup in
                    guard let parent = popup.parent else { return true }
                    return all.contains { $0.reference == parent } || !ours.isEmpty || model.isEmpty
                }, "\(label): no orphaned popups")
            }
            let problems = try TestEnvironment.qpdfProblems(path)
            XCTAssertEqual(problems, try TestEnvironment.qpdfProblems(try TestEnvironment.corpusFile(source)),
                           "\(source): qpdf --check after 25 saves")
        }
        XCTAssertEqual(steps, sources.count * 25)
    }

    func testRemovingANoteTakesItsPopupAndReplies() throws {
        let path = directory.appendingPathComponent("replies.pdf").path
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile(TestEnvironment.annotatedScore), toPath: path)
        let document = try PDFDocument(path: path)
        var note = PDFAnnotationDraft(kind: .note)
        note.points = [PDFPoint(x: 100, y: 700)]
        note.contents = "Which fingering?"
        let added = try document.addAnnotation(note, toPage: 0)
        let popup = try XCTUnwrap(added.popup)
        // A reply, as Acrobat writes one: a Text annotation with /IRT.
        var reply = note
        reply.contents = "4th finger"
        let answer = try document.addAnnotation(reply, toPage: 0)
        var dictionary = answer.dictionary
        dictionary["IRT"] = .reference(try XCTUnwrap(added.reference))
        document.replace(try XCTUnwrap(answer.reference), with: .dictionary(dictionary))
        let before = try document.annotations(onPage: 0).count
        let removed = try document.removeAnnotations(ids: [added.id])
        XCTAssertEqual(Set(removed), Set([added.id, "obj-\(popup.number)", answer.id, "obj-\(try XCTUnwrap(answer.popup).number)"]))
        XCTAssertEqual(try document.annotations(onPage: 0).count, before - 4)
    }
}
