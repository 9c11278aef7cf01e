import Crypto
import _CryptoExtras
import FolioTestSupport
import XCTest

@testable import FolioPDF

/// The standard security handler on pypdf's r2–r6 files, whose passwords come from
/// pypdf's own test suite ("asdfzxcv"; "foo"/"bar" for the file with both).
final class SecurityTests: XCTestCase {
    private func path(_ name: String) throws -> String {
        try TestEnvironment.corpusFile("pypdf/encryption/\(name)")
    }

    func testEmptyUserPasswordOpensWithoutPassword() throws {
        let expected = [
            "r2-empty-password.pdf": (2, PDFCipher.rc4), "r3-empty-password.pdf": (3, .rc4),
            "r4-aes-v2-no-key-length.pdf": (4, .aes128), "r5-empty-password.pdf": (5, .aes256),
            "r6-empty-password.pdf": (6, .aes256), "r2-owner-password.pdf": (2, .rc4),
            "r4-owner-password.pdf": (4, .rc4), "r5-owner-password.pdf": (5, .aes256),
            "r6-owner-password.pdf": (6, .aes256), "r5-user-password.pdf": (5, .aes256),
            "r6-user-password.pdf": (6, .aes256),
        ]
        for (name, (revision, cipher)) in expected {
            let document = try PDFDocument(path: path(name))
            XCTAssertTrue(document.isEncrypted, name)
            XCTAssertEqual(document.encryption?.revision, revision, name)
            XCTAssertEqual(document.encryption?.streamCipher, cipher, name)
            XCTAssertEqual(document.pageCount, 1, name)
            // A decrypted content stream inflates: wrong keys give zlib errors.
            let page = try XCTUnwrap(document.pages().first, name)
            let contents = try XCTUnwrap(document.resolve(page.dictionary["Contents"]).streamValue, name)
            XCTAssertNoThrow(try document.decodedData(of: contents), name)
        }
    }

    func testUserPasswordRequired() throws {
        for name in ["r2-user-password.pdf", "r3-user-password.pdf", "r4-user-password.pdf", "r4-aes-user-password.pdf"] {
            let file = try path(name)
            XCTAssertThrowsError(try PDFDocument(path: file), name) { error in
                XCTAssertEqual((error as? PDFError)?.code, .passwordRequired, name)
            }
            XCTAssertThrowsError(try PDFDocument(path: file, password: "wrong"), name) { error in
                XCTAssertEqual((error as? PDFError)?.code, .wrongPassword, name)
            }
            let document = try PDFDocument(path: path(name), password: "asdfzxcv")
            XCTAssertEqual(document.pageCount, 1, name)
            // The decrypted /Author, as pdfinfo -upw reads it.
            XCTAssertEqual(document.info.author, "cheng", name)
        }
    }

    func testUserAndOwnerPasswordsOfR6() throws {
        let name = "r6-both-passwords.pdf"
        XCTAssertThrowsError(try PDFDocument(path: path(name)))
        let asUser = try PDFDocument(path: path(name), password: "foo")
        XCTAssertEqual(asUser.encryption?.openedAsOwner, false)
        let asOwner = try PDFDocument(path: path(name), password: "bar")
        XCTAssertEqual(asOwner.encryption?.openedAsOwner, true)
        XCTAssertEqual(asUser.info.entries, asOwner.info.entries)
        XCTAssertFalse(asUser.info.entries.isEmpty)
    }

    func testOwnerPasswordOfR2ToR4() throws {
        for name in ["r2-owner-password.pdf", "r4-owner-password.pdf"] {
            let document = try PDFDocument(path: path(name), password: "asdfzxcv")
            XCTAssertEqual(document.encryption?.openedAsOwner, true, name)
        }
    }

    func testUnencryptedFileIgnoresPassword() throws {
        let document = try PDFDocument(path: path("unencrypted.pdf"), password: "anything")
        XCTAssertFalse(document.isEncrypted)
        XCTAssertNil(document.encryption)
    }

    func testEncryptMetadataFalseLeavesXMPReadable() throws {
        // qpdf's V4 files: AES with /EncryptMetadata false keeps the packet in the clear.
        let document = try PDFDocument(path: try TestEnvironment.corpusFile("qpdf/V4-aes-clearmeta.pdf"))
        XCTAssertEqual(document.encryption?.encryptsMetadata, false)
        let packet = try XCTUnwrap(document.xmpPacket)
        XCTAssertTrue(String(decoding: packet, as: UTF8.self).contains("<rdf:RDF"))
    }

    func testRC4KnownAnswer() {
        // RFC 6229 test vector: key 0x0102030405, first 16 bytes of keystream.
        let keystream = RC4.process([UInt8](repeating: 0, count: 16), key: [1, 2, 3, 4, 5])
        XCTAssertEqual(hexString(keystream), "b2396305f03dc027ccc3524a0a1118a8")
    }

    /// Algorithms 5 and 7 run RC4 under the key XORed with 0 … 19; the in-place form that
    /// allocates no key is the plain one under the XORed key.
    func testRC4UnderAMaskedKeyIsRC4UnderTheXoredKey() {
        var generator = SeededGenerator(#function)
        for length in [1, 5, 16, 40] {
            let key = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let data = Array("Dvořák – Rusalka, Μότσαρτ, 武満徹".utf8)
            for mask in [0, 1, 7, 19] as [UInt8] {
                var inPlace = data
                RC4.process(&inPlace, key: key, mask: mask)
                XCTAssertEqual(inPlace, RC4.process(data, key: key.map { $0 ^ mask }), "key of \(length), mask \(mask)")
                XCTAssertNotEqual(inPlace, data)
            }
        }
    }

    func testUnsupportedHandlerIsAClearError() throws {
        var builder = PDFBuilder.minimal()
        builder.add(4, "<< /Filter /FooSecurity /V 2 /R 3 /O (x) /U (y) /P -4 >>")
        let bytes = builder.classic(trailer: "/Root 1 0 R /Encrypt 4 0 R /ID [<00><00>]")
        XCTAssertThrowsError(try PDFDocument(bytes: bytes)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .unsupportedEncryption)
        }
    }

    /// Revisions 5 and 6: the key that decrypts /Perms to its known bytes is taken without
    /// the validation hash; a wrong /Perms falls back to that hash and gives the same key; a
    /// wrong password gets nothing either way.
    func testPermsConfirmTheKeyAndAWrongPermsFallsBack() throws {
        for (name, password) in [("r6-empty-password.pdf", ""), ("r5-empty-password.pdf", ""),
                                 ("r6-user-password.pdf", "asdfzxcv"), ("r5-user-password.pdf", "asdfzxcv"),
                                 ("r6-both-passwords.pdf", "foo")] {
            let file = try path(name)
            let document = try PDFDocument(path: file, password: password.isEmpty ? nil : password)
            let encrypt = try XCTUnwrap(document.resolve(document.trailer["Encrypt"]).dictionaryValue, name)
            func bytes(_ key: String) throws -> [UInt8] { try XCTUnwrap(encrypt[key]?.stringValue?.bytes, "\(name) /\(key)") }
            let permissions = Int32(truncatingIfNeeded: try XCTUnwrap(encrypt["P"]?.intValue))
            let revision = try XCTUnwrap(encrypt["R"]?.intValue)
            func key(_ password: String, perms: [UInt8]?) throws -> [UInt8]? {
                try StandardSecurityHandler.aes256Key(
                    password: password, revision: revision, owner: bytes("O"), user: bytes("U"),
                    ownerEncrypted: bytes("OE"), userEncrypted: bytes("UE"), perms: perms, permissions: permissions)?.key
            }
            let byHash = try XCTUnwrap(key(password, perms: nil), name)
            XCTAssertTrue(StandardSecurityHandler.permsAgree(key: byHash, perms: try bytes("Perms"), permissions: permissions,
                                                             encryptMetadata: true), name)
            XCTAssertEqual(try key(password, perms: bytes("Perms")), byHash, name)
            var wrong = try bytes("Perms")
            wrong[10] ^= 0x5A
            XCTAssertFalse(StandardSecurityHandler.permsAgree(key: byHash, perms: wrong, permissions: permissions,
                                                              encryptMetadata: true), name)
            XCTAssertEqual(try key(password, perms: wrong), byHash, name)
            XCTAssertNil(try key("Dvořák", perms: bytes("Perms")), name)
            XCTAssertNil(try key("Dvořák", perms: wrong), name)

            // The whole file with a wrong /Perms (one hex digit changed, offsets kept) still opens and decrypts.
            var content = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            let marker = Array("/Perms <".utf8)
            let at = try XCTUnwrap(content.indices.first { content[$0...].starts(with: marker) }, name) + marker.count
            content[at] = content[at] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            let damaged = try PDFDocument(bytes: content, password: password.isEmpty ? nil : password)
            XCTAssertEqual(damaged.info.entries, document.info.entries, name)
            let page = try XCTUnwrap(damaged.pages().first, name)
            let contents = try XCTUnwrap(damaged.resolve(page.dictionary["Contents"]).streamValue, name)
            XCTAssertNoThrow(try damaged.decodedData(of: contents), name)
        }
    }

    func testAES128EncryptorFIPS197() throws {
        // FIPS-197 Appendix C.1: one block, so CBC with a zero IV is plain AES.
        var block = hexBytes("00112233445566778899aabbccddeeff")
        try AES128Encryptor(key: hexBytes("000102030405060708090a0b0c0d0e0f")[...]).encryptCBC(
            &block, iv: [UInt8](repeating: 0, count: 16)[...])
        XCTAssertEqual(hexString(block), "69c4e0d86a7b0430d8cdb78070b4c55a")
    }

    func testAES128EncryptorMatchesSwiftCrypto() throws {
        var generator = SeededGenerator(#function)
        // The lengths Algorithm 2.B encrypts (64 × 32, 48, 64 bytes and more), key and IV as
        // slices inside a longer array as the hash passes them.
        for length in [16, 32, 64, 1024, 2048, 3072, 4096, 12_160] {
            let hash = (0..<48).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let key = Array(hash[0..<16]), iv = Array(hash[16..<32])
            let plain = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var ours = plain
            try AES128Encryptor(key: hash[0..<16]).encryptCBC(&ours, iv: hash[16..<32])
            let reference = try AES._CBC.encrypt(plain, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv),
                                                 noPadding: true)
            XCTAssertEqual(ours, Array(reference), "length \(length)")
        }
    }
}

func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}
