import UniformTypes

/// Builds every extension context of a bounded size over a set of attachment shapes, smallest first.
///
/// Activation rules look at attachments through SUBQUERY counts and ANY/ALL/NONE, which do not depend on
/// order, so contexts are enumerated up to reordering: an item is a multiset of attachment shapes, a context
/// a multiset of items. That keeps the count polynomial while covering every outcome order could not change.
public struct ContextEnumerator: Sendable {
  /// The possible attachments, each a list of registered type identifiers.
  public var shapes: [[String]]
  /// The most attachments in one context, over all items.
  public var maximumAttachments: Int
  /// The most extension items in one context (at least one).
  public var maximumItems: Int

  /// Bounds drawing attachments from `shapes`, with at most `maximumAttachments` attachments in at most
  /// `maximumItems` extension items per context.
  public init(shapes: [[String]], maximumAttachments: Int, maximumItems: Int) {
    self.shapes = shapes
    self.maximumAttachments = maximumAttachments
    self.maximumItems = Swift.max(maximumItems, 1)
  }

  /// The distractors mixed into every enumeration: types a host adds that a rule did not ask for.
  /// The `dyn.` one is what a provider registers for a file with the unknown extension `rulekit` (§C.4).
  public static let distractors = [
    "public.data", "public.url", "public.plain-text",
    DynamicTypeIdentifier(tag: "rulekit", tagClass: .filenameExtension, conformingTo: nil).identifier,
  ]

  /// Single-type attachments over `types`, their twins and the distractors, in that order without repeats.
  public static func shapes(mentioning types: [String], twins: Bool = true) -> [[String]] {
    var seen = Set<String>()
    var result: [[String]] = []
    let all = types + (twins ? types.map(IntuneTwin.twinIfNeeded) : []) + distractors
    for type in all where seen.insert(type.lowercased()).inserted { result.append([type]) }
    return result
  }

  /// For each of `types` in order, the first type `registry` declares as conforming directly to it
  /// (`public.file-url` for `public.url`), without repeats; a type with no declared subtype adds nothing.
  ///
  /// A rule testing conformance and one testing equality (`==[c]`, `IN {…}`, `BEGINSWITH`) agree on the
  /// types both name and part on their subtypes, so an enumeration over the named types alone calls such
  /// rules equal. A type real hosts share (``HostPreset/all``: `public.jpeg` for `public.image`) comes first,
  /// then the first declared in the `public.` domain, then the first declared, in the registry's order: the
  /// choice is deterministic and the witness one a user recognizes, not a Finder clipping type.
  public static func directSubtypes(of types: [String], in registry: TypeRegistry) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for type in types where seen.insert(type.lowercased()).inserted {
      let children = registry.descendants(of: type).dropFirst().filter { candidate in
        registry.parents(of: candidate).contains { registry.isEqual($0, type) }
      }
      let subtype =
        hostSharedTypes.first { shared in children.contains { registry.isEqual($0, shared) } }
        ?? children.first { $0.hasPrefix("public.") } ?? children.first
      if let subtype, seen.insert(subtype.lowercased()).inserted { result.append(subtype) }
    }
    return result
  }

  /// The types the host presets share, in preset order, each once.
  private static let hostSharedTypes: [String] = {
    var seen = Set<String>()
    return HostPreset.all.flatMap { preset in
      preset.context.extensionItems.flatMap { $0.attachments.flatMap(\.registeredTypeIdentifiers) }
    }.filter { seen.insert($0).inserted }
  }()

  /// This enumeration with a single-type attachment more for each of `types`' direct subtypes
  /// (``directSubtypes(of:in:)``) not among its shapes yet, in that order, as many as keep it within
  /// ``maximumContexts`` and ``maximumObjects``: the subtypes sharpen a bounded comparison but never turn
  /// one that fits into one refused.
  public func addingSubtypes(of types: [String], in registry: TypeRegistry) -> ContextEnumerator {
    var result = self
    guard size.isWithinLimits else { return result }
    var present = Set(shapes.flatMap { $0 }.map { $0.lowercased() })
    for subtype in Self.directSubtypes(of: types, in: registry)
    where present.insert(subtype.lowercased()).inserted {
      var candidate = result
      candidate.shapes.append([subtype])
      // Each shape more only adds contexts, so once one does not fit, none after it would.
      guard candidate.size.isWithinLimits else { break }
      result = candidate
    }
    return result
  }

  /// The most contexts one enumeration may build: 100 000. `diff` evaluates two rules on each, about
  /// 15 s for 100 000 in a release build on a 2-core machine; beyond that an enumeration is a hang, and its
  /// array of contexts hundreds of megabytes. `docs/limits.md` lists it with every other limit.
  public static let maximumContexts = 100_000

  /// The most extension items and attachments one enumeration may build, summed over its contexts:
  /// 1 000 000.
  ///
  /// Counting contexts alone misses bounds that make few but enormous contexts: `--max-attachments 0
  /// --max-items 100000` is exactly 100 000 contexts (1 to 100 000 empty items), holding five billion
  /// items. Within ``maximumContexts`` with the default bounds (at most 3 attachments in 2 items) an
  /// enumeration holds at most 500 000, so this limit only refuses bounds with many items or attachments.
  public static let maximumObjects = 1_000_000

  /// A number the enumerator counted: exact, or known only to be larger than a bound because counting
  /// stopped there (it stops soon after passing a limit, and where a count would not fit in an `Int`).
  public enum Count: Sendable, Hashable, CustomStringConvertible {
    /// The exact number.
    case exactly(Int)
    /// More than this.
    case moreThan(Int)

    /// Whether the number is larger than `limit`.
    public func exceeds(_ limit: Int) -> Bool {
      switch self {
      case .exactly(let value): value > limit
      case .moreThan(let bound): bound >= limit
      }
    }

    /// `264066` or `more than 100000`.
    public var description: String {
      switch self {
      case .exactly(let value): "\(value)"
      case .moreThan(let bound): "more than \(bound)"
      }
    }
  }

  /// What an enumeration would build: its contexts, and the extension items and attachments in them.
  public struct Size: Sendable, Hashable {
    /// How many contexts ``ContextEnumerator/contexts()`` returns.
    public var contexts: Count
    /// Extension items plus attachments, summed over the contexts.
    public var objects: Count

    /// Whether the enumeration stays within ``ContextEnumerator/maximumContexts`` and
    /// ``ContextEnumerator/maximumObjects``.
    public var isWithinLimits: Bool {
      !contexts.exceeds(ContextEnumerator.maximumContexts)
        && !objects.exceeds(ContextEnumerator.maximumObjects)
    }
  }

  /// An enumeration that would build more than ``ContextEnumerator/maximumContexts`` contexts, or more than
  /// ``ContextEnumerator/maximumObjects`` extension items and attachments.
  public struct LimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many contexts the bounds asked for.
    public var contexts: Count
    /// How many extension items and attachments those contexts hold.
    public var objects: Count
    /// The most attachments per context that asked for them.
    public var maximumAttachments: Int
    /// The most extension items per context that asked for them.
    public var maximumItems: Int
    /// How many attachment shapes each attachment is drawn from.
    public var shapes: Int

    /// The scope in words, as `rulekit` reports it beside a bounded answer.
    public var description: String {
      let scope =
        "\(contexts) contexts of up to \(maximumAttachments) attachments in up to \(maximumItems) items over "
        + "\(shapes) attachment types"
      guard contexts.exceeds(ContextEnumerator.maximumContexts) else {
        return "\(scope) hold \(objects) extension items and attachments, more than the limit of "
          + "\(ContextEnumerator.maximumObjects) (ContextEnumerator.maximumObjects); lower the most attachments "
          + "or items"
      }
      return "\(scope) exceed the limit of \(ContextEnumerator.maximumContexts) "
        + "(ContextEnumerator.maximumContexts); lower the most attachments or items"
    }
  }

  /// How many contexts ``contexts()`` returns and how many extension items and attachments they hold,
  /// computed without building them, in at most about ``maximumContexts`` steps whatever the bounds.
  ///
  /// Up to reordering a context is a multiset of items and an item a multiset of attachment shapes, so
  /// with `s` attachments an item is one of `m(s) = C(n + s - 1, s)` multisets over the `n` shapes. The
  /// contexts of `a` attachments whose non-empty items hold the sizes of a partition λ of `a` (the rest
  /// empty) number the product over λ's distinct sizes `s`, each repeated `r` times, of
  /// `C(m(s) + r - 1, r)`, once for every item count from λ's length (at least 1) to ``maximumItems``.
  /// Every partition adds at least one context, so counting is exact up to the limits; it stops soon
  /// after passing one (``Count/moreThan(_:)``), and saturates instead of overflowing.
  public var size: Size {
    let itemsBound = maximumItems
    // Without shapes only empty items exist: every context has no attachment.
    let attachmentsBound = shapes.isEmpty ? 0 : Swift.max(maximumAttachments, 0)
    var itemSizes = ItemSizes(shapes: shapes.count)
    var contexts = 0
    var objects = 0
    var partitions = 0
    var stopped = false
    var attachments = 0
    while !stopped, attachments <= attachmentsBound {
      let total = attachments
      Self.forEachPartition(of: total, maximumParts: itemsBound) { parts in
        // Checked before counting a partition, so stopping always leaves one uncounted: the true numbers
        // are then larger than the partial ones. Past a limit the count is only for the message; a few
        // thousand more partitions keep it exact for bounds just past the limit at no noticeable cost.
        let overLimit = contexts > Self.maximumContexts || objects > Self.maximumObjects
        if contexts == .max || objects == .max || (overLimit && partitions >= Self.exactCountingPartitions) {
          stopped = true
          return false
        }
        let choices = itemSizes.contexts(itemSizes: parts)
        let fewestItems = Swift.max(parts.count, 1)
        let itemCounts = itemsBound - fewestItems + 1
        // Items summed over the item counts fewestItems…itemsBound, plus the attachments of each.
        let objectsPerChoice = Saturating.add(
          Saturating.sum(from: fewestItems, through: itemsBound), Saturating.multiply(total, itemCounts))
        contexts = Saturating.add(contexts, Saturating.multiply(choices, itemCounts))
        objects = Saturating.add(objects, Saturating.multiply(choices, objectsPerChoice))
        partitions += 1
        return true
      }
      if attachments == .max { break }
      attachments += 1
    }
    guard stopped else { return Size(contexts: .exactly(contexts), objects: .exactly(objects)) }
    // Past a limit, "more than the limit" is what matters and reads better than a partial sum.
    return Size(
      contexts: .moreThan(contexts > Self.maximumContexts ? Self.maximumContexts : contexts),
      objects: .moreThan(objects > Self.maximumObjects ? Self.maximumObjects : objects))
  }

  /// How many partitions ``size`` visits once an enumeration is known to be past a limit.
  static let exactCountingPartitions = 10_000

  /// How many contexts ``contexts()`` returns when that is known exactly; `Int.max` when counting stopped
  /// past ``maximumContexts`` or the number does not fit. ``size`` says which.
  public var count: Int {
    switch size.contexts {
    case .exactly(let value): value
    case .moreThan: .max
    }
  }

  /// The bounds an enumeration settled on to stay within the limits, and what the requested ones asked for.
  public struct Reduction: Sendable {
    /// The enumerator with the bounds settled on; the requested one when that was already within the limits.
    public var enumerator: ContextEnumerator
    /// The size of the requested enumeration.
    public var requested: Size
    /// The size of ``enumerator``'s enumeration, within ``ContextEnumerator/maximumContexts`` and
    /// ``ContextEnumerator/maximumObjects``.
    public var size: Size
  }

  /// The largest bounds at most these whose enumeration stays within ``maximumContexts`` and
  /// ``maximumObjects``, for callers that check fewer contexts rather than refuse
  /// (``checkedContexts()`` refuses).
  ///
  /// Attachments are lowered first, as far as needed and down to none, keeping the items: the rules check
  /// attachments, and every item count stays covered. Only when even contexts without attachments are past
  /// a limit (many items: `0` attachments in up to `100000` items are five billion items) are the items
  /// lowered too, with no attachment. A size grows with each bound, so each is found by bisection, one
  /// ``size`` per step: about 2 × log2 of the bounds steps, each within about ``maximumContexts`` work.
  /// One item without attachments is a single context holding one object, so a reduction always ends
  /// within the limits.
  public func reducedToLimits() -> Reduction {
    let requested = size
    guard !requested.isWithinLimits else {
      return Reduction(enumerator: self, requested: requested, size: requested)
    }
    var candidate = self
    // The largest value in `low + 1 ..< high` whose enumeration is within the limits, with its size; `low`
    // and nil when none is. `low` is a floor, `high` known to be past a limit.
    func largestFitting(above low: Int, below high: Int, _ apply: (inout ContextEnumerator, Int) -> Void)
      -> (value: Int, size: Size?)
    {
      var (low, high, lowSize) = (low, high, Size?.none)
      // `untried` values lie between: `high - 1 - low` cannot overflow, as `low` is at least -1.
      while low < high - 1 {
        let untried = high - 1 - low
        let middle = low + 1 + untried / 2
        apply(&candidate, middle)
        let size = candidate.size
        if size.isWithinLimits {
          (low, lowSize) = (middle, size)
        } else {
          high = middle
        }
      }
      apply(&candidate, low)
      return (low, lowSize)
    }
    // -1: not even contexts without attachments are within the limits.
    let attachments = largestFitting(above: -1, below: Swift.max(maximumAttachments, 0)) {
      $0.maximumAttachments = Swift.max($1, 0)
    }
    if attachments.value >= 0, let size = attachments.size {
      return Reduction(enumerator: candidate, requested: requested, size: size)
    }
    candidate.maximumAttachments = 0
    let items = largestFitting(above: 1, below: maximumItems) { $0.maximumItems = $1 }
    // One item without attachments: one context holding one object.
    let size = items.size ?? Size(contexts: .exactly(1), objects: .exactly(1))
    return Reduction(enumerator: candidate, requested: requested, size: size)
  }

  /// Every context, refusing before building any when there would be more than
  /// ``ContextEnumerator/maximumContexts`` contexts or ``ContextEnumerator/maximumObjects`` extension items
  /// and attachments.
  public func checkedContexts() throws(LimitExceeded) -> [ExtensionContext] {
    let size = size
    guard size.isWithinLimits else {
      throw LimitExceeded(
        contexts: size.contexts, objects: size.objects, maximumAttachments: maximumAttachments,
        maximumItems: maximumItems, shapes: shapes.count)
    }
    return contexts()
  }

  /// Every context, fewest attachments first, then fewest items. Builds as many as the bounds ask for;
  /// ``checkedContexts()`` refuses more than the limits.
  public func contexts() -> [ExtensionContext] {
    var result: [ExtensionContext] = []
    // Items of each size, built once: every context of that size shares them.
    var itemsOfSize: [Int: [ExtensionItem]] = [:]
    for total in 0...Swift.max(maximumAttachments, 0) {
      for itemCount in 1...maximumItems {
        Self.forEachPartition(of: total, maximumParts: itemCount) { parts in
          for size in parts where itemsOfSize[size] == nil {
            itemsOfSize[size] = multisets(size).map { multiset in
              ExtensionItem(
                attachments: multiset.map { ExtensionAttachment(registeredTypeIdentifiers: shapes[$0]) })
            }
          }
          appendContexts(
            sizes: parts, emptyItems: itemCount - parts.count, itemsOfSize: itemsOfSize, into: &result)
          return true
        }
      }
    }
    return result
  }

  /// Calls `body` with each partition of `total` into at most `maximumParts` positive parts, as a
  /// non-increasing list, largest first part first (`[3]`, `[2, 1]`, `[1, 1, 1]`), until it returns false.
  /// Each recursion level adds a part, and a first part too small to leave room for the rest is not
  /// tried, so every call reaches a partition.
  static func forEachPartition(of total: Int, maximumParts: Int, _ body: ([Int]) -> Bool) {
    var parts: [Int] = []
    func extend(_ remaining: Int, _ largest: Int, _ partsLeft: Int) -> Bool {
      if remaining == 0 { return body(parts) }
      guard partsLeft > 0 else { return true }
      // The smallest first part that leaves the rest fitting in `partsLeft - 1` parts no larger than it.
      let smallest = remaining / partsLeft + (remaining % partsLeft == 0 ? 0 : 1)
      for first in stride(from: Swift.min(remaining, largest), through: smallest, by: -1) {
        parts.append(first)
        let goOn = extend(remaining - first, first, partsLeft - 1)
        parts.removeLast()
        if !goOn { return false }
      }
      return true
    }
    _ = extend(total, total, maximumParts)
  }

  /// Multisets of `size` shape indexes, as non-decreasing index lists, in lexicographic order.
  func multisets(_ size: Int) -> [[Int]] {
    var result: [[Int]] = []
    var current: [Int] = []
    current.reserveCapacity(size)
    // One shared list extended and shortened in place: each multiset costs its own length, not a copy
    // per level.
    func extend(from start: Int) {
      guard current.count < size else {
        result.append(current)
        return
      }
      for index in start..<shapes.count {
        current.append(index)
        extend(from: index)
        current.removeLast()
      }
    }
    extend(from: 0)
    return result
  }

  /// Appends every context whose non-empty items have `sizes` attachments, followed by `emptyItems` empty
  /// items.
  private func appendContexts(
    sizes: [Int], emptyItems: Int, itemsOfSize: [Int: [ExtensionItem]], into result: inout [ExtensionContext]
  ) {
    let empty = Array(repeating: ExtensionItem(attachments: []), count: emptyItems)
    var items: [ExtensionItem] = []
    items.reserveCapacity(sizes.count + emptyItems)
    // Items of equal size are chosen in non-decreasing order of their multiset so each context appears once;
    // `multisets` lists them in that order, so the index of the previous one is where the next starts.
    func build(_ position: Int, _ previous: Int) {
      if position == sizes.count {
        result.append(ExtensionContext(extensionItems: items + empty))
        return
      }
      let choices = itemsOfSize[sizes[position]] ?? []
      let first = position > 0 && sizes[position - 1] == sizes[position] ? previous : 0
      for index in first..<choices.count {
        items.append(choices[index])
        build(position + 1, index)
        items.removeLast()
      }
    }
    build(0, 0)
  }
}

/// The number of items of each size, and of multisets of them, with saturating arithmetic.
private struct ItemSizes {
  let shapes: Int
  /// `C(shapes + s - 1, s)` by `s`, as far as computed.
  private var itemsOfSize: [Int] = []

  init(shapes: Int) { self.shapes = shapes }

  /// How many items hold `size` attachments: multisets of `size` shapes.
  mutating func items(ofSize size: Int) -> Int {
    while itemsOfSize.count <= size {
      let next = itemsOfSize.count
      itemsOfSize.append(Saturating.multisets(of: shapes, size: next))
    }
    return itemsOfSize[size]
  }

  /// How many multisets of items have the sizes `itemSizes` (non-increasing): for each run of `r` items
  /// of size `s`, a multiset of `r` of the items of that size.
  mutating func contexts(itemSizes: [Int]) -> Int {
    var product = 1
    var index = 0
    while index < itemSizes.count {
      var run = 1
      while index + run < itemSizes.count, itemSizes[index + run] == itemSizes[index] { run += 1 }
      product = Saturating.multiply(
        product, Saturating.multisets(of: items(ofSize: itemSizes[index]), size: run))
      index += run
    }
    return product
  }
}

/// Non-negative arithmetic that stops at `Int.max` instead of overflowing; `Int.max` stands for "at least
/// that much" and stays there.
enum Saturating {
  static func add(_ lhs: Int, _ rhs: Int) -> Int {
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    return overflow ? .max : sum
  }

  static func multiply(_ lhs: Int, _ rhs: Int) -> Int {
    if lhs == 0 || rhs == 0 { return 0 }
    let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
    return overflow || lhs == .max || rhs == .max ? .max : product
  }

  /// `from + (from + 1) + … + through`, or 0 when the range is empty.
  static func sum(from: Int, through: Int) -> Int {
    guard from <= through else { return 0 }
    // (count × (from + through)) / 2, the product being even; saturated when it does not fit.
    let count = through - from + 1
    let (ends, overflow) = from.addingReportingOverflow(through)
    let product = overflow ? Int.max : multiply(count, ends)
    return product == .max ? .max : product / 2
  }

  /// Multisets of `size` drawn from `kinds`: `C(kinds + size - 1, size)`.
  static func multisets(of kinds: Int, size: Int) -> Int {
    if size == 0 { return 1 }
    if kinds == 0 { return 0 }
    if kinds == .max { return .max }
    let top = add(kinds, size - 1)
    return top == .max ? .max : binomial(top, size)
  }

  /// `C(n, k)`, exact when it fits.
  static func binomial(_ n: Int, _ k: Int) -> Int {
    guard k >= 0, k <= n else { return 0 }
    let k = Swift.min(k, n - k)
    var result = 1
    // C(n, i + 1) = C(n, i) × (n - i) / (i + 1); dividing by the common factor first keeps the product
    // exact. C(n, i) grows with i up to n / 2, so a step that overflows means the answer does too.
    for i in 0..<k {
      let divisor = i + 1
      let common = greatestCommonDivisor(result, divisor)
      let (product, overflow) = (result / common).multipliedReportingOverflow(
        by: (n - i) / (divisor / common))
      if overflow { return .max }
      result = product
    }
    return result
  }

  private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }
}
