/// AES-128 encryption with the key schedule computed once, used only for the CBC
/// encryptions inside the revision 6 password hash (ISO 32000-2 Algorithm 2.B).
///
/// Why not swift-crypto: its `AES._CBC` expands the key again for every 16-byte block,
/// and Algorithm 2.B encrypts some 20,000 blocks per password check, which made opening
/// one AES-256 file cost ~50 ms. Decryption of file data still goes through swift-crypto.
/// Checked against swift-crypto and FIPS-197 in the tests.
struct AES128Encryptor {
    private var roundKeys = [UInt32](repeating: 0, count: 44)

    init(key: ArraySlice<UInt8>) {
        precondition(key.count == 16, "AES-128 takes a 16-byte key")
        let bytes = Array(key)
        for i in 0..<4 {
            roundKeys[i] = UInt32(bytes[4 * i]) << 24 | UInt32(bytes[4 * i + 1]) << 16
                | UInt32(bytes[4 * i + 2]) << 8 | UInt32(bytes[4 * i + 3])
        }
        var rcon: UInt32 = 0x0100_0000
        for i in 4..<44 {
            var word = roundKeys[i - 1]
            if i % 4 == 0 {
                word = (word << 8) | (word >> 24)
                word = AES128Encryptor.subWord(word) ^ rcon
                rcon = AES128Encryptor.xtime32(rcon)
            }
            roundKeys[i] = roundKeys[i - 4] ^ word
        }
    }

    /// CBC-encrypts `data` (a multiple of 16 bytes) in place, without padding.
    func encryptCBC(_ data: inout [UInt8], iv: ArraySlice<UInt8>) {
        precondition(data.count % 16 == 0 && iv.count == 16)
        let ivBytes = Array(iv)
        var c0 = AES128Encryptor.word(ivBytes, 0), c1 = AES128Encryptor.word(ivBytes, 4)
        var c2 = AES128Encryptor.word(ivBytes, 8), c3 = AES128Encryptor.word(ivBytes, 12)
        // Tables through unsafe pointers: no bounds checks or lazy-global checks per lookup.
        let (t0, t1, t2, t3) = (T.t0, T.t1, T.t2, T.t3)
        data.withUnsafeMutableBufferPointer { buffer in
            t0.withUnsafeBufferPointer { e0 in
            t1.withUnsafeBufferPointer { e1 in
            t2.withUnsafeBufferPointer { e2 in
            t3.withUnsafeBufferPointer { e3 in
            roundKeys.withUnsafeBufferPointer { rk in
                var offset = 0
                while offset < buffer.count {
                    var s0 = AES128Encryptor.word(buffer, offset) ^ c0 ^ rk[0]
                    var s1 = AES128Encryptor.word(buffer, offset + 4) ^ c1 ^ rk[1]
                    var s2 = AES128Encryptor.word(buffer, offset + 8) ^ c2 ^ rk[2]
                    var s3 = AES128Encryptor.word(buffer, offset + 12) ^ c3 ^ rk[3]
                    for round in 1..<10 {
                        let k = round * 4
                        let t0 = e0[Int(s0 >> 24)] ^ e1[Int(s1 >> 16 & 0xFF)] ^ e2[Int(s2 >> 8 & 0xFF)] ^ e3[Int(s3 & 0xFF)] ^ rk[k]
                        let t1 = e0[Int(s1 >> 24)] ^ e1[Int(s2 >> 16 & 0xFF)] ^ e2[Int(s3 >> 8 & 0xFF)] ^ e3[Int(s0 & 0xFF)] ^ rk[k + 1]
                        let t2 = e0[Int(s2 >> 24)] ^ e1[Int(s3 >> 16 & 0xFF)] ^ e2[Int(s0 >> 8 & 0xFF)] ^ e3[Int(s1 & 0xFF)] ^ rk[k + 2]
                        let t3 = e0[Int(s3 >> 24)] ^ e1[Int(s0 >> 16 & 0xFF)] ^ e2[Int(s1 >> 8 & 0xFF)] ^ e3[Int(s2 & 0xFF)] ^ rk[k + 3]
                        s0 = t0; s1 = t1; s2 = t2; s3 = t3
                    }
                    c0 = AES128Encryptor.lastRound(s0, s1, s2, s3) ^ rk[40]
                    c1 = AES128Encryptor.lastRound(s1, s2, s3, s0) ^ rk[41]
                    c2 = AES128Encryptor.lastRound(s2, s3, s0, s1) ^ rk[42]
                    c3 = AES128Encryptor.lastRound(s3, s0, s1, s2) ^ rk[43]
                    AES128Encryptor.store(c0, buffer, offset)
                    AES128Encryptor.store(c1, buffer, offset + 4)
                    AES128Encryptor.store(c2, buffer, offset + 8)
                    AES128Encryptor.store(c3, buffer, offset + 12)
                    offset += 16
                }
            }
            }
            }
            }
            }
        }
    }

    @inline(__always) private static func lastRound(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        UInt32(T.sbox[Int(a >> 24)]) << 24 | UInt32(T.sbox[Int(b >> 16 & 0xFF)]) << 16
            | UInt32(T.sbox[Int(c >> 8 & 0xFF)]) << 8 | UInt32(T.sbox[Int(d & 0xFF)])
    }

    @inline(__always) private static func word(_ bytes: [UInt8], _ i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    @inline(__always) private static func word(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    @inline(__always) private static func store(_ value: UInt32, _ bytes: UnsafeMutableBufferPointer<UInt8>, _ i: Int) {
        bytes[i] = UInt8(value >> 24)
        bytes[i + 1] = UInt8(value >> 16 & 0xFF)
        bytes[i + 2] = UInt8(value >> 8 & 0xFF)
        bytes[i + 3] = UInt8(value & 0xFF)
    }

    private static func subWord(_ word: UInt32) -> UInt32 {
        UInt32(T.sbox[Int(word >> 24)]) << 24 | UInt32(T.sbox[Int(word >> 16 & 0xFF)]) << 16
            | UInt32(T.sbox[Int(word >> 8 & 0xFF)]) << 8 | UInt32(T.sbox[Int(word & 0xFF)])
    }

    private static func xtime32(_ value: UInt32) -> UInt32 {
        let byte = UInt8(value >> 24)
        let doubled = (byte << 1) ^ ((byte & 0x80) != 0 ? 0x1B : 0)
        return UInt32(doubled) << 24
    }

    /// S-box and round tables, derived at first use from the field arithmetic rather than
    /// typed in, so there is no table to mistype.
    private enum T {
        static let sbox: [UInt8] = {
            var box = [UInt8](repeating: 0, count: 256)
            var p: UInt8 = 1, q: UInt8 = 1
            repeat {
                // p runs through the multiplicative group (×3), q through its inverses (÷3).
                p = p ^ (p << 1) ^ ((p & 0x80) != 0 ? 0x1B : 0)
                q ^= q << 1
                q ^= q << 2
                q ^= q << 4
                if (q & 0x80) != 0 { q ^= 0x09 }
                let rotated = q ^ rotl(q, 1) ^ rotl(q, 2) ^ rotl(q, 3) ^ rotl(q, 4)
                box[Int(p)] = rotated ^ 0x63
            } while p != 1
            box[0] = 0x63
            return box
        }()
        static let t0: [UInt32] = sbox.map { s in
            let two = mul2(s), three = two ^ s
            return UInt32(two) << 24 | UInt32(s) << 16 | UInt32(s) << 8 | UInt32(three)
        }
        static let t1: [UInt32] = t0.map { ($0 >> 8) | ($0 << 24) }
        static let t2: [UInt32] = t0.map { ($0 >> 16) | ($0 << 16) }
        static let t3: [UInt32] = t0.map { ($0 >> 24) | ($0 << 8) }

        private static func rotl(_ x: UInt8, _ n: UInt8) -> UInt8 { (x << n) | (x >> (8 - n)) }
        private static func mul2(_ x: UInt8) -> UInt8 { (x << 1) ^ ((x & 0x80) != 0 ? 0x1B : 0) }
    }
}
