/// Unsaved edits of a document.
struct ChangeSet {
    /// Replaced and new objects by number.
    var objects: [Int: PDFObject] = [:]
    var deleted: Set<Int> = []
    /// Trailer entries set (or removed) by the edit.
    var trailer = PDFDictionary()
    var removedTrailerKeys: Set<String> = []
    /// Highest object number handed out for new objects.
    var highestNew = 0

    var isEmpty: Bool { objects.isEmpty && deleted.isEmpty && trailer.isEmpty && removedTrailerKeys.isEmpty }
}

/// Editing: every change is tracked, so an incremental save writes exactly what changed.
///
/// ```swift
/// let doc = try PDFDocument(path: "score.pdf")
/// try doc.setInfo("Title", to: "Clair de Lune")
/// try PDFSaver.save(doc, incrementallyTo: "score.pdf")
/// ```
extension PDFDocument {
    /// Whether anything was changed since opening.
    public var hasChanges: Bool { !changes.isEmpty }

    /// Numbers of the objects replaced or added, sorted.
    public var changedObjectNumbers: [Int] { changes.objects.keys.sorted() }

    /// Replaces (or defines) the object `reference` points to.
    public func replace(_ reference: PDFReference, with object: PDFObject) {
        changes.objects[reference.number] = object
        changes.deleted.remove(reference.number)
    }

    /// Adds a new object under the next free number and returns its reference.
    public func add(_ object: PDFObject) -> PDFReference {
        let number = max(xref.size, changes.highestNew + 1, (changes.objects.keys.max() ?? 0) + 1)
        changes.highestNew = number
        changes.objects[number] = object
        return PDFReference(number: number)
    }

    /// Deletes an object (it becomes a free entry; references to it read as null).
    public func delete(_ reference: PDFReference) {
        changes.objects[reference.number] = nil
        changes.deleted.insert(reference.number)
    }

    /// Stores a changed catalog: in place when it is an object, else (a catalog written
    /// directly in the trailer of a damaged file) as a new object.
    func setCatalog(_ catalog: PDFDictionary) {
        if case .reference(let root)? = trailer["Root"] {
            replace(root, with: .dictionary(catalog))
        } else {
            setTrailer("Root", .reference(add(.dictionary(catalog))))
        }
    }

    /// Sets (or with nil removes) a trailer entry.
    public func setTrailer(_ key: String, _ value: PDFObject?) {
        if let value {
            changes.trailer[key] = value
            changes.removedTrailerKeys.remove(key)
        } else {
            changes.trailer[key] = nil
            changes.removedTrailerKeys.insert(key)
        }
    }

    /// Replaces a stream's data, Flate-compressing it unless `compress` is false. The
    /// dictionary keeps its other keys; /DecodeParms goes (it described the old data).
    public func setStreamData(_ reference: PDFReference, _ data: [UInt8], compress: Bool = true) throws {
        guard case .stream(var stream) = object(reference) else {
            throw PDFError(.invalidArgument, "object \(reference.number) is not a stream", object: reference)
        }
        stream.dictionary["DecodeParms"] = nil
        if compress {
            stream.dictionary["Filter"] = .name("FlateDecode")
            stream.encodedData = try FlateFilter.encode(data)
        } else {
            stream.dictionary["Filter"] = nil
            stream.encodedData = data
        }
        stream.dictionary["Length"] = .integer(stream.encodedData.count)
        replace(reference, with: .stream(stream))
    }

    /// Sets a text entry of the Info dictionary (creating the dictionary when the file
    /// has none); nil removes the entry. Text is written as ASCII or UTF-16BE with BOM.
    public func setInfo(_ key: String, to value: String?) throws {
        var info = infoDictionary ?? PDFDictionary()
        if infoIsShared {
            // Damaged files point /Info at the page tree or the AcroForm dictionary: the
            // edit goes to a new Info object that keeps only the text entries.
            var own = PDFDictionary()
            for (entryKey, entry) in info.entries where entryKey == "Trapped" || resolve(entry).stringValue != nil {
                own[entryKey] = resolve(entry)
            }
            info = own
        }
        info[key] = value.map { .string(PDFString(PDFTextString.encode($0))) }
        try setInfoDictionary(info)
    }

    /// Replaces the whole Info dictionary, in place when it is an indirect object of its own.
    public func setInfoDictionary(_ info: PDFDictionary) throws {
        if case .reference(let reference)? = trailer["Info"], !infoIsShared {
            replace(reference, with: .dictionary(info))
        } else {
            let reference = add(.dictionary(info))
            setTrailer("Info", .reference(reference))
        }
    }

    /// Whether /Info points at an object that is something else too: one with a /Type
    /// (Info has none), the catalog, or an object the catalog refers to directly.
    var infoIsShared: Bool {
        guard case .reference(let reference)? = trailer["Info"] else { return false }
        if dictionary(trailer["Info"])?["Type"] != nil { return true }
        if case .reference(let root)? = trailer["Root"], root.number == reference.number { return true }
        return catalog?.entries.contains { _, value in
            if case .reference(let target) = value { return target.number == reference.number }
            return false
        } ?? false
    }
}

extension PDFDocument {
    /// Stores `packet` as the document's XMP metadata: the catalog's /Metadata stream is
    /// replaced under its own number, or a new one is added and the catalog points to it.
    /// The stream is written unfiltered with `/Type /Metadata /Subtype /XML`, as PDF/A
    /// requires and as tools that scan files for packets expect. A document without a
    /// catalog dictionary cannot hold one: that throws.
    public func setMetadataPacket(_ packet: [UInt8]) throws {
        guard var catalog = catalog else {
            throw PDFError(.damaged, "the document has no catalog dictionary to attach XMP metadata to")
        }
        var dictionary = PDFDictionary()
        if case .reference(let existing)? = catalog["Metadata"], case .stream(let old) = object(existing) {
            // Keep whatever else the old stream's dictionary says; its filters described the old data.
            for (key, value) in old.dictionary.entries
            where !["Filter", "DecodeParms", "Length", "DL", "F", "FFilter", "FDecodeParms"].contains(key) {
                dictionary[key] = value
            }
            dictionary["Type"] = .name("Metadata")
            dictionary["Subtype"] = .name("XML")
            replace(existing, with: .stream(PDFStream(dictionary: dictionary, encodedData: packet)))
            return
        }
        dictionary["Type"] = .name("Metadata")
        dictionary["Subtype"] = .name("XML")
        let reference = add(.stream(PDFStream(dictionary: dictionary, encodedData: packet)))
        catalog["Metadata"] = .reference(reference)
        setCatalog(catalog)
    }
}
