/// The context level when every count it reads is only asked whether it is zero (`SUBQUERY(extensionItems,
/// …).@count > 0`, `== 0`, `extensionItems.@count > 0`): a context's class is then the set of the item terms
/// some item satisfies — the union of its items' sets — and everything about the classes follows from the
/// items' sets alone, without a search per class.
///
/// - A set `T` is some context's class exactly when the union of the items' sets inside `T` is `T`
///   (every term of `T` is brought by an item that brings nothing outside `T`); the unions over all subsets
///   of `T` come from one sum over subsets, `bits · 2^bits` steps.
/// - A rule's answer on every set at once is a truth table, one bit per set, computed operator by operator
///   on 64 sets per word.
/// - The cheapest context of a class is only needed for the few classes reported (the smallest
///   disagreements, the smallest accepted and rejected context): Dijkstra's algorithm from the empty
///   context runs until it has settled those, in order of cost.
///
/// The classes, their counts and the witnesses are those the count search finds with every cap at 1 (a
/// class is the vector of counts saturated at 1); tests check the two against each other.
struct ContextUnions: Sendable {
  /// The level's atoms, on the level's slots.
  let atoms: [SlotTest]
  /// Each slot's bit in a set; nil for a slot no item raises (its count is always 0).
  let bitOfSlot: [Int?]
  /// The bit of the slot counting every item: a context holds at least one.
  let everyItemBit: Int?
  let bitCount: Int
  /// One step per class of items: the set it brings, the cheapest item and its cost as a context's child.
  let steps: [(set: Int, child: Int, cost: ExactCost)]
  /// The sets that are some collection's class (the empty collection's included).
  let reachable: BitVector

  /// The most slots the level may have: its tables have `2^bits` entries (4 M at 22, some 70 MB with the
  /// witness search's; 14.plist against its Intune form has 21).
  static let maximumBits = 22

  /// The level as unions, or nil when a count is compared with more than 0, there are more than
  /// ``maximumBits`` slots, or a cost could outgrow the 21 bits per component the search folds it into.
  init?(_ prepared: LevelStates.Prepared) {
    guard prepared.caps.allSatisfy({ $0 <= 1 }) else { return nil }
    var bitOfSlot: [Int?] = []
    var bitCount = 0
    for cap in prepared.caps {
      bitOfSlot.append(cap == 1 ? bitCount : nil)
      if cap == 1 { bitCount += 1 }
    }
    guard bitCount <= Self.maximumBits else { return nil }
    let largestStep = prepared.steps.map { Swift.max($0.cost.items, $0.cost.attachments, $0.cost.types) }
      .max()
    // A cheapest collection adds a bit with every item, so it has at most `bitCount` items.
    guard (largestStep ?? 0) * bitCount < 1 << 21 else { return nil }
    self.atoms = prepared.level.atoms
    self.bitOfSlot = bitOfSlot
    self.everyItemBit = prepared.level.everyChildSlot.flatMap { bitOfSlot[$0] }
    self.bitCount = bitCount
    let steps = prepared.steps.map { step in
      var set = 0
      for slot in step.increments { if let bit = bitOfSlot[slot] { set |= 1 << bit } }
      return (set: set, child: step.child, cost: step.cost)
    }
    self.steps = steps
    // unions[T]: the union of the steps' sets inside T, summed over subsets bit by bit.
    var unions = [Int32](repeating: 0, count: 1 << bitCount)
    for step in steps { unions[step.set] |= Int32(step.set) }
    unions.withUnsafeMutableBytes { bytes in
      for bit in 0..<bitCount { Self.takeInTwins(bit: bit, of: bytes) }
    }
    // A set is reachable when the union inside it is itself, read 64 sets to a word.
    var words = [UInt64](repeating: 0, count: (unions.count + 63) / 64)
    unions.withUnsafeBufferPointer { unions in
      words.withUnsafeMutableBufferPointer { words in
        for set in 0..<unions.count where Int(unions[set]) == set {
          words[set >> 6] |= 1 << UInt64(set & 63)
        }
      }
    }
    self.reachable = BitVector(size: unions.count, words: words)
  }

  /// One step of the sum over subsets: in blocks of 2^(bit+1) sets, each set of the upper half takes in
  /// (ORs) its twin without the bit. Eight sets at a time once the halves are that long: this loop is most
  /// of a 21-bit level's time, and the compiler does not vectorize the plain one.
  private static func takeInTwins(bit: Int, of unions: UnsafeMutableRawBufferPointer) {
    let half = 1 << bit
    let count = unions.count / MemoryLayout<Int32>.stride
    let width = MemoryLayout<SIMD8<Int32>>.stride
    for start in stride(from: 0, to: count, by: 2 * half) {
      var offset = start
      if half >= 8 {
        while offset < start + half {
          let low = unions.loadUnaligned(fromByteOffset: offset * 4, as: SIMD8<Int32>.self)
          let high = unions.loadUnaligned(fromByteOffset: (offset + half) * 4, as: SIMD8<Int32>.self)
          unions.storeBytes(of: low | high, toByteOffset: (offset + half) * 4, as: SIMD8<Int32>.self)
          offset += width / 4
        }
      }
      while offset < start + half {
        let low = unions.load(fromByteOffset: offset * 4, as: Int32.self)
        let high = unions.load(fromByteOffset: (offset + half) * 4, as: Int32.self)
        unions.storeBytes(of: low | high, toByteOffset: (offset + half) * 4, as: Int32.self)
        offset += 1
      }
    }
  }

  /// The sets that are classes of contexts: reachable, with at least one item.
  var contexts: BitVector {
    guard let everyItemBit else { return reachable }
    return reachable.and(BitVector(setsOf: bitCount, holding: everyItemBit))
  }

  /// `formula`'s answer on every set.
  func table(_ formula: ExactFormula) -> BitVector {
    formula.answers(size: 1 << bitCount) { index in
      let atom = atoms[index]
      let whenZero = atom.test.holds(0)
      guard let bit = bitOfSlot[atom.slot] else { return BitVector(size: 1 << bitCount, value: whenZero) }
      let whenSome = atom.test.holds(1)
      if whenZero == whenSome { return BitVector(size: 1 << bitCount, value: whenZero) }
      let raised = BitVector(setsOf: bitCount, holding: bit)
      return whenSome ? raised : raised.not()
    }
  }

  /// The `keep` cheapest sets in `wanted` (all of them reachable), cheapest first (ties: smaller set first),
  /// each with its cost and the items of its cheapest collection.
  func cheapest(in wanted: BitVector, keep: Int) -> [(set: Int, cost: ExactCost, children: [Int])] {
    let target = Swift.min(keep, wanted.count)
    guard target > 0 else { return [] }
    // The sets reached so far, by set: Dijkstra stops once it has settled the wanted ones, usually after a
    // few items, so it keeps what it reached rather than tables of 2^bits entries.
    var reached: [Int: (cost: UInt64, parent: Int32, via: Int32, settled: Bool)] = [0: (0, -1, -1, false)]
    var heap = IndexedMinHeap<UInt64>()
    let stepCosts = steps.map(\.cost.folded)
    heap.push(0, 0)
    var found: [(set: Int, cost: ExactCost, children: [Int])] = []
    while let (here, set) = heap.pop() {
      guard let entry = reached[set], !entry.settled, here == entry.cost else { continue }
      reached[set]?.settled = true
      if wanted[set] {
        var children: [Int] = []
        var current = set
        while let step = reached[current], step.parent >= 0 {
          children.append(steps[Int(step.via)].child)
          current = Int(step.parent)
        }
        found.append((set, ExactCost(folded: here), children.reversed()))
        if found.count == target { break }
      }
      for (index, step) in steps.enumerated() where step.set & ~set != 0 {
        let next = set | step.set
        let nextCost = here + stepCosts[index]
        if let existing = reached[next], existing.settled || existing.cost <= nextCost { continue }
        reached[next] = (nextCost, Int32(set), Int32(index), false)
        heap.push(nextCost, next)
      }
    }
    return found
  }

}
