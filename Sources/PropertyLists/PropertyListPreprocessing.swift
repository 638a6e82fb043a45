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
/// - Macros are not expanded in element text (cpp would replace a defined name in `<string>` text);
///   ``expansion(ofMacro:)`` gives what a name that stands alone in a value becomes.
///
/// Macros cpp predefines for the target (`__APPLE__`, `__arm64__`, …) are not known here: pass them in
/// ``definitions`` when they matter. Those of a prefix header come from
/// ``definitions(inPrefixHeader:)``.
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

  /// What the macro `name` becomes in element text, with the macros its replacement names replaced in turn
  /// (cpp rescans a replacement, and never replaces a macro inside its own expansion); nil when `name` is
  /// not defined. Names inside string and character literals of a replacement stay, as cpp leaves them.
  public func expansion(ofMacro name: String) -> String? {
    guard definitions[name] != nil else { return nil }
    return expand(name, excluding: [])
  }

  private func expand(_ text: String, excluding active: Set<String>) -> String {
    var result = ""
    var rest = text[...]
    while let character = rest.first {
      if character == "\"" || character == "'" {
        // A literal, copied to its closing quote (or the end), escapes included.
        result.append(rest.removeFirst())
        while let next = rest.popFirst() {
          result.append(next)
          if next == "\\", let escaped = rest.popFirst() {
            result.append(escaped)
          } else if next == character {
            break
          }
        }
      } else if Self.isNameCharacter(character) {
        let name = String(rest.prefix(while: Self.isNameCharacter))
        rest = rest.dropFirst(name.count)
        // A token that starts with a digit is a number (`1x`), never a macro.
        if !character.isNumber, let replacement = definitions[name], !active.contains(name) {
          result += expand(replacement, excluding: active.union([name]))
        } else {
          result += name
        }
      } else {
        result.append(rest.removeFirst())
      }
    }
    return result
  }

  private static func isNameCharacter(_ character: Character) -> Bool {
    character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
  }

  /// The object-like macros a prefix header (`INFOPLIST_PREFIX_HEADER`, which cc reads before the Info.plist
  /// through `-include`) defines with `#define NAME replacement` lines, after its `#undef` lines, with
  /// comments removed and continued lines joined. Function-like macros (`#define F(x) …`) are left out: they
  /// do not replace a name that stands alone. A macro defined or undefined inside `#if`…`#endif` is left
  /// out too, since which branch cc takes is not known here; `#include`d files are not read.
  public static func definitions(inPrefixHeader text: String) -> [String: String] {
    var definitions: [String: String] = [:]
    var conditionalDepth = 0
    for line in logicalLines(withoutComments(text)) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard trimmed.first == "#" else { continue }
      let directive = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
      let keyword = directive.prefix { $0.isLetter }
      let rest = directive.dropFirst(keyword.count)
      switch keyword {
      case "if", "ifdef", "ifndef": conditionalDepth += 1
      case "endif": conditionalDepth = max(0, conditionalDepth - 1)
      case "define", "undef":
        guard conditionalDepth == 0, rest.first == " " || rest.first == "\t" else { continue }
        let afterSpace = rest.drop { $0 == " " || $0 == "\t" }
        let name = afterSpace.prefix { isNameCharacter($0) }
        guard let first = name.first, !first.isNumber else { continue }
        let afterName = afterSpace.dropFirst(name.count)
        if keyword == "undef" {
          definitions[String(name)] = nil
        } else if afterName.first != "(" {
          definitions[String(name)] = String(trimmedBlanks(afterName))
        }
      default: continue
      }
    }
    return definitions
  }

  /// `text` without the spaces and tabs at either end.
  private static func trimmedBlanks(_ text: Substring) -> Substring {
    let isBlank = { (character: Character) in character == " " || character == "\t" }
    guard let first = text.firstIndex(where: { !isBlank($0) }),
      let last = text.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return text[first...last]
  }

  /// `text` with `/* … */` and `// …` comments replaced by a space, outside string and character literals.
  private static func withoutComments(_ text: String) -> String {
    var result = ""
    var characters = text[...]
    var quote: Character?
    while let character = characters.popFirst() {
      if let open = quote {
        result.append(character)
        if character == "\\", let escaped = characters.popFirst() {
          result.append(escaped)
        } else if character == open || character == "\n" {
          quote = nil
        }
      } else if character == "/", characters.first == "*" {
        characters = characters.dropFirst()
        while !characters.isEmpty, !characters.hasPrefix("*/") {
          // Line breaks stay, so a comment never joins two directives.
          if characters.first == "\n" { result.append("\n") }
          characters = characters.dropFirst()
        }
        characters = characters.dropFirst(2)
        result.append(" ")
      } else if character == "/", characters.first == "/" {
        characters = characters.drop { $0 != "\n" }
      } else {
        if character == "\"" || character == "'" { quote = character }
        result.append(character)
      }
    }
    return result
  }

  /// The lines of `text` with backslash-continued lines joined.
  private static func logicalLines(_ text: String) -> [String] {
    var lines: [String] = []
    var current = ""
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      if line.last == "\\" {
        current += line.dropLast()
      } else {
        lines.append(current + line)
        current = ""
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
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
