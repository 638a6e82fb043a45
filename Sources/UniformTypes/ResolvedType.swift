/// A type identifier looked up once in a ``TypeRegistry``, so that conformance tests in a hot loop are a
/// table lookup with no hashing of strings and no allocation.
///
/// A resolved type belongs to the registry that made it; handing it to another registry still answers
/// correctly (that registry resolves ``identifier`` again) but loses the speed.
public struct ResolvedType: Sendable, Hashable, CustomStringConvertible {
  enum Storage: Sendable, Hashable {
    /// An interned identifier of the registry (declared, or named as a parent).
    case interned(Int32)
    /// A `dyn.*` identifier (lowercased) with the sorted interned ids it conforms to.
    case dynamic(String, ancestors: [Int32])
    /// An identifier the registry does not know (lowercased): it conforms only to itself.
    case unknown(String)
  }

  /// The identifier, in the registry's spelling when the registry knows it.
  public let identifier: String
  let storage: Storage
  /// Under ``TwinPolicy/mirrored``, the storage of the type an Intune twin stands for.
  let twinBase: Storage?
  /// Identifies the registry (and its twin policy) whose interned ids `storage` uses.
  let registryStamp: UInt64

  public var description: String { identifier }

  /// Whether the registry has a declaration for the type, or it is a `dyn.*` type it could decode.
  public var isKnown: Bool {
    if case .unknown = storage { return false }
    return true
  }

  public static func == (lhs: ResolvedType, rhs: ResolvedType) -> Bool {
    lhs.storage == rhs.storage && lhs.registryStamp == rhs.registryStamp
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage)
  }
}
