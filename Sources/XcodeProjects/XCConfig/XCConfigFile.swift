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
/// - An include path is read as written: Xcode expands no build setting in it, so
///   `#include "$(CONFIGURATION).xcconfig"` looks for a file named `$(CONFIGURATION).xcconfig` (swift-build's
///   `MacroConfigFileParser` hands the quoted text to `MacroConfigFileLoader.foundPreprocessorInclusion`,
///   which only replaces a leading `<DEVELOPER_DIR>`; the file is read once for every configuration, so no
///   configuration's value could go there). A relative path is looked for in the including file's folder,
///   then in the folders of the files that include it, then in `searchPaths` (the project's folder when a
///   project resolves it); a path without an extension is also tried with `.xcconfig`. Each place is looked
///   at as a case-insensitive volume (macOS's default) looks, and a file found under another letter case is
///   listed in ``caseMismatches``. A missing `#include`
///   is an error (Xcode stops the build: "could not find included file … in search paths"); a missing
///   `#include?` is skipped.
/// - An `#include` (or `#include?`) of a file that is being read, the file itself or one that includes it,
///   is skipped and the rest of the file read, as Xcode skips it with a warning; it is listed in
///   ``includeCycles``. A file included twice without a cycle is read twice (see ``IncludeCycle``).
///
/// Lines Xcode would reject (no `=`, a bad name) are reported in ``problems`` and skipped, as Xcode reports
/// them and goes on.
public struct XCConfigFile: Sendable {
  /// What to do with a required `#include` whose file is missing.
  public enum MissingIncludePolicy: Sendable, Hashable {
    /// Throw ``XcodeProjectError/Kind/includeNotFound`` naming the directive's file and line.
    case error
    /// Record it in ``missingIncludes`` and go on (for base configurations: Xcode stops the build, but the rest of the project still resolves).
    case record
  }

  /// A required `#include` whose file is not there, or an `#include?` whose path names a build setting.
  public struct MissingInclude: Sendable, Hashable {
    /// The `#include` line.
    public var location: BuildSettingLocation
    /// The path as resolved against the including file's folder.
    public var path: String
    /// The path as the directive writes it.
    public var written: String
    /// Whether the directive is `#include?`, which Xcode skips when the file is missing.
    public var isOptional: Bool
    /// The folders a relative path was looked for in, in Xcode's order (the including file's folder, then
    /// those of the files including it, then the project's); empty for an absolute path.
    public var searched: [String] = []

    /// Whether ``written`` holds a build-setting reference (`$(CONFIGURATION)`, `${SRCROOT}`). Xcode does not
    /// expand one there: it looks for a file of that very name, so the include is never found (an error
    /// for `#include`, skipped for `#include?`) — see ``XCConfigFile`` for the evidence.
    public var namesBuildSetting: Bool { written.contains("$(") || written.contains("${") }

    /// What Xcode does with it, for a message after the directive.
    public var problem: String {
      let stops = "the build stops with \"could not find included file\""
      guard namesBuildSetting else {
        return isOptional ? "no such file; Xcode skips it" : "no such file; \(stops)"
      }
      return
        "Xcode does not expand build settings in an #include path: it looks for \"\(written)\" literally, "
        + "which does not exist, so "
        + (isOptional
          ? "this #include? is skipped in every configuration and its settings never apply" : stops)
    }

    /// How to get the file included.
    public var hint: String {
      guard namesBuildSetting else {
        return "fix the path (it is relative to this file's folder, then the project's), or write #include? "
          + "to make it optional"
      }
      return
        "base each configuration on an xcconfig of its own that includes the shared one (Debug.xcconfig: "
        + "#include \"Shared.xcconfig\"), or give the settings [config=NAME] conditions"
    }
  }

  /// An `#include` whose file exists only under another letter case: read, as Xcode on a case-insensitive
  /// volume (macOS's default) reads it; a case-sensitive checkout stops the build there.
  public struct CaseMismatch: Sendable, Hashable {
    /// The `#include` line.
    public var location: BuildSettingLocation
    /// The path as the directive writes it.
    public var written: String
    /// The path as written, joined to the folder it was found in.
    public var spelt: String
    /// The file read.
    public var found: String
  }

  /// The file, as given.
  public let path: String
  /// Every assignment in the order Xcode applies them: an included file's where its `#include` is.
  public let assignments: [BuildSettingAssignment]
  /// The files read through `#include`, in the order they were read.
  public let includedFiles: [String]
  /// Required includes whose files are missing (only under ``MissingIncludePolicy/record``), and optional
  /// ones whose paths name a build setting (under either policy).
  public let missingIncludes: [MissingInclude]
  /// `#include` lines skipped because they would read a file again while it is being read, in the order
  /// they were met.
  public let includeCycles: [IncludeCycle]
  /// Lines skipped because Xcode would reject them, with where they are.
  public let problems: [XcodeProjectError]
  /// `#include` lines whose files were found under another letter case, in the order they were met.
  public let caseMismatches: [CaseMismatch]

  /// Reads the xcconfig at `path` and what it includes.
  ///
  /// - Throws: ``XcodeProjectError`` — ``XcodeProjectError/Kind/fileNotFound`` for `path` itself,
  ///   ``XcodeProjectError/Kind/includeNotFound`` (under ``MissingIncludePolicy/error``),
  ///   ``XcodeProjectError/Kind/unreadable``, ``XcodeProjectError/Kind/limitExceeded``. An `#include` cycle
  ///   is not an error: it is skipped and listed in ``includeCycles``.
  public static func read(
    path: String, missingIncludes: MissingIncludePolicy = .error, searchPaths: [String] = []
  ) throws(XcodeProjectError) -> XCConfigFile {
    guard let bytes = try XcodeFileReader.bytes(atPath: path, limit: XCConfigParser.maximumFileBytes) else {
      throw XcodeProjectError(
        .fileNotFound, "no such xcconfig file: \(path)", location: BuildSettingLocation(file: path),
        hint: "check the path; it is relative to the current directory")
    }
    return try parse(bytes: bytes, path: path, missingIncludes: missingIncludes, searchPaths: searchPaths)
  }

  /// Reads xcconfig text; `#include`s are read from disk relative to `path`'s folder, then to each of
  /// `searchPaths` (Xcode passes the project's folder).
  public static func parse(
    bytes: [UInt8], path: String, missingIncludes: MissingIncludePolicy = .error, searchPaths: [String] = []
  ) throws(XcodeProjectError) -> XCConfigFile {
    var parser = XCConfigParser(missingIncludePolicy: missingIncludes)
    try parser.parse(bytes: bytes, path: path, stack: [], searchPaths: searchPaths)
    return XCConfigFile(
      path: path, assignments: parser.assignments, includedFiles: parser.includedFiles,
      missingIncludes: parser.missingIncludes, includeCycles: parser.includeCycles, problems: parser.problems,
      caseMismatches: parser.caseMismatches)
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
