/// A type identifier looked up once in a ``TypeRegistry``, so that conformance tests in a hot loop are a
/// table lookup with no hashing of strings and no allocation.
///
/// A resolved type belongs to the registry that made it; handing it to another registry still answers
/// correctly (that registry resolves ``identifier`` again) but loses the speed.
public struct ResolvedType: Sendable, Hashable, CustomStringConvertible {
  /// The interned id in the registry, or -1 for a `dyn.*` or unknown identifier.
  let id: Int32
  /// Whether ``details`` holds the resolved base of an Intune twin (only under ``TwinPolicy/mirrored``).
  let hasTwinBase: Bool
  /// Identifies the registry (and its twin policy) whose interned ids `id` uses.
  let registryStamp: UInt64
  /// The identifier, in the registry's spelling when the registry knows it.
  public let identifier: String
  /// What only the slower paths need; nil for an interned type that is not a mirrored twin, so resolving
  /// a known type allocates nothing.
  let details: ResolvedTypeDetails?

  init(id: Int32, identifier: String, registryStamp: UInt64, details: ResolvedTypeDetails?) {
    self.id = id
    self.hasTwinBase = details?.twinBase != nil
    self.registryStamp = registryStamp
    self.identifier = identifier
    self.details = details
  }

  /// The identifier, so a resolved type prints as the type it names.
  public var description: String { identifier }

  /// Whether the registry knows the identifier (declared, or named as a parent), or it is a `dyn.*`
  /// identifier the registry could decode.
  public var isKnown: Bool { id >= 0 || details?.dynamicAncestors != nil }

  /// The lowercased identifier of a type that is not interned: what it is compared by.
  var foldedIdentifier: String { details?.foldedIdentifier ?? identifier.lowercased() }

  /// Types are equal when they name the same type of the same registry; case does not matter.
  public static func == (lhs: ResolvedType, rhs: ResolvedType) -> Bool {
    guard lhs.registryStamp == rhs.registryStamp, lhs.id == rhs.id else { return false }
    return lhs.id >= 0 || lhs.foldedIdentifier == rhs.foldedIdentifier
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    if id >= 0 { hasher.combine(id) } else { hasher.combine(foldedIdentifier) }
  }
}

/// The parts of a ``ResolvedType`` that only the slow paths read.
final class ResolvedTypeDetails: Sendable {
  /// The lowercased identifier: what an undeclared or `dyn.*` type is compared by.
  let foldedIdentifier: String
  /// For a `dyn.*` type, the sorted interned ids it conforms to; nil for every other type.
  let dynamicAncestors: [Int32]?
  /// Under ``TwinPolicy/mirrored``, the resolved type an Intune twin stands for.
  let twinBase: ResolvedType?

  init(foldedIdentifier: String, dynamicAncestors: [Int32]?, twinBase: ResolvedType?) {
    self.foldedIdentifier = foldedIdentifier
    self.dynamicAncestors = dynamicAncestors
    self.twinBase = twinBase
  }
}
