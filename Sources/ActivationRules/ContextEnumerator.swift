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

  /// The most contexts one enumeration may build: 100 000. `diff` evaluates two rules on each, about
  /// 15 s for 100 000 in a release build on a 2-core machine; beyond that an enumeration is a hang, and its
  /// array of contexts hundreds of megabytes. `docs/limits.md` lists it with every other limit.
  public static let maximumContexts = 100_000

  /// An enumeration that would build more than ``ContextEnumerator/maximumContexts`` contexts.
  public struct LimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many contexts the bounds asked for.
    public var contexts: Int
    /// The most attachments per context that asked for them.
    public var maximumAttachments: Int
    /// The most extension items per context that asked for them.
    public var maximumItems: Int
    /// How many attachment shapes each attachment is drawn from.
    public var shapes: Int

    public var description: String {
      "\(contexts) contexts of up to \(maximumAttachments) attachments in up to \(maximumItems) items over "
        + "\(shapes) attachment types exceed the limit of \(ContextEnumerator.maximumContexts) "
        + "(ContextEnumerator.maximumContexts); lower the most attachments or items"
    }
  }

  /// How many contexts ``contexts()`` returns, computed without building them (`Int.max` when it does not
  /// fit). Items of equal size are a multiset of multisets, so each group of `k` items with `s` attachments
  /// each is one of C(M + k - 1, k) choices, where M = C(n + s - 1, s) is the number of items of size `s`.
  public var count: Int {
    let n = Double(shapes.count)
    // Multisets of `size` from `choices`: C(choices + size - 1, size), multiplied over the smaller of the
    // two symmetric factor counts so a large size with few choices stays cheap.
    func multisets(_ choices: Double, _ size: Int) -> Double {
      guard size > 0 else { return 1 }
      guard choices > 0 else { return 0 }
      let top = choices + Double(size) - 1
      let factors = Swift.min(Double(size), choices - 1)
      var result = 1.0
      var index = 0.0
      while index < factors {
        result = result * (top - index) / (index + 1)
        index += 1
      }
      return result
    }
    var total = 0.0
    for attachments in 0...Swift.max(maximumAttachments, 0) {
      for itemCount in 1...maximumItems {
        for sizes in Self.partitions(attachments, into: itemCount) {
          var product = 1.0
          var index = 0
          while index < sizes.count {
            var run = 1
            while index + run < sizes.count, sizes[index + run] == sizes[index] { run += 1 }
            product *= multisets(multisets(n, sizes[index]).rounded(), run)
            index += run
          }
          total += product.rounded()
        }
      }
    }
    return total >= Double(Int.max) ? Int.max : Int(total)
  }

  /// Every context, refusing before building any when there would be more than
  /// ``ContextEnumerator/maximumContexts``.
  public func checkedContexts() throws(LimitExceeded) -> [ExtensionContext] {
    let count = count
    guard count <= Self.maximumContexts else {
      throw LimitExceeded(
        contexts: count, maximumAttachments: maximumAttachments, maximumItems: maximumItems,
        shapes: shapes.count)
    }
    return contexts()
  }

  /// Every context, fewest attachments first, then fewest items. Builds as many as the bounds ask for;
  /// ``checkedContexts()`` refuses more than ``ContextEnumerator/maximumContexts``.
  public func contexts() -> [ExtensionContext] {
    var result: [ExtensionContext] = []
    for total in 0...Swift.max(maximumAttachments, 0) {
      for itemCount in 1...maximumItems {
        for sizes in Self.partitions(total, into: itemCount) {
          appendContexts(sizes: sizes, into: &result)
        }
      }
    }
    return result
  }

  /// Non-increasing sequences of `parts` non-negative integers summing to `total` (items up to order).
  static func partitions(_ total: Int, into parts: Int, atMost: Int? = nil) -> [[Int]] {
    let bound = atMost ?? total
    if parts == 0 { return total == 0 ? [[]] : [] }
    var result: [[Int]] = []
    for first in stride(from: Swift.min(total, bound), through: 0, by: -1) {
      for rest in partitions(total - first, into: parts - 1, atMost: first) {
        result.append([first] + rest)
      }
    }
    return result
  }

  /// Multisets of `size` shape indexes, as non-decreasing index lists.
  func multisets(_ size: Int, from start: Int = 0) -> [[Int]] {
    if size == 0 { return [[]] }
    guard start < shapes.count else { return [] }
    var result: [[Int]] = []
    for index in start..<shapes.count {
      for rest in multisets(size - 1, from: index) { result.append([index] + rest) }
    }
    return result
  }

  private func appendContexts(sizes: [Int], into result: inout [ExtensionContext]) {
    // Items of equal size are chosen in non-decreasing order of their multiset so each context appears once.
    func build(_ position: Int, _ previous: [Int]?, _ items: [ExtensionItem]) {
      if position == sizes.count {
        result.append(ExtensionContext(extensionItems: items))
        return
      }
      for multiset in multisets(sizes[position]) {
        if let previous, position > 0, sizes[position - 1] == sizes[position],
          multiset.lexicographicallyPrecedes(previous)
        {
          continue
        }
        let item = ExtensionItem(
          attachments: multiset.map { ExtensionAttachment(registeredTypeIdentifiers: shapes[$0]) })
        build(position + 1, multiset, items + [item])
      }
    }
    build(0, nil, [])
  }
}
