/// The search of a level of independent parts beside a count of *unsupported* children, each part searched
/// alone for every number of supporting and other choices.
///
/// A version 1 dictionary's Apple form with twins ("every attachment is one of the supported types")
/// counts the attachments that are none of them. With web URLs the count is not raised by one class only: an
/// attachment with a URL and a twin file URL passes Microsoft's URL test (a URL and no file URL) but not
/// Apple's (a URL of either kind and no file URL of either kind), so it chooses in the URL part and is still
/// unsupported. ``independentParts(steps:caps:)`` needs the count raised only by the child choosing in no
/// part, and a level that also bounds its children (`NSExtensionActivationSupportsAttachmentsWithMaxCount`)
/// defeats its core search, so such levels were searched whole, by an interval search too slow to finish by
/// default (real-rules/04, 11 and 17, real-rules-holdout/19).
///
/// Here a child's choice in a part is *supporting* when it makes the child supported whatever the other parts
/// choose; the unsupported count is raised exactly when no part's choice supports
/// (``supportingParts(steps:caps:)`` checks that this is so, and that every combination of choices is a
/// class costing its choices added up). For each part and each class of it, a table holds the fewest types
/// for every number `s` of supporting and `k` of other choices. Whether `N` children can carry choices
/// with those numbers (`w = s + k` per part) follows from counting alone (the DocC article *Deciding rules
/// exactly* has the arrangements):
///
/// - with no unsupported child exactly when every `w ≤ N ≤ Σ s`;
/// - with some unsupported child exactly when every `w ≤ N` and every `s < N`.
///
/// So each combination of classes, number of children (read up to the largest cap of the counts of every
/// child) and unsupported count (read up to 1) is decided from the tables, fewest children first, then
/// fewest types. The tables need `s + k ≤ 3a`, where `a` is the largest of those caps and of each part's
/// caps added up: a part's class is reached by at most its caps' sum of choices, and a collection of more
/// children than `3a` with none unsupported can always be trimmed below it (the article's argument).
extension LevelStates {
  /// A level's slots split into parts, the counts of every child, and the count of unsupported children.
  struct SupportingParts: Sendable {
    /// One choice of a part other than none.
    struct Choice: Sendable {
      /// The level's slots it raises.
      var increments: [Int]
      /// The types it adds to a child choosing none in every part.
      var types: Int
      /// Whether a child making it is supported whatever the other parts choose.
      var supporting: Bool
    }

    /// The slots every class raises: each counts the children.
    var shared: [Int]
    /// The slots a child raises exactly when none of its choices supports.
    var unsupported: [Int]
    /// Each part's slots, in increasing order.
    var slots: [[Int]]
    /// Each part's choices other than none.
    var choices: [[Choice]]
    /// The child standing for the class raising exactly these slots (sorted).
    var childOf: [[Int]: Int]
    /// The cost of a child choosing none in every part.
    var baseCost: ExactCost
  }

  /// The most table entries (a part's count vector with its numbers of supporting and other choices) the
  /// tables of one level may hold: some tens of milliseconds of a release build, which is what a level
  /// the tables cannot serve costs before it is searched otherwise. The real rules the tables decide need
  /// at most 4 382 (real-rules-holdout/19.plist); real-rules-holdout2/34.plist's part of six counts up to
  /// 51 passes 2 million.
  static let maximumSupportTableEntries = 100_000

  /// The split of `steps` into parts beside an unsupported count, or nil when the level has none: no slot
  /// read only as zero or not is raised exactly by the children whose every choice is of a fixed set
  /// containing none, or the classes are not every combination of the parts' choices, or do not cost their
  /// choices added up.
  static func supportingParts(steps: [Step], caps: [Int32]) -> SupportingParts? {
    guard steps.count >= 4, let words = SlotWords(steps: steps, caps: caps) else { return nil }
    let active = words.active
    func slots(of mask: UInt64) -> [Int] { words.slots(of: mask) }
    let sharedMask = words.sharedMask
    let families = words.families
    var stepOf: [UInt64: Step] = [:]
    for (step, family) in zip(steps, families) { stepOf[family] = step }
    guard stepOf.count == steps.count else { return nil }
    // The unsupported slots are the family of the child choosing in no part: every other family holds all
    // of it or none of it, and it is read only as zero or not.
    let candidates = Set(families).filter { candidate in
      candidate != 0
        && slots(of: candidate).allSatisfy { caps[$0] <= 1 }
        && families.allSatisfy { $0 & candidate == 0 || $0 & candidate == candidate }
    }
    for unsupportedMask in candidates.sorted() {
      let rest = (0..<active.count).filter { (sharedMask | unsupportedMask) & (1 << UInt64($0)) == 0 }
      var parts = Self.pairwiseParts(of: rest, families: families)
      parts.sort { $0.trailingZeroBitCount < $1.trailingZeroBitCount }
      parts = Self.mergingDependentParts(parts, families: families)
      guard !parts.isEmpty else { continue }
      // Every combination of the parts' choices is exactly one class (the unsupported slots then follow
      // from the choices) ...
      let projections = parts.map { part in Set(families.map { $0 & part }) }
      var combinations = 1
      for projection in projections {
        combinations *= projection.count
        guard combinations <= steps.count else { break }
      }
      guard combinations == steps.count,
        Set(families.map { $0 & ~unsupportedMask }).count == steps.count
      else { continue }
      // ... and the unsupported classes are every combination of choices from one set per part, each
      // holding none.
      let unsupportedFamilies = families.filter { $0 & unsupportedMask != 0 }
      let unsupportedChoices = parts.map { part in Set(unsupportedFamilies.map { $0 & part }) }
      guard unsupportedChoices.allSatisfy({ $0.contains(0) }),
        unsupportedChoices.reduce(1, { $0 * $1.count }) == unsupportedFamilies.count,
        zip(projections, unsupportedChoices).contains(where: { $0.count > $1.count }),
        let base = stepOf[unsupportedMask]
      else { continue }
      // Each choice's types beside the child choosing none elsewhere, and every class their sum.
      var extra: [[UInt64: Int]] = []
      var costsAdd = true
      for (index, projection) in projections.enumerated() {
        var types: [UInt64: Int] = [0: 0]
        for choice in projection where choice != 0 {
          let family = choice | (unsupportedChoices[index].contains(choice) ? unsupportedMask : 0)
          guard let step = stepOf[family], step.cost.items == base.cost.items,
            step.cost.attachments == base.cost.attachments, step.cost.types >= base.cost.types
          else {
            costsAdd = false
            break
          }
          types[choice] = step.cost.types - base.cost.types
        }
        extra.append(types)
      }
      guard costsAdd else { continue }
      let everyClassAdds = zip(steps, families).allSatisfy { step, family in
        var cost = base.cost
        for (index, part) in parts.enumerated() {
          guard let types = extra[index][family & part] else { return false }
          cost.types += types
        }
        return cost == step.cost
      }
      guard everyClassAdds else { continue }
      var childOf: [[Int]: Int] = [:]
      for step in steps { childOf[step.increments.sorted()] = step.child }
      return SupportingParts(
        shared: slots(of: sharedMask), unsupported: slots(of: unsupportedMask),
        slots: parts.map { slots(of: $0) },
        choices: parts.indices.map { index in
          projections[index].filter { $0 != 0 }.sorted().map { choice in
            SupportingParts.Choice(
              increments: slots(of: choice), types: extra[index][choice] ?? 0,
              supporting: !unsupportedChoices[index].contains(choice))
          }
        },
        childOf: childOf, baseCost: base.cost)
    }
    return nil
  }
}

extension LevelStates.SupportingParts {
  /// Every class of the split's children, by a code: a digit per part (its choice + 1, 0 for none), each
  /// part's place value in `strides`, and bit 0 set when some choice supports. Nil when the codes are too
  /// many or a combination of choices is no class (the split's check rules that out).
  struct ChildTable: Sendable {
    var strides: [Int]
    var childOfCode: [Int32]
  }

  /// The table of ``ChildTable``, or nil.
  func childTable() -> ChildTable? {
    var strides: [Int] = []
    var stride = 2
    for part in choices.indices {
      strides.append(stride)
      stride *= choices[part].count + 1
      guard stride <= 1 << 20 else { return nil }
    }
    var childOfCode = [Int32](repeating: -1, count: stride)
    for code in 0..<stride {
      var increments = shared
      var supported = false
      for part in choices.indices {
        let digit = code / strides[part] % (choices[part].count + 1)
        guard digit > 0 else { continue }
        increments += choices[part][digit - 1].increments
        supported = supported || choices[part][digit - 1].supporting
      }
      // Bit 0 says whether the child is supported; codes where it disagrees with the choices never occur.
      guard supported == (code & 1 == 1) else { continue }
      if !supported { increments += unsupported }
      guard let child = childOf[increments.sorted()] else { return nil }
      childOfCode[code] = Int32(child)
    }
    return ChildTable(strides: strides, childOfCode: childOfCode)
  }

  /// The children carrying each part's `picked` choices (indices into ``choices``), arranged as the
  /// documentation says; nil when they do not fit on `children` children.
  ///
  /// With an unsupported child, each part's supporting choices go on the first children and its others
  /// after them; without, the supporting choices of the parts one after another around the children, so
  /// that they cover all, and each part's others after its own. A part puts at most one choice on a child,
  /// so a child is a code of `table` (a witness may have a thousand children, looked up that way).
  func arrangement(_ picked: [[Int]], children: Int, unsupported: Bool, table: ChildTable) -> [Int32]? {
    guard picked.allSatisfy({ $0.count <= children }) else { return nil }
    var codes = [Int](repeating: 0, count: children)
    var start = 0
    for (part, choicesOfPart) in picked.enumerated() {
      let supporting = choicesOfPart.filter { choices[part][$0].supporting }
      let others = choicesOfPart.filter { !choices[part][$0].supporting }
      for (offset, choice) in (supporting + others).enumerated() {
        let position = unsupported ? offset : (start + offset) % children
        codes[position] += (choice + 1) * table.strides[part]
        if offset < supporting.count { codes[position] |= 1 }
      }
      if !unsupported, children > 0 { start = (start + supporting.count) % children }
    }
    var witness: [Int32] = []
    witness.reserveCapacity(children)
    for code in codes {
      let child = table.childOfCode[code]
      guard child >= 0 else { return nil }
      witness.append(child)
    }
    return witness
  }
}

/// The witnesses of the interval search over parts, arranged when read: a state past a count compared
/// with 999 has a thousand children, and tens of thousands of states kept as lists took hundreds of
/// megabytes (real-rules-holdout2/12.plist).
struct ArrangedWitnesses: Sendable {
  var split: LevelStates.SupportingParts
  var table: LevelStates.SupportingParts.ChildTable
  /// Each state's number of each part's choices, the parts' choices one after another.
  var choiceCounts: [[Int32]] = []
  var children: [Int] = []
  var unsupported: [Bool] = []

  /// The children of `state`'s collection.
  func witness(_ state: Int) -> [Int32] {
    var picked: [[Int]] = []
    var variable = 0
    for choices in split.choices {
      var part: [Int] = []
      for choice in choices.indices {
        part += repeatElement(choice, count: Int(choiceCounts[state][variable]))
        variable += 1
      }
      picked.append(part)
    }
    // Not nil: the table holds every class, and the search kept only states whose parts' choices fit on
    // their children.
    return split.arrangement(
      picked, children: children[state], unsupported: unsupported[state], table: table) ?? []
  }
}

extension LevelStates {
  /// Searches the level by its supporting parts (see the extension's documentation); false when a part's
  /// table or the number of states passes its bound (the level is then searched otherwise).
  mutating func searchSupportingParts(_ split: SupportingParts, caps: [Int32]) -> Bool {
    guard let table = split.childTable() else { return false }
    let childCap = split.shared.map { Int(caps[$0]) }.max() ?? 0
    var place: [(part: Int, slot: Int)?] = Array(repeating: nil, count: caps.count)
    for (part, slots) in split.slots.enumerated() {
      for (index, slot) in slots.enumerated() { place[slot] = (part, index) }
    }
    let partCaps = split.slots.map { $0.map { caps[$0] } }
    let largestSum = partCaps.map { $0.reduce(0) { $0 + Int($1) } }.max() ?? 0
    let limit = 3 * Swift.max(1, childCap, largestSum)
    // Each part's table, and its classes: the level's atoms on the part's slots.
    var budget = Self.limits.supportTableEntries
    var tables: [SupportTable] = []
    var classes: [[SupportClass]] = []
    for part in split.slots.indices {
      let choices = split.choices[part].map { choice in
        (choice.increments.compactMap { place[$0]?.slot }, choice.types, choice.supporting)
      }
      guard
        let table = SupportTable(
          caps: partCaps[part], choices: choices, limit: limit,
          otherLimit: partCaps[part].reduce(0) { $0 + Int($1) }, budget: budget)
      else { return false }
      budget -= table.nodes.count
      let partAtoms = atoms.compactMap { atom in
        place[atom.slot].flatMap { $0.part == part ? (slot: $0.slot, test: atom.test) : nil }
      }
      guard partAtoms.count <= 64 else { return false }
      var classOf: [UInt64: Int] = [:]
      var partClasses: [SupportClass] = []
      for node in table.nodes.indices {
        let vector = table.nodes[node].vector
        var key: UInt64 = 0
        for (bit, atom) in partAtoms.enumerated() where atom.test.holds(table.count(vector, slot: atom.slot))
        {
          key |= 1 << UInt64(bit)
        }
        let index: Int
        if let known = classOf[key] {
          index = known
        } else {
          index = partClasses.count
          classOf[key] = index
          partClasses.append(SupportClass(limit: limit))
        }
        partClasses[index].add(node, of: table)
      }
      for index in partClasses.indices { partClasses[index].finish(table) }
      tables.append(table)
      classes.append(partClasses)
    }
    var stateBound = (childCap + 1) * 2
    for partClasses in classes {
      stateBound *= partClasses.count
      guard stateBound <= Self.maximumCombinedStates else { return false }
    }

    var counts: [[Int]] = []
    var witnesses: [[Int32]] = []
    var stateCosts: [ExactCost] = []
    var digits = [Int](repeating: 0, count: classes.count)
    var chosen: [SupportClass] = []
    /// The cheapest nodes for `children` children none of which is unsupported: `w ≤ children ≤ Σ s`.
    func allSupported(_ children: Int) -> [Int]? {
      var nodes: [Int] = []
      var supporting = 0
      var most = 0
      for (part, found) in chosen.enumerated() {
        guard let node = found.cheapest[children] else { return nil }
        nodes.append(node)
        supporting += tables[part].nodes[node].supporting
        most += found.mostSupporting[children]
      }
      if supporting >= children { return nodes }
      guard most >= children else { return nil }
      // The cheapest choice of each part's number of supporting choices reaching `children` in all.
      var reached: [Int?] = [0] + Array(repeating: nil, count: children)
      var back: [[(from: Int, node: Int)?]] = []
      for (part, found) in chosen.enumerated() {
        let options = found.cheapestBySupporting(children: children, in: tables[part])
        var next: [Int?] = Array(repeating: nil, count: children + 1)
        var step: [(from: Int, node: Int)?] = Array(repeating: nil, count: children + 1)
        for (total, types) in reached.enumerated() {
          guard let types else { continue }
          for (supporting, node) in options.enumerated() {
            guard let node else { continue }
            let sum = Swift.min(children, total + supporting)
            let cost = types + tables[part].nodes[node].types
            if let known = next[sum], known <= cost { continue }
            next[sum] = cost
            step[sum] = (total, node)
          }
        }
        reached = next
        back.append(step)
      }
      guard reached[children] != nil else { return nil }
      var result = [Int](repeating: 0, count: chosen.count)
      var total = children
      for part in chosen.indices.reversed() {
        guard let (from, node) = back[part][total] else { return nil }
        result[part] = node
        total = from
      }
      return result
    }
    /// The cheapest nodes for `children` children some of which is unsupported: `w ≤ children`, `s <
    /// children`.
    func someUnsupported(_ children: Int) -> [Int]? {
      var nodes: [Int] = []
      for found in chosen {
        guard let node = found.cheapestUnsupported[children] else { return nil }
        nodes.append(node)
      }
      return nodes
    }
    /// Adds the state of `children` children carrying `nodes`' choices; false when a child is no class.
    func addState(children: Int, unsupported: Bool, nodes: [Int]) -> Bool {
      var stateCounts = [Int](repeating: 0, count: caps.count)
      var types = 0
      var picked: [[Int]] = []
      for (part, node) in nodes.enumerated() {
        let table = tables[part]
        for (index, slot) in split.slots[part].enumerated() {
          stateCounts[slot] = table.count(table.nodes[node].vector, slot: index)
        }
        types += table.nodes[node].types
        picked.append(table.choices(of: node))
      }
      for slot in split.shared { stateCounts[slot] = Swift.min(children, Int(caps[slot])) }
      for slot in split.unsupported { stateCounts[slot] = unsupported ? Swift.min(1, Int(caps[slot])) : 0 }
      guard
        let witness = split.arrangement(picked, children: children, unsupported: unsupported, table: table)
      else {
        return false
      }
      let base = split.baseCost
      counts.append(stateCounts)
      witnesses.append(witness)
      stateCosts.append(
        ExactCost(
          items: base.items * children, attachments: base.attachments * children,
          types: base.types * children + types))
      return true
    }

    while true {
      chosen = digits.enumerated().map { classes[$0][$1] }
      for readChildren in 0...childCap {
        // Fewer children than the cap: exactly that many; at the cap: the fewest from there on.
        let range = readChildren < childCap ? readChildren...readChildren : readChildren...limit
        for unsupported in [false, true] {
          for children in range where !unsupported || children > 0 {
            guard let nodes = unsupported ? someUnsupported(children) : allSupported(children) else {
              continue
            }
            guard addState(children: children, unsupported: unsupported, nodes: nodes) else { return false }
            break
          }
        }
      }
      var part = 0
      while part < digits.count {
        digits[part] += 1
        if digits[part] < classes[part].count { break }
        digits[part] = 0
        part += 1
      }
      if part == digits.count { break }
    }
    self.caps = caps
    costs = stateCosts
    storage = .explicit(ExplicitStates(counts: counts, witnesses: witnesses, bySupportingParts: true))
    return true
  }
}
