extension XCConfigFile {
  /// An `#include` line skipped because the file it names is being read already: the file with the line,
  /// or one of the files including it.
  ///
  /// ```
  /// // a.xcconfig              // b.xcconfig
  /// #include "b.xcconfig"      #include "a.xcconfig"    // skipped: a → b → a
  /// A = 1                      B = 2                    // both read
  /// ```
  ///
  /// Xcode does the same (swift-build, SWBCore/MacroConfigFileLoader.swift,
  /// `foundPreprocessorInclusion`): it compares the file found for the line, symbolic links resolved, with
  /// the files it is in the middle of reading, and on a match warns, skips the line and reads on, so the
  /// settings are those of the files without the line. Only the files being read count: a file included
  /// twice without a cycle (`a` includes `b` and `c`, both include `shared`) is read twice. `#include?` is
  /// skipped in the same way; its `?` only matters when the file is missing.
  public struct IncludeCycle: Sendable, Hashable {
    /// The skipped `#include` line.
    public var location: BuildSettingLocation
    /// The path as the directive writes it.
    public var written: String
    /// Whether the directive is `#include?`.
    public var isOptional: Bool
    /// The cycle, normalized paths: the file the line would read again, the files it includes down to the
    /// one with the line, then that first file again (`[a, b, a]`; `[a, a]` for a file including itself).
    public var chain: [String]
    /// The `#include` lines that lead around the cycle before the skipped one: `links[i]` is where
    /// `chain[i]` includes `chain[i + 1]`; the last step is ``location``.
    public var links: [BuildSettingLocation]

    /// Creates a record of a skipped line.
    public init(
      location: BuildSettingLocation, written: String, isOptional: Bool, chain: [String],
      links: [BuildSettingLocation]
    ) {
      self.location = location
      self.written = written
      self.isOptional = isOptional
      self.chain = chain
      self.links = links
    }

    /// The directive as written: `#include "a.xcconfig"`.
    public var directive: String { (isOptional ? "#include? \"" : "#include \"") + written + "\"" }

    /// The chain for a message: file names joined by arrows, whole paths when two names are alike.
    public var chainDescription: String {
      let names = chain.map(XcodePath.basename)
      let distinct = Set(chain.dropLast()).count
      let shown = Set(names.dropLast()).count == distinct ? names : chain
      return shown.joined(separator: " → ")
    }

    /// What Xcode does with it, for a message after the directive.
    public var problem: String {
      "it would read \(XcodePath.basename(chain.last ?? written)) again while that file is being read "
        + "(\(chainDescription)); Xcode warns, skips this line and reads the rest of the file"
    }

    /// How to silence it without changing a resolved value: Xcode never applies the line.
    public var hint: String {
      "remove the \(directive) line: Xcode never follows it, so no resolved setting changes"
    }
  }
}
