/// The context level when every count it reads is only asked whether it is zero (`SUBQUERY(extensionItems,
/// …).@count > 0`, `== 0`, `extensionItems.@count > 0`): a context's class is then the set of the item terms
/// some item satisfies — the union of its items' sets — and everything about the classes follows from the
/// items' sets alone, without a search per class.
///
/// - A set `T` is some context's class exactly when the union of the items' sets inside `T` is `T`
///   (every term of `T` is brought by an item that brings nothing outside `T`): per term, the sets above
///   some item bringing it are one sum over subsets on a table of one bit per set (`bits` such tables).
/// - A rule's answer on every class at once is computed operator by operator on 64 classes per word, over
///   the list of classes (``ContextList``), not over all `2^bits` sets.
/// - The cheapest context of a class is only needed for the few classes reported (the smallest
///   disagreements, the smallest accepted and rejected context): a search from the empty context, a
///   number of items at a time, runs until it has settled those, in order of cost.
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

  /// The most slots the level may have: its tables have `2^bits` entries (4 M at 22, a bit each, and a
  /// closure pass per slot over them; 14.plist against its Intune form has 21).
  static let maximumBits = 22
}

extension ContextUnions {
  /// The level as unions, or nil when a count is compared with more than 0, there are more than
  /// ``maximumBits`` slots, or a cost could outgrow the 21 bits per component the search folds it into.
  init?(_ prepared: LevelStates.Prepared) {
    guard prepared.caps.allSatisfy({ $0 <= 1 }) else { return nil }
    // The slot counting every item takes the highest bit: every item raises it, so every nonempty
    // context's set lies in the upper half of the tables, and ``reachableSets(of:bitCount:)`` works on that
    // half only.
    let everyItemSlot = prepared.level.everyChildSlot
    var bitOfSlot: [Int?] = []
    var bitCount = 0
    for (slot, cap) in prepared.caps.enumerated() {
      bitOfSlot.append(cap == 1 && slot != everyItemSlot ? bitCount : nil)
      if cap == 1 && slot != everyItemSlot { bitCount += 1 }
    }
    if let everyItemSlot, prepared.caps[everyItemSlot] == 1 {
      bitOfSlot[everyItemSlot] = bitCount
      bitCount += 1
    }
    guard bitCount <= Self.maximumBits else { return nil }
    let largestStep = prepared.stepCosts.map { Swift.max($0.items, $0.attachments, $0.types) }.max()
    // A cheapest collection adds a bit with every item, so it has at most `bitCount` items.
    guard (largestStep ?? 0) * bitCount < 1 << 21 else { return nil }
    self.atoms = prepared.level.atoms
    self.bitOfSlot = bitOfSlot
    self.everyItemBit = prepared.level.everyChildSlot.flatMap { bitOfSlot[$0] }
    self.bitCount = bitCount
    // Each step's set, from its effect (bit `i` is slot `raised[i]`), a byte of the effect at a time: the
    // set bits each value of each byte stands for.
    let bitOfRaised = prepared.raised.map { bitOfSlot[$0] }
    let byteTables = (0..<(prepared.effectWidth * 8)).map { byte in
      (0..<256).map { value in
        (0..<8).reduce(0) { set, bit in
          let raised = byte * 8 + bit
          guard value & (1 << bit) != 0, raised < bitOfRaised.count, let setBit = bitOfRaised[raised] else {
            return set
          }
          return set | 1 << setBit
        }
      }
    }
    // When raised slot `i` has bit `i` (the item slot, created last, is the highest), a set is its effect.
    let effectIsSet =
      prepared.effectWidth == 1 && bitOfRaised.enumerated().allSatisfy { $0.element == $0.offset }
    let steps = prepared.stepChildren.indices.map { step in
      if effectIsSet {
        return (
          set: Int(truncatingIfNeeded: prepared.effects[step]), child: prepared.stepChildren[step],
          cost: prepared.stepCosts[step]
        )
      }
      var set = 0
      for word in 0..<prepared.effectWidth {
        let effect = prepared.effects[step * prepared.effectWidth + word]
        for byte in 0..<8 where (effect >> UInt64(8 * byte)) & 0xFF != 0 {
          set |= byteTables[word * 8 + byte][Int((effect >> UInt64(8 * byte)) & 0xFF)]
        }
      }
      return (set: set, child: prepared.stepChildren[step], cost: prepared.stepCosts[step])
    }
    self.steps = steps
    self.reachable = Self.reachableSets(of: steps.map(\.set), bitCount: bitCount)
  }

  /// The sets `T` that are unions of steps: every bit of `T` is brought by a step inside `T`.
  ///
  /// Per bit `b`, the sets containing some step that holds `b` are the upward closure of those steps. Only
  /// the least of them matter (a step holding `b` above another one holding `b` adds nothing), and they are
  /// usually one or two however many steps there are (25 for 14.plist's 21 bits against its Intune form, of
  /// 28 548 steps): the closure is then written directly, the supersets of each least set. A bit with more
  /// than `leastSetLimit` of them takes a sum over subsets on a table of one bit per set (2^bits bits: 256 KB
  /// at 21 bits, so each closure runs in cache, 64 sets per word operation), which costs a pass per bit of
  /// the table. A set is reachable when, for each of its bits, it lies in that bit's closure. The table
  /// replaced one table of each set's union (4 bytes per set, 8 MB at 21 bits) summed over subsets, which
  /// cost 14.plist's diff five times the instructions; the direct closures take 10 M instructions where the
  /// table took 23 M, finding the least sets included.
  /// `leastSetLimit` is for tests (nil: the cheaper of the two by the counts above).
  static func reachableSets(of sets: [Int], bitCount: Int, leastSetLimit: Int? = nil) -> BitVector {
    let size = 1 << bitCount
    // When every set holds the highest bit (the one counting items), a nonempty union is a union of the
    // sets without it, with it: the upper half of the table is the table of those, a half as large, except
    // that the set of that bit alone needs a set that is nothing else.
    let top = 1 << (bitCount - 1)
    if bitCount > 6, sets.allSatisfy({ $0 & top != 0 }) {
      let lower = sets.map { $0 & ~top }
      var words = reachableSets(of: lower, bitCount: bitCount - 1, leastSetLimit: leastSetLimit).words
      if !lower.contains(0) { words[0] &= ~1 }
      var whole = [UInt64](repeating: 0, count: 2 * words.count)
      whole[0] = 1
      whole.replaceSubrange(words.count..<whole.count, with: words)
      return BitVector(size: size, words: whole)
    }
    var reachable = BitVector(size: size, value: true).words
    let count = reachable.count
    // The table of a bit's closure, for the bits that take one.
    var closure: [UInt64] = []
    // A direct closure costs a pass over the supersets of each least set, the table about `bitCount` passes.
    let least = Self.leastSets(
      holding: sets, bitCount: bitCount, limit: leastSetLimit ?? Swift.max(1, bitCount / 3))
    for bit in 0..<bitCount {
      if let least = least[bit] {
        Self.keepInsideSupersets(of: least, holdingBit: bit, reachable: &reachable)
        continue
      }
      // From bit 6 on (a bit of the word index), the closure is taken over the sets holding the bit alone —
      // the steps holding it, and so their supersets, all lie there — with the bit dropped from each set:
      // half the table.
      let halved = bit >= 6 && bitCount >= 7
      let tableWords = halved ? count / 2 : count
      if closure.isEmpty { closure = [UInt64](repeating: 0, count: count) }
      let low = (1 << bit) - 1
      closure.withUnsafeMutableBufferPointer { closure in
        let table = UnsafeMutableBufferPointer(rebasing: closure[..<tableWords])
        table.update(repeating: 0)
        for set in sets where set & (1 << bit) != 0 {
          let entry = halved ? set & low | (set >> 1) & ~low : set
          table[entry >> 6] |= 1 << UInt64(entry & 63)
        }
        Self.closeUpward(
          table, bitCount: halved ? bitCount - 1 : bitCount, skipping: halved ? bitCount : bit)
      }
      // Sets holding `bit` stay reachable only inside its closure.
      reachable.withUnsafeMutableBufferPointer { reachable in
        closure.withUnsafeBufferPointer { closure in
          if !halved {
            let holding = BitVector.wordPattern(holding: bit)
            for word in 0..<reachable.count { reachable[word] &= ~holding | closure[word] }
          } else if let reachable = reachable.baseAddress, let closure = closure.baseAddress {
            // The words holding the bit, in blocks of `span`; block k of them is block k of the halved table.
            let span = 1 << (bit - 6)
            for (block, start) in stride(from: span, to: count, by: 2 * span).enumerated() {
              let (kept, inside) = (reachable + start, closure + block * span)
              for offset in 0..<span { kept[offset] &= inside[offset] }
            }
          }
        }
      }
    }
    return BitVector(size: size, words: reachable)
  }

  /// Per bit below `bitCount`, the least sets of `sets` holding it (no other set holding the bit lies inside
  /// one of them), or nil for a bit with more than `limit` of them — and for every bit when the sets that
  /// are least for some bit are more than ``maximumLeastSets``.
  static func leastSets(holding sets: [Int], bitCount: Int, limit: Int) -> [[Int]?] {
    let none = [[Int]?](repeating: nil, count: bitCount)
    // The sets by increasing size (a counting sort): none lies inside one before it, so a set is least for
    // a bit exactly when no set kept before it lies inside it and holds the bit. The kept sets are the
    // union of every bit's least sets.
    var sizes = [Int](repeating: 0, count: bitCount + 2)
    for set in sets { sizes[set.nonzeroBitCount + 1] += 1 }
    for size in 1..<sizes.count { sizes[size] += sizes[size - 1] }
    var sorted = [Int](repeating: 0, count: sets.count)
    for set in sets {
      sorted[sizes[set.nonzeroBitCount]] = set
      sizes[set.nonzeroBitCount] += 1
    }
    // Which kept sets lie inside a set, a byte of it at a time: entry `256 * j + v` marks (bit `i` for the
    // `i`th kept set) those whose byte `j` lies inside `v`. Three look-ups per set at 21 bits, rather than a
    // test against every kept set.
    let byteCount = (bitCount + 7) / 8
    var inside = [UInt64](repeating: 0, count: byteCount * 256)
    // Per bit, the kept sets holding it (bit `i` for the `i`th).
    var holding = [UInt64](repeating: 0, count: bitCount)
    var kept: [Int] = []
    for set in sorted {
      var candidates = UInt64.max
      for byte in 0..<byteCount { candidates &= inside[byte << 8 | (set >> (8 * byte)) & 0xFF] }
      // A bit of the set is covered when a kept set inside it holds the bit; the set is kept when one is not.
      var rest = set
      while rest != 0, candidates & holding[rest.trailingZeroBitCount] != 0 { rest &= rest - 1 }
      guard rest != 0 else { continue }
      if kept.count == Self.maximumLeastSets { return none }
      let mark = UInt64(1) << UInt64(kept.count)
      kept.append(set)
      var bits = set
      while bits != 0 {
        holding[bits.trailingZeroBitCount] |= mark
        bits &= bits - 1
      }
      for byte in 0..<byteCount {
        // Every byte value holding this set's byte: its supersets within the byte.
        let own = (set >> (8 * byte)) & 0xFF
        var value = own
        while value < 256 {
          inside[byte << 8 | value] |= mark
          value = (value + 1) | own
        }
      }
    }
    return (0..<bitCount).map { bit in
      let sets = kept.filter { $0 & 1 << bit != 0 }
      let least = sets.filter { set in !sets.contains { $0 != set && $0 & set == $0 } }
      return least.count > limit ? nil : least
    }
  }

  /// The most sets ``leastSets(holding:bitCount:limit:)`` keeps: one bit of a word each.
  static let maximumLeastSets = 64

  /// Clears from `reachable` (one bit per set) the sets holding `bit` that contain none of `least`: the sets
  /// holding the bit stay only inside the upward closure of its least sets, computed word by word.
  private static func keepInsideSupersets(of least: [Int], holdingBit bit: Int, reachable: inout [UInt64]) {
    // The bits below 6 select sets within a word, the others the words: a set's supersets are the entries
    // holding its low bits (`pattern`) in the words whose index holds its high bits (`high`).
    let parts = least.map { set in
      var pattern = UInt64.max
      var low = set & 63
      while low != 0 {
        pattern &= BitVector.wordPattern(holding: low.trailingZeroBitCount)
        low &= low - 1
      }
      return (high: set >> 6, pattern: pattern)
    }
    parts.withUnsafeBufferPointer { parts in
      reachable.withUnsafeMutableBufferPointer { reachable in
        // Keeps the sets holding the bit that `closure` (a word of the closure, by word) holds.
        @inline(__always) func keep(inside closure: (Int) -> UInt64) {
          if bit < 6 {
            let holding = BitVector.wordPattern(holding: bit)
            for word in 0..<reachable.count { reachable[word] &= ~holding | closure(word) }
          } else {
            // Only the words whose index holds the bit: blocks of `span` words, every other block.
            let span = 1 << (bit - 6)
            for start in stride(from: span, to: reachable.count, by: 2 * span) {
              for word in start..<(start + span) { reachable[word] &= closure(word) }
            }
          }
        }
        if parts.count == 1 {
          // The common case (every bit of 14.plist's context level), without the loop over the parts.
          let (high, pattern) = (parts[0].high, parts[0].pattern)
          keep { word in word & high == high ? pattern : 0 }
        } else {
          keep { word in
            var entries: UInt64 = 0
            for part in parts where word & part.high == part.high { entries |= part.pattern }
            return entries
          }
        }
      }
    }
  }

  /// Makes the table (one bit per set of `bitCount` bits) upward closed: every superset of a marked set is
  /// marked. One pass per bit, in which each set holding the bit takes in its twin without it; `skipping` is
  /// a bit every marked set already holds, whose pass would change nothing.
  private static func closeUpward(_ table: UnsafeMutableBufferPointer<UInt64>, bitCount: Int, skipping: Int) {
    // Bits below 6 are positions within a word (a twin is a shift of the word), bits 6 to 8 the words of a
    // block of eight: those nine passes run in one sweep, on eight words held in registers.
    let masks = (0..<6).map { bit in bit < bitCount ? ~BitVector.wordPattern(holding: bit) : 0 }
    let (m0, m1, m2, m3, m4, m5) = (masks[0], masks[1], masks[2], masks[3], masks[4], masks[5])
    @inline(__always) func inWord(_ word: UInt64) -> UInt64 {
      var value = word
      value |= (value & m0) << 1
      value |= (value & m1) << 2
      value |= (value & m2) << 4
      value |= (value & m3) << 8
      value |= (value & m4) << 16
      value |= (value & m5) << 32
      return value
    }
    guard bitCount >= 9 else {
      for word in 0..<table.count { table[word] = inWord(table[word]) }
      for bit in 6..<Swift.max(6, bitCount) {
        let span = 1 << (bit - 6)
        for start in stride(from: 0, to: table.count, by: 2 * span) {
          for word in start..<(start + span) { table[word + span] |= table[word] }
        }
      }
      return
    }
    for block in stride(from: 0, to: table.count, by: 8) {
      var w0 = inWord(table[block]), w1 = inWord(table[block + 1])
      var w2 = inWord(table[block + 2]), w3 = inWord(table[block + 3])
      var w4 = inWord(table[block + 4]), w5 = inWord(table[block + 5])
      var w6 = inWord(table[block + 6]), w7 = inWord(table[block + 7])
      (w1, w3, w5, w7) = (w1 | w0, w3 | w2, w5 | w4, w7 | w6)
      (w2, w3, w6, w7) = (w2 | w0, w3 | w1, w6 | w4, w7 | w5)
      (w4, w5, w6, w7) = (w4 | w0, w5 | w1, w6 | w2, w7 | w3)
      (table[block], table[block + 1], table[block + 2], table[block + 3]) = (w0, w1, w2, w3)
      (table[block + 4], table[block + 5], table[block + 6], table[block + 7]) = (w4, w5, w6, w7)
    }
    // Bits from 9 up: the upper half of each block of 2^(bit-5) words takes in the lower, 8 words or more
    // at a time (through pointers: the compiler vectorizes the loop only without index overflow checks).
    guard let base = table.baseAddress else { return }
    for bit in 9..<bitCount where bit != skipping {
      let span = 1 << (bit - 6)
      for start in stride(from: 0, to: table.count, by: 2 * span) {
        let (lower, upper) = (base + start, base + start + span)
        for offset in 0..<span { upper[offset] |= lower[offset] }
      }
    }
  }

  /// The sets inside some set of `sets` (every subset of each): the downward closure, one pass per bit in
  /// which each set without the bit takes in its twin with it. Plain loops: only a witness search that
  /// goes past its first layer needs it, which no real rule's does.
  static func downwardClosure(of sets: BitVector, bitCount: Int) -> BitVector {
    var table = sets.words
    for bit in 0..<Swift.min(bitCount, 6) {
      let (holding, shift) = (BitVector.wordPattern(holding: bit), UInt64(1) << UInt64(bit))
      for word in table.indices { table[word] |= (table[word] & holding) >> shift }
    }
    for bit in 6..<Swift.max(6, bitCount) {
      let span = 1 << (bit - 6)
      for start in stride(from: 0, to: table.count, by: 2 * span) {
        for word in start..<(start + span) { table[word] |= table[word + span] }
      }
    }
    return BitVector(size: sets.size, words: table)
  }

  /// The sets that are classes of contexts: reachable, with at least one item.
  var contexts: BitVector {
    guard let everyItemBit else { return reachable }
    return reachable.and(BitVector(setsOf: bitCount, holding: everyItemBit))
  }

  /// The classes of contexts (``contexts``) as a list, in increasing order, each with its bits as columns:
  /// rules are answered on these sets alone. They are few beside the `2^bitCount` sets a table covers
  /// (30 748 of 2 097 152 for a five-key dictionary against its Intune form), so a rule's answers cost a
  /// word operation per 64 classes, not per 64 sets.
  struct ContextList {
    /// The sets, increasing.
    let sets: [Int]
    /// Per bit, which of the sets hold it.
    let columns: [BitVector]

    init(_ unions: ContextUnions) {
      // ``contexts``, read off the reachable sets without building the table of sets holding an item: when
      // an item bit exists it is the highest, so those sets are the upper half of the table.
      let table = unions.reachable.words
      let firstWord = unions.everyItemBit == unions.bitCount - 1 && unions.bitCount >= 7 ? table.count / 2 : 0
      let itemBit = unions.everyItemBit.map { 1 << $0 } ?? 0
      var sets: [Int] = []
      sets.reserveCapacity(table[firstWord...].reduce(0) { $0 + $1.nonzeroBitCount })
      for word in firstWord..<table.count {
        var rest = table[word]
        while rest != 0 {
          let set = word << 6 | rest.trailingZeroBitCount
          if set & itemBit == itemBit { sets.append(set) }
          rest &= rest - 1
        }
      }
      // The columns: the sets as rows of a bit table, turned (a set has 11 bits on average for 14.plist:
      // setting them one by one cost four times as much).
      let words = BitMatrix.columns(
        ofRows: sets.map { UInt64(truncatingIfNeeded: $0) }, width: 1, rowCount: sets.count,
        columnCount: unions.bitCount)
      self.sets = sets
      columns = words.map { BitVector(size: sets.count, words: $0) }
    }

    /// The position of `set` in ``sets``, which must hold it.
    func position(of set: Int) -> Int {
      var (low, high) = (0, sets.count)
      while low < high {
        let middle = (low + high) / 2
        if sets[middle] < set { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  /// `formula`'s answer on every set of `list`, entry by entry.
  func answers(_ formula: ExactFormula, on list: ContextList) -> BitVector {
    let size = list.sets.count
    return formula.answers(size: size) { index in
      let atom = atoms[index]
      let whenZero = atom.test.holds(0)
      guard let bit = bitOfSlot[atom.slot] else { return BitVector(size: size, value: whenZero) }
      let whenSome = atom.test.holds(1)
      if whenZero == whenSome { return BitVector(size: size, value: whenZero) }
      return whenSome ? list.columns[bit] : list.columns[bit].not()
    }
  }

  /// The `keep` cheapest sets in `wanted` (all of them reachable), cheapest first (ties: smaller set first),
  /// each with its cost and the items of its cheapest collection.
  /// The first `count` of `positions.sorted(by: less)`, without sorting them all when they are many: a
  /// layer holds thousands of wanted sets and a diff asks for five (sorting them was 6 % of hold-out
  /// 23.plist's analysis). `less` must be a strict total order on `positions` (no ties).
  static func smallest(_ count: Int, of positions: [Int], by less: (Int, Int) -> Bool) -> [Int] {
    guard count > 0 else { return [] }
    guard positions.count > 8 * count else { return Array(positions.sorted(by: less).prefix(count)) }
    // The smallest so far, in order; a position enters only when it beats the largest of them.
    var smallest: [Int] = []
    smallest.reserveCapacity(count + 1)
    for position in positions {
      if smallest.count == count, let largest = smallest.last, !less(position, largest) { continue }
      let place = smallest.firstIndex { less(position, $0) } ?? smallest.count
      smallest.insert(position, at: place)
      if smallest.count > count { smallest.removeLast() }
    }
    return smallest
  }

  func cheapest(in wanted: BitVector, keep: Int) -> [(set: Int, cost: ExactCost, children: [Int])] {
    let target = Swift.min(keep, wanted.count)
    guard target > 0 else { return [] }
    // Every step adds one item and costs compare items first, so each set whose smallest collection has k
    // items is cheaper than every set that needs k + 1: the search settles one number of items at a time —
    // what Dijkstra's algorithm would settle in the same order, with the same ties — and builds the next
    // layer only while the wanted sets found are fewer than asked for (one layer for the real rules).
    let stepCosts = steps.map(\.cost.folded)
    var settled = BitVector(size: 1 << bitCount, value: false)
    settled[0] = true
    // Each layer's sets, each first reached at its cost from `parent` (a position in the layer before) by
    // the step `via`.
    var layers: [[(set: Int, cost: UInt64, parent: Int32, via: Int32)]] = [[(0, 0, -1, -1)]]
    var found: [(set: Int, cost: ExactCost, children: [Int])] = []
    // The sets inside some wanted set, computed once a second layer is needed.
    var usefulSets: BitVector?
    while let layer = layers.last, !layer.isEmpty {
      let cheaper = { (first: Int, second: Int) in
        (layer[first].cost, layer[first].set) < (layer[second].cost, layer[second].set)
      }
      let wantedPositions = layer.indices.filter { wanted[layer[$0].set] }
      for position in Self.smallest(target - found.count, of: wantedPositions, by: cheaper) {
        var children: [Int] = []
        var (depth, current) = (layers.count - 1, position)
        while depth > 0 {
          let entry = layers[depth][current]
          children.append(steps[Int(entry.via)].child)
          (depth, current) = (depth - 1, Int(entry.parent))
        }
        found.append((layer[position].set, ExactCost(folded: layer[position].cost), children.reversed()))
        if found.count == target { return found }
      }
      // The next layer, each set settled as it comes. From the empty context it is the steps themselves
      // (their sets differ: one step per effect). From a later layer, pairs of a set and a step are taken in order of cost (ties: the set's
      // place in the layer, then the step's number — Dijkstra's order), so the first time a union comes it
      // comes at its cheapest; once as many wanted unions as are still asked for have come, with every one
      // as cheap as the last of them, the rest of the layer is not needed.
      var next: [(set: Int, cost: UInt64, parent: Int32, via: Int32)] = []
      if layer.count == 1, layer[0].set == 0 {
        for (index, step) in steps.enumerated() where step.set != 0 && !settled[step.set] {
          settled[step.set] = true
          next.append((step.set, stepCosts[index], 0, Int32(index)))
        }
      } else {
        // Past the first layer only sets inside some wanted set can still lead to one (a union only
        // grows), so the pairs are formed from those alone: without this the layer is the product of the
        // layer before and the steps (28 548 of each for 14.plist) whenever the wanted sets are few and
        // deep. Dropping the others keeps the order of the rest, and so the ties.
        let inside = usefulSets ?? Self.downwardClosure(of: wanted, bitCount: bitCount)
        usefulSets = inside
        let order = layer.indices.filter { inside[layer[$0].set] }.sorted(by: cheaper)
        let stepOrder = steps.indices.filter { inside[steps[$0].set] }
          .sorted { (stepCosts[$0], $0) < (stepCosts[$1], $1) }
        var pairs = IndexedMinHeap<LayerPair>()
        for rank in order.indices where !stepOrder.isEmpty {
          pairs.push(
            LayerPair(
              cost: layer[order[rank]].cost + stepCosts[stepOrder[0]], rank: rank, step: stepOrder[0]), 0)
        }
        var wantedCount = 0
        var cutoff: UInt64?
        while let (pair, stepRank) = pairs.pop() {
          if let cutoff, pair.cost > cutoff { break }
          if stepRank + 1 < stepOrder.count {
            let step = stepOrder[stepRank + 1]
            pairs.push(
              LayerPair(cost: layer[order[pair.rank]].cost + stepCosts[step], rank: pair.rank, step: step),
              stepRank + 1)
          }
          let set = layer[order[pair.rank]].set
          let union = set | steps[pair.step].set
          guard union != set, !settled[union], inside[union] else { continue }
          settled[union] = true
          next.append((union, pair.cost, Int32(order[pair.rank]), Int32(pair.step)))
          if wanted[union] {
            wantedCount += 1
            if wantedCount == target - found.count { cutoff = pair.cost }
          }
        }
      }
      layers.append(next)
    }
    return found
  }
}

/// A set of a witness search's layer (by its place in cost order) and a step: the pair's cost orders the
/// search, ties going to the earlier set, then to the lower step.
struct LayerPair: Comparable {
  var cost: UInt64
  var rank: Int
  var step: Int

  static func < (lhs: LayerPair, rhs: LayerPair) -> Bool {
    (lhs.cost, lhs.rank, lhs.step) < (rhs.cost, rhs.rank, rhs.step)
  }
}
