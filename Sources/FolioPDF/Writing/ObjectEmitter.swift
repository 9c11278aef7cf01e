/// Writes indirect objects (`N G obj … endobj`), encrypting strings and stream data with
/// the document's key when the output is encrypted, and fixing every stream's /Length.
struct ObjectEmitter {
    /// The handler whose key encrypts the output; nil writes plaintext.
    let security: StandardSecurityHandler?
    /// The /Encrypt dictionary's number in the output: it is never encrypted.
    let encryptNumber: Int?

    func emit(_ object: PDFObject, as reference: PDFReference, into out: inout [UInt8],
              renumber: ((PDFReference) -> PDFReference?)? = nil) throws {
        PDFSerializer.append("\(reference.number) \(reference.generation) obj\n", to: &out)
        let encrypting = security != nil && reference.number != encryptNumber
        let encryptString: (([UInt8]) throws -> [UInt8])? = encrypting
            ? { [security] bytes in try security?.encryptString(bytes, reference: reference) ?? bytes } : nil
        if case .stream(let stream) = object {
            var dictionary = stream.dictionary
            var data = stream.encodedData
            if let security, encrypting, shouldEncrypt(dictionary, security: security) {
                data = try security.encrypt(data, cipher: security.cipher(forStream: dictionary), reference: reference)
            }
            dictionary["Length"] = .integer(data.count)
            try PDFSerializer.writeDictionary(dictionary, to: &out, encryptString: encryptString, renumber: renumber)
            PDFSerializer.append("\nstream\n", to: &out)
            out.append(contentsOf: data)
            PDFSerializer.append("\nendstream", to: &out)
        } else {
            try PDFSerializer.write(object, to: &out, encryptString: encryptString, renumber: renumber)
        }
        PDFSerializer.append("\nendobj\n", to: &out)
    }

    private func shouldEncrypt(_ dictionary: PDFDictionary, security: StandardSecurityHandler) -> Bool {
        switch dictionary["Type"]?.nameValue {
        case "XRef": return false
        case "Metadata": return security.info.encryptsMetadata
        default: return true
        }
    }
}
