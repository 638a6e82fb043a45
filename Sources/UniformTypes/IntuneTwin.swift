/// Microsoft Intune's "twin" identifiers: `com.microsoft.intune.mam.` followed by a type identifier.
///
/// The Intune App SDK re-registers shared items under these twins so that only managed extensions, whose
/// activation rules mention the twin, can receive managed data. Nothing public declares the twins, so whether
/// a twin conforms to anything is a question of policy; see ``TwinPolicy``.
public enum IntuneTwin {
  /// The prefix Intune puts in front of a type identifier.
  public static let prefix = "com.microsoft.intune.mam."

  /// The twin of `identifier`, e.g. `com.microsoft.intune.mam.public.jpeg` for `public.jpeg`.
  public static func twin(of identifier: String) -> String {
    prefix + identifier
  }

  /// Whether `identifier` is a twin (the prefix is compared case-insensitively, like every identifier).
  public static func isTwin(_ identifier: String) -> Bool {
    prefixLength(of: identifier) != nil
  }

  /// The identifier a twin stands for, or nil when `identifier` is not a twin (or is the bare prefix).
  public static func base(ofTwin identifier: String) -> String? {
    guard let length = prefixLength(of: identifier) else { return nil }
    let base = identifier.unicodeScalars.dropFirst(length)
    return base.isEmpty ? nil : String(base)
  }

  private static func prefixLength(of identifier: String) -> Int? {
    let scalars = identifier.unicodeScalars
    let prefixScalars = prefix.unicodeScalars
    guard scalars.count >= prefixScalars.count else { return nil }
    for (character, expected) in zip(scalars, prefixScalars)
    where asciiLowercased(character) != expected {
      return nil
    }
    return prefixScalars.count
  }

  private static func asciiLowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    guard ("A"..."Z").contains(scalar), let lowered = Unicode.Scalar(scalar.value + 32) else { return scalar }
    return lowered
  }
}

/// How a registry answers conformance questions about Intune twins (`com.microsoft.intune.mam.` + identifier).
///
/// ``literal`` is the default because it is what iOS does: Launch Services knows no declaration of any twin,
/// so `com.microsoft.intune.mam.public.jpeg` is an undeclared identifier that conforms only to itself. A
/// registry that answered otherwise would pass rules that fail on a device.
///
/// ``mirrored`` models a world where the twins were declared like their bases: twin(A) conforms to twin(B)
/// whenever A conforms to B. The choice matters for a rule that tests a twin against a more general twin —
/// `UTI-CONFORMS-TO "com.microsoft.intune.mam.public.image"`, as Intune's guide writes them — when an
/// attachment carries only the concrete twin (`com.microsoft.intune.mam.public.jpeg`): it activates under
/// ``mirrored`` only. Rules that compare twins with `UTI-EQUALS`, or against the very twin an item carries,
/// answer the same under both. See <doc:IntuneTwins>.
///
/// Declarations an app adds for a twin are honoured under both policies.
public enum TwinPolicy: String, Sendable, Hashable, CaseIterable, Codable {
  /// An undeclared twin conforms only to itself (what iOS does). The default.
  case literal
  /// twin(A) conforms to twin(B) iff A conforms to B, in addition to any declarations.
  case mirrored
}
