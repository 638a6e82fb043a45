import PropertyLists

/// Setting one build setting in the `buildSettings` of one `XCBuildConfiguration` of a `project.pbxproj`.
public struct BuildSettingEdit: Sendable, Hashable, CustomStringConvertible {
  /// The object id of the `XCBuildConfiguration` (24 hexadecimal digits in files Xcode writes).
  public var configurationID: String
  /// The setting's name, without conditions.
  public var name: String
  /// Conditions written after the name, as in `NAME[sdk=iphoneos*]`.
  public var conditions: [BuildSettingCondition]
  /// The value, unexpanded (`$(inherited) -ObjC`).
  public var value: String

  /// An edit setting `name` (with `conditions`) to `value` in configuration `configurationID`.
  public init(configurationID: String, name: String, conditions: [BuildSettingCondition] = [], value: String)
  {
    self.configurationID = configurationID
    self.name = name
    self.conditions = conditions
    self.value = value
  }

  /// The key as it is stored in `buildSettings`: the name followed by `[parameter=pattern]` per condition.
  public var key: String {
    name + conditions.map { "[\($0.parameter)=\($0.pattern)]" }.joined()
  }

  /// `set KEY = value in <id>`, for plans and messages.
  public var description: String {
    "set \(key) = \(PBXProjectText.quoted(value)) in \(configurationID)"
  }
}

/// How Xcode writes strings in a `project.pbxproj`, so new text looks as if Xcode had written it.
public enum PBXProjectText {
  /// `text` as Xcode writes a key or value: bare when it is made only of ASCII letters, digits, `_`, `$`,
  /// `.` and `/` and holds neither `//` nor `___`; otherwise in double quotes as
  /// `PropertyLists.OpenStepText.doubleQuoted(_:)` writes them.
  ///
  /// The bare set is the one of tuist/XcodeProj (`CommentedString.validString`: `_`, `$`, `.`…`9`, `A`…`Z`,
  /// `a`…`z`, quoted when it holds `//` or `___`) and of CocoaPods' Nanaimo writer, which Xcodeproj uses
  /// (`QUOTED_STRING_REGEXP = [^\w\.\$/]`, empty, or leading `___`). `-` and `:` are quoted by both, as in
  /// Xcode's own `"com.example.my-app"` and `"$(inherited)"`. `//` would start a comment if left bare.
  public static func quoted(_ text: String) -> String {
    let bytes = Array(text.utf8)
    let bare =
      !bytes.isEmpty && bytes.allSatisfy(isBare) && !text.contains("//") && !text.contains("___")
    return bare ? text : OpenStepText.doubleQuoted(text)
  }

  static func isBare(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "$") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
  }

  /// Whether `left` sorts before `right` as Xcode orders `buildSettings` keys: by their bytes, unquoted, so
  /// `CLANG_WARN_UNREACHABLE_CODE` comes before `CLANG_WARN__DUPLICATE_METHOD_MATCH` (`U` < `_`) and
  /// `"CODE_SIGN_IDENTITY[sdk=iphoneos*]"` between `CODE_SIGN_IDENTITY` and `CODE_SIGN_STYLE` (`[` < `_`),
  /// as in the files Xcode writes.
  public static func sortsBefore(_ left: String, _ right: String) -> Bool {
    left.utf8.lexicographicallyPrecedes(right.utf8)
  }
}
