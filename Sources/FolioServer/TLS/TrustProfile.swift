import Crypto
import Foundation

/// What a device installs to trust a ``LocalAuthority``: for an iPad or iPhone, a configuration
/// profile (`.mobileconfig`, payload `com.apple.security.root`) holding the authority's
/// certificate; for everything else, the certificate itself (DER `.crt`, PEM `.pem`).
///
/// The profile's identifiers are derived from the certificate, so downloading it twice gives
/// the same profile and installing it again replaces the first.
///
/// ```swift
/// let authority = try LocalAuthority.open(folder: LocalAuthority.defaultFolder())
/// let profile = try TrustProfile.mobileconfig(for: authority)   // serve as application/x-apple-aspen-config
/// ```
public enum TrustProfile {
    /// The configuration profile, an XML property list.
    public static func mobileconfig(for authority: LocalAuthority) throws -> Data {
        let der = Data(authority.certificateDER)
        let digest = Array(SHA256.hash(data: der))
        let machine = AllowedHosts.machineName() ?? "this machine"
        let root: [String: Any] = [
            "PayloadCertificateFileName": "folio-ca.cer",
            "PayloadContent": der,
            "PayloadDescription": "The certificate authority of Folio on \(machine): lets this device open Folio over HTTPS.",
            "PayloadDisplayName": "Folio on \(machine)",
            "PayloadIdentifier": "org.folio.local-authority.\(uuid(digest, salt: 1))",
            "PayloadType": "com.apple.security.root",
            "PayloadUUID": uuid(digest, salt: 1),
            "PayloadVersion": 1,
        ]
        let profile: [String: Any] = [
            "PayloadContent": [root],
            "PayloadDescription": "Trust Folio's local certificate authority (SHA-256 \(authority.fingerprint)).",
            "PayloadDisplayName": "Folio on \(machine)",
            "PayloadIdentifier": "org.folio.trust.\(uuid(digest, salt: 2))",
            "PayloadOrganization": "Folio",
            "PayloadRemovalDisallowed": false,
            "PayloadType": "Configuration",
            "PayloadUUID": uuid(digest, salt: 2),
            "PayloadVersion": 1,
        ]
        return try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0)
    }

    /// A UUID (version 5 layout) from the certificate's digest and a salt per payload.
    static func uuid(_ digest: [UInt8], salt: UInt8) -> String {
        var bytes = Array(SHA256.hash(data: Data(digest + [salt])).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}
