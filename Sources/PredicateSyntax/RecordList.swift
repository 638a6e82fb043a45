#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A growing list of trivial values in memory its owner frees (`deallocate()`): appending is a store and a
/// count, with none of `Array`'s uniqueness checks, which the parser paid at every node it recorded.
///
/// `Element` must be trivial (no references; `SyntaxRecord`, `ComponentRecord`): memory is freed without
/// deinitializing it. (Not spelled `BitwiseCopyable`: the records hold public enums that do not declare it.)
/// Copies share the memory. `Parser` frees its builder's lists when it ends unless a `PredicateSyntaxTree`
/// took them (`SyntaxTreeBuilder.handedOver`); the tree's storage frees them when it goes.
struct RecordList<Element>: @unchecked Sendable {
  private var base: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 4)
    base = PlainMemory.allocate(Element.self, capacity: self.capacity)
  }

  subscript(index: Int) -> Element {
    @inline(__always) get { base[index] }
    @inline(__always) set { base[index] = newValue }
  }

  /// The elements as a buffer, valid until the list grows or is freed.
  var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow(to: capacity * 2) }
    (base + count).initialize(to: element)
    count += 1
  }

  /// Appends the elements at `range` of the list itself.
  mutating func appendCopy(of range: Range<Int>) {
    if count + range.count > capacity { grow(to: Swift.max(capacity * 2, count + range.count)) }
    (base + count).update(from: base + range.lowerBound, count: range.count)
    count += range.count
  }

  private mutating func grow(to larger: Int) {
    let moved = PlainMemory.allocate(Element.self, capacity: larger)
    moved.moveInitialize(from: base, count: count)
    PlainMemory.free(base)
    base = moved
    capacity = larger
  }

  func deallocate() { PlainMemory.free(base) }
}

/// Memory for the parse's trivial values (tokens, records), from `malloc` and returned with `free`:
/// `UnsafeMutablePointer.allocate` asks the runtime for its default alignment, which on Linux it serves
/// through `posix_memalign` (about 200 instructions, outside glibc's per-thread cache), three times a parse.
/// Memory from here must go back through `free(_:)`, never `deallocate()`.
enum PlainMemory {
  static func allocate<Element>(_: Element.Type, capacity: Int) -> UnsafeMutablePointer<Element> {
    // malloc's blocks are aligned for any scalar, which covers every trivial value stored here.
    guard let raw = malloc(Swift.max(capacity, 1) * MemoryLayout<Element>.stride) else {
      fatalError("out of memory")
    }
    return raw.bindMemory(to: Element.self, capacity: capacity)
  }

  static func free<Element>(_ pointer: UnsafeMutablePointer<Element>) {
    #if canImport(Darwin)
      Darwin.free(pointer)
    #elseif canImport(Glibc)
      Glibc.free(pointer)
    #elseif canImport(Musl)
      Musl.free(pointer)
    #endif
  }

  static func free<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
    if let base = buffer.baseAddress { free(base) }
  }
}
