/// Classes numbered in order of first appearance, keyed by a fixed number of words (a child's answers, a
/// class's effect on the counts), found by open addressing in one flat table.
///
/// Grouping a level's children is a look-up per child: 14.plist's context level groups 78 732 item states,
/// and a `Dictionary` keyed by arrays of words hashed every key through `Hasher`, allocated an array per
/// class and rehashed as it grew (about a third of that diff's instructions).
struct WordKeyedClasses {
  /// Words per key.
  let width: Int
  /// Class `k`'s key, at `k * width`.
  private(set) var keys: [UInt64] = []
  /// Each slot's class plus one; 0 is an empty slot. The capacity is a power of two, at most half full.
  private var slots: [Int32]

  /// A table for keys of `width` words (at least one), sized for about `expected` classes.
  init(width: Int, expected: Int) {
    precondition(width > 0, "keys have at least one word")
    self.width = width
    var capacity = 16
    while capacity < 2 * expected { capacity *= 2 }
    slots = Array(repeating: 0, count: capacity)
    keys.reserveCapacity(expected * width)
  }

  /// How many classes the table holds.
  private(set) var count = 0

  /// The class of `key` (its `width` words), added when new.
  mutating func classOf(_ key: UnsafeBufferPointer<UInt64>) -> (index: Int, isNew: Bool) {
    if 2 * (count + 1) > slots.count { grow() }
    let mask = slots.count - 1
    var slot = Self.hash(key) & mask
    while slots[slot] != 0 {
      let candidate = Int(slots[slot]) - 1
      if matches(candidate, key) { return (candidate, false) }
      slot = (slot + 1) & mask
    }
    slots[slot] = Int32(count + 1)
    if width == 1 { keys.append(key[0]) } else { keys.append(contentsOf: key) }
    count += 1
    return (count - 1, true)
  }

  private func matches(_ index: Int, _ key: UnsafeBufferPointer<UInt64>) -> Bool {
    if width == 1 { return keys[index] == key[0] }
    for word in 0..<width where keys[index * width + word] != key[word] { return false }
    return true
  }

  /// Groups `count` items, item `i` keyed by the words `keys[i * width..<(i + 1) * width]`: the classes,
  /// and for each class its cheapest item (the first of equally cheap ones) and that item's cost.
  static func grouping(_ keys: [UInt64], width: Int, count: Int, cost: (Int) -> ExactCost) -> (
    classes: WordKeyedClasses, cheapest: [Int], costs: [ExactCost]
  ) {
    var classes = WordKeyedClasses(width: width, expected: Swift.min(count, 1 << 16))
    var cheapest: [Int] = []
    var costs: [ExactCost] = []
    keys.withUnsafeBufferPointer { keys in
      for item in 0..<count {
        let itemCost = cost(item)
        let found = classes.classOf(
          UnsafeBufferPointer(rebasing: keys[(item * width)..<((item + 1) * width)]))
        if found.isNew {
          cheapest.append(item)
          costs.append(itemCost)
        } else if itemCost < costs[found.index] {
          cheapest[found.index] = item
          costs[found.index] = itemCost
        }
      }
    }
    return (classes, cheapest, costs)
  }

  private mutating func grow() {
    var larger = [Int32](repeating: 0, count: slots.count * 2)
    keys.withUnsafeBufferPointer { keys in
      for index in 0..<count {
        var slot =
          Self.hash(UnsafeBufferPointer(rebasing: keys[(index * width)..<((index + 1) * width)]))
          & (larger.count - 1)
        while larger[slot] != 0 { slot = (slot + 1) & (larger.count - 1) }
        larger[slot] = Int32(index + 1)
      }
    }
    slots = larger
  }

  /// Mixes the words (multiply and shift, as in SplitMix64): keys are bit patterns of answers, often alike
  /// in their low bits, so every bit must reach the slot index.
  private static func hash(_ key: UnsafeBufferPointer<UInt64>) -> Int {
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
    for word in key {
      hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 31
    }
    hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: hash ^ (hash >> 31))
  }
}
