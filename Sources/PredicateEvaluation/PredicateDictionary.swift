import Synchronization

/// The payload of ``PredicateValue/dictionary(_:)-enum.case``: a JSON object or property-list dictionary, string keys
/// each with one value.
///
/// Entries keep the order they were added in — a JSON object's order, a dictionary literal's — and that is
/// the order of iteration, ``keys`` and ``values``. Equality and hashing ignore the order, as they do for
/// `[String: PredicateValue]`: two dictionaries are equal when they hold the same keys with equal values.
///
/// Looking a key up is what evaluating a predicate mostly does, and hashing a `String` the way `Dictionary`
/// does (SipHash, seeded per dictionary) cost more than the rest of a comparison such as `age > 30`. So
/// each entry keeps a cheap hash of its key, and a small dictionary is searched by comparing that hash
/// first and the key only when the hashes match; a compiled predicate hashes its keys once, when it is
/// compiled. Keys that are not ASCII share one hash and are always compared as `String`s, so canonically
/// equivalent keys (é precomposed or decomposed) are one key, as in a Swift dictionary. A dictionary of more than ``linearSearchLimit`` entries also keeps a `Dictionary` from key to
/// position, so looking up and adding keys stays constant time however large it grows.
public struct PredicateDictionary: Sendable {
  /// A key with its hash, computed once: the compiled evaluator keeps one per key a predicate names. A
  /// class, so that closures and iterators holding one copy a single reference.
  final class HashedKey: Sendable {
    let text: String
    let hash: UInt64
    /// Where the key was last found. The objects a predicate is evaluated against one after the other
    /// mostly have their keys in the same order (one JSON document's objects, one program's contexts), so
    /// a look-up tries that position before searching. Evaluations of one compiled predicate may run on
    /// several threads: a stale or racing position only costs the search it would have spared.
    fileprivate let lastPosition = Atomic<Int>(0)

    init(_ text: String) {
      self.text = text
      hash = PredicateDictionary.hash(text)
    }
  }

  fileprivate struct Entry: Sendable {
    let hash: UInt64
    let key: String
    var value: PredicateValue
  }

  /// The largest dictionary searched entry by entry; a larger one keeps an index of positions.
  public static let linearSearchLimit = 32

  private var entries: [Entry]
  /// Each key's position in `entries`, kept only above `linearSearchLimit` entries.
  private var positions: [String: Int]?

  /// An empty dictionary.
  public init() {
    entries = []
  }

  /// The entries of `dictionary`, in the order of their keys (a `Dictionary` has no order of its own, and a
  /// fixed one keeps ``values`` and iteration the same from run to run).
  public init(_ dictionary: [String: PredicateValue]) {
    self.init()
    reserveCapacity(dictionary.count)
    for key in dictionary.keys.sorted() {
      self[key] = dictionary[key]
    }
  }

  /// The number of entries.
  public var count: Int { entries.count }

  /// Whether there are no entries.
  public var isEmpty: Bool { entries.isEmpty }

  /// The keys, in order.
  public var keys: [String] { entries.map(\.key) }

  /// The values, in the order of their keys.
  public var values: [PredicateValue] { entries.map(\.value) }

  /// Makes room for `capacity` entries, for a caller that knows how many it will add.
  public mutating func reserveCapacity(_ capacity: Int) {
    entries.reserveCapacity(capacity)
  }

  /// The position of `key` among the entries, or `nil` when it has none.
  public func index(forKey key: String) -> Int? {
    // A dictionary with an index needs no hash of ours.
    if let positions { return positions[key] }
    return position(of: key, hash: Self.hash(key))
  }

  /// The value for `key`; setting `nil` removes the entry, setting a new key adds it at the end.
  public subscript(key: String) -> PredicateValue? {
    get { index(forKey: key).map { entries[$0].value } }
    set {
      let hash = Self.hash(key)
      switch (position(of: key, hash: hash), newValue) {
      case (let position?, let value?): entries[position].value = value
      case (let position?, nil): removeEntry(at: position)
      case (nil, let value?):
        entries.append(Entry(hash: hash, key: key, value: value))
        if positions != nil {
          positions?[key] = entries.count - 1
        } else if entries.count > Self.linearSearchLimit {
          indexPositions()
        }
      case (nil, nil): break
      }
    }
  }

  /// The value for a key hashed beforehand, as the compiled evaluator looks keys up. Inlined into each
  /// look-up: the call and its saved registers cost a third of a look-up that finds the key at its hint.
  @inline(__always)
  func value(for key: HashedKey) -> PredicateValue? {
    let hint = key.lastPosition.load(ordering: .relaxed)
    if hint < entries.count, entries[hint].hash == key.hash, entries[hint].key == key.text {
      return entries[hint].value
    }
    guard let position = position(of: key.text, hash: key.hash) else { return nil }
    key.lastPosition.store(position, ordering: .relaxed)
    return entries[position].value
  }

  /// The position of `key`, whose hash is `hash`.
  fileprivate func position(of key: String, hash: UInt64) -> Int? {
    if let positions { return positions[key] }
    // Comparing the hashes first leaves a `String` comparison for the entry that (almost surely) matches.
    // Keys that are not ASCII all share one hash, so they are compared as `String`s, which compare
    // canonically equivalent text as equal: "é" written precomposed or as "e" and a combining accent, or
    // the Kelvin sign and "K".
    return entries.withUnsafeBufferPointer { entries in
      if hash == Self.nonASCII {
        return entries.firstIndex { $0.key == key }
      }
      for position in 0..<entries.count {
        let entryHash = entries[position].hash
        if entryHash == hash || entryHash == Self.nonASCII, entries[position].key == key { return position }
      }
      return nil
    }
  }

  private mutating func removeEntry(at position: Int) {
    entries.remove(at: position)
    if entries.count > Self.linearSearchLimit {
      indexPositions()
    } else {
      positions = nil
    }
  }

  private mutating func indexPositions() {
    var positions: [String: Int] = [:]
    positions.reserveCapacity(entries.count)
    for (position, entry) in entries.enumerated() { positions[entry.key] = position }
    self.positions = positions
  }

  /// The hash every key that is not ASCII has.
  private static let nonASCII: UInt64 = 0

  /// A cheap hash of an ASCII key's bytes, eight at a time; ``nonASCII`` for any other key, since `String`
  /// equality is canonical equivalence, which different bytes can have. The hash only spares most `String`
  /// comparisons in a search of at most `linearSearchLimit` entries (a larger dictionary looks keys up in a
  /// `Dictionary`), so it needs no seed against chosen collisions: the worst they cost is one comparison per
  /// entry.
  static func hash(_ key: String) -> UInt64 {
    func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
      let product = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
      return product ^ (product >> 29)
    }
    func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
      var state = UInt64(truncatingIfNeeded: bytes.count)
      var highBits: UInt64 = 0
      var offset = 0
      while offset + 8 <= bytes.count {
        let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        highBits |= word
        state = mix(state, word)
        offset += 8
      }
      var tail: UInt64 = 0
      for index in offset..<bytes.count {
        tail |= UInt64(bytes[index]) << (8 * UInt64(index - offset))
      }
      highBits |= tail
      guard highBits & 0x8080_8080_8080_8080 == 0 else { return nonASCII }
      let hash = mix(state, tail)
      return hash == nonASCII ? 1 : hash
    }
    if let answer = key.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) {
      return answer
    }
    return Array(key.utf8).withUnsafeBytes { hash($0) }
  }
}

extension PredicateDictionary: RandomAccessCollection {
  /// Positions are offsets into the entries, in order.
  public var startIndex: Int { 0 }
  /// One past the last entry.
  public var endIndex: Int { entries.count }

  /// The key and value at `position`.
  public subscript(position: Int) -> (key: String, value: PredicateValue) {
    let entry = entries[position]
    return (entry.key, entry.value)
  }
}

extension PredicateDictionary: ExpressibleByDictionaryLiteral {
  /// The entries in the order written; a repeated key keeps its last value, in its first place.
  public init(dictionaryLiteral elements: (String, PredicateValue)...) {
    self.init()
    reserveCapacity(elements.count)
    for (key, value) in elements { self[key] = value }
  }
}

extension PredicateDictionary: Hashable {
  /// Whether both hold the same keys with equal values, in whatever order.
  public static func == (lhs: PredicateDictionary, rhs: PredicateDictionary) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.entries.allSatisfy { entry in
      rhs.position(of: entry.key, hash: entry.hash).map { rhs.entries[$0].value == entry.value } ?? false
    }
  }

  /// Hashes the entries independently of their order, as `Dictionary` does.
  public func hash(into hasher: inout Hasher) {
    var combined = 0
    for entry in entries {
      var entryHasher = Hasher()
      entryHasher.combine(entry.key)
      entryHasher.combine(entry.value)
      combined ^= entryHasher.finalize()
    }
    hasher.combine(entries.count)
    hasher.combine(combined)
  }
}

extension PredicateDictionary: CustomStringConvertible {
  /// The dictionary written as JSON-like text with its keys sorted, as ``PredicateValue`` writes it.
  public var description: String { PredicateValue.dictionary(self).description }
}

extension Dictionary where Key == String, Value == PredicateValue {
  /// The entries of `dictionary`, for code that works with Swift dictionaries.
  public init(_ dictionary: PredicateDictionary) {
    self.init(minimumCapacity: dictionary.count)
    for (key, value) in dictionary { self[key] = value }
  }
}
