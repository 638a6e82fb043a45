import Locking

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The immutable data behind a ``TypeRegistry``: interned identifiers, direct parents, a precomputed
/// ancestor bit matrix, declarations and tag indexes.
///
/// The system graph is built from the generated table's integer parent lists, so loading it costs one
/// dictionary insert per identifier; declarations (tags, descriptions) and the tag index are parsed only
/// when something asks for them.
final class TypeGraph: Sendable {
  /// Identifier spelling by interned id.
  let identifiers: [String]
  /// Interned id by lowercased spelling.
  let foldedIndex: [String: Int32]
  /// Declared parents: `declaredParentIDs[declaredParentStarts[i]..<declaredParentStarts[i + 1]]`.
  private let declaredParentStarts: [Int32]
  private let declaredParentIDs: [Int32]
  /// The same lists with cycle-closing edges removed: what conformance follows.
  private let parentStarts: [Int32]
  private let parentIDs: [Int32]
  /// Row `i` has bit `j` set iff type `i` conforms to type `j` (reflexive, transitive).
  let ancestorBits: [UInt64]
  let wordsPerRow: Int
  /// Ids below this are the system declarations, in `SystemTypeTable.declarations` order.
  private let systemDeclaredCount: Int
  /// Declarations added on top of the system table, by id.
  private let addedDeclarations: [Int32: TypeDeclaration]
  /// Interned ids by tag class and lowercased tag, in id order, of the added declarations (of every
  /// declaration when one replaces a system record); built on first use.
  private let lazyTagIndex: LockedLazy<[TypeTagClass: [String: [Int32]]]>
  /// Whether the system records' tags come from the generated table rather than `lazyTagIndex`.
  private let searchesSystemTags: Bool

  /// An edge dropped because it closed a cycle: `child` declared `parent`, which already conforms to it.
  struct CycleEdge: Sendable {
    let child: Int32
    let parent: Int32
    /// The identifiers around the cycle, starting and ending at the child.
    let cycle: [String]
  }

  let droppedCycleEdges: [CycleEdge]

  var count: Int { identifiers.count }

  /// The system types, from the generated table.
  static let system: TypeGraph = {
    var identifiers = SystemTypeTable.recordIdentifiers
    identifiers += SystemTypeTable.undeclaredIdentifiers
    var foldedIndex: [String: Int32] = [:]
    foldedIndex.reserveCapacity(identifiers.count)
    for (id, identifier) in identifiers.enumerated() {
      foldedIndex[TypeGraph.fold(identifier)] = Int32(id)
    }
    return TypeGraph(
      identifiers: identifiers, foldedIndex: foldedIndex, parentStarts: SystemTypeTable.parentStarts,
      parentIDs: SystemTypeTable.parentIDs, systemDeclaredCount: SystemTypeTable.declaredCount,
      addedDeclarations: [:])
  }()

  private init(
    identifiers: [String], foldedIndex: [String: Int32], parentStarts: [Int32], parentIDs: [Int32],
    systemDeclaredCount: Int, addedDeclarations: [Int32: TypeDeclaration]
  ) {
    self.identifiers = identifiers
    self.foldedIndex = foldedIndex
    self.declaredParentStarts = parentStarts
    self.declaredParentIDs = parentIDs
    self.systemDeclaredCount = systemDeclaredCount
    self.addedDeclarations = addedDeclarations

    let (order, dropped) = Self.topologicalOrder(
      count: identifiers.count, starts: parentStarts, parents: parentIDs, identifiers: identifiers)
    if dropped.isEmpty {
      self.parentStarts = parentStarts
      self.parentIDs = parentIDs
    } else {
      let droppedPairs = Set(dropped.map { Int64($0.child) << 32 | Int64($0.parent) })
      var keptStarts: [Int32] = [0]
      var keptIDs: [Int32] = []
      for id in 0..<identifiers.count {
        for index in Int(parentStarts[id])..<Int(parentStarts[id + 1]) {
          let parent = parentIDs[index]
          if !droppedPairs.contains(Int64(id) << 32 | Int64(parent)) { keptIDs.append(parent) }
        }
        keptStarts.append(Int32(keptIDs.count))
      }
      self.parentStarts = keptStarts
      self.parentIDs = keptIDs
    }
    self.droppedCycleEdges = dropped

    let wordsPerRow = max(1, (identifiers.count + 63) / 64)
    var bits = [UInt64](repeating: 0, count: identifiers.count * wordsPerRow)
    let keptStarts = self.parentStarts
    let keptIDs = self.parentIDs
    bits.withUnsafeMutableBufferPointer { bits in
      for id in order {
        let row = Int(id) * wordsPerRow
        bits[row + Int(id) / 64] |= 1 << UInt64(Int(id) % 64)
        for index in Int(keptStarts[Int(id)])..<Int(keptStarts[Int(id) + 1]) {
          let parentRow = Int(keptIDs[index]) * wordsPerRow
          for word in 0..<wordsPerRow { bits[row + word] |= bits[parentRow + word] }
        }
      }
    }
    self.ancestorBits = bits
    self.wordsPerRow = wordsPerRow

    let declarationCount = identifiers.count
    let systemCount = systemDeclaredCount
    let added = addedDeclarations
    let replacesSystemRecord = added.keys.contains { Int($0) < systemCount }
    self.searchesSystemTags = !replacesSystemRecord
    self.lazyTagIndex = LockedLazy {
      // The system records' tags are looked up in the generated table (`ids(forTag:tagClass:)`), unless an
      // added declaration replaces one: the index then holds every declaration's tags.
      var index: [TypeTagClass: [String: [Int32]]] = [:]
      for id in Int32(replacesSystemRecord ? 0 : systemCount)..<Int32(declarationCount) {
        let declaration =
          added[id] ?? (Int(id) < systemCount ? SystemTypeTable.declarations[Int(id)] : nil)
        if let declaration { Self.index(declaration.tags, of: id, into: &index) }
      }
      return index
    }
  }

  /// Adds `tags`, lowercased, to `index` as tags of `id` (after the ids already there, once each).
  static func index(
    _ tags: [TypeTagClass: [String]], of id: Int32, into index: inout [TypeTagClass: [String: [Int32]]]
  ) {
    for (tagClass, values) in tags {
      for value in values {
        let key = value.lowercased()
        if index[tagClass, default: [:]][key, default: []].last != id {
          index[tagClass, default: [:]][key, default: []].append(id)
        }
      }
    }
  }

  /// This graph plus `declarations`, none of which may declare an identifier this graph already declares
  /// (``TypeRegistry/adding(_:)-(AppTypeDeclarations)`` filters them). An identifier so far only named as
  /// a parent becomes declared.
  func adding(_ declarations: [TypeDeclaration]) -> TypeGraph {
    var identifiers = self.identifiers
    var foldedIndex = self.foldedIndex
    var added = addedDeclarations
    func intern(_ identifier: String) -> Int32 {
      let folded = Self.fold(identifier)
      if let id = foldedIndex[folded] { return id }
      let id = Int32(identifiers.count)
      identifiers.append(identifier)
      foldedIndex[folded] = id
      return id
    }
    var declaredIDs: [Int32] = []
    for declaration in declarations {
      let id = intern(declaration.identifier)
      if added[id] == nil, !isSystemDeclared(id) {
        added[id] = declaration
        declaredIDs.append(id)
      }
    }
    var newParents: [Int32: [Int32]] = [:]
    for id in declaredIDs {
      guard let declaration = added[id] else { continue }
      var parents: [Int32] = []
      for parent in declaration.conformsTo {
        let parentID = intern(parent)
        if parentID != id, !parents.contains(parentID) { parents.append(parentID) }
      }
      newParents[id] = parents
    }
    var starts: [Int32] = [0]
    var parentIDs: [Int32] = []
    starts.reserveCapacity(identifiers.count + 1)
    parentIDs.reserveCapacity(declaredParentIDs.count + newParents.values.reduce(0) { $0 + $1.count })
    for id in 0..<identifiers.count {
      if let parents = newParents[Int32(id)] {
        parentIDs += parents
      } else if id < self.identifiers.count {
        parentIDs += declaredParentIDs[Int(declaredParentStarts[id])..<Int(declaredParentStarts[id + 1])]
      }
      starts.append(Int32(parentIDs.count))
    }
    return TypeGraph(
      identifiers: identifiers, foldedIndex: foldedIndex, parentStarts: starts, parentIDs: parentIDs,
      systemDeclaredCount: systemDeclaredCount, addedDeclarations: added)
  }

  /// The lowercased identifier, without allocating when it is lowercase ASCII already.
  @inline(__always)
  static func fold(_ identifier: String) -> String {
    // Scanning the contiguous UTF-8 buffer is several times cheaper than iterating `utf8` generically.
    let needsLowercasing =
      identifier.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.contains { $0 >= 0x41 && ($0 <= 0x5A || $0 >= 0x80) }
      } ?? true
    return needsLowercasing ? identifier.lowercased() : identifier
  }

  /// The interned id of `identifier`, compared case-insensitively.
  @inline(__always)
  func id(of identifier: String) -> Int32? {
    foldedIndex[Self.fold(identifier)]
  }

  /// Whether type `id` conforms to type `ancestor`: one load and a bit test.
  @inline(__always)
  func conforms(_ id: Int32, to ancestor: Int32) -> Bool {
    let word = ancestorBits[Int(id) * wordsPerRow + Int(ancestor) / 64]
    return word & (1 << UInt64(Int(ancestor) % 64)) != 0
  }

  private func isSystemDeclared(_ id: Int32) -> Bool {
    Int(id) < systemDeclaredCount
  }

  /// The declaration of type `id`; nil for an identifier only named as a parent.
  func declaration(at id: Int32) -> TypeDeclaration? {
    addedDeclarations[id] ?? (isSystemDeclared(id) ? SystemTypeTable.declarations[Int(id)] : nil)
  }

  /// Whether anything declares type `id`.
  func isDeclared(_ id: Int32) -> Bool {
    isSystemDeclared(id) || addedDeclarations[id] != nil
  }

  /// The direct parents of `id` that conformance follows (cycle-closing edges removed).
  func parents(of id: Int32) -> ArraySlice<Int32> {
    parentIDs[Int(parentStarts[Int(id)])..<Int(parentStarts[Int(id) + 1])]
  }

  /// Interned ids with `tag` in `tagClass` (compared case-insensitively), in id order.
  func ids(forTag tag: String, tagClass: TypeTagClass) -> [Int32] {
    let key = tag.lowercased()
    let added = lazyTagIndex.value[tagClass]?[key] ?? []
    guard searchesSystemTags else { return added }
    // System ids come before added ones, so this keeps id order.
    let system = SystemTypeTable.ids(forTag: key, tagClass: tagClass)
    return added.isEmpty ? system : system + added
  }

  /// Every id `id` conforms to, itself included, nearest first (breadth-first over the parents).
  func ancestors(of id: Int32) -> [Int32] {
    var seen: Set<Int32> = []
    var result: [Int32] = []
    var queue: ArraySlice<Int32> = [id]
    while let current = queue.popFirst() {
      guard seen.insert(current).inserted else { continue }
      result.append(current)
      queue.append(contentsOf: parents(of: current))
    }
    return result
  }

  /// The sorted ids every one of `ids` conforms to, read off their rows of the ancestor matrix.
  func union(ofAncestorsOf ids: [Int32]) -> [Int32] {
    var row = [UInt64](repeating: 0, count: wordsPerRow)
    for id in ids {
      for word in 0..<wordsPerRow { row[word] |= ancestorBits[Int(id) * wordsPerRow + word] }
    }
    var result: [Int32] = []
    for (wordIndex, word) in row.enumerated() {
      var remaining = word
      while remaining != 0 {
        result.append(Int32(wordIndex * 64 + remaining.trailingZeroBitCount))
        remaining &= remaining - 1
      }
    }
    return result
  }

  /// Every id that conforms to `id`, itself included, in interning order after `id` itself.
  func descendants(of id: Int32) -> [Int32] {
    var result: [Int32] = [id]
    for candidate in 0..<Int32(count) where candidate != id && conforms(candidate, to: id) {
      result.append(candidate)
    }
    return result
  }

  /// Depth-first post-order over the parent edges; an edge to a type still on the stack closes a cycle and
  /// is dropped (and reported) so the rest of the graph stays usable.
  private static func topologicalOrder(
    count: Int, starts: [Int32], parents: [Int32], identifiers: [String]
  ) -> (order: [Int32], dropped: [CycleEdge]) {
    enum Mark { case unvisited, active, done }
    var marks = [Mark](repeating: .unvisited, count: count)
    var order: [Int32] = []
    var dropped: [CycleEdge] = []
    order.reserveCapacity(count)
    var stack: [(id: Int32, next: Int32)] = []
    for root in 0..<count where marks[root] == .unvisited {
      stack.append((Int32(root), starts[root]))
      marks[root] = .active
      while let top = stack.last {
        let id = Int(top.id)
        if top.next < starts[id + 1] {
          stack[stack.count - 1].next += 1
          let parent = parents[Int(top.next)]
          switch marks[Int(parent)] {
          case .unvisited:
            marks[Int(parent)] = .active
            stack.append((parent, starts[Int(parent)]))
          case .active:
            // The stack runs from `parent` up through its ancestors to `id`, which names `parent` again.
            let path = stack.map(\.id).drop { $0 != parent }
            let cycle = ([top.id] + path).map { identifiers[Int($0)] }
            dropped.append(CycleEdge(child: top.id, parent: parent, cycle: cycle))
          case .done:
            break
          }
        } else {
          marks[id] = .done
          order.append(top.id)
          stack.removeLast()
        }
      }
    }
    return (order, dropped)
  }
}

/// A value computed on first use, once, safely from any thread.
final class LockedLazy<Value: Sendable>: Sendable {
  private let stored = Locked<Value?>(nil)
  private let make: @Sendable () -> Value

  init(_ make: @escaping @Sendable () -> Value) {
    self.make = make
  }

  var value: Value {
    stored.withLock { stored in
      if let stored { return stored }
      let computed = make()
      stored = computed
      return computed
    }
  }
}
