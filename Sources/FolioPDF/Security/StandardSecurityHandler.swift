import Crypto
import _CryptoExtras
import Foundation

/// The cipher a crypt filter uses.
///
/// ```swift
/// if let encryption = document.encryption, encryption.streamCipher == .rc4 {
///     print("RC4: rewrite with --decrypt, or re-encrypt with AES")
/// }
/// ```
public enum PDFCipher: String, Sendable, Equatable {
    case none = "None"
    case rc4 = "RC4"
    case aes128 = "AES-128"
    case aes256 = "AES-256"
}

/// What `/Encrypt` says, for reports.
///
/// ```swift
/// doc.encryption?.description   // "AES-256 (R6)"
/// ```
public struct PDFEncryptionInfo: Sendable, Equatable, CustomStringConvertible {
    public let revision: Int
    public let version: Int
    public let keyLengthBits: Int
    public let streamCipher: PDFCipher
    public let stringCipher: PDFCipher
    public let encryptsMetadata: Bool
    /// The `/P` permission bits.
    public let permissions: Int32
    /// Whether the password given (or the empty one) opened the file as its owner.
    public let openedAsOwner: Bool

    public var description: String {
        let cipher = streamCipher == .rc4 ? "RC4 \(keyLengthBits)-bit" : streamCipher.rawValue
        return "\(cipher) (R\(revision))"
    }
}

/// The standard security handler (ISO 32000-2 §7.6.4), revisions 2 to 6: derives the file
/// key from a password and decrypts strings and streams object by object.
struct StandardSecurityHandler {
    let info: PDFEncryptionInfo
    private let fileKey: [UInt8]
    /// Crypt filters named in /CF with their ciphers (V4/V5).
    private let cryptFilters: [String: PDFCipher]

    static let padding: [UInt8] = [
        0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
        0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
    ]

    /// Opens the handler with `password`; the empty password is tried when none is given.
    init(encrypt: PDFDictionary, firstID: [UInt8], password: String?) throws {
        guard encrypt["Filter"]?.nameValue == "Standard" else {
            throw PDFError(.unsupportedEncryption,
                           "security handler /\(encrypt["Filter"]?.nameValue ?? "?") is not supported (only /Standard)")
        }
        let version = encrypt["V"]?.intValue ?? 0
        let revision = encrypt["R"]?.intValue ?? 0
        guard (2...6).contains(revision), [1, 2, 4, 5].contains(version) else {
            throw PDFError(.unsupportedEncryption,
                           "encryption /V \(version) /R \(revision) is not supported (valid: R 2–6, V 1, 2, 4, 5)")
        }
        guard let owner = encrypt["O"]?.stringValue?.bytes, let user = encrypt["U"]?.stringValue?.bytes else {
            throw PDFError(.damaged, "/Encrypt lacks /O or /U")
        }
        let permissions = Int32(truncatingIfNeeded: encrypt["P"]?.intValue ?? -1)
        let encryptMetadata = encrypt["EncryptMetadata"]?.boolValue ?? true

        var filters: [String: PDFCipher] = ["Identity": .none]
        var streamCipher: PDFCipher = .rc4
        var stringCipher: PDFCipher = .rc4
        var keyLength = version == 1 ? 40 : (encrypt["Length"]?.intValue ?? 40)
        if version >= 4 {
            if let cf = encrypt["CF"]?.dictionaryValue {
                for (name, value) in cf.entries {
                    let method = value.dictionaryValue?["CFM"]?.nameValue ?? "None"
                    switch method {
                    case "V2": filters[name] = .rc4
                    case "AESV2": filters[name] = .aes128
                    case "AESV3": filters[name] = .aes256
                    case "None": filters[name] = PDFCipher.none
                    default:
                        throw PDFError(.unsupportedEncryption, "crypt filter method /\(method) is not supported")
                    }
                    if let length = value.dictionaryValue?["Length"]?.intValue, method == "V2" {
                        // /Length in a crypt filter is in bytes by the spec, in bits by some writers.
                        keyLength = length <= 32 ? length * 8 : length
                    }
                }
            }
            streamCipher = filters[encrypt["StmF"]?.nameValue ?? "Identity"] ?? PDFCipher.none
            stringCipher = filters[encrypt["StrF"]?.nameValue ?? "Identity"] ?? PDFCipher.none
            if version == 4, streamCipher == .aes128 || stringCipher == .aes128 { keyLength = 128 }
            if version == 5 { keyLength = 256 }
        }
        if keyLength % 8 != 0 || keyLength < 40 || keyLength > 256 { keyLength = 128 }
        cryptFilters = filters

        let candidates = password.map { [$0] } ?? [""]
        var found: (key: [UInt8], owner: Bool)?
        for candidate in candidates {
            if revision >= 5 {
                found = try StandardSecurityHandler.aes256Key(
                    password: candidate, revision: revision, owner: owner, user: user,
                    ownerEncrypted: encrypt["OE"]?.stringValue?.bytes, userEncrypted: encrypt["UE"]?.stringValue?.bytes,
                    perms: encrypt["Perms"]?.stringValue?.bytes, permissions: permissions,
                    encryptMetadata: encryptMetadata)
            } else {
                // A missing or wrong /Length: qpdf falls back to 128 bits, and so do we.
                for bits in [keyLength, 128, 40] {
                    found = StandardSecurityHandler.legacyKey(
                        password: candidate, revision: revision, keyLength: bits / 8, owner: owner, user: user,
                        permissions: permissions, firstID: firstID, encryptMetadata: encryptMetadata)
                    if found != nil {
                        keyLength = bits
                        break
                    }
                }
            }
            if found != nil { break }
        }
        guard let found else {
            if password == nil {
                throw PDFError(.passwordRequired, "the file is encrypted and needs a password (use --password)")
            }
            throw PDFError(.wrongPassword, "the password is neither the user nor the owner password")
        }
        fileKey = found.key
        info = PDFEncryptionInfo(
            revision: revision, version: version, keyLengthBits: keyLength,
            streamCipher: version >= 4 ? streamCipher : .rc4, stringCipher: version >= 4 ? stringCipher : .rc4,
            encryptsMetadata: encryptMetadata, permissions: permissions, openedAsOwner: found.owner)
    }

    // MARK: Decryption

    /// The cipher for a stream, honouring a /Crypt filter that names its own crypt filter.
    func cipher(forStream dictionary: PDFDictionary) -> PDFCipher {
        let filters = StreamDecoder.filters(of: dictionary)
        if let index = filters.firstIndex(of: "Crypt") {
            let parms: PDFObject?
            if case .array(let items)? = dictionary["DecodeParms"], index < items.count {
                parms = items[index]
            } else {
                parms = dictionary["DecodeParms"]
            }
            let name = parms?.dictionaryValue?["Name"]?.nameValue ?? "Identity"
            return cryptFilters[name] ?? PDFCipher.none
        }
        return info.streamCipher
    }

    func decryptString(_ data: [UInt8], reference: PDFReference) -> [UInt8] {
        decrypt(data, cipher: info.stringCipher, reference: reference)
    }

    func decrypt(_ data: [UInt8], cipher: PDFCipher, reference: PDFReference) -> [UInt8] {
        switch cipher {
        case .none:
            return data
        case .rc4:
            return RC4.process(data, key: objectKey(reference, aes: false))
        case .aes128:
            return StandardSecurityHandler.aesDecrypt(data, key: objectKey(reference, aes: true))
        case .aes256:
            return StandardSecurityHandler.aesDecrypt(data, key: fileKey)
        }
    }

    /// Encrypts data of object `reference` for writing: RC4, or AES-CBC with a random IV
    /// and PKCS#7 padding.
    func encrypt(_ data: [UInt8], cipher: PDFCipher, reference: PDFReference) throws -> [UInt8] {
        switch cipher {
        case .none:
            return data
        case .rc4:
            return RC4.process(data, key: objectKey(reference, aes: false))
        case .aes128, .aes256:
            let key = cipher == .aes128 ? objectKey(reference, aes: true) : fileKey
            var generator = SystemRandomNumberGenerator()
            let ivBytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let sealed = try AES._CBC.encrypt(data, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: ivBytes))
            return ivBytes + Array(sealed)
        }
    }

    func encryptString(_ data: [UInt8], reference: PDFReference) throws -> [UInt8] {
        try encrypt(data, cipher: info.stringCipher, reference: reference)
    }

    /// Algorithm 1: the per-object key.
    private func objectKey(_ reference: PDFReference, aes: Bool) -> [UInt8] {
        var material = fileKey
        let n = reference.number, g = reference.generation
        material += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(g & 0xFF), UInt8(g >> 8 & 0xFF)]
        if aes { material += [0x73, 0x41, 0x6C, 0x54] }  // "sAlT"
        let digest = Array(Insecure.MD5.hash(data: material))
        return Array(digest.prefix(min(fileKey.count + 5, 16)))
    }

    /// AES-CBC with the IV in the first 16 bytes and PKCS#7 padding; damaged padding is
    /// tolerated (the data is returned unpadded as far as it can be).
    static func aesDecrypt(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
        guard data.count >= 32, let iv = try? AES._CBC.IV(ivBytes: data[0..<16]) else { return [] }
        let body = data[16..<(16 + (data.count - 16) / 16 * 16)]
        let symmetric = SymmetricKey(data: key)
        if let plain = try? AES._CBC.decrypt(body, using: symmetric, iv: iv) { return Array(plain) }
        guard let raw = try? AES._CBC.decrypt(body, using: symmetric, iv: iv, noPadding: true) else { return [] }
        var bytes = Array(raw)
        if let last = bytes.last, last >= 1, last <= 16, Int(last) <= bytes.count { bytes.removeLast(Int(last)) }
        return bytes
    }

    // MARK: Revisions 2–4

    private static func pad(_ password: String) -> [UInt8] {
        // Passwords for R2–4 are PDFDocEncoding; Latin-1 covers what users type.
        let bytes = password.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") }
        return Array((bytes + padding).prefix(32))
    }

    /// Algorithm 2, then 6 (user) or 7 (owner).
    static func legacyKey(
        password: String, revision: Int, keyLength: Int, owner: [UInt8], user: [UInt8], permissions: Int32,
        firstID: [UInt8], encryptMetadata: Bool
    ) -> (key: [UInt8], owner: Bool)? {
        let n = revision == 2 ? 5 : keyLength
        func fileKey(_ padded: [UInt8]) -> [UInt8] {
            var material = padded + Array(owner.prefix(32))
            let p = UInt32(bitPattern: permissions)
            material += [UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF), UInt8(p >> 24 & 0xFF)]
            material += firstID
            if revision >= 4 && !encryptMetadata { material += [0xFF, 0xFF, 0xFF, 0xFF] }
            let digest = Insecure.MD5.hash(data: material)
            return Array((revision >= 3 ? md5(of: digest, times: 50, first: n) : digest).prefix(n))
        }
        func userMatches(_ key: [UInt8]) -> Bool {
            if revision == 2 {
                return RC4.process(padding, key: key) == Array(user.prefix(32))
            }
            var value = Array(Insecure.MD5.hash(data: padding + firstID))
            for i in 0...19 { RC4.process(&value, key: key, mask: UInt8(i)) }
            return user.count >= 16 && value == Array(user.prefix(16))
        }
        let userKey = fileKey(pad(password))
        if userMatches(userKey) { return (userKey, false) }
        // Owner password: it decrypts /O into the user password.
        var ownerDigest = Insecure.MD5.hash(data: pad(password))
        if revision >= 3 { ownerDigest = md5(of: ownerDigest, times: 50, first: 16) }
        let ownerKey = Array(ownerDigest.prefix(n))
        var userPassword = Array(owner.prefix(32))
        if revision == 2 {
            userPassword = RC4.process(userPassword, key: ownerKey)
        } else {
            for i in stride(from: 19, through: 0, by: -1) { RC4.process(&userPassword, key: ownerKey, mask: UInt8(i)) }
        }
        let key = fileKey(userPassword)
        return userMatches(key) ? (key, true) : nil
    }

    /// `digest` hashed again `times` times, each time its first `first` bytes (Algorithms 2 and 3).
    private static func md5(of digest: Insecure.MD5Digest, times: Int, first: Int) -> Insecure.MD5Digest {
        var digest = digest
        for _ in 0..<times {
            digest = digest.withUnsafeBytes { bytes in
                var hasher = Insecure.MD5()
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes.prefix(first)))
                return hasher.finalize()
            }
        }
        return digest
    }

    // MARK: Revisions 5 and 6

    /// The file key of revisions 5 and 6 for `password`, and whether it was the owner's;
    /// nil when it is neither password.
    ///
    /// A password is checked by its validation hash, then the file key is unwrapped with its
    /// key hash (Algorithms 2.A and 11). In revision 6 each hash costs at least 64 rounds of AES
    /// and SHA-2, so the user password is first tried the other way round: the key hash alone,
    /// and the key it unwraps decrypting `/Perms` to its twelve known bytes (the permissions,
    /// four 0xFF, `T` or `F`, `adb`). Ninety-six bits agreeing is proof enough; when they do
    /// not (a writer that got `/Perms` wrong), the validation hash decides, as the standard has it.
    static func aes256Key(
        password: String, revision: Int, owner: [UInt8], user: [UInt8], ownerEncrypted: [UInt8]?,
        userEncrypted: [UInt8]?, perms: [UInt8]? = nil, permissions: Int32 = -1, encryptMetadata: Bool = true
    ) throws -> (key: [UInt8], owner: Bool)? {
        guard owner.count >= 48, user.count >= 48 else {
            throw PDFError(.damaged, "/O or /U is shorter than 48 bytes for AES-256")
        }
        let pass = Array(Array(password.utf8).prefix(127))
        let user48 = Array(user.prefix(48))
        func hash(_ salt: ArraySlice<UInt8>, _ extra: [UInt8]) throws -> [UInt8] {
            revision == 5
                ? Array(SHA256.hash(data: pass + salt + extra))
                : try hardenedHash(password: pass, salt: Array(salt), userKey: extra)
        }
        func unwrap(_ intermediate: [UInt8], _ encrypted: [UInt8]?) -> [UInt8]? {
            guard let encrypted, encrypted.count >= 32,
                let iv = try? AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16)),
                let key = try? AES._CBC.decrypt(encrypted.prefix(32), using: SymmetricKey(data: intermediate), iv: iv,
                                                noPadding: true)
            else { return nil }
            return Array(key)
        }
        // The user password first: it is the common case (the empty password).
        let userKeyHash = try hash(user[40..<48], [])
        if let key = unwrap(userKeyHash, userEncrypted),
            try permsAgree(key: key, perms: perms, permissions: permissions, encryptMetadata: encryptMetadata)
                || hash(user[32..<40], []) == Array(user.prefix(32))
        {
            return (key, false)
        }
        if try hash(owner[32..<40], user48) == Array(owner.prefix(32)),
            let key = unwrap(try hash(owner[40..<48], user48), ownerEncrypted)
        {
            return (key, true)
        }
        return nil
    }

    /// Whether `key` decrypts `/Perms` (AES-256, one block) to what the dictionary says:
    /// bytes 0–3 the permissions low byte first, 4–7 0xFF, 8 `T` or `F` for EncryptMetadata,
    /// 9–11 `adb` (ISO 32000-2, Algorithm 13).
    static func permsAgree(key: [UInt8], perms: [UInt8]?, permissions: Int32, encryptMetadata: Bool) -> Bool {
        guard let perms, perms.count >= 16, key.count == 32,
            let iv = try? AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16)),
            let block = try? AES._CBC.decrypt(perms.prefix(16), using: SymmetricKey(data: key), iv: iv, noPadding: true)
        else { return false }
        let bits = UInt32(bitPattern: permissions)
        let expected: [UInt8] = [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24),
                                 0xFF, 0xFF, 0xFF, 0xFF, encryptMetadata ? 0x54 : 0x46, 0x61, 0x64, 0x62]
        return Array(block.prefix(12)) == expected
    }

    /// Algorithm 2.B (revision 6).
    static func hardenedHash(password: [UInt8], salt: [UInt8], userKey: [UInt8]) throws -> [UInt8] {
        var k = Array(SHA256.hash(data: password + salt + userKey))
        // K1 is built again in the same buffer each round (64 times password, K, user key).
        let blockLength = password.count + 64 + userKey.count
        var k1: [UInt8] = []
        k1.reserveCapacity(blockLength * 64)
        var round = 0
        while true {
            k1.removeAll(keepingCapacity: true)
            for _ in 0..<64 {
                k1 += password
                k1 += k
                k1 += userKey
            }
            try AES128Encryptor(key: k[0..<16]).encryptCBC(&k1, iv: k[16..<32])
            var sum = 0
            for byte in k1.prefix(16) { sum += Int(byte) }
            k = k1.withUnsafeBytes { e in
                switch sum % 3 {
                case 0: digest(SHA256.self, e)
                case 1: digest(SHA384.self, e)
                default: digest(SHA512.self, e)
                }
            }
            round += 1
            if round >= 64, let last = k1.last, Int(last) <= round - 32 { break }
        }
        return Array(k.prefix(32))
    }

    private static func digest<Hash: HashFunction>(_: Hash.Type, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = Hash()
        hasher.update(bufferPointer: bytes)
        return Array(hasher.finalize())
    }
}
