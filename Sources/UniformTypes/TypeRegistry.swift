import Foundation

/// A Uniform Type Identifier registry: which type conforms to which, and which tags name which type.
///
/// ``system`` holds Apple's system-declared types; ``adding(_:)-(AppTypeDeclarations)`` returns a new
/// registry that also knows an app's `UTExportedTypeDeclarations` and `UTImportedTypeDeclarations`.
/// Registries are immutable, so one can be shared by any number of tasks.
///
/// Conformance is reflexive and transitive, and identifiers compare case-insensitively. An identifier nobody
/// declares conforms only to itself. A `dyn.*` identifier conforms to what it encodes (its `0=` part, with
/// that type's ancestors) and, when the registry knows a declared type for the filename extension or MIME
/// type it carries, to that type and its ancestors too: the dynamic type was minted where the declaration
/// was unknown, and a registry that knows the declaration answers as Launch Services would have there.
/// Intune twins follow ``twinPolicy``.
public final class TypeRegistry: Sendable {
  /// Apple's system-declared types, built from the bundled table on first use.
  public static let system = TypeRegistry(
    graph: TypeGraph(declarations: SystemTypeTable.declarations), twinPolicy: .literal, diagnostics: [])

  /// How Intune twins (`com.microsoft.intune.mam.` + identifier) conform.
  public let twinPolicy: TwinPolicy
  /// The problems found while adding app declarations, in the order they were found.
  public let diagnostics: [TypeDeclarationDiagnostic]

  let graph: TypeGraph
  let stamp: UInt64

  init(graph: TypeGraph, twinPolicy: TwinPolicy, diagnostics: [TypeDeclarationDiagnostic]) {
    self.graph = graph
    self.twinPolicy = twinPolicy
    self.diagnostics = diagnostics
    self.stamp = RegistryStamps.next()
  }

  /// The system types plus an app's declarations, with the given twin policy.
  public convenience init(declarations: AppTypeDeclarations, twinPolicy: TwinPolicy = .literal) {
    let merged = TypeRegistry.system.adding(declarations)
    self.init(graph: merged.graph, twinPolicy: twinPolicy, diagnostics: merged.diagnostics)
  }

  /// The same types with another twin policy.
  public func withTwinPolicy(_ policy: TwinPolicy) -> TypeRegistry {
    policy == twinPolicy ? self : TypeRegistry(graph: graph, twinPolicy: policy, diagnostics: diagnostics)
  }

  // MARK: Conformance

  /// Whether `type` conforms to `supertype`: reflexive, transitive, case-insensitive.
  public func conforms(_ type: String, to supertype: String) -> Bool {
    if twinPolicy == .literal, let id = graph.exactIndex[type], let ancestor = graph.exactIndex[supertype] {
      return graph.conforms(id, to: ancestor)
    }
    return conforms(resolve(type), to: resolve(supertype))
  }

  /// Whether `a` and `b` name the same type (`UTTypeEqual`): the identifiers are equal ignoring case.
  public func isEqual(_ a: String, _ b: String) -> Bool {
    a == b || a.lowercased() == b.lowercased()
  }

  /// Looks `identifier` up once, for repeated ``conforms(_:to:)-(ResolvedType,ResolvedType)`` calls.
  public func resolve(_ identifier: String) -> ResolvedType {
    var twinBase: ResolvedType.Storage?
    if twinPolicy == .mirrored, let base = IntuneTwin.base(ofTwin: identifier) {
      twinBase = storage(of: base).1
    }
    let (spelling, storage) = storage(of: identifier)
    return ResolvedType(identifier: spelling, storage: storage, twinBase: twinBase, registryStamp: stamp)
  }

  /// Whether `type` conforms to `supertype`; a lookup with no allocation when both came from ``resolve(_:)``
  /// of this registry.
  public func conforms(_ type: ResolvedType, to supertype: ResolvedType) -> Bool {
    guard type.registryStamp == stamp, supertype.registryStamp == stamp else {
      return conforms(resolve(type.identifier), to: resolve(supertype.identifier))
    }
    if conforms(type.storage, to: supertype.storage) { return true }
    if let typeBase = type.twinBase, let supertypeBase = supertype.twinBase {
      return conforms(typeBase, to: supertypeBase)
    }
    return false
  }

  @inline(__always)
  private func conforms(_ type: ResolvedType.Storage, to supertype: ResolvedType.Storage) -> Bool {
    switch (type, supertype) {
    case (.interned(let id), .interned(let ancestor)):
      return graph.conforms(id, to: ancestor)
    case (.dynamic(_, let ancestors), .interned(let ancestor)):
      return Self.sortedContains(ancestors, ancestor)
    case (.dynamic(let lhs, _), .dynamic(let rhs, _)), (.unknown(let lhs), .unknown(let rhs)):
      return lhs == rhs
    default:
      return false
    }
  }

  private static func sortedContains(_ ids: [Int32], _ id: Int32) -> Bool {
    var low = 0
    var high = ids.count
    while low < high {
      let middle = (low + high) / 2
      if ids[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low < ids.count && ids[low] == id
  }

  private func storage(of identifier: String) -> (String, ResolvedType.Storage) {
    if let id = graph.id(of: identifier) {
      return (graph.identifiers[Int(id)], .interned(id))
    }
    let folded = identifier.lowercased()
    if let dynamic = DynamicTypeIdentifier(decoding: identifier) {
      let ancestors = Set(dynamicParents(of: dynamic).flatMap { graph.ancestors(of: $0) })
      return (folded, .dynamic(folded, ancestors: ancestors.sorted()))
    }
    return (identifier, .unknown(folded))
  }

  /// The interned types a dynamic type conforms to directly: its encoded conformance, and the declared type
  /// this registry would have chosen for its filename extension or MIME type.
  func dynamicParents(of dynamic: DynamicTypeIdentifier) -> [Int32] {
    var parents = dynamic.conformsTo.compactMap { graph.id(of: $0) }
    for (tagClass, value) in dynamic.tags {
      let candidates = graph.tagIndex[tagClass]?[value.lowercased()] ?? []
      let fitting = candidates.first { candidate in parents.allSatisfy { graph.conforms(candidate, to: $0) } }
      if let chosen = fitting ?? candidates.first, !parents.contains(chosen) { parents.append(chosen) }
    }
    return parents
  }
}

/// Hands out a distinct stamp to every registry so resolved types can tell which registry made them.
private enum RegistryStamps {
  private static let state = StampCounter()

  static func next() -> UInt64 { state.next() }

  private final class StampCounter: @unchecked Sendable {
    // The lock makes the counter safe to share; a registry is created rarely, so contention is irrelevant.
    private let lock = NSLock()
    private var value: UInt64 = 0

    func next() -> UInt64 {
      lock.lock()
      defer { lock.unlock() }
      value += 1
      return value
    }
  }
}
