import PropertyLists

/// Sets build settings in a `project.pbxproj` as the smallest text changes, the way Xcode would write them.
///
/// A new key goes where Xcode keeps it, in byte order among its siblings (``PBXProjectText/sortsBefore(_:_:)``),
/// on its own line with its siblings' indentation; a value is written with Xcode's quoting
/// (``PBXProjectText/quoted(_:)``). Everything else — object ids, `/* comments */`, section order, other
/// settings — keeps its bytes, so a project no edit changes is byte-identical, and applying the same edits
/// again changes nothing.
public struct ProjectFileEditor: Sendable {
  /// The project file as read.
  public let document: OpenStepDocument

  /// An editor of the project file `bytes`.
  ///
  /// - Throws: the reader's ``/PropertyLists/PropertyListError`` when the bytes are not an OpenStep property list.
  public init(bytes: [UInt8], path: String? = nil) throws(PropertyListError) {
    document = try OpenStepDocument(bytes: bytes, path: path)
  }

  /// An editor of an already read project file.
  public init(document: OpenStepDocument) {
    self.document = document
  }

  /// The file's bytes with `edits` applied together: every change is computed against the original bytes.
  /// When two edits set the same key of the same configuration, the later one wins.
  ///
  /// - Throws: ``/PropertyLists/PropertyListError/Kind/invalidEdit`` with a position when a configuration id is not an
  ///   `XCBuildConfiguration` of the file or its `buildSettings` is not a dictionary.
  public func applying(_ edits: [BuildSettingEdit]) throws(PropertyListError) -> [UInt8] {
    var replacements: [Replacement] = []
    var expected = document.value
    var seen = Set<String>()
    // Later edits of one configuration win; each configuration is edited once with all its keys.
    var grouped: [(id: String, settings: [(key: String, value: String)])] = []
    for edit in edits {
      if !seen.contains(edit.configurationID) {
        seen.insert(edit.configurationID)
        grouped.append((edit.configurationID, []))
      }
      guard let group = grouped.firstIndex(where: { $0.id == edit.configurationID }) else { continue }
      grouped[group].settings.removeAll { $0.key == edit.key }
      grouped[group].settings.append((edit.key, edit.value))
      let path = PropertyListPath(["objects", .key(edit.configurationID), "buildSettings", .key(edit.key)])
      expected = (try? expected.applying(.set(path, .string(edit.value)))) ?? expected
    }
    for (id, settings) in grouped {
      replacements += try self.replacements(configuration: id, settings: settings)
    }
    let result = try Self.apply(replacements, to: document.bytes, path: document.path)
    // The edit is only as good as its re-read: the reader must see exactly the intended value. A key the
    // file already held twice (read as Xcode reads it, the last one kept, by `XcodeProject`) is read back
    // the same way; the editor changes the last entry, so the value compared is the one Xcode uses.
    let reread = try OpenStepDocument(
      bytes: result, path: document.path,
      duplicateKeys: document.duplicateKeyWarnings.isEmpty ? .error : .keepLast)
    guard reread.value.normalizedKeyOrder == expected.normalizedKeyOrder else {
      throw PropertyListError(
        .invalidEdit, "the edited project does not read back to the intended build settings",
        path: document.path, hint: "edit the build settings in Xcode")
    }
    return result
  }

  /// A unified diff of what ``applying(_:)`` would change, named after the file; empty when nothing changes.
  public func diff(_ edits: [BuildSettingEdit]) throws(PropertyListError) -> String {
    let new = try applying(edits)
    let name = document.path ?? "project.pbxproj"
    return UnifiedDiff.make(
      from: String(decoding: document.bytes, as: UTF8.self), to: String(decoding: new, as: UTF8.self),
      oldName: "a/" + name, newName: "b/" + name)
  }

  /// A range of the original bytes and its new text.
  struct Replacement {
    var range: Range<Int>
    var text: String
    /// Among insertions at one offset, the order they appear in (keys sort there).
    var order: String = ""
  }

  static func apply(_ replacements: [Replacement], to bytes: [UInt8], path: String?) throws(PropertyListError)
    -> [UInt8]
  {
    // From the end backwards so earlier offsets stay valid; at one offset the later-sorting text goes in
    // first, leaving the earlier one in front.
    let sorted = replacements.sorted {
      ($0.range.lowerBound, $0.order) > ($1.range.lowerBound, $1.order)
    }
    for (higher, lower) in zip(sorted, sorted.dropFirst())
    where lower.range.upperBound > higher.range.lowerBound
      || (lower.range.lowerBound == higher.range.lowerBound && !(lower.range.isEmpty && higher.range.isEmpty))
    {
      throw PropertyListError(.invalidEdit, "two edits change the same text", path: path)
    }
    var result = bytes
    for replacement in sorted {
      result.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
    }
    return result
  }
}
