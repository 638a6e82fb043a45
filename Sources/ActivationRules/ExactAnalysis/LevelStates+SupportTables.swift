/// The tables and the combination of the search by supporting parts (``LevelStates/SupportingParts``).
extension LevelStates {
  /// One part's collections of choices: for every count vector (saturated at the part's caps) and number of
  /// supporting and of other choices, `s + k` up to a limit, the fewest types, found layer by layer of
  /// `s + k` (each choice adds one, so a layer is reached from the one before only).
  struct SupportTable {
    /// A node: a count vector in mixed radix over the part's caps, its numbers of choices, its types, and
    /// the node it extends by one choice (-1 for the empty collection).
    struct Node {
      var vector: Int
      var supporting: Int
      var other: Int
      var types: Int
      var parent: Int32
      var choice: Int32
    }

    var nodes: [Node] = []
    /// The part's caps, and each slot's place value in a count vector.
    let caps: [Int32]
    let strides: [Int]

    /// Nil when the table would pass `budget` nodes. `otherLimit` bounds the other (non-supporting) choices:
    /// they only lengthen a collection, so one needs no more of them than its class does (at most the sum of
    /// the part's caps).
    ///
    /// A node is dropped when an earlier layer holds the same count vector and supporting choices with no
    /// more types: it has more other choices, and whatever extends it extends that node as cheaply.
    init?(
      caps: [Int32], choices: [(slots: [Int], types: Int, supporting: Bool)], limit: Int, otherLimit: Int,
      budget: Int
    ) {
      var strides: [Int] = []
      var stride = 1
      for cap in caps {
        strides.append(stride)
        let (next, overflow) = stride.multipliedReportingOverflow(by: Int(cap) + 1)
        guard !overflow else { return nil }
        stride = next
      }
      // Keys are a count vector and a number of supporting choices.
      guard !stride.multipliedReportingOverflow(by: limit + 1).overflow else { return nil }
      self.caps = caps
      self.strides = strides
      nodes = [Node(vector: 0, supporting: 0, other: 0, types: 0, parent: -1, choice: -1)]
      var leastTypes: [Int: Int] = [0: 0]
      var layer = 0..<1
      for _ in 0..<limit {
        var indexOf: [Int: Int] = [:]
        for node in layer {
          let from = nodes[node]
          for (index, choice) in choices.enumerated() where choice.supporting || from.other < otherLimit {
            var vector = from.vector
            for slot in choice.slots where (from.vector / strides[slot]) % (Int(caps[slot]) + 1) < caps[slot]
            {
              vector += strides[slot]
            }
            let supporting = from.supporting + (choice.supporting ? 1 : 0)
            let types = from.types + choice.types
            let key = vector * (limit + 1) + supporting
            if let least = leastTypes[key], least <= types { continue }
            if let known = indexOf[key] {
              guard types < nodes[known].types else { continue }
              nodes[known].types = types
              nodes[known].parent = Int32(node)
              nodes[known].choice = Int32(index)
            } else {
              indexOf[key] = nodes.count
              nodes.append(
                Node(
                  vector: vector, supporting: supporting, other: from.other + (choice.supporting ? 0 : 1),
                  types: types, parent: Int32(node), choice: Int32(index)))
              guard nodes.count <= budget else { return nil }
            }
          }
        }
        guard !indexOf.isEmpty else { break }
        for (key, node) in indexOf { leastTypes[key] = Swift.min(leastTypes[key] ?? .max, nodes[node].types) }
        layer = layer.upperBound..<nodes.count
      }
    }

    /// The count in the part's `slot` of a count vector.
    func count(_ vector: Int, slot: Int) -> Int { (vector / strides[slot]) % (Int(caps[slot]) + 1) }

    /// The choices of `node`'s collection.
    func choices(of node: Int) -> [Int] {
      var result: [Int] = []
      var current = node
      while nodes[current].parent >= 0 {
        result.append(Int(nodes[current].choice))
        current = Int(nodes[current].parent)
      }
      return result
    }
  }

  /// A class of a part (what the level's atoms read of it) with its cheapest node for each number of
  /// supporting and other choices.
  struct SupportClass {
    /// `best[s][w]`: the node with the fewest types among those with `s` supporting choices of `w` in all.
    var best: [[Int?]]

    init(limit: Int) {
      best = Array(repeating: Array(repeating: nil, count: limit + 1), count: limit + 1)
    }

    mutating func add(_ node: Int, of table: SupportTable) {
      let entry = table.nodes[node]
      let choices = entry.supporting + entry.other
      if let known = best[entry.supporting][choices], table.nodes[known].types <= entry.types { return }
      best[entry.supporting][choices] = node
    }

    /// Per number of children `n` (up to the limit): the cheapest node of at most `n` choices
    /// (`cheapest[n]`), the same with fewer than `n` supporting ones (`cheapestUnsupported[n]`), and the
    /// most supporting choices of a node of at most `n` choices (-1: none). Set by ``finish(_:)``.
    var cheapest: [Int?] = []
    var cheapestUnsupported: [Int?] = []
    var mostSupporting: [Int] = []

    mutating func finish(_ table: SupportTable) {
      let limit = best.count - 1
      func cheaper(_ first: Int?, _ second: Int?) -> Int? {
        guard let first else { return second }
        guard let second else { return first }
        return table.nodes[second].types < table.nodes[first].types ? second : first
      }
      cheapest = Array(repeating: nil, count: limit + 1)
      cheapestUnsupported = Array(repeating: nil, count: limit + 1)
      mostSupporting = Array(repeating: -1, count: limit + 1)
      for children in 0...limit {
        // Nodes of exactly `children` choices, added to those of fewer.
        var all = children > 0 ? cheapest[children - 1] : nil
        var unsupported = children > 0 ? cheapestUnsupported[children - 1] : nil
        var most = children > 0 ? mostSupporting[children - 1] : -1
        for supporting in 0...children {
          guard let node = best[supporting][children] else { continue }
          all = cheaper(all, node)
          if supporting < children { unsupported = cheaper(unsupported, node) }
          most = Swift.max(most, supporting)
        }
        // With one more child, every node of `children - 1` choices has fewer supporting ones.
        if children > 0 { unsupported = cheaper(unsupported, cheapest[children - 1]) }
        cheapest[children] = all
        cheapestUnsupported[children] = unsupported
        mostSupporting[children] = most
      }
    }

    /// For each number of supporting choices up to `children`, the cheapest node of at most `children`
    /// choices with exactly that many.
    func cheapestBySupporting(children: Int, in table: SupportTable) -> [Int?] {
      (0...children).map { supporting in
        guard supporting < best.count else { return nil }
        var found: Int?
        for choices in supporting...Swift.min(children, best.count - 1) {
          guard let node = best[supporting][choices] else { continue }
          if let known = found, table.nodes[known].types <= table.nodes[node].types { continue }
          found = node
        }
        return found
      }
    }
  }
}
