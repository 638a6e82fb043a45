import Foundation

/// Builds small synthetic built apps for tests: Info.plists as binary property lists (as Xcode ships
/// them, written by Foundation so the reader is checked against another writer), executables with an
/// entitlements blob in a code signature, a CMS-looking provisioning profile, laid out as an `.ipa`.
public enum SyntheticApp {
  /// A binary property list of `value`.
  public static func binaryPlist(_ value: Any) -> [UInt8] {
    // Test input built by the test itself: a failure here is a bug in the test.
    [UInt8](try! PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0))
  }

  /// An XML property list of `value`.
  public static func xmlPlist(_ value: Any) -> [UInt8] {
    [UInt8](try! PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0))
  }

  /// A 64-bit little-endian Mach-O with only an `LC_CODE_SIGNATURE` command, whose super-blob holds a
  /// code-directory placeholder and the entitlements blob (magic `0xfade7171`) with `entitlements` as XML.
  public static func executable(entitlements: [String: Any]) -> [UInt8] {
    let xml = xmlPlist(entitlements)
    func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xff) } }
    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
    let header =
      le32(0xfeed_facf) + le32(0x0100_000c) + le32(0) + le32(2) + le32(1) + le32(16) + le32(0) + le32(0)
    let signatureOffset = 64
    let placeholder = be32(0xfade_0c02) + be32(8)
    let entitlementsBlob = be32(0xfade_7171) + be32(8 + xml.count) + xml
    let superLength = 12 + 16 + placeholder.count + entitlementsBlob.count
    let superBlob =
      be32(0xfade_0cc0) + be32(superLength) + be32(2) + be32(0) + be32(28) + be32(5)
      + be32(28 + placeholder.count)
      + placeholder + entitlementsBlob
    let command = le32(0x1d) + le32(16) + le32(signatureOffset) + le32(superBlob.count)
    let padding = [UInt8](repeating: 0, count: signatureOffset - header.count - command.count)
    return header + command + padding + superBlob
  }

  /// A stand-in for `embedded.mobileprovision`: DER-looking bytes around the XML payload, as in a CMS
  /// message (the reader does not validate the signature, so the wrapper need not be a real one).
  public static func provisioningProfile(entitlements: [String: Any]) -> [UInt8] {
    let payload = xmlPlist(["Name": "Synthetic", "Entitlements": entitlements])
    return [0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02] + payload
      + [0xa0, 0x82, 0x01, 0x00, 0x00, 0x00]
  }
}
