/// RC4, needed for the PDF standard security handler revisions 2–4 (swift-crypto
/// rightly does not ship it). Symmetric: the same call encrypts and decrypts.
///
/// A revision 3 or 4 password check runs it 20 times on 16 or 32 bytes under the key
/// XORed with 0 … 19, so the key schedule is what costs: it runs on the state's own buffer,
/// without bounds checks, a division per byte or a masked copy of the key.
struct RC4 {
    private var state: [UInt8]
    private var i: UInt8 = 0
    private var j: UInt8 = 0

    /// The cipher under `key` with each of its bytes XORed with `mask`.
    init(key: [UInt8], mask: UInt8 = 0) {
        state = [UInt8](unsafeUninitializedCapacity: 256) { buffer, count in
            for index in 0..<256 { buffer[index] = UInt8(index) }
            count = 256
        }
        guard !key.isEmpty else { return }
        state.withUnsafeMutableBufferPointer { state in
            key.withUnsafeBufferPointer { key in
                var j: UInt8 = 0
                var k = 0
                for i in 0..<256 {
                    j = j &+ state[i] &+ (key[k] ^ mask)
                    k += 1
                    if k == key.count { k = 0 }
                    state.swapAt(i, Int(j))
                }
            }
        }
    }

    /// Runs `data` through the cipher in place, where the last call left off.
    mutating func apply(to data: inout [UInt8]) {
        var i = self.i, j = self.j
        state.withUnsafeMutableBufferPointer { state in
            data.withUnsafeMutableBufferPointer { data in
                for index in data.indices {
                    i = i &+ 1
                    let a = state[Int(i)]
                    j = j &+ a
                    let b = state[Int(j)]
                    state[Int(i)] = b
                    state[Int(j)] = a
                    data[index] ^= state[Int(a &+ b)]
                }
            }
        }
        self.i = i
        self.j = j
    }

    mutating func process(_ data: [UInt8]) -> [UInt8] {
        var output = data
        apply(to: &output)
        return output
    }

    static func process(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
        var cipher = RC4(key: key)
        return cipher.process(data)
    }

    /// Runs `data` through RC4 in place under `key` with each of its bytes XORed with
    /// `mask` (Algorithms 5 and 7 take twenty such keys).
    static func process(_ data: inout [UInt8], key: [UInt8], mask: UInt8) {
        var cipher = RC4(key: key, mask: mask)
        cipher.apply(to: &data)
    }
}
