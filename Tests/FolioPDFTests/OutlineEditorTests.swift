import Foundation
import XCTest

@testable import FolioPDF

/// Single-entry outline edits: only changed objects are written, keys Folio does not
/// manage survive, and after any sequence of edits the links and counts of the written
/// tree are right (checked on the raw dictionaries, against an independent model).
final class OutlineEditorTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-outline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Four pages; outline: Sonata (open: Allegro, Adagio), Etude, Coda (closed: Trio).
    /// Allegro carries a structure element and a /FitH destination Folio must keep.
    private func book(loop: Bool = false) throws -> String {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R /Outlines 3 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R 13 0 R] /Count 4 >>")
        builder.add(3, "<< /Type /Outlines /First 4 0 R /Last 8 0 R /Count 5 >>")
        builder.add(4, "<< /Title (Sonata) /Parent 3 0 R /Next 7 0 R /First 5 0 R /Last 6 0 R /Count 2 /Dest [10 0 R /Fit] >>")
        builder.add(5, "<< /Title (Allegro) /Parent 4 0 R /Next 6 0 R /Dest [10 0 R /FitH 700] /SE 20 0 R >>")
        builder.add(6, "<< /Title (Adagio) /Parent 4 0 R /Prev 5 0 R /Dest [11 0 R /XYZ null null null] >>")
        builder.add(7, "<< /Title (Etude) /Parent 3 0 R /Prev 4 0 R /Next 8 0 R /A << /S /GoTo /D [12 0 R /Fit] >> >>")
        let next = loop ? "/Next 4 0 R" : ""
        builder.add(8, "<< /Title (Coda) /Parent 3 0 R /Prev 7 0 R /First 9 0 R /Last 9 0 R /Count -1 /Dest [13 0 R /Fit] \(next) >>")
        builder.add(9, "<< /Title (Trio) /Parent 8 0 R /Dest [13 0 R /Fit] >>")
        for number in 10...13 {
            builder.add(number, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
        }
        builder.add(20, "<< /Type /StructElem /S /Sect >>")
        let path = directory.appendingPathComponent("book-\(UUID().uuidString).pdf").path
        try Data(builder.classic(trailer: "/Root 1 0 R")).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func path(_ text: String) throws -> PDFOutlinePath {
        try XCTUnwrap(PDFOutlinePath(text))
    }

    func testPathsParseAndPrint() throws {
        XCTAssertEqual(PDFOutlinePath("2.1")?.indices, [1, 0])
        XCTAssertEqual(PDFOutlinePath("2.1")?.description, "2.1")
        XCTAssertEqual(PDFOutlinePath("2.1")?.parent?.description, "2")
        XCTAssertNil(PDFOutlinePath("2")?.parent)
        for bad in ["", "0", "1.", ".1", "a", "1.-2", "1..2"] { XCTAssertNil(PDFOutlinePath(bad), bad) }
    }

    /// Several entries taken out at once, named as the outline was: an entry whose parent
    /// also goes is taken with it, and a path that names nothing changes nothing.
    func testSeveralEntriesAreRemovedAtOnce() throws {
        let document = try PDFDocument(path: try book())
        XCTAssertTrue(try path("1").isAncestor(of: try path("1.2")))
        XCTAssertFalse(try path("1.2").isAncestor(of: try path("1")))
        XCTAssertFalse(try path("1").isAncestor(of: try path("1")))
        XCTAssertThrowsError(try document.editOutline { try $0.remove(at: [try self.path("2"), try self.path("9")]) })
        XCTAssertEqual(document.outline().map(\.title), ["Sonata", "Etude", "Coda"], "refused whole")
        try document.editOutline { try $0.remove(at: [try self.path("1.2"), try self.path("3"), try self.path("1"), try self.path("3.1")]) }
        XCTAssertEqual(document.outline().map(\.title), ["Etude"])
    }

    func testRenameWritesOneObjectAndKeepsWhatFolioDoesNotManage() throws {
        let file = try book()
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let document = try PDFDocument(path: file)
        try document.editOutline { try $0.setTitle("Allegro con brio — «I»", at: try path("1.1")) }
        XCTAssertEqual(document.changedObjectNumbers, [5], "a rename replaces the entry's object only")
        try PDFSaver.saveIncrementally(document)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)).prefix(original.count), original)

        let reread = try PDFDocument(path: file)
        XCTAssertEqual(reread.outline().first?.children.first?.title, "Allegro con brio — «I»")
        let entry = try XCTUnwrap(reread.object(PDFReference(number: 5)).dictionaryValue)
        XCTAssertEqual(entry["SE"], .reference(PDFReference(number: 20)))
        XCTAssertEqual(reread.resolve(entry["Dest"]).arrayValue?.dropFirst().first, .name("FitH"))
    }

    func testRetargetReplacesTheOldDestinationOrAction() throws {
        let document = try PDFDocument(path: try book())
        try document.editOutline { outline in
            try outline.setTarget(.uri("forscore://open?title=Etude"), at: try path("2"))
            try outline.setTarget(.page(index: 3), at: try path("1"))
            try outline.setTarget(nil, at: try path("3.1"))
        }
        XCTAssertEqual(document.changedObjectNumbers, [4, 7, 9])
        let entry = try XCTUnwrap(document.object(PDFReference(number: 7)).dictionaryValue)
        XCTAssertNil(entry["Dest"])
        XCTAssertEqual(document.dictionary(entry["A"])?["S"], .name("URI"))
        let outline = document.outline()
        XCTAssertEqual(outline.map(\.target), [.page(index: 3), .uri("forscore://open?title=Etude"), .page(index: 3)])
        XCTAssertNil(outline[2].children[0].target)
        XCTAssertThrowsError(try document.editOutline { try $0.setTarget(.page(index: 4), at: try path("1")) }) { error in
            XCTAssertTrue("\(error)".contains("page 5, out of range (valid: 1 to 4)"), "\(error)")
        }
    }

    func testRefusedEditsChangeNothing() throws {
        let document = try PDFDocument(path: try book())
        let cases: [(String, (inout PDFOutlineEditor) throws -> Void)] = [
            ("into itself", { try $0.move(try self.path("1"), to: .lastChild(of: try self.path("1.2"))) }),
            ("no entry 4", { try $0.remove(at: try self.path("4")) }),
            ("no entry 1.3", { try $0.setTitle("x", at: try self.path("1.3")) }),
            ("first at its level", { try $0.nest(at: try self.path("1")) }),
            ("already at the top", { try $0.unnest(at: try self.path("2")) }),
            ("no entry 2.1", { try $0.insert(PDFOutlineItem(title: "x"), .before(try self.path("2.1"))) }),
        ]
        for (expected, edit) in cases {
            XCTAssertThrowsError(try document.editOutline(edit), expected) { error in
                XCTAssertEqual((error as? PDFError)?.code, .invalidArgument)
            }
            XCTAssertFalse(document.hasChanges, expected)
        }
    }

    func testALoopIsCutAndTheWrittenTreeIsSound() throws {
        let file = try book(loop: true)
        let document = try PDFDocument(path: file)
        XCTAssertEqual(document.outline().map(\.title), ["Sonata", "Etude", "Coda"])
        try document.editOutline { _ = try $0.insert(PDFOutlineItem(title: "Fine", target: .page(index: 3)), .lastChild(of: nil)) }
        try PDFSaver.saveIncrementally(document)
        let reread = try PDFDocument(path: file)
        XCTAssertEqual(reread.outline().map(\.title), ["Sonata", "Etude", "Coda", "Fine"])
        try assertSound(reread)
    }

    func testEmptyingAndCreatingAnOutline() throws {
        let file = try book()
        let document = try PDFDocument(path: file)
        try document.editOutline { outline in
            for _ in 0..<3 { try outline.remove(at: try path("1")) }
        }
        try PDFSaver.saveIncrementally(document)
        var reread = try PDFDocument(path: file)
        XCTAssertNil(reread.catalog?["Outlines"], "an empty outline goes from the catalog")
        XCTAssertEqual(reread.outline(), [])
        try reread.editOutline { _ = try $0.insert(PDFOutlineItem(title: "Sonata", target: .page(index: 0)), .firstChild(of: nil)) }
        try PDFSaver.saveIncrementally(reread)
        reread = try PDFDocument(path: file)
        XCTAssertEqual(reread.outline().map(\.title), ["Sonata"])
        try assertSound(reread)
    }

    /// Random edits, each saved and read again, against a model of titles: the tree Folio
    /// reads back equals the model's and every link and count is right.
    func testRandomEditSequencesKeepTheTreeSound() throws {
        var random = SplitMix(seed: 2026)
        for round in 0..<6 {
            let file = try book()
            var model = Model.from(try PDFDocument(path: file).outline())
            var made = 0
            for step in 0..<25 {
                let document = try PDFDocument(path: file)
                let paths = model.paths()
                func anyPath() -> [Int] { paths[random.next(paths.count)] }
                func anyPosition() -> (PDFOutlinePosition, Model.Position) {
                    if paths.isEmpty || random.next(5) == 0 { return (.lastChild(of: nil), .lastChild(nil)) }
                    let anchor = anyPath()
                    let outlinePath = PDFOutlinePath(indices: anchor)
                    let title = model.title(at: anchor)
                    switch random.next(4) {
                    case 0: return (.before(outlinePath!), .before(title))
                    case 1: return (.after(outlinePath!), .after(title))
                    case 2: return (.firstChild(of: outlinePath), .firstChild(title))
                    default: return (.lastChild(of: outlinePath), .lastChild(title))
                    }
                }
                let operation = paths.isEmpty ? 0 : random.next(7)
                let label = "round \(round) step \(step) op \(operation)"
                var expectError = false
                switch operation {
                case 0:
                    made += 1
                    let title = "New \(round).\(made)"
                    let (position, modelPosition) = anyPosition()
                    try document.editOutline { _ = try $0.insert(PDFOutlineItem(title: title, target: .page(index: random.next(4))), position) }
                    model.insert(Model(title: title), at: modelPosition)
                case 1:
                    let victim = anyPath()
                    try document.editOutline { try $0.remove(at: PDFOutlinePath(indices: victim)!) }
                    model.remove(at: victim)
                case 2:
                    let moving = anyPath()
                    let (position, modelPosition) = anyPosition()
                    let title = model.title(at: moving)
                    expectError = model.isInside(modelPosition, subtreeOf: title)
                    do {
                        try document.editOutline { _ = try $0.move(PDFOutlinePath(indices: moving)!, to: position) }
                        XCTAssertFalse(expectError, "\(label): moving \(title) into itself was accepted")
                        model.move(title, to: modelPosition)
                    } catch let error as PDFError {
                        XCTAssertTrue(expectError, "\(label): \(error)")
                    }
                case 3:
                    let entry = anyPath()
                    do {
                        try document.editOutline { _ = try $0.nest(at: PDFOutlinePath(indices: entry)!) }
                        XCTAssertGreaterThan(entry.last ?? 0, 0, label)
                        var previous = entry
                        previous[previous.count - 1] -= 1
                        model.move(model.title(at: entry), to: .lastChild(model.title(at: previous)))
                    } catch is PDFError {
                        XCTAssertEqual(entry.last, 0, label)
                    }
                case 4:
                    let entry = anyPath()
                    do {
                        try document.editOutline { _ = try $0.unnest(at: PDFOutlinePath(indices: entry)!) }
                        model.move(model.title(at: entry), to: .after(model.title(at: Array(entry.dropLast()))))
                    } catch is PDFError {
                        XCTAssertEqual(entry.count, 1, label)
                    }
                case 5:
                    let entry = anyPath()
                    let title = model.title(at: entry) + "′"
                    try document.editOutline { try $0.setTitle(title, at: PDFOutlinePath(indices: entry)!) }
                    model.rename(at: entry, to: title)
                default:
                    let entry = anyPath()
                    let open = random.next(2) == 0
                    try document.editOutline { try $0.setOpen(open, at: PDFOutlinePath(indices: entry)!) }
                    model.setOpen(open, at: entry)
                }
                try PDFSaver.saveIncrementally(document)
                // Only /Count says an entry is open, and a childless entry has none.
                model.forgetOpenStateOfChildless()
                let reread = try PDFDocument(path: file)
                XCTAssertEqual(Model.from(reread.outline()), model, label)
                try assertSound(reread, label)
                XCTAssertEqual(reread.warnings.filter { $0.message.contains("outline") }.map(\.message), [], label)
            }
        }
    }

    /// Checks the raw outline dictionaries: /Parent, /Prev, /Next, /First, /Last agree,
    /// and every /Count is ± the entries visible below.
    private func assertSound(_ document: PDFDocument, _ label: String = "", file: StaticString = #filePath,
                             line: UInt = #line) throws {
        guard case .reference(let root)? = document.catalog?["Outlines"] else {
            // Only an outline emptied by the edits goes from the catalog.
            return XCTAssertEqual(document.outline(), [], "no outline root object \(label)", file: file, line: line)
        }
        /// Returns the visible count below `parent` (if it were open) after checking its children.
        func check(_ parent: PDFReference, _ dictionary: PDFDictionary, depth: Int) throws -> Int {
            guard depth < 50 else { throw PDFError(.damaged, "too deep") }
            var children: [PDFReference] = []
            var next = dictionary["First"]
            var previous: PDFReference?
            while case .reference(let current)? = next {
                let item = try XCTUnwrap(document.object(current).dictionaryValue, label, file: file, line: line)
                XCTAssertEqual(item["Parent"], .reference(parent), "\(label): parent of \(current.number)", file: file, line: line)
                XCTAssertEqual(item["Prev"], previous.map { .reference($0) }, "\(label): prev of \(current.number)", file: file, line: line)
                children.append(current)
                previous = current
                next = item["Next"]
                guard children.count < 1000 else { throw PDFError(.damaged, "loop") }
            }
            XCTAssertEqual(dictionary["Last"], children.last.map { .reference($0) }, "\(label): last of \(parent.number)", file: file, line: line)
            var visible = 0
            for child in children {
                let item = try XCTUnwrap(document.object(child).dictionaryValue)
                let below = try check(child, item, depth: depth + 1)
                let count = item["Count"]?.intValue
                if below == 0 {
                    XCTAssertNil(count, "\(label): childless \(child.number) has a count", file: file, line: line)
                } else {
                    XCTAssertEqual(abs(count ?? 0), below, "\(label): count of \(child.number)", file: file, line: line)
                }
                visible += 1 + ((count ?? 0) > 0 ? below : 0)
            }
            return visible
        }
        let rootDictionary = try XCTUnwrap(document.object(root).dictionaryValue)
        let visible = try check(root, rootDictionary, depth: 0)
        XCTAssertEqual(rootDictionary["Count"]?.intValue ?? 0, visible, "\(label): root count", file: file, line: line)
    }
}

/// The test's own picture of an outline: titles (unique in these tests) and open state.
private struct Model: Equatable {
    var title: String
    var open = false
    var children: [Model] = []

    enum Position {
        case before(String), after(String), firstChild(String), lastChild(String?)
    }

    static func from(_ items: [PDFOutlineItem]) -> Model {
        Model(title: "", open: true, children: items.map { item in
            var node = from(item.children)
            node.title = item.title
            node.open = item.isOpen
            return node
        })
    }

    func paths(_ prefix: [Int] = []) -> [[Int]] {
        children.indices.flatMap { [prefix + [$0]] + children[$0].paths(prefix + [$0]) }
    }

    func node(at path: [Int]) -> Model {
        path.reduce(self) { $0.children[$1] }
    }

    func title(at path: [Int]) -> String { node(at: path).title }

    func find(_ title: String, _ prefix: [Int] = []) -> [Int]? {
        for (index, child) in children.enumerated() {
            if child.title == title { return prefix + [index] }
            if let found = child.find(title, prefix + [index]) { return found }
        }
        return nil
    }

    mutating func change(at path: [Int], _ body: (inout Model) -> Void) {
        if path.isEmpty { return body(&self) }
        children[path[0]].change(at: Array(path.dropFirst()), body)
    }

    mutating func remove(at path: [Int]) {
        guard let last = path.last else { return }
        change(at: Array(path.dropLast())) { $0.children.remove(at: last) }
    }

    mutating func forgetOpenStateOfChildless() {
        for index in children.indices {
            if children[index].children.isEmpty { children[index].open = false }
            children[index].forgetOpenStateOfChildless()
        }
    }

    mutating func rename(at path: [Int], to title: String) { change(at: path) { $0.title = title } }
    mutating func setOpen(_ open: Bool, at path: [Int]) { change(at: path) { $0.open = open } }

    mutating func insert(_ node: Model, at position: Position) {
        switch position {
        case .before(let title), .after(let title):
            guard let path = find(title), let index = path.last else { return }
            let offset: Int = if case .after = position { 1 } else { 0 }
            change(at: Array(path.dropLast())) { $0.children.insert(node, at: index + offset) }
        case .firstChild(let title):
            guard let path = find(title) else { return }
            change(at: path) { $0.children.insert(node, at: 0) }
        case .lastChild(let title):
            let path = title.flatMap { find($0) } ?? []
            change(at: path) { $0.children.append(node) }
        }
    }

    /// Positions are named by entries before the move; moving before or after itself stays put.
    mutating func move(_ title: String, to position: Position) {
        guard let from = find(title) else { return }
        let node = self.node(at: from)
        switch position {
        case .before(let anchor) where anchor == title, .after(let anchor) where anchor == title:
            return
        default:
            remove(at: from)
            insert(node, at: position)
        }
    }

    func isInside(_ position: Position, subtreeOf title: String) -> Bool {
        guard let path = find(title) else { return false }
        let subtree = node(at: path)
        let parentTitle: String?
        switch position {
        case .before(let anchor), .after(let anchor):
            guard let anchorPath = find(anchor), anchorPath.count > 1 else { return false }
            parentTitle = self.title(at: Array(anchorPath.dropLast()))
        case .firstChild(let anchor): parentTitle = anchor
        case .lastChild(let anchor): parentTitle = anchor
        }
        guard let parentTitle else { return false }
        return parentTitle == title || subtree.find(parentTitle) != nil
    }
}
