import PNGImages
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The icons of a built iOS `.app`: the names its Info.plist declares, matched to the PNG files beside it.
enum AppBundleIcons {
  static func locate(_ app: String) throws(OpenInIconError) -> SourceIcon {
    let plistPath = app + "/Info.plist"
    let names: [String]
    do throws(PropertyListError) {
      names = try declaredNames(PropertyListFile.read(contentsOf: plistPath, duplicateKeys: .keepLast).value)
    } catch {
      if error.kind == .fileNotFound {
        throw OpenInIconError(
          .invalidInput, "the app has no Info.plist", path: app,
          hint: "pass a built iOS app (Products/…/App.app), whose Info.plist is at its top level")
      }
      throw OpenInIconError(.invalidInput, error.description, path: plistPath)
    }
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: app)) ?? []).sorted()
    // The declared names, then Xcode's own names for a catalog's app icon when nothing is declared.
    let prefixes = names.isEmpty ? ["AppIcon"] : names
    let candidates = files.filter { file in
      prefixes.contains { matches(file, name: $0, anySuffix: names.isEmpty) }
    }.map { app + "/" + $0 }
    guard !candidates.isEmpty else {
      let hasCar = files.contains("Assets.car")
      throw OpenInIconError(
        .noIcon,
        hasCar
          ? "the app's icons are only in Assets.car (a compiled asset catalog), which rulekit does not decode"
          : "the app declares no icon files (CFBundleIcons, CFBundleIconFiles) and has no AppIcon*.png",
        path: app,
        hint: "pass the project's AppIcon.appiconset folder (or its 1024 × 1024 PNG) instead of the built app"
      )
    }
    return try SourceIcon.largest(of: candidates, origin: .app, context: app)
  }

  /// The icon names an Info.plist declares, in order, without repeats: `CFBundleIcons` and
  /// `CFBundleIcons~ipad` › `CFBundlePrimaryIcon` › `CFBundleIconFiles` (and `CFBundleIconName`, the
  /// asset-catalog name Xcode also writes the loose files under), then the older top-level
  /// `CFBundleIconFiles` and `CFBundleIconFile`.
  static func declaredNames(_ plist: PropertyListValue) -> [String] {
    var names: [String] = []
    for key in ["CFBundleIcons", "CFBundleIcons~ipad"] {
      let primary = plist.value(at: [.key(key), "CFBundlePrimaryIcon"])
      names += primary?.value(at: ["CFBundleIconFiles"])?.arrayValue?.compactMap(\.stringValue) ?? []
      if let name = primary?.value(at: ["CFBundleIconName"])?.stringValue { names.append(name) }
      // Before iOS 7 the primary icon could be a plain string.
      if let name = primary?.stringValue { names.append(name) }
    }
    names += plist.value(at: ["CFBundleIconFiles"])?.arrayValue?.compactMap(\.stringValue) ?? []
    if let name = plist.value(at: ["CFBundleIconFile"])?.stringValue { names.append(name) }
    var seen = Set<String>()
    return names.map { $0.hasSuffix(".png") ? String($0.dropLast(4)) : $0 }.filter {
      !$0.isEmpty && seen.insert($0).inserted
    }
  }

  /// Whether `file` is an image iOS loads for the icon name `name`: `name.png` with an optional `@2x`/`@3x`
  /// and `~ipad`/`~iphone`. With `anySuffix`, any PNG whose name starts with `name` (Xcode writes a
  /// catalog icon as `AppIcon60x60@2x.png`).
  static func matches(_ file: String, name: String, anySuffix: Bool) -> Bool {
    guard file.hasPrefix(name), file.lowercased().hasSuffix(".png") else { return false }
    if anySuffix { return true }
    var rest = file.dropFirst(name.count).dropLast(4)
    for device in ["~ipad", "~iphone"] where rest.hasSuffix(device) { rest = rest.dropLast(device.count) }
    return rest.isEmpty || rest == "@2x" || rest == "@3x"
  }
}
