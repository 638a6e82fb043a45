import Locking

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
  public static let system = TypeRegistry(graph: .system, twinPolicy: .literal, diagnostics: [])

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
    if twinPolicy == .literal, let id = graph.id(of: type), let ancestor = graph.id(of: supertype) {
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
    var twinBase: ResolvedType?
    if twinPolicy == .mirrored, let base = IntuneTwin.base(ofTwin: identifier) {
      twinBase = resolve(base)
    }
    if let id = graph.id(of: identifier) {
      let details = twinBase.map {
        ResolvedTypeDetails(foldedIdentifier: identifier.lowercased(), dynamicAncestors: nil, twinBase: $0)
      }
      return ResolvedType(
        id: id, identifier: graph.identifiers[Int(id)], registryStamp: stamp, details: details)
    }
    let folded = identifier.lowercased()
    var dynamicAncestors: [Int32]?
    if let dynamic = DynamicTypeIdentifier(decoding: identifier) {
      dynamicAncestors = graph.union(ofAncestorsOf: dynamicParents(of: dynamic))
    }
    return ResolvedType(
      id: -1, identifier: dynamicAncestors == nil ? identifier : folded, registryStamp: stamp,
      details: ResolvedTypeDetails(
        foldedIdentifier: folded, dynamicAncestors: dynamicAncestors, twinBase: twinBase))
  }

  /// Whether `type` conforms to `supertype`; a lookup with no allocation when both came from ``resolve(_:)``
  /// of this registry.
  public func conforms(_ type: ResolvedType, to supertype: ResolvedType) -> Bool {
    guard type.registryStamp == stamp, supertype.registryStamp == stamp else {
      return conforms(resolve(type.identifier), to: resolve(supertype.identifier))
    }
    if supertype.id >= 0 {
      if type.id >= 0 {
        if graph.conforms(type.id, to: supertype.id) { return true }
      } else if let ancestors = type.details?.dynamicAncestors, Self.sortedContains(ancestors, supertype.id) {
        return true
      }
    } else if type.id < 0, type.foldedIdentifier == supertype.foldedIdentifier {
      return true
    }
    guard type.hasTwinBase, supertype.hasTwinBase, let typeBase = type.details?.twinBase,
      let supertypeBase = supertype.details?.twinBase
    else { return false }
    return conforms(typeBase, to: supertypeBase)
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

  /// The interned types a dynamic type conforms to directly: its encoded conformance, and the declared type
  /// this registry would have chosen for its filename extension or MIME type.
  func dynamicParents(of dynamic: DynamicTypeIdentifier) -> [Int32] {
    var parents = dynamic.conformsTo.compactMap { graph.id(of: $0) }
    for tag in dynamic.tags {
      let candidates = graph.ids(forTag: tag.value, tagClass: tag.tagClass)
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

  // A registry is created rarely, so contention on the lock is irrelevant.
  private final class StampCounter: Sendable {
    private let value = Locked<UInt64>(0)

    func next() -> UInt64 {
      value.withLock { value in
        value += 1
        return value
      }
    }
  }
}
