import PredicateSyntax

/// The search of a level whose counts split into independent parts, each searched alone.
///
/// Twin injection makes such levels: `public.image` and its Intune twin
/// `com.microsoft.intune.mam.public.image` are unrelated types, so an item level counting both has one
/// class of attachments for every pair of an original choice and a twin choice, and its grid of counts is
/// the product of the two halves' grids (15.plist: 746 496 cells; 14.plist: 1.3 × 10⁹). Here the level's
/// slots are split into parts such that every class of children is one choice per part, every combination
/// of choices is a class, and a class costs the sum of its choices' costs.
///
/// A *free* part may choose none of its slots; the others, with the slots every class raises
/// (`$e.attachments.@count`), form the *core*, which every child chooses from (version 1 dictionaries'
/// "every attachment is supported" counts the attachments that are none of the original types: a slot
/// whose choice is never empty). A collection of N children is then N core choices and, for each free part,
/// at most N choices padded with "none". The core is searched with one more count, its number of
/// choices, told apart at each number some free part's class needs; each free part is searched alone;
/// a state of the level is one class of each free part and a class of the core with at least as many
/// choices as every free part's. Which combinations exist is exact with no further condition. The costs
/// are exact when, within each free part, every subset of a choice is a choice and a choice costs the sum
/// of its slots' costs (``independentParts(steps:caps:)`` checks both): a free part's count vector then
/// costs the same whatever N, so each of its classes needs only the Pareto front of (choices, cost) over its
/// count vectors. A part without both is kept when a second search shows each class's front to be one point
/// (``frontsAreSinglePoints(of:level:steps:caps:separatingEmpty:)``). A level whose "none of these" count
/// only the child choosing in no part raises has that child in its core instead of free padding. The DocC
/// article *Deciding rules exactly* has the arguments.
extension LevelStates {
  /// A level's slots split into independent parts (see the extension's documentation).
  struct IndependentParts: Sendable {
    /// The core's slots: the parts that always choose some slot, and the slots every class raises.
    var core: [Int]
    /// The core's choices: the level's slots each raises, and the cost of a child making it and choosing
    /// none in every free part.
    var coreChoices: [(increments: [Int], cost: ExactCost)]
    /// Each free part's slots, in increasing order.
    var slots: [[Int]]
    /// Each free part's choices other than none: the level's slots it raises, and the types it adds.
    var choices: [[(increments: [Int], types: Int)]]
    /// The child standing for the class raising exactly these slots (sorted).
    var childOf: [[Int]: Int]
    /// The slots of the one child choosing none in every part, when the level has none slots
    /// (``noneMask(_:)``): then a child that chooses in no part is that child, and every other child
    /// chooses in some part. Nil otherwise.
    var noneChoice: [Int]?
    /// Per free part, whether its choices are closed under subsets and cost the sum of their slots, which
    /// proves that one cheapest state per class is the class's whole front (the DocC article). A part
    /// without it (a dictionary's apple form with twins counts "original or twin" beside each alone, a
    /// choice never raising the one without the other) has its fronts checked by a second search.
    var frontsProven: [Bool]
  }

  /// The most states a split search combines (one class of each free part and of the core).
  static let maximumCombinedStates = 400_000

  /// Whether a level that splits into independent parts is searched part by part (tests turn it off to
  /// check the split search against the whole one).
  @TaskLocal static var splitsIndependentParts = true

  /// A split of the level's slots into independent parts (the finest the pairwise relation gives, coarsened
  /// only where parts depend on each other together), or nil when there is no free part, a class does not
  /// cost its parts' choices added up, or the level has more than 64 active slots (it is then searched
  /// whole; real levels have at most a dozen).
  ///
  /// Sets of slots are words of bits, bit `i` the `i`-th active slot: as `Set<Int>`s, every intersection
  /// and look-up allocated and hashed (22 M instructions for 14.plist's item level of 576 classes).
  static func independentParts(steps: [Step], caps: [Int32]) -> IndependentParts? {
    guard steps.count >= 4, let words = SlotWords(steps: steps, caps: caps) else { return nil }
    let active = words.active
    func slots(of mask: UInt64) -> [Int] { words.slots(of: mask) }
    let sharedMask = words.sharedMask
    let families = words.families
    let noneMask = Self.noneMask(families)
    let unshared = (0..<active.count).filter { (sharedMask | noneMask) & (1 << UInt64($0)) == 0 }
    // Parts that always choose some slot join the core.
    var coreMask: UInt64 = 0
    var parts: [UInt64] = []
    for part in Self.pairwiseParts(of: unshared, families: families) {
      if families.contains(where: { $0 & part == 0 }) {
        parts.append(part)
      } else {
        coreMask |= part
      }
    }
    // In the order of their lowest slots (a bit's order is its slot's).
    parts.sort { $0.trailingZeroBitCount < $1.trailingZeroBitCount }
    parts = Self.mergingDependentParts(parts, families: families)
    // The none slots are the core's: a child raises them exactly when it chooses none in every part.
    guard noneMask == 0 || coreMask == 0 else { return nil }
    coreMask |= noneMask
    guard !parts.isEmpty, parts.count + (coreMask == 0 ? 0 : 1) >= 2 else { return nil }

    // Every combination of the parts' choices must be a class: with a core choice each, or — with none
    // slots — the combination of no choice at all being the child that raises them.
    let coreChoiceSet = noneMask == 0 ? Set(families.map { $0 & coreMask }) : [0, noneMask]
    let projections = parts.map { part in Set(families.map { $0 & part }) }
    // Within a free part, whether every subset of a choice is a choice (half of what proves its fronts).
    let closedUnderSubsets = projections.map { projection in
      projection.allSatisfy { choice in
        var rest = choice
        while rest != 0 {
          guard projection.contains(choice & ~(rest & (~rest &+ 1))) else { return false }
          rest &= rest - 1
        }
        return true
      }
    }
    var combinations = noneMask == 0 ? coreChoiceSet.count : 1
    for projection in projections {
      combinations *= projection.count
      guard combinations <= steps.count else { return nil }
    }
    guard combinations == steps.count else { return nil }

    // The cost of each core choice (free parts choosing none) and of each free choice beyond none, read
    // beside the core choice of the cheapest class that chooses no free slot.
    var stepOf: [UInt64: Step] = [:]
    for (step, family) in zip(steps, families) { stepOf[family] = step }
    var coreCost: [UInt64: ExactCost] = [:]
    for choice in coreChoiceSet {
      if noneMask != 0, choice == 0, let none = stepOf[noneMask] {
        // The core choice of a child choosing in some part: its own cost without types.
        coreCost[choice] = ExactCost(items: none.cost.items, attachments: none.cost.attachments)
        continue
      }
      guard let step = stepOf[choice] else { return nil }
      coreCost[choice] = step.cost
    }
    guard let reference = coreCost.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { return nil }
    var extra: [UInt64: Int] = [:]
    for projection in projections {
      // With none slots no class chooses nothing; choosing none in one part costs nothing beyond the core.
      for choice in projection where !(noneMask != 0 && choice == 0) {
        guard let step = stepOf[reference.key | choice] else { return nil }
        extra[choice] = step.cost.types - reference.value.types
      }
      extra[0] = 0
    }
    // A class costs its core choice plus its free choices; within a free part, a choice costs the sum of
    // its slots, none negative.
    for (step, family) in zip(steps, families) {
      guard var cost = coreCost[family & coreMask] else { return nil }
      for part in parts {
        guard let types = extra[family & part] else { return nil }
        cost.types += types
      }
      guard cost == step.cost else { return nil }
    }
    guard extra.values.allSatisfy({ $0 >= 0 }) else { return nil }
    // The other half: each choice of a part closed under subsets costs the sum of its slots.
    let frontsProven = zip(projections, closedUnderSubsets).map { projection, closed in
      closed
        && projection.allSatisfy { choice in
          var sum = 0
          var rest = choice
          while rest != 0 {
            guard let own = extra[rest & (~rest &+ 1)] else { return false }
            sum += own
            rest &= rest - 1
          }
          return sum == extra[choice]
        }
    }
    var childOf: [[Int]: Int] = [:]
    for step in steps { childOf[step.increments.sorted()] = step.child }
    // Choices in lexicographic order of their lists of slots.
    let sorted = { (choices: [UInt64]) in
      choices.map { ($0, slots(of: $0)) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }
    }
    let shared = slots(of: sharedMask)
    return IndependentParts(
      core: slots(of: coreMask | sharedMask),
      coreChoices: sorted(Array(coreChoiceSet)).map { mask, choice in
        (choice + shared, coreCost[mask] ?? ExactCost())
      },
      slots: parts.map { slots(of: $0) },
      choices: projections.map { projection in
        sorted(projection.filter { $0 != 0 }).map { mask, choice in (choice, extra[mask] ?? 0) }
      },
      childOf: childOf, noneChoice: noneMask == 0 ? nil : (shared + slots(of: noneMask)).sorted(),
      frontsProven: frontsProven)
  }

  /// A level's classes as words of bits, bit `i` the `i`-th active slot (one a class may raise): the two
  /// splits into parts work on these.
  struct SlotWords {
    /// The active slots, in increasing order.
    let active: [Int]
    /// The slots every class raises.
    let sharedMask: UInt64
    /// Each class's (step's) other slots.
    let families: [UInt64]

    /// Nil for more than 64 active slots (real levels have at most a dozen).
    init?(steps: [Step], caps: [Int32]) {
      let active = caps.indices.filter { caps[$0] > 0 }
      guard active.count <= 64 else { return nil }
      var bitOfSlot = [Int](repeating: -1, count: caps.count)
      for (bit, slot) in active.enumerated() { bitOfSlot[slot] = bit }
      let raised = steps.map { step in
        step.increments.reduce(UInt64(0)) { mask, slot in
          bitOfSlot[slot] >= 0 ? mask | 1 << UInt64(bitOfSlot[slot]) : mask
        }
      }
      let sharedMask = raised.reduce(~UInt64(0)) { $0 & $1 }
      self.active = active
      self.sharedMask = sharedMask
      families = raised.map { $0 & ~sharedMask }
    }

    /// The level's slots of a word, in increasing order.
    func slots(of mask: UInt64) -> [Int] {
      var result: [Int] = []
      var rest = mask
      while rest != 0 {
        result.append(active[rest.trailingZeroBitCount])
        rest &= rest - 1
      }
      return result
    }
  }

  /// The connected components of `bits` (bits of the families' words) under "the classes do not combine
  /// these two slots' memberships freely": slots that must share a part. Pairs can miss a dependence of three
  /// slots, which ``mergingDependentParts(_:families:)`` checks afterwards.
  static func pairwiseParts(of bits: [Int], families: [UInt64]) -> [UInt64] {
    let width = (bits.max() ?? -1) + 1
    var root = Array(0..<width)
    func find(_ bit: Int) -> Int {
      var current = bit
      while root[current] != current { current = root[current] }
      return current
    }
    // Each slot's column: which classes raise it, a word of classes at a time.
    let column = (0..<width).map { bit in
      BitVector(size: families.count) { families[$0] & (1 << UInt64(bit)) != 0 }
    }
    for (index, first) in bits.enumerated() {
      let a = column[first]
      let firstValues = (a.count > 0 ? 1 : 0) + (a.count < families.count ? 1 : 0)
      for second in bits[(index + 1)...] {
        let b = column[second]
        // Free combination: every pair of memberships that each slot has on its own occurs together.
        let both = a.and(b).count
        let seen = [both, a.count - both, b.count - both, families.count - a.count - b.count + both]
          .filter { $0 > 0 }.count
        let secondValues = (b.count > 0 ? 1 : 0) + (b.count < families.count ? 1 : 0)
        if seen != firstValues * secondValues { root[find(first)] = find(second) }
      }
    }
    var partMasks: [Int: UInt64] = [:]
    for bit in bits { partMasks[find(bit), default: 0] |= 1 << UInt64(bit) }
    return Array(partMasks.values)
  }

  /// The slots raised only by one class that raises nothing else besides the slots every class raises,
  /// when no class raises nothing: a version 1 dictionary's count of attachments that are none of its
  /// types, once twins are injected into both forms (an attachment is then "none" only when it is neither
  /// an original nor a twin, which ties every original to every twin). 0 when there is none.
  private static func noneMask(_ families: [UInt64]) -> UInt64 {
    guard !families.contains(0) else { return 0 }
    let isolated = families.filter { family in
      families.allSatisfy { $0 == family || $0 & family == 0 }
    }
    return isolated.count == 1 ? isolated[0] : 0
  }

  /// `parts` merged until each is independent of the others together: every choice of it occurs with
  /// every combination of the others' choices. Slots that are pairwise free can still depend on each
  /// other three at a time (an Intune form's URL test holds for an original URL unless a file URL is
  /// there, and the apple form's, with twins, for either URL unless a file URL of either kind is), so a
  /// part is checked against the rest as a whole, and a dependent one is merged with the fewest other
  /// parts that make it independent (all of them at worst, which is the whole level: no split).
  static func mergingDependentParts(_ parts: [UInt64], families: [UInt64]) -> [UInt64] {
    var parts = parts
    func count(_ mask: UInt64) -> Int { Set(families.map { $0 & mask }).count }
    func independent(_ mask: UInt64, of rest: UInt64) -> Bool {
      rest == 0 || count(mask | rest) == count(mask) * count(rest)
    }
    let all = parts.reduce(0) { $0 | $1 }
    var index = 0
    while index < parts.count {
      let part = parts[index]
      guard !independent(part, of: all & ~part) else {
        index += 1
        continue
      }
      // The smallest set of other parts whose union with this one is independent of the rest; sets of
      // up to three parts are tried (a dependence among more merges everything, as before this split
      // was looked for).
      let others = parts.indices.filter { $0 != index }
      var partners = others
      // Each try counts the families' projections; sets of up to `maximumMergeTries` tries per size keep
      // a level of many one-slot parts (a fuzzer's, not a real rule's) from trying tens of thousands.
      search: for size in 1..<Swift.min(3, others.count) + 1
      where Self.binomial(others.count, size) <= Self.maximumMergeTries {
        for chosen in Self.subsets(of: others, size: size) {
          let merged = chosen.reduce(part) { $0 | parts[$1] }
          if independent(merged, of: all & ~merged) {
            partners = chosen
            break search
          }
        }
      }
      let merged = partners.reduce(part) { $0 | parts[$1] }
      parts = parts.indices.filter { $0 != index && !partners.contains($0) }.map { parts[$0] } + [merged]
      parts.sort { $0.trailingZeroBitCount < $1.trailingZeroBitCount }
      index = 0
    }
    return parts
  }

  /// The most sets of parts of one size ``mergingDependentParts(_:families:)`` tries for one dependent part.
  static let maximumMergeTries = 1_000

  /// The number of ways to choose `k` of `n`, stopping early once past ``maximumMergeTries``.
  private static func binomial(_ n: Int, _ k: Int) -> Int {
    var result = 1
    for step in 0..<k {
      result = result * (n - step) / (step + 1)
      if result > maximumMergeTries { return result }
    }
    return result
  }

  /// The subsets of `elements` of `size` elements, each in the elements' order.
  private static func subsets(of elements: [Int], size: Int) -> [[Int]] {
    guard size > 0 else { return [[]] }
    guard elements.count >= size else { return [] }
    var result: [[Int]] = []
    for (position, first) in elements.enumerated() {
      for rest in subsets(of: Array(elements[(position + 1)...]), size: size - 1) {
        result.append([first] + rest)
      }
    }
    return result
  }

  /// States made of one state of each free part and one of the core (see ``searchParts(_:caps:)``).
  struct CombinedStates: Sendable {
    var split: IndependentParts
    /// Each free part's own search, then the core's, their slots numbered in the part.
    var parts: [LevelStates]
    /// Where a slot of the level is counted: a part and the slot there; nil for unused slots.
    var place: [(part: Int, slot: Int)?]
    /// Each state's part states, `parts.count` per state.
    var partStates: [Int32]
    /// Each part's counts, read once: a part state's counts in a row (zeros for a part state no state uses).
    var partCounts: [[Int32]]
    /// The part states some state uses, per part: every state of a part with no more states than it has
    /// uses, else the ones used. A core searched by its grid has every reachable count vector as a state
    /// (338 688 for real-rules-holdout/23.plist), of which the combinations use a few hundred; reading them
    /// all, here and in ``answers(atoms:byCount:into:wordCount:)``, cost as much as the rest of the split.
    var used: [[Int]]
    /// How many slots each part has.
    var widths: [Int]

    init(
      split: IndependentParts, parts: [LevelStates], place: [(part: Int, slot: Int)?], widths: [Int],
      partStates: [Int32]
    ) {
      self.split = split
      self.parts = parts
      self.place = place
      self.widths = widths
      self.partStates = partStates
      let partCount = parts.count
      var partCounts: [[Int32]] = []
      var used: [[Int]] = []
      for (part, level) in parts.enumerated() {
        var states: [Int]
        if level.stateCount <= partStates.count / partCount {
          states = Array(0..<level.stateCount)
        } else {
          var seen = [Bool](repeating: false, count: level.stateCount)
          states = []
          for index in stride(from: part, to: partStates.count, by: partCount) {
            let state = Int(partStates[index])
            if !seen[state] {
              seen[state] = true
              states.append(state)
            }
          }
        }
        let width = widths[part]
        var counts = [Int32](repeating: 0, count: level.stateCount * width)
        for state in states {
          for slot in 0..<width { counts[state * width + slot] = Int32(level.count(state, slot: slot)) }
        }
        partCounts.append(counts)
        used.append(states)
      }
      self.partCounts = partCounts
      self.used = used
    }

    var stateCount: Int { partStates.count / parts.count }

    func count(_ state: Int, slot: Int) -> Int {
      guard let (part, partSlot) = place[slot] else { return 0 }
      let partState = Int(partStates[state * parts.count + part])
      return Int(partCounts[part][partState * widths[part] + partSlot])
    }

    /// Sets, in `words` (`wordCount` words per atom, a bit per state), the bit of each atom holding on each
    /// state, `byCount[atom][count]` telling whether it holds at a count. An atom reads one slot, counted
    /// by one part, so its answer on a state is its answer on that part's state: each part state's atoms
    /// are read once, as words of bits, and a state's atoms are its parts' words joined (reading every
    /// atom's count on every state was 14.plist's whole item level again: 28 548 states).
    func answers(
      atoms: [SlotTest], byCount: [[Bool]], into words: UnsafeMutableBufferPointer<UInt64>, wordCount: Int
    ) {
      let maskWords = (atoms.count + 63) / 64
      var always = [UInt64](repeating: 0, count: maskWords)
      // Part `p`'s state `s` reads its atoms from `masks[(maskBase[p] + s) * maskWords...]`.
      var maskBase: [Int] = []
      var total = 0
      for part in parts {
        maskBase.append(total)
        total += part.stateCount
      }
      var masks = [UInt64](repeating: 0, count: total * maskWords)
      for (index, atom) in atoms.enumerated() {
        let (word, bit) = (index / 64, UInt64(1) << UInt64(index % 64))
        guard let (part, partSlot) = place[atom.slot] else {
          if byCount[index][0] { always[word] |= bit }
          continue
        }
        for partState in used[part]
        where byCount[index][Int(partCounts[part][partState * widths[part] + partSlot])] {
          masks[(maskBase[part] + partState) * maskWords + word] |= bit
        }
      }
      let partCount = parts.count
      // 64 states at a time: their masks are the rows of a 64 × 64 bit matrix whose transpose holds, per
      // atom, the 64 states' answers as one word (setting a bit per state and atom was most of this).
      var block = [UInt64](repeating: 0, count: 64)
      masks.withUnsafeBufferPointer { masks in
        partStates.withUnsafeBufferPointer { partStates in
          block.withUnsafeMutableBufferPointer { block in
            for word in 0..<maskWords {
              let atomsInWord = Swift.min(64, atoms.count - word * 64)
              for first in stride(from: 0, to: stateCount, by: 64) {
                let count = Swift.min(64, stateCount - first)
                for row in 0..<64 {
                  guard row < count else {
                    block[row] = 0
                    continue
                  }
                  let state = first + row
                  var mask = always[word]
                  for part in 0..<partCount {
                    mask |=
                      masks[(maskBase[part] + Int(partStates[state * partCount + part])) * maskWords + word]
                  }
                  block[row] = mask
                }
                BitMatrix.transpose(block)
                for atom in 0..<atomsInWord {
                  words[(word * 64 + atom) * wordCount + first >> 6] = block[atom]
                }
              }
            }
          }
        }
      }
    }

    /// The children of `state`'s cheapest collection: the core's choices, with each free part's choices
    /// beside them in order, padded with none.
    func children(of state: Int) -> [Int] {
      let chosen = parts.indices.map { part in
        parts[part].children(of: Int(partStates[state * parts.count + part]))
      }
      guard let last = chosen.last else { return [] }
      // The free parts' choices go beside the core choices that carry them, which come first: the none
      // child (when there is one) takes none.
      let isNone = { (choice: Int) in
        self.split.coreChoices[choice].increments.sorted() == self.split.noneChoice
      }
      let core = last.filter { !isNone($0) } + last.filter(isNone)
      return core.enumerated().map { position, coreChoice in
        var increments = split.coreChoices[coreChoice].increments
        for (part, choices) in chosen.dropLast().enumerated() where position < choices.count {
          increments += split.choices[part][choices[position]].increments
        }
        // Every combination of choices is a class (checked by `independentParts`).
        guard let child = split.childOf[increments.sorted()] else {
          preconditionFailure("a combination of independent choices that no class has")
        }
        return child
      }
    }
  }

  /// Searches the level part by part and combines the parts' classes; false when a part's search or the
  /// number of combinations passes its bound (the level is then searched whole).
  mutating func searchParts(_ split: IndependentParts, caps: [Int32]) -> Bool {
    let coreIndex = split.slots.count
    var place: [(part: Int, slot: Int)?] = Array(repeating: nil, count: caps.count)
    for (part, slots) in (split.slots + [split.core]).enumerated() {
      for (index, slot) in slots.enumerated() { place[slot] = (part, index) }
    }
    /// A part's own level: the level's atoms on its slots.
    func partLevel(_ part: Int) -> LevelStates? {
      var level = LevelStates()
      for atom in atoms {
        guard let (atomPart, slot) = place[atom.slot], atomPart == part else { continue }
        level.atoms.append(SlotTest(slot: slot, test: atom.test))
      }
      return level.atoms.count <= 64 ? level : nil
    }
    // Each free part alone, its choices as steps (one child each), by whichever search suits its counts: a
    // class's least count vector is its whole front (the DocC article), so a search keeping one cheapest
    // state per class serves as well as every count vector (holdout2/12.plist: 9 classes, not 10⁶ cells).
    // With a none child, a child chooses in some part or is the none child: padding with "none" is not
    // free, so a part's class is split by whether the part chooses at all (its front without choices
    // would hide the cheapest way to carry a child; real-rules-holdout2/23.plist's "at most one file"
    // holds at 0 files and at 1).
    let separatesEmpty = split.noneChoice != nil
    var parts: [LevelStates] = []
    for (part, slots) in split.slots.enumerated() {
      guard let level = partLevel(part) else { return false }
      let steps: [Step] = split.choices[part].enumerated().map { index, choice in
        (
          choice.increments.compactMap { place[$0]?.slot }, index,
          ExactCost(attachments: 1, types: choice.types)
        )
      }
      guard let searched = try? level.searched(steps: steps, caps: slots.map { caps[$0] }, outputs: nil)
      else {
        return false
      }
      // With a none child, the proof of single points does not cover the classes split by emptiness.
      if !split.frontsProven[part] || separatesEmpty {
        guard
          Self.frontsAreSinglePoints(
            of: searched, level: level, steps: steps, caps: slots.map { caps[$0] },
            separatingEmpty: separatesEmpty)
        else { return false }
      }
      parts.append(searched)
    }
    // Each free part's classes (what the level's atoms read of a state), each the Pareto front of its
    // states by number of choices and cost: fewer choices can need fewer children, cheaper ones less cost.
    var fronts: [[[(choices: Int, types: Int, state: Int)]]] = []
    for level in parts {
      var classOf: [FrontKey: Int] = [:]
      var classes: [[(choices: Int, types: Int, state: Int)]] = []
      let keys = Self.frontKeys(level, separatingEmpty: separatesEmpty)
      for state in 0..<level.stateCount {
        let point = (choices: level.costs[state].attachments, types: level.costs[state].types, state: state)
        let key = keys[state]
        guard let index = classOf[key] else {
          classOf[key] = classes.count
          classes.append([point])
          continue
        }
        guard
          !classes[index].contains(where: { $0.choices <= point.choices && $0.types <= point.types })
        else { continue }
        classes[index].removeAll { $0.choices >= point.choices && $0.types >= point.types }
        classes[index].append(point)
      }
      fronts.append(classes)
    }

    // The core, with one more count: its number of choices, told apart at each number of choices a free
    // part's class may need.
    let needs = Set(fronts.flatMap { $0.flatMap { $0.map(\.choices) } }).union([0]).sorted()
    guard var core = partLevel(coreIndex), let most = needs.last else { return false }
    // With none slots, the core counts only the children that choose in some part, and a state needs
    // exactly as many as its parts' most choices: one more would choose in no part, which only the none
    // child does. More children are then reached only as none children, so the count of every child must
    // not be read past 0 (its cap at most 1), or a state with more children choosing in parts is missed.
    let carriesExactly = split.noneChoice != nil
    if let noneChoice = split.noneChoice {
      let shared = Set(noneChoice).intersection(split.coreChoices.flatMap(\.increments))
      guard shared.allSatisfy({ caps[$0] <= 1 }) else { return false }
    }
    let choiceSlot = split.core.count
    var coreCaps = split.core.map { caps[$0] }
    let choiceCap = carriesExactly ? most + 1 : most
    coreCaps.append(Int32(choiceCap))
    for need in needs.dropFirst() + (carriesExactly ? [choiceCap] : []) {
      core.atoms.append(
        SlotTest(slot: choiceSlot, test: CountTest(kind: .compare(.greaterThanOrEqualTo, Double(need)))))
    }
    let coreSteps: [Step] = split.coreChoices.enumerated().map { index, choice in
      let carries = choiceCap > 0 && choice.increments.sorted() != split.noneChoice
      return (
        choice.increments.compactMap { place[$0]?.slot } + (carries ? [choiceSlot] : []), index, choice.cost
      )
    }
    guard let searchedCore = try? core.searched(steps: coreSteps, caps: coreCaps, outputs: nil) else {
      return false
    }
    core = searchedCore
    // For each class of the core (its atoms on the level's slots) and each need, the cheapest core state
    // with at least that many choices (exactly that many with a none child).
    let levelAtoms = core.atoms.count - (needs.count - 1) - (carriesExactly ? 1 : 0)
    var coreClassOf: [UInt64: Int] = [:]
    var coreBest: [[Int?]] = []
    let coreKeys = Self.atomKeys(core, atoms: levelAtoms)
    for state in 0..<core.stateCount {
      let key = coreKeys[state]
      let index: Int
      if let found = coreClassOf[key] {
        index = found
      } else {
        index = coreBest.count
        coreClassOf[key] = index
        coreBest.append(Array(repeating: nil, count: needs.count))
      }
      let choices = core.count(state, slot: choiceSlot)
      for (needIndex, need) in needs.enumerated() where carriesExactly ? choices == need : choices >= need {
        if let best = coreBest[index][needIndex], core.costs[best] <= core.costs[state] { continue }
        coreBest[index][needIndex] = state
      }
    }
    var combinationCount = coreBest.count
    for classes in fronts {
      combinationCount *= classes.count
      guard combinationCount <= Self.maximumCombinedStates else { return false }
    }

    let combination = Self.combineClasses(
      fronts: fronts, needs: needs, coreBest: coreBest, coreCosts: core.costs, expected: combinationCount)
    let combined = CombinedStates(
      split: split, parts: parts + [core], place: place, widths: split.slots.map(\.count) + [choiceSlot + 1],
      partStates: combination.partStates)
    let costs = combination.costs
    self.caps = caps
    self.costs = costs
    storage = .combined(combined)
    return true
  }

  /// Whether each class of a free part (what the level's atoms read of it) has a single cheapest point:
  /// its cheapest state by (choices, types), as `searched` found it, has as few types as any collection
  /// of the class with any number of choices. Then no core with more choices can make the part cheaper,
  /// which is what combining one state per class assumes. Found by searching the part again with choices
  /// costing their types only: both searches reach the same states (reachability does not depend on
  /// costs), so each class's least types are read off the second.
  static func frontsAreSinglePoints(
    of searched: LevelStates, level: LevelStates, steps: [Step], caps: [Int32], separatingEmpty: Bool = false
  ) -> Bool {
    let typesOnly = steps.map { step in (step.increments, step.child, ExactCost(types: step.cost.types)) }
    guard let cheapestTypes = try? level.searched(steps: typesOnly, caps: caps, outputs: nil) else {
      return false
    }
    var leastTypes: [FrontKey: Int] = [:]
    for (state, key) in frontKeys(cheapestTypes, separatingEmpty: separatingEmpty).enumerated() {
      let types = cheapestTypes.costs[state].types
      leastTypes[key] = Swift.min(leastTypes[key] ?? types, types)
    }
    var cheapest: [FrontKey: ExactCost] = [:]
    for (state, key) in frontKeys(searched, separatingEmpty: separatingEmpty).enumerated() {
      let cost = searched.costs[state]
      if let known = cheapest[key], known <= cost { continue }
      cheapest[key] = cost
    }
    return cheapest.count == leastTypes.count
      && cheapest.allSatisfy { key, cost in leastTypes[key] == cost.types }
  }

  /// What tells a free part's classes apart: the atoms holding in a state and, when asked, whether the part
  /// chose at all (every count 0).
  struct FrontKey: Hashable {
    var atoms: UInt64
    var empty: Bool
  }

  private static func frontKeys(_ level: LevelStates, separatingEmpty: Bool) -> [FrontKey] {
    atomKeys(level).enumerated().map { state, atoms in
      FrontKey(
        atoms: atoms,
        empty: separatingEmpty && level.caps.indices.allSatisfy { level.count(state, slot: $0) == 0 })
    }
  }

  /// For each state, the atoms (the first `atoms`, or all) that hold in it, as bits. Asking each state for
  /// each atom (`holds`, through the storage and the test) took a sixth of the analysis for a core of
  /// 300 000 states (real-rules-holdout/23.plist); reading the level's answers (an atom's bit per state)
  /// and turning them around still took as long as the core's search. A packed state's key is one table
  /// look-up per slot an atom reads: each table maps the slot's count to the bits of the atoms holding at it.
  private static func atomKeys(_ level: LevelStates, atoms: Int? = nil) -> [UInt64] {
    let keyed = level.atoms.prefix(atoms ?? level.atoms.count)
    guard case .packed(let packed) = level.storage else {
      var keys = [UInt64](repeating: 0, count: level.stateCount)
      for (atom, answer) in level.answers.prefix(keyed.count).enumerated() {
        answer.forEachTrue { keys[$0] |= 1 << UInt64(atom) }
      }
      return keys
    }
    var tableOfSlot: [Int: Int] = [:]
    var tables: [(word: Int, shift: UInt64, mask: UInt64, bits: [UInt64])] = []
    for (index, atom) in keyed.enumerated() {
      let (offset, width) = packed.layout[atom.slot]
      let cap = width == 0 ? 0 : Int(level.caps[atom.slot])
      let table: Int
      if let known = tableOfSlot[atom.slot] {
        table = known
      } else {
        table = tables.count
        tableOfSlot[atom.slot] = table
        tables.append(
          (
            offset / 64, UInt64(offset % 64), width == 0 ? 0 : (UInt64(1) << UInt64(width)) - 1,
            [UInt64](repeating: 0, count: cap + 1)
          ))
      }
      for count in 0...cap where atom.test.holds(count) { tables[table].bits[count] |= 1 << UInt64(index) }
    }
    return packed.states.map { state in
      var key: UInt64 = 0
      for table in tables { key |= table.bits[Int((state[table.word] >> table.shift) & table.mask)] }
      return key
    }
  }
}
