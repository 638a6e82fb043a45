import Foundation

/// The immutable data behind a ``TypeRegistry``: interned identifiers, direct parents, a precomputed
/// ancestor bit matrix and tag indexes. Building it is linear in the number of declarations and edges.
final class TypeGraph: Sendable {
  /// Identifier spelling by interned id.
  let identifiers: [String]
  /// Declaration by interned id; nil for identifiers only named as a parent.
  let declarations: [TypeDeclaration?]
  /// Interned id by exact spelling, so the common exact-case lookup needs no lowercasing.
  let exactIndex: [String: Int32]
  /// Interned id by lowercased spelling.
  let foldedIndex: [String: Int32]
  /// Direct parents by interned id, in declaration order, with cycle-closing edges removed.
  let parents: [[Int32]]
  /// Row `i` has bit `j` set iff type `i` conforms to type `j` (reflexive, transitive).
  let ancestorBits: [UInt64]
  let wordsPerRow: Int
  /// Interned ids by tag class and lowercased tag, in declaration order.
  let tagIndex: [TypeTagClass: [String: [Int32]]]

  /// An edge dropped because it closed a cycle: `child` declared `parent`, which already conforms to it.
  struct CycleEdge {
    let child: Int32
    let parent: Int32
    /// The identifiers around the cycle, starting and ending at the child.
    let cycle: [String]
  }

  let droppedCycleEdges: [CycleEdge]

  var count: Int { identifiers.count }

  init(declarations input: [TypeDeclaration]) {
    var identifiers: [String] = []
    var declarations: [TypeDeclaration?] = []
    var exactIndex: [String: Int32] = [:]
    var foldedIndex: [String: Int32] = [:]
    identifiers.reserveCapacity(input.count + 8)
    declarations.reserveCapacity(input.count + 8)

    func intern(_ identifier: String) -> Int32 {
      if let id = exactIndex[identifier] { return id }
      let folded = identifier.lowercased()
      if let id = foldedIndex[folded] {
        exactIndex[identifier] = id
        return id
      }
      let id = Int32(identifiers.count)
      identifiers.append(identifier)
      declarations.append(nil)
      exactIndex[identifier] = id
      foldedIndex[folded] = id
      return id
    }

    // Declared identifiers first, so a declaration's own spelling wins over a parent reference's.
    for declaration in input {
      let id = intern(declaration.identifier)
      if declarations[Int(id)] == nil { declarations[Int(id)] = declaration }
    }
    var parents: [[Int32]] = Array(repeating: [], count: identifiers.count)
    for case let declaration? in declarations {
      guard let id = exactIndex[declaration.identifier] else { continue }
      var seen: Set<Int32> = []
      var direct: [Int32] = []
      for parent in declaration.conformsTo {
        let parentID = intern(parent)
        if parentID != id, seen.insert(parentID).inserted { direct.append(parentID) }
      }
      parents[Int(id)] = direct
    }
    parents += Array(repeating: [], count: identifiers.count - parents.count)

    let (order, acyclicParents, dropped) = Self.topologicalOrder(parents: parents, identifiers: identifiers)
    let wordsPerRow = max(1, (identifiers.count + 63) / 64)
    var bits = [UInt64](repeating: 0, count: identifiers.count * wordsPerRow)
    for id in order {
      let row = Int(id) * wordsPerRow
      bits[row + Int(id) / 64] |= 1 << UInt64(Int(id) % 64)
      for parent in acyclicParents[Int(id)] {
        let parentRow = Int(parent) * wordsPerRow
        for word in 0..<wordsPerRow { bits[row + word] |= bits[parentRow + word] }
      }
    }

    var tagIndex: [TypeTagClass: [String: [Int32]]] = [:]
    for (id, declaration) in declarations.enumerated() {
      guard let declaration else { continue }
      for (tagClass, values) in declaration.tags {
        for value in values {
          let key = value.lowercased()
          let list = tagIndex[tagClass, default: [:]][key, default: []]
          if !list.contains(Int32(id)) {
            tagIndex[tagClass, default: [:]][key, default: []].append(Int32(id))
          }
        }
      }
    }

    self.identifiers = identifiers
    self.declarations = declarations
    self.exactIndex = exactIndex
    self.foldedIndex = foldedIndex
    self.parents = acyclicParents
    self.ancestorBits = bits
    self.wordsPerRow = wordsPerRow
    self.tagIndex = tagIndex
    self.droppedCycleEdges = dropped
  }

  /// The interned id of `identifier`, compared case-insensitively.
  @inline(__always)
  func id(of identifier: String) -> Int32? {
    exactIndex[identifier] ?? foldedIndex[identifier.lowercased()]
  }

  /// Whether type `id` conforms to type `ancestor`: one load and a bit test.
  @inline(__always)
  func conforms(_ id: Int32, to ancestor: Int32) -> Bool {
    let word = ancestorBits[Int(id) * wordsPerRow + Int(ancestor) / 64]
    return word & (1 << UInt64(Int(ancestor) % 64)) != 0
  }

  /// Every id `id` conforms to, itself included, nearest first (breadth-first over the parents).
  func ancestors(of id: Int32) -> [Int32] {
    breadthFirst(from: [id]) { parents[Int($0)] }
  }

  /// Every id that conforms to `id`, itself included, in interning order after `id` itself.
  func descendants(of id: Int32) -> [Int32] {
    var result: [Int32] = [id]
    for candidate in 0..<Int32(count) where candidate != id && conforms(candidate, to: id) {
      result.append(candidate)
    }
    return result
  }

  func breadthFirst(from start: [Int32], next: (Int32) -> [Int32]) -> [Int32] {
    var seen: Set<Int32> = []
    var result: [Int32] = []
    var queue = start[...]
    while let current = queue.popFirst() {
      guard seen.insert(current).inserted else { continue }
      result.append(current)
      queue.append(contentsOf: next(current))
    }
    return result
  }

  /// Depth-first post-order over the parent edges; an edge to a type still on the stack closes a cycle and
  /// is dropped (and reported) so the rest of the graph stays usable.
  private static func topologicalOrder(
    parents: [[Int32]], identifiers: [String]
  ) -> (order: [Int32], parents: [[Int32]], dropped: [CycleEdge]) {
    enum Mark { case unvisited, active, done }
    var marks = [Mark](repeating: .unvisited, count: parents.count)
    var kept = parents
    var order: [Int32] = []
    var dropped: [CycleEdge] = []
    order.reserveCapacity(parents.count)
    for root in 0..<parents.count where marks[root] == .unvisited {
      var stack: [(id: Int32, next: Int)] = [(Int32(root), 0)]
      marks[root] = .active
      while let top = stack.last {
        let id = Int(top.id)
        if top.next < parents[id].count {
          stack[stack.count - 1].next += 1
          let parent = parents[id][top.next]
          switch marks[Int(parent)] {
          case .unvisited:
            marks[Int(parent)] = .active
            stack.append((parent, 0))
          case .active:
            kept[id].removeAll { $0 == parent }
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
    return (order, kept, dropped)
  }
}
