import Foundation
import PropertyLists
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// What a real write does to a real project: only the planned files change, each stays a valid plist holding
/// everything it held, its untouched lines stay as they were, and a lint afterwards finds nothing to change.
@Suite("configure --project writes on real projects: only the planned edits, nothing lost")
struct ProjectWriteChecksTests {
  /// Every regular file under `folder`, by path relative to it.
  static func snapshot(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = walker?.nextObject() as? URL {
      guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
      files[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))] =
        try Data(contentsOf: url)
    }
    return files
  }

  /// Where `before` is not inside `after`, as key paths: every key kept with a value holding the old one,
  /// every array element kept. The activation rule may be rewritten (a dictionary rule becomes a predicate
  /// with the Intune twins), so it is left out.
  static func losses(_ before: PropertyListValue, _ after: PropertyListValue, at path: String = "")
    -> [String]
  {
    if path.hasSuffix("/NSExtensionActivationRule") { return [] }
    switch (before, after) {
    case (.dictionary(let old), .dictionary(let new)):
      return old.entries.flatMap { entry -> [String] in
        guard let value = new[entry.key] else { return ["\(path)/\(entry.key): removed"] }
        return losses(entry.value, value, at: "\(path)/\(entry.key)")
      }
    case (.array(let old), .array(let new)):
      return old.enumerated().compactMap { index, element in
        new.contains { losses(element, $0).isEmpty } ? nil : "\(path)[\(index)]: removed"
      }
    default:
      return before == after ? [] : ["\(path): \(before) became \(after)"]
    }
  }

  /// The lines of `original` missing from `configured` (in order), but for those of the activation rule's
  /// key and value, which the plan may rewrite.
  static func lostLines(_ original: String, _ configured: String) -> [Substring] {
    let lines = original.split(separator: "\n", omittingEmptySubsequences: false)
    var rule: Set<Int> = []
    if let key = lines.firstIndex(where: { $0.contains("<key>NSExtensionActivationRule</key>") }) {
      var depth = 0
      var index = key + 1
      // The value: a <string> up to its </string>, or a <dict> up to the </dict> that closes it.
      while index < lines.count {
        let line = lines[index]
        depth += line.components(separatedBy: "<dict>").count - 1
        depth -= line.components(separatedBy: "</dict>").count - 1
        if depth <= 0 && (line.contains("</string>") || line.contains("</dict>") || line.contains("<dict/>"))
        {
          break
        }
        index += 1
      }
      rule = Set(key...min(index, lines.count - 1))
    }
    var remaining = configured.split(separator: "\n", omittingEmptySubsequences: false)[...]
    var lost: [Substring] = []
    // The rule's own lines are not matched: its closing tag could take the place of its parent's.
    for (number, line) in lines.enumerated() where !rule.contains(number) {
      if let found = remaining.firstIndex(of: line) {
        remaining = remaining[remaining.index(after: found)...]
      } else if line.trimmingCharacters(in: .whitespaces) != "<dict/>" {
        // An empty `<dict/>` opens up to take the first key: the one change of an untouched line allowed.
        lost.append(line)
      }
    }
    return lost
  }

  @Test("the checks see a lost key, a lost array element and a lost line, and let the rule be rewritten")
  func checksSeeLosses() {
    let before: PropertyListValue = [
      "A": "1", "B": ["x", "y"], "NSExtensionActivationRule": ["NSExtensionActivationSupportsText": true],
    ]
    let after: PropertyListValue = ["B": ["x", "z"], "NSExtensionActivationRule": "TRUEPREDICATE"]
    #expect(Self.losses(before, after) == ["/A: removed", "/B[1]: removed"])
    #expect(Self.lostLines("a\nb\nc", "a\nc\nd") == ["b"])
    let rule =
      "<dict>\n\t<key>NSExtensionActivationRule</key>\n\t<dict>\n\t\t<key>k</key>\n\t</dict>\n</dict>"
    #expect(
      Self.lostLines(rule, "<dict>\n\t<key>NSExtensionActivationRule</key>\n\t<string>s</string>\n</dict>")
        .isEmpty)
  }

  @Test(arguments: CorpusProject.all)
  func writesOnlyThePlannedEdits(_ corpus: CorpusProject) throws {
    let path = try corpus.copy()
    let folder = URL(fileURLWithPath: String(path.dropLast(corpus.project.count + 1)))
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let before = try Self.snapshot(folder)
    let options = IntuneConfiguratorOptions(fixEntitlements: true)
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: corpus.app, options: options)
    let planned = Set(
      try plan.filesToWrite().map {
        String(
          URL(fileURLWithPath: $0.path).standardizedFileURL.path.dropFirst(
            folder.standardizedFileURL.path.count + 1))
      })
    let editedKeys = Set(plan.buildSettings.map(\.edit.key))
    try plan.write()
    let after = try Self.snapshot(folder)

    // Nothing outside the plan changed, appeared or went.
    let changed = Set(after.keys).union(before.keys).filter { before[$0] != after[$0] }
    #expect(changed == planned, "\(corpus.name)")

    for file in changed.sorted() {
      let place = "\(corpus.name) › \(file)"
      let new = try #require(after[file], "\(place) was removed")
      let newText = String(decoding: new, as: UTF8.self)
      if file.hasSuffix(".pbxproj") {
        // Only insertions, or new values of the settings the plan sets.
        let old = String(decoding: try #require(before[file]), as: UTF8.self)
        let lost = Self.lostLines(old, newText).filter { line in
          !editedKeys.contains {
            line.trimmingCharacters(in: .whitespaces).hasPrefix(PBXProjectText.quoted($0) + " =")
          }
        }
        #expect(lost.isEmpty, "\(place): \(lost)")
        continue
      }
      let configured = try PropertyListFile(data: new, path: file, duplicateKeys: .keepLast)
      // A created file (an entitlements file, a generated Info.plist) has nothing to keep.
      guard let old = before[file] else { continue }
      let original = try PropertyListFile(data: old, path: file, duplicateKeys: .keepLast)
      let losses = Self.losses(original.value, configured.value)
      #expect(losses.isEmpty, "\(place): \(losses)")
      let lost = Self.lostLines(String(decoding: old, as: UTF8.self), newText)
      #expect(lost.isEmpty, "\(place): \(lost)")
    }

    // A lint of the written project finds no change left to make for the app and its extensions.
    let report = try ProjectLinter().lint(try XcodeProject(path: path), targets: [corpus.app])
    let left = report.findings.filter {
      $0.finding.id == ProjectLintCheck.notConfiguredForIntune.rawValue
        || $0.finding.check == "keychain-groups-missing"
    }
    #expect(left.isEmpty, "\(corpus.name): \(left.map(\.finding.message))")
  }
}
