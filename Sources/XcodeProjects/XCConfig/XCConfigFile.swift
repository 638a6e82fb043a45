import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An `.xcconfig` file read as Xcode reads it, its `#include`d files spliced in where they appear.
///
/// ```
/// // Comment.
/// #include "Shared.xcconfig"
/// #include? "Local.xcconfig"          // skipped silently when missing
/// PRODUCT_BUNDLE_IDENTIFIER = com.example.app
/// OTHER_LDFLAGS[sdk=iphoneos*][arch=arm64] = $(inherited) -ObjC;
/// ```
///
/// The grammar follows swift-build's `MacroConfigFileParser` (SWBMacro/MacroConfigFileParser.swift):
/// - A line is empty, a `#include "path"` / `#include? "path"` directive, or `NAME[param=pattern]… = value`.
///   Names are `[A-Za-z_][A-Za-z0-9_]*`.
/// - `//` starts a comment **anywhere**, values included: `URL = https://example.com` reads as `https:`.
///   swift-build says so in `parseNonListAssignmentRHS` ("one quirk of the Xcode semantics is that `//` will
///   still start a single-line comment"); the usual workaround is `https:/$()/example.com`. There is no
///   exception for `$(…)` or quotes, so none here.
/// - Trailing whitespace and one trailing `;` are dropped from a value; a value ending in `\` continues on
///   the next line, the pieces joined with a space.
/// - Include paths are relative to the including file's folder. A missing `#include` is an error; a missing
///   `#include?` is skipped. A file including itself, directly or through others, is an error.
///
/// Lines Xcode would reject (no `=`, a bad name) are reported in ``problems`` and skipped, as Xcode reports
/// them and goes on.
public struct XCConfigFile: Sendable {
  /// What to do with a required `#include` whose file is missing.
  public enum MissingIncludePolicy: Sendable, Hashable {
    /// Throw ``XcodeProjectError/Kind/includeNotFound`` naming the directive's file and line.
    case error
    /// Record it in ``missingIncludes`` and go on (for base configurations, where Xcode warns and builds).
    case record
  }

  /// A required `#include` whose file is not there.
  public struct MissingInclude: Sendable, Hashable {
    /// The `#include` line.
    public var location: BuildSettingLocation
    /// The path as resolved against the including file's folder.
    public var path: String
  }

  /// The file, as given.
  public let path: String
  /// Every assignment in the order Xcode applies them: an included file's where its `#include` is.
  public let assignments: [BuildSettingAssignment]
  /// The files read through `#include`, in the order they were read.
  public let includedFiles: [String]
  /// Required includes whose files are missing (only under ``MissingIncludePolicy/record``).
  public let missingIncludes: [MissingInclude]
  /// Lines skipped because Xcode would reject them, with where they are.
  public let problems: [XcodeProjectError]

  /// Reads the xcconfig at `path` and what it includes.
  ///
  /// - Throws: ``XcodeProjectError`` — ``XcodeProjectError/Kind/fileNotFound`` for `path` itself,
  ///   ``XcodeProjectError/Kind/includeNotFound`` (under ``MissingIncludePolicy/error``),
  ///   ``XcodeProjectError/Kind/includeCycle``, ``XcodeProjectError/Kind/unreadable``.
  public static func read(path: String, missingIncludes: MissingIncludePolicy = .error)
    throws(XcodeProjectError) -> XCConfigFile
  {
    guard let bytes = try XcodeFileReader.bytes(atPath: path, limit: XCConfigParser.maximumFileBytes) else {
      throw XcodeProjectError(
        .fileNotFound, "no such xcconfig file: \(path)", location: BuildSettingLocation(file: path),
        hint: "check the path; it is relative to the current directory")
    }
    return try parse(bytes: bytes, path: path, missingIncludes: missingIncludes)
  }

  /// Reads xcconfig text; `#include`s are read from disk relative to `path`'s folder.
  public static func parse(bytes: [UInt8], path: String, missingIncludes: MissingIncludePolicy = .error)
    throws(XcodeProjectError) -> XCConfigFile
  {
    var parser = XCConfigParser(missingIncludePolicy: missingIncludes)
    try parser.parse(bytes: bytes, path: path, stack: [])
    return XCConfigFile(
      path: path, assignments: parser.assignments, includedFiles: parser.includedFiles,
      missingIncludes: parser.missingIncludes, problems: parser.problems)
  }
}

/// Reads files for the project and xcconfig readers: `nil` when nothing is at the path.
enum XcodeFileReader {
  static func bytes(atPath path: String, limit: Int) throws(XcodeProjectError) -> [UInt8]? {
    do {
      return [UInt8](try BoundedFileReader.read(contentsOf: path, limit: limit))
    } catch {
      if case .notFound = error { return nil }
      throw XcodeProjectError(
        error.tooLargeLimit != nil ? .limitExceeded : .unreadable, error.description,
        location: BuildSettingLocation(file: path), hint: error.hint)
    }
  }
}

extension BoundedFileReader.Failure {
  fileprivate var tooLargeLimit: Int? {
    if case .tooLarge(_, _, let limit) = self { return limit }
    return nil
  }
}
