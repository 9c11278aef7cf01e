import Crypto
import Foundation
import _CryptoExtras

/// AES-128 CBC encryption without padding, used only inside the revision 6 password hash
/// (ISO 32000-2 Algorithm 2.B), which encrypts some 200 KB per password tried.
///
/// swift-crypto's `AES._CBC` expands the key again for every 16-byte block. Its `AES._CFB`
/// expands it once and runs BoringSSL's AES (AES-NI where the processor has it), and CBC
/// encryption is CFB encryption of the plaintext shifted by one block: with
/// `X₀ = P₁ ⊕ IV` and `Xᵢ = Pᵢ₊₁ ⊕ E(Xᵢ₋₁)` (CFB of P₂ … Pₙ, 0 from the IV X₀), each
/// `E(Xᵢ₋₁) = E(Pᵢ ⊕ Cᵢ₋₁) = Cᵢ`, so `Cᵢ = Xᵢ ⊕ Pᵢ₊₁`. Checked against `AES._CBC` and
/// FIPS-197 in the tests.
struct AES128Encryptor {
    private let key: SymmetricKey

    init(key: ArraySlice<UInt8>) {
        precondition(key.count == 16, "AES-128 takes a 16-byte key")
        self.key = SymmetricKey(data: key)
    }

    /// CBC-encrypts `data` (a multiple of 16 bytes) in place, without padding.
    func encryptCBC(_ data: inout [UInt8], iv: ArraySlice<UInt8>) throws {
        precondition(data.count % 16 == 0 && iv.count == 16)
        guard !data.isEmpty else { return }
        var start = [UInt8](repeating: 0, count: 16)
        for (index, (byte, chain)) in zip(data.prefix(16), iv).enumerated() { start[index] = byte ^ chain }
        var shifted = Array(data.dropFirst(16))
        shifted.append(contentsOf: repeatElement(0, count: 16))
        let chained = try AES._CFB.encrypt(shifted, using: key, iv: AES._CFB.IV(ivBytes: start))
        // Cᵢ = Xᵢ ⊕ Pᵢ₊₁, eight bytes at a time (the data is a multiple of 16 bytes).
        chained.withUnsafeBytes { (chained: UnsafeRawBufferPointer) in
            shifted.withUnsafeBytes { shifted in
                data.withUnsafeMutableBytes { data in
                    for offset in stride(from: 0, to: data.count, by: 8) {
                        let word = chained.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            ^ shifted.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        data.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                    }
                }
            }
        }
    }
}
