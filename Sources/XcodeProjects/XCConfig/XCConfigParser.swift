import PropertyLists

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The line reader behind ``XCConfigFile``; one instance follows a file and its includes.
struct XCConfigParser {
  /// Larger xcconfig files are refused: real ones are a few kilobytes.
  static let maximumFileBytes = 4 << 20
  /// Deeper include chains are refused, so a chain of distinct files cannot exhaust the stack.
  static let maximumIncludeDepth = 64
  /// More `#include`d files read for one xcconfig are refused: a file included twice is read twice, as
  /// Xcode reads it, so a chain of files each including the next twice doubles the reads at every step.
  static let maximumIncludedFiles = 1024

  /// A file being read: the top one, or one an `#include` line of the file below it is reading.
  struct Frame {
    /// The path, normalized, for messages.
    var path: String
    /// The same for every path to the file (``XCConfigParser/identity(of:)``).
    var identity: String
    /// The `#include` line that is reading it; `nil` for the top file.
    var includedAt: BuildSettingLocation?
  }

  let missingIncludePolicy: XCConfigFile.MissingIncludePolicy
  var assignments: [BuildSettingAssignment] = []
  var includedFiles: [String] = []
  var missingIncludes: [XCConfigFile.MissingInclude] = []
  var includeCycles: [XCConfigFile.IncludeCycle] = []
  var caseMismatches: [XCConfigFile.CaseMismatch] = []
  var problems: [XcodeProjectError] = []

  init(missingIncludePolicy: XCConfigFile.MissingIncludePolicy) {
    self.missingIncludePolicy = missingIncludePolicy
  }

  /// Reads one file; `stack` holds the files including it (the one including it last), for cycle
  /// detection, `includedAt` the `#include` line reading it, and `searchPaths` the folders a relative
  /// `#include` is looked for in after this file's own folder.
  mutating func parse(
    bytes: [UInt8], path: String, stack: [Frame], includedAt: BuildSettingLocation? = nil,
    searchPaths: [String] = []
  ) throws(XcodeProjectError) {
    let stack =
      stack + [
        Frame(path: XcodePath.normalize(path), identity: Self.identity(of: path), includedAt: includedAt)
      ]
    var cursor = LineCursor(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.index = 3 }
    while !cursor.isAtEnd {
      cursor.skipSpaceAndComments()
      let line = cursor.line
      let column = cursor.column
      if cursor.isAtEndOfLine {
        // An empty or comment-only line.
      } else if cursor.current == UInt8(ascii: "#") {
        try readDirective(&cursor, path: path, stack: stack, searchPaths: searchPaths)
      } else if cursor.current.isMacroNameStart {
        readAssignment(&cursor, path: path, line: line, column: column)
      } else {
        problem(path, line, column, "expected a setting name or #include, found \(cursor.describeCurrent)")
        cursor.skipRestOfLine()
      }
      cursor.skipRestOfLine()
      cursor.skipEndOfLine()
    }
  }

  private mutating func problem(_ path: String, _ line: Int, _ column: Int, _ message: String) {
    problems.append(
      XcodeProjectError(
        .xcconfigSyntax, message, location: BuildSettingLocation(file: path, line: line, column: column),
        hint: "write NAME = value, NAME[sdk=iphoneos*] = value or #include \"other.xcconfig\""))
  }

  private mutating func readDirective(
    _ cursor: inout LineCursor, path: String, stack: [Frame], searchPaths: [String]
  ) throws(XcodeProjectError) {
    let line = cursor.line
    let column = cursor.column
    cursor.advance()
    cursor.skipSpaceAndComments()
    let keyword = cursor.scan { !$0.isXCConfigSpace && $0 != 0x0A && $0 != 0x0D }
    guard keyword == "include" || keyword == "include?" else {
      problem(path, line, column, "unsupported directive '#\(keyword)'; Xcode knows #include and #include?")
      return
    }
    cursor.skipSpaceAndComments()
    guard cursor.current == UInt8(ascii: "\"") else {
      problem(path, line, column, "#\(keyword) needs a \"quoted path\"")
      return
    }
    cursor.advance()
    let name = cursor.scan { $0 != UInt8(ascii: "\"") && $0 != 0x0A && $0 != 0x0D }
    guard cursor.current == UInt8(ascii: "\"") else {
      problem(path, line, column, "the path after #\(keyword) has no closing quote")
      return
    }
    cursor.advance()
    let location = BuildSettingLocation(file: path, line: line, column: column)
    let folders = [XcodePath.dirname(path)] + searchPaths
    // A file that is there but cannot be read (a folder, a device past the size limit) is an error at this
    // line, not only at the file: the line is what to change.
    let found: (path: String, bytes: [UInt8], spelt: String?)?
    do {
      found = try Self.locate(name, in: folders)
    } catch {
      throw XcodeProjectError(
        error.kind, "#include \"\(name)\": \(error.message)", location: location, hint: error.hint)
    }
    let target = found?.path ?? XcodePath.join(XcodePath.dirname(path), name)
    // As swift-build's foundPreprocessorInclusion: a file it found (or an absolute path) that is being read
    // further down the stack is skipped, and the rest of this file read. A file read before and finished
    // with is read again.
    if found != nil || XcodePath.isAbsolute(name) {
      let identity = Self.identity(of: target)
      if let start = stack.firstIndex(where: { $0.identity == identity }) {
        includeCycles.append(
          XCConfigFile.IncludeCycle(
            location: location, written: name, isOptional: keyword == "include?",
            chain: stack[start...].map(\.path) + [XcodePath.normalize(target)],
            links: stack[(start + 1)...].compactMap(\.includedAt)))
        return
      }
    }
    guard stack.count < Self.maximumIncludeDepth else {
      throw XcodeProjectError(
        .limitExceeded, "#include chain deeper than \(Self.maximumIncludeDepth) files", location: location)
    }
    guard let found else {
      var searched: [String] = []
      for folder in folders.map(XcodePath.normalize) where !searched.contains(folder) {
        searched.append(folder)
      }
      let missing = XCConfigFile.MissingInclude(
        location: location, path: target, written: name, isOptional: keyword == "include?",
        searched: XcodePath.isAbsolute(name) ? [] : searched)
      // Xcode skips a missing #include? without a word; one whose path names a build setting can never be
      // found (see MissingInclude.namesBuildSetting), so it is listed, for the resolver to say so.
      if missing.isOptional {
        if missing.namesBuildSetting { missingIncludes.append(missing) }
        return
      }
      if missingIncludePolicy == .record {
        missingIncludes.append(missing)
        return
      }
      throw XcodeProjectError(
        .includeNotFound, "#include \"\(name)\": \(missing.problem)", location: location,
        hint: missing.hint)
    }
    guard includedFiles.count < Self.maximumIncludedFiles else {
      throw XcodeProjectError(
        .limitExceeded, "more than \(Self.maximumIncludedFiles) #include files read for one xcconfig",
        location: location, hint: "include each shared file once, from the files that need it")
    }
    includedFiles.append(found.path)
    if let spelt = found.spelt {
      caseMismatches.append(
        XCConfigFile.CaseMismatch(location: location, written: name, spelt: spelt, found: found.path))
    }
    try parse(bytes: found.bytes, path: found.path, stack: stack, includedAt: location, searchPaths: folders)
  }

  /// What is the same for every path to one file: the path with symbolic links resolved, as swift-build
  /// compares the files being read (`AncestorInclude.resolvedPath`, `realpath`); the normalized path when
  /// that fails (no such file).
  static func identity(of path: String) -> String {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      if let resolved = realpath(path, nil) {
        defer { free(resolved) }
        return String(cString: resolved)
      }
    #endif
    return XcodePath.normalize(path)
  }

  /// The file an `#include "name"` reads, as Xcode finds it (swift-build 22b2f578,
  /// SWBCore/MacroConfigFileLoader.swift, `foundPreprocessorInclusion`): `name` exactly as written,
  /// no build setting expanded in it (Xcode reads the xcconfig once for every configuration, before any
  /// setting has a value); a relative name is looked for in `folders` in order (the including file's
  /// folder, then those of the files including it, then the project's folder), and a name without an
  /// extension also as `name.xcconfig`. `nil` when none exists.
  ///
  /// Each place is looked at as a case-insensitive volume (macOS's default, where Xcode runs) looks:
  /// `Version.public.xcconfig` finds `Version.Public.xcconfig` (Simplenote's and WooCommerce's
  /// `config/`); `spelt` is then the path as written, for a warning.
  static func locate(_ name: String, in folders: [String]) throws(XcodeProjectError) -> (
    path: String, bytes: [UInt8], spelt: String?
  )? {
    let bases = XcodePath.isAbsolute(name) ? [""] : folders
    for base in bases {
      // `./` components only spell the way there (NetNewsWire's `#include "./common/…"`): dropped, so
      // locations name the file plainly. `..` stays, since it means something else past a symbolic link.
      let path = XcodePath.droppingCurrentDirectoryComponents(XcodePath.join(base, name))
      let candidates = XcodePath.fileExtension(name).isEmpty ? [path, path + ".xcconfig"] : [path]
      for candidate in candidates {
        guard let existing = CaseInsensitivePath.existing(candidate) else { continue }
        if let bytes = try XcodeFileReader.bytes(atPath: existing, limit: maximumFileBytes) {
          return (existing, bytes, existing == candidate ? nil : candidate)
        }
      }
    }
    return nil
  }

  private mutating func readAssignment(_ cursor: inout LineCursor, path: String, line: Int, column: Int) {
    let name = cursor.scan { $0.isMacroNameByte }
    cursor.skipSpaceAndComments()
    var conditions: [BuildSettingCondition] = []
    while cursor.current == UInt8(ascii: "[") {
      cursor.advance()
      let parameter = cursor.scan {
        $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "]") && !$0.isLineBreakByte
      }
      guard cursor.current == UInt8(ascii: "=") else {
        problem(path, line, column, "the condition after \(name) has no '=': write [\(parameter)=pattern]")
        return
      }
      cursor.advance()
      let pattern = cursor.scan { $0 != UInt8(ascii: "]") && !$0.isLineBreakByte }
      guard cursor.current == UInt8(ascii: "]") else {
        problem(path, line, column, "the condition after \(name) has no closing ']'")
        return
      }
      cursor.advance()
      conditions.append(BuildSettingCondition(parameter: parameter, pattern: pattern))
      cursor.skipSpaceAndComments()
    }
    guard cursor.current == UInt8(ascii: "=") else {
      problem(path, line, column, "expected '=' after \(name), found \(cursor.describeCurrent)")
      return
    }
    cursor.advance()
    var pieces: [String] = []
    while true {
      cursor.skipSpaceAndComments()
      if cursor.isAtEndOfLine { break }
      let piece = cursor.readValuePiece()
      if piece.hasSuffix("\\") {
        // A continuation line (swift-build joins the pieces with a space).
        let trimmed = String(piece.dropLast()).trimmingXCConfigSpace()
        if !trimmed.isEmpty { pieces.append(trimmed) }
        cursor.skipEndOfLine()
        continue
      }
      pieces.append(piece)
      break
    }
    assignments.append(
      BuildSettingAssignment(
        name: name, conditions: conditions, value: pieces.joined(separator: " "),
        location: BuildSettingLocation(file: path, line: line, column: column)))
  }
}

/// A position in xcconfig bytes, with its line and column.
struct LineCursor {
  let bytes: [UInt8]
  var index = 0
  var line = 1
  var lineStart = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { index >= bytes.count }
  var current: UInt8 { index < bytes.count ? bytes[index] : 0 }
  /// 1-based, in Unicode scalars.
  var column: Int { 1 + bytes[lineStart..<min(index, bytes.count)].count { $0 & 0xC0 != 0x80 } }

  var isAtEndOfLine: Bool { isAtEnd || current.isLineBreakByte || separatorWidth > 0 }
  var isAtComment: Bool {
    current == UInt8(ascii: "/") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
  }
  /// 3 at U+2028 or U+2029, which end lines as swift-build reads them.
  var separatorWidth: Int {
    guard index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80,
      bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
    else { return 0 }
    return 3
  }

  var describeCurrent: String {
    isAtEndOfLine ? "the end of the line" : "'\(String(decoding: [current], as: UTF8.self))'"
  }

  mutating func advance() { index = min(index + 1, bytes.count) }

  mutating func skipSpaceAndComments() {
    while !isAtEnd {
      if current.isXCConfigSpace {
        advance()
      } else if isAtComment {
        skipRestOfLine()
      } else {
        break
      }
    }
  }

  mutating func skipRestOfLine() {
    while !isAtEndOfLine { advance() }
  }

  mutating func skipEndOfLine() {
    guard !isAtEnd else { return }
    if current == 0x0D {
      index += index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
    } else if current == 0x0A {
      index += 1
    } else if separatorWidth > 0 {
      index += 3
    } else {
      return
    }
    line += 1
    lineStart = index
  }

  /// Advances while `accept` holds (and the line goes on); returns what it passed.
  mutating func scan(while accept: (UInt8) -> Bool) -> String {
    let start = index
    while !isAtEndOfLine, accept(current) { advance() }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// A value up to the end of the line or a `//`, without trailing whitespace and one trailing `;`.
  mutating func readValuePiece() -> String {
    let start = index
    while !isAtEndOfLine, !isAtComment { advance() }
    var end = index
    if isAtComment { skipRestOfLine() }
    while end > start, bytes[end - 1].isXCConfigSpace { end -= 1 }
    if end > start, bytes[end - 1] == UInt8(ascii: ";") {
      end -= 1
      while end > start, bytes[end - 1].isXCConfigSpace { end -= 1 }
    }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

extension UInt8 {
  /// Space, tab, vertical tab, form feed: the blanks within an xcconfig line.
  var isXCConfigSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0B || self == 0x0C }
  var isLineBreakByte: Bool { self == 0x0A || self == 0x0D }
  var isMacroNameStart: Bool {
    (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
      || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
      || self == UInt8(ascii: "_")
  }
  var isMacroNameByte: Bool { isMacroNameStart || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) }
}

extension String {
  func trimmingXCConfigSpace() -> String {
    let bytes = Array(utf8)
    var start = 0
    var end = bytes.count
    while start < end, bytes[start].isXCConfigSpace { start += 1 }
    while end > start, bytes[end - 1].isXCConfigSpace { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
