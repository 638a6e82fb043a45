/// How to read an XML property list that Xcode runs through the C preprocessor before reading it.
///
/// A target with `INFOPLIST_PREPROCESS = YES` has its Info.plist preprocessed by
/// `cc -E -P -x c -Wno-trigraphs` with `-D` for each item of `INFOPLIST_PREPROCESSOR_DEFINITIONS` and
/// `-include` for `INFOPLIST_PREFIX_HEADER` (swift-build, SWBUniversalPlatform/Specs/Cpp.xcspec
/// and `InfoPlistTaskProducer.swift`). Reading with this option gives the value Xcode would see for
/// ``definitions``, while the document keeps every byte of the file:
///
/// - A line whose first non-blank character is `#` followed by `if`, `ifdef`, `ifndef`, `elif`, `else`,
///   `endif`, `define`, `undef`, `include`, `import`, `pragma`, `error` or `warning` is a directive, when it
///   stands between elements (a `#` line inside `<string>` text is text).
/// - Text in a branch that is not taken is trivia: not part of the value, still in the bytes.
/// - `#include` and `#import` are not followed: they are listed in
///   ``PropertyListPreprocessorReport/includes`` so callers can say the file was not read.
/// - `/* … */` and `// …` comments between elements are trivia, as cpp strips them. Inside element text they
///   are kept as text: cpp in C mode would strip `//…` from `https://…` too (breaking the plist unless the
///   project passes `-traditional` in `INFOPLIST_OTHER_PREPROCESSOR_FLAGS`), so this reads what the author
///   meant rather than that failure.
/// - Macros are not expanded in element text (cpp would replace a defined name in `<string>` text).
///
/// Macros cpp predefines for the target (`__APPLE__`, `__arm64__`, …) and those of the prefix header are
/// not known here: pass them in ``definitions`` when they matter.
public struct PropertyListPreprocessing: Sendable, Hashable {
  /// Macro names and their replacement text, as `-D` defines them (`-DNAME` is `"1"`).
  public var definitions: [String: String]

  /// Preprocessing with the given macro definitions.
  public init(definitions: [String: String] = [:]) {
    self.definitions = definitions
  }

  /// Preprocessing with the items of `INFOPLIST_PREPROCESSOR_DEFINITIONS`: `NAME` defines `NAME` as `1`,
  /// `NAME=value` as `value` (as cc's `-D` does).
  public init(preprocessorDefinitions items: [String]) {
    var definitions: [String: String] = [:]
    for item in items where !item.isEmpty {
      if let equals = item.firstIndex(of: "=") {
        definitions[String(item[..<equals])] = String(item[item.index(after: equals)...])
      } else {
        definitions[item] = "1"
      }
    }
    self.definitions = definitions
  }
}

/// One preprocessor directive line of a document read with ``PropertyListPreprocessing``.
public struct PropertyListDirective: Sendable, Hashable {
  /// The directive's name.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The directive names, as written after `#`.
    case `if`, ifdef, ifndef, elif, `else`, endif, define, undef, include, `import`, pragma, error, warning
  }

  /// Which directive.
  public var kind: Kind
  /// The text after the directive's name, trimmed (`DEBUG`, `"Shared.plist"`).
  public var argument: String
  /// The whole line (continued lines included), without its line break.
  public var range: Range<Int>
  /// Where the `#` is.
  public var position: PropertyListPosition
  /// Whether the directive was in a taken branch (conditionals inside a skipped branch are still tracked
  /// for nesting; nothing else there takes effect).
  public var isActive: Bool
}

/// An `#include` or `#import` of a document read with ``PropertyListPreprocessing``, which is not followed.
public struct PropertyListInclude: Sendable, Hashable {
  /// The file named, without its quotes or angle brackets.
  public var path: String
  /// Whether it was written `<path>` (searched in system paths) rather than `"path"`.
  public var isSystem: Bool
  /// Whether the directive was `#import`.
  public var isImport: Bool
  /// Where the directive is.
  public var position: PropertyListPosition
}

/// What preprocessing found in a document: directives, skipped text and includes.
public struct PropertyListPreprocessorReport: Sendable, Hashable {
  /// Every directive line, in file order.
  public var directives: [PropertyListDirective]
  /// Text in branches not taken (whole lines, without the line break of the last), in file order.
  public var inactiveRanges: [Range<Int>]
  /// `#include` and `#import` directives in taken branches: their files are not read.
  public var includes: [PropertyListInclude]
  /// Each `#if…#endif` block, from the start of its `#if` line to the end of its `#endif` line.
  public var conditionalBlocks: [Range<Int>]
  /// The macro definitions at the end of the file (the given ones, changed by `#define` and `#undef`).
  public var definitions: [String: String]

  /// Whether `offset` is strictly inside a conditional block (not at its first or last byte boundary).
  func blocks(containing offset: Int) -> [Range<Int>] {
    conditionalBlocks.filter { $0.lowerBound < offset && offset < $0.upperBound }
  }

  /// Moves an insertion point out of every conditional block that does not also contain `reference`
  /// (the container's start), forwards past the block's `#endif` line or backwards before its `#if` line,
  /// so new text is never conditional on a branch it was not asked into.
  func insertionPoint(_ offset: Int, outsideBlocksNotContaining reference: Int, forward: Bool) -> Int {
    var point = offset
    while let block = blocks(containing: point)
      .filter({ !($0.lowerBound < reference && reference < $0.upperBound) })
      .min(by: { $0.lowerBound < $1.lowerBound })
    {
      point = forward ? block.upperBound : block.lowerBound
    }
    return point
  }

  /// Whether `range` overlaps a directive line or skipped text, which an edit must keep.
  func touchesPreprocessorText(_ range: Range<Int>) -> Bool {
    directives.contains { $0.range.overlaps(range) } || inactiveRanges.contains { $0.overlaps(range) }
  }
}
