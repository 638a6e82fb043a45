import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Finds an extension's containing app when the user did not name it.
///
/// Xcode projects keep each target's Info.plist in a folder of its own beside the others
/// (`Notes/Info.plist`, `NotesShare/Info.plist`), so the containing app is the one app Info.plist (one
/// without `NSExtension`) in a sibling folder or the parent folder. When there is not exactly one, the
/// locator gives up rather than guess, and the configurator asks for `--containing-app`. A candidate that
/// is not a regular property list file (a FIFO, a socket, a directory), is larger than
/// `PropertyListLimits.maximumFileBytes` or does not parse is skipped, unread.
enum ContainingAppLocator {
  /// The containing app's Info.plist for the extension whose Info.plist is at `extensionInfoPlistPath`.
  static func locate(forExtensionAt extensionInfoPlistPath: String) -> (
    path: String, value: PropertyListValue
  )? {
    locateFile(forExtensionAt: extensionInfoPlistPath).flatMap { file in file.path.map { ($0, file.value) } }
  }

  /// The containing app's Info.plist file, as read (its `PropertyListFile.path` is where it was found),
  /// for the extension whose Info.plist is at `extensionInfoPlistPath`.
  static func locateFile(forExtensionAt extensionInfoPlistPath: String) -> PropertyListFile? {
    let fileManager = FileManager.default
    let extensionURL = URL(fileURLWithPath: extensionInfoPlistPath).standardizedFileURL
    let folder = extensionURL.deletingLastPathComponent()
    let parent = folder.deletingLastPathComponent()
    var candidates = [parent.appendingPathComponent("Info.plist")]
    if let siblings = try? fileManager.contentsOfDirectory(atPath: parent.path) {
      for sibling in siblings.sorted() where !sibling.hasPrefix(".") {
        let candidate = parent.appendingPathComponent(sibling).appendingPathComponent("Info.plist")
        if candidate.path != extensionURL.path { candidates.append(candidate) }
      }
    }
    var apps: [PropertyListFile] = []
    for candidate in candidates {
      // Read as every property list is: a FIFO or socket is refused by stat before it is opened (opening
      // one would block), a file over PropertyListLimits.maximumFileBytes by its size before it is read,
      // and a missing, unreadable or damaged candidate is skipped.
      guard let file = try? PropertyListFile.read(contentsOf: candidate.path, duplicateKeys: .keepLast),
        case .dictionary(let dictionary) = file.value,
        dictionary["NSExtension"] == nil, dictionary["CFBundleIdentifier"] != nil
      else { continue }
      apps.append(file)
    }
    return apps.count == 1 ? apps.first : nil
  }
}
