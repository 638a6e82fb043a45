/// The preprocessor's state while an XML plist is read with ``PropertyListPreprocessing``.
struct PreprocessorState {
  /// One open `#if…#endif` block.
  struct Frame {
    /// Start of the `#if` line, and where its `#` is.
    var lineStart: Int
    var position: PropertyListPosition
    var name: String
    /// Whether the enclosing text is taken (otherwise no branch of this block is).
    var parentActive: Bool
    /// Whether the current branch is taken.
    var isActive: Bool
    /// Whether a branch of this block has been taken already (later `#elif`/`#else` are then skipped).
    var anyTaken: Bool
    var seenElse = false
  }

  var definitions: [String: String]
  var functionLike: Set<String> = []
  var frames: [Frame] = []
  var report: PropertyListPreprocessorReport

  init(_ options: PropertyListPreprocessing) {
    definitions = options.definitions
    report = PropertyListPreprocessorReport(
      directives: [], inactiveRanges: [], includes: [], conditionalBlocks: [], definitions: [:])
  }

  var isActive: Bool { frames.last?.isActive ?? true }
}

/// A directive line found in the bytes.
struct DirectiveLine {
  /// `nil` for a name that is no directive (`#foo`).
  var kind: PropertyListDirective.Kind?
  var name: String
  /// The text after the name, continuations joined and comments removed, trimmed.
  var argument: String
  /// Where the argument's text starts in the file.
  var argumentStart: Int
  /// From the start of the line to its end (continued lines included), without the line break.
  var range: Range<Int>
  /// Where the `#` is.
  var hash: Int
  /// Just past the line break (or the end of the file).
  var next: Int
}

extension XMLPlistParser {
  static let preprocessHint =
    "Xcode runs this file through the C preprocessor only when its target sets INFOPLIST_PREPROCESS = YES: "
    + "read it through its Xcode project (rulekit's --project), which applies the target's "
    + "INFOPLIST_PREPROCESSOR_DEFINITIONS, or in code with PropertyListPreprocessing"

  /// Skips one comment or directive line (and any text it leaves out) at `index`, where the parser is
  /// between elements; `false` when there is none. Without preprocessing, a directive line is an error
  /// that says how to read the file.
  mutating func skipPreprocessorTrivia() throws(PropertyListError) -> Bool {
    guard index < bytes.count else { return false }
    guard var state = preprocessor else {
      if let line = directiveLine(at: index), line.kind != nil {
        throw error(
          at: index, "preprocessor directive #\(line.name) in a property list", hint: Self.preprocessHint)
      }
      return false
    }
    if peek("/*") {
      guard let end = find("*/", from: index + 2) else {
        throw error(at: index, "comment is not closed", hint: "end it with */")
      }
      index = end + 2
      return true
    }
    if peek("//") {
      while index < bytes.count, bytes[index] != 10, bytes[index] != 13 { index += 1 }
      return true
    }
    guard let line = directiveLine(at: index) else { return false }
    guard line.kind != nil else {
      throw error(
        at: index, "#\(line.name) is not a preprocessor directive",
        hint: "directives are #if, #ifdef, #ifndef, #elif, #else, #endif, #define, #undef, #include, #import")
    }
    try process(line, in: &state)
    var cursor = line.next
    let skipStart = cursor
    // Lines of a branch not taken: only conditionals count, to find where the branch ends.
    while !state.isActive {
      guard cursor < bytes.count else {
        preprocessor = state
        throw unterminatedConditional(state)
      }
      var first = cursor
      while first < bytes.count, bytes[first] == 32 || bytes[first] == 9 { first += 1 }
      if let skipped = directiveLine(at: first), skipped.kind != nil {
        try process(skipped, in: &state)
        if state.isActive {
          if skipStart < skipped.range.lowerBound {
            state.report.inactiveRanges.append(skipStart..<skipped.range.lowerBound)
          }
        }
        cursor = skipped.next
      } else {
        while cursor < bytes.count, bytes[cursor] != 10, bytes[cursor] != 13 { cursor += 1 }
        cursor = TextScan(bytes, lines).afterLineBreak(at: cursor)
      }
    }
    index = cursor
    preprocessor = state
    return true
  }

  /// Applies one directive: conditionals always (for nesting), the others only in a taken branch.
  mutating func process(_ line: DirectiveLine, in state: inout PreprocessorState) throws(PropertyListError) {
    guard let kind = line.kind else { return }
    let active = state.isActive
    let hashPosition = position(line.hash)
    func record(_ isActive: Bool) {
      state.report.directives.append(
        PropertyListDirective(
          kind: kind, argument: line.argument, range: line.range, position: hashPosition, isActive: isActive))
    }
    switch kind {
    case .if, .ifdef, .ifndef:
      record(active)
      let taken = active ? try condition(line, state: state) : false
      state.frames.append(
        PreprocessorState.Frame(
          lineStart: line.range.lowerBound, position: hashPosition, name: line.name, parentActive: active,
          isActive: taken, anyTaken: taken))
    case .elif, .else:
      guard var frame = state.frames.popLast() else {
        throw error(
          at: line.hash, "#\(line.name) without #if", hint: "remove it, or add the #if it belongs to above it"
        )
      }
      guard !frame.seenElse else {
        throw error(
          at: line.hash, "#\(line.name) after #else (the block's #\(frame.name) is at \(frame.position))",
          hint: "a block has at most one #else, after every #elif")
      }
      record(frame.parentActive)
      let taken: Bool
      if kind == .else {
        taken = frame.parentActive && !frame.anyTaken
        frame.seenElse = true
      } else {
        taken = frame.parentActive && !frame.anyTaken ? try condition(line, state: state) : false
      }
      frame.isActive = taken
      frame.anyTaken = frame.anyTaken || taken
      state.frames.append(frame)
    case .endif:
      guard let frame = state.frames.popLast() else {
        throw error(at: line.hash, "#endif without #if", hint: "remove it, or add the #if it closes above it")
      }
      record(frame.parentActive)
      state.report.conditionalBlocks.append(frame.lineStart..<line.range.upperBound)
    case .define, .undef, .include, .import, .pragma, .error, .warning:
      record(active)
      if active { try perform(kind, line, in: &state) }
    }
  }

  /// `#define`, `#undef`, `#include`/`#import` (recorded, not read) and `#error` in a taken branch.
  mutating func perform(
    _ kind: PropertyListDirective.Kind, _ line: DirectiveLine, in state: inout PreprocessorState
  )
    throws(PropertyListError)
  {
    let argument = Array(line.argument.utf8)
    switch kind {
    case .define, .undef:
      var end = 0
      while end < argument.count, argument[end].isIdentifierStart || (end > 0 && argument[end].isDigit) {
        end += 1
      }
      guard end > 0 else {
        throw error(
          at: line.argumentStart, "#\(line.name) needs a macro name", hint: "write #\(line.name) NAME")
      }
      let name = String(decoding: argument[..<end], as: UTF8.self)
      if kind == .undef {
        state.definitions[name] = nil
        state.functionLike.remove(name)
        return
      }
      // `NAME(` with no space takes arguments; `NAME (x)` is an object-like macro whose body is `(x)`.
      if end < argument.count, argument[end] == UInt8(ascii: "(") {
        state.functionLike.insert(name)
      } else {
        state.functionLike.remove(name)
      }
      state.definitions[name] = String(decoding: argument[end...], as: UTF8.self).trimmingXMLWhitespace()
    case .include, .import:
      let close: UInt8? =
        switch argument.first {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "<"): UInt8(ascii: ">")
        default: nil
        }
      guard let close, let end = argument.dropFirst().firstIndex(of: close) else {
        throw error(
          at: line.argumentStart, "#\(line.name) expects \"FILE\" or <FILE>",
          hint: "name the file in quotes: #\(line.name) \"Shared.plist\"")
      }
      state.report.includes.append(
        PropertyListInclude(
          path: String(decoding: argument[1..<end], as: UTF8.self), isSystem: close == UInt8(ascii: ">"),
          isImport: kind == .import, position: position(line.hash)))
    case .error:
      throw error(
        at: line.hash, "#error \(line.argument)",
        hint: "the preprocessor stops here for these definitions, so Xcode would fail to build the target")
    default:
      break
    }
  }

  /// Whether the branch a `#if`, `#ifdef`, `#ifndef` or `#elif` line opens is taken.
  func condition(_ line: DirectiveLine, state: PreprocessorState) throws(PropertyListError) -> Bool {
    switch line.kind {
    case .ifdef?, .ifndef?:
      let name = line.argument.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      guard !name.isEmpty else {
        throw error(
          at: line.argumentStart, "#\(line.name) needs a macro name", hint: "write #\(line.name) NAME")
      }
      return (state.definitions[String(name)] != nil) == (line.kind == .ifdef)
    default:
      do {
        return try PreprocessorExpression.evaluate(
          line.argument, definitions: state.definitions, functionLike: state.functionLike)
      } catch {
        throw self.error(
          at: min(line.argumentStart + error.offset, line.range.upperBound),
          "cannot evaluate #\(line.name) \(line.argument): \(error.message)",
          hint: "use defined(NAME), integers, macro names, ! && || == != < > <= >= and parentheses")
      }
    }
  }

  /// The error for a `#if` still open at the end of the file.
  func unterminatedConditional(_ state: PreprocessorState) -> PropertyListError {
    guard let frame = state.frames.last else {
      return error(at: bytes.count, "the file ends in a skipped branch")
    }
    return PropertyListError(
      .malformed, "#\(frame.name) is not closed by #endif before the end of the file",
      position: frame.position, hint: "add #endif after the lines the #\(frame.name) makes conditional")
  }

  /// The directive line whose `#` is at `offset`, when it is the first non-blank character of its line.
  func directiveLine(at offset: Int) -> DirectiveLine? {
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "#") else { return nil }
    let lineStart = lines.starts[lines.lineIndex(of: offset)]
    guard bytes[lineStart..<offset].allSatisfy({ $0 == 32 || $0 == 9 }) else { return nil }
    var cursor = offset + 1
    while cursor < bytes.count, bytes[cursor] == 32 || bytes[cursor] == 9 { cursor += 1 }
    let nameStart = cursor
    while cursor < bytes.count, bytes[cursor].isIdentifierStart || bytes[cursor].isDigit { cursor += 1 }
    let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
    guard !name.isEmpty else { return nil }
    // The line ends at a line break not escaped by a backslash.
    var end = cursor
    var argument: [UInt8] = []
    while end < bytes.count, bytes[end] != 10 && bytes[end] != 13 || (end > 0 && bytes[end - 1] == 92) {
      argument.append(bytes[end])
      end += 1
    }
    let leading = argument.prefix { $0 == 32 || $0 == 9 }.count
    return DirectiveLine(
      kind: PropertyListDirective.Kind(rawValue: name), name: name,
      argument: Self.withoutComments(argument).trimmingXMLWhitespace(), argumentStart: cursor + leading,
      range: lineStart..<end, hash: offset, next: TextScan(bytes, lines).afterLineBreak(at: end))
  }

  /// Directive text with `\`-newline continuations joined and `/* */` and `//` comments removed (outside
  /// quotes), as cpp sees it.
  static func withoutComments(_ text: [UInt8]) -> String {
    var result: [UInt8] = []
    var index = 0
    var quote: UInt8?
    while index < text.count {
      let byte = text[index]
      let next = index + 1 < text.count ? text[index + 1] : 0
      if byte == 92, next == 10 || next == 13 {
        index += 2
        if next == 13, index < text.count, text[index] == 10 { index += 1 }
        result.append(32)
      } else if let open = quote {
        result.append(byte)
        if byte == open { quote = nil }
        index += 1
      } else if byte == UInt8(ascii: "\"") {
        quote = byte
        result.append(byte)
        index += 1
      } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
        break
      } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
        var end = index + 2
        while end + 1 < text.count, !(text[end] == UInt8(ascii: "*") && text[end + 1] == UInt8(ascii: "/")) {
          end += 1
        }
        index = end + 2
        result.append(32)
      } else {
        result.append(byte)
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}
