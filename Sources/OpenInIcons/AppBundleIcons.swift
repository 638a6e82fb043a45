import AppBundles
import PNGImages
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The icons of a built iOS app, in a `.app` folder or an `.ipa` archive (AppBundles' `BundleContainer`,
/// which reads the archive in memory): the names its Info.plist declares, matched to the PNG files beside it.
enum AppBundleIcons {
  static func locate(_ input: String) throws(OpenInIconError) -> SourceIcon {
    let container: BundleContainer
    let app: AppBundle
    do throws(AppBundleError) {
      container = try BundleContainer(path: input)
      guard let first = try container.applications().first else {
        throw AppBundleError(.noApplication, path: input, "holds no app")
      }
      app = first
    } catch {
      throw OpenInIconError(
        error.kind == .notFound ? .notFound : .invalidInput, error.message, path: error.path,
        hint: "pass a built iOS app (App.app, or the .ipa holding Payload/App.app)")
    }
    let display = { (file: String) in file.isEmpty ? input : input + "/" + file }
    let names: [String]
    do {
      let bytes = try container.read(app.infoPlistPath, limit: PropertyListLimits.maximumFileBytes)
      names = try declaredNames(
        PropertyListFile(data: Data(bytes), path: display(app.infoPlistPath), duplicateKeys: .keepLast).value)
    } catch let error as AppBundleError {
      throw OpenInIconError(
        .invalidInput, error.kind == .notFound ? "the app has no Info.plist" : error.message,
        path: display(app.path), hint: "pass a built iOS app, whose Info.plist is at its top level")
    } catch {
      throw OpenInIconError(.invalidInput, "\(error)", path: display(app.infoPlistPath))
    }
    let files: [String]
    do {
      files = try container.contents(of: app.path)
    } catch {
      throw OpenInIconError(.io, error.message, path: error.path)
    }
    // The declared names, then Xcode's own names for a catalog's app icon when nothing is declared.
    let prefixes = names.isEmpty ? ["AppIcon"] : names
    let candidates = files.filter { file in
      prefixes.contains { matches(file, name: $0, anySuffix: names.isEmpty) }
    }.map { app.file($0) }
    guard !candidates.isEmpty else {
      let hasCar = files.contains("Assets.car")
      throw OpenInIconError(
        .noIcon,
        hasCar
          ? "the app's icons are only in Assets.car (a compiled asset catalog), which rulekit does not decode"
          : "the app declares no icon files (CFBundleIcons, CFBundleIconFiles) and has no AppIcon*.png",
        path: display(app.path),
        hint: "pass the project's AppIcon.appiconset folder (or its 1024 × 1024 PNG) instead of the built app"
      )
    }
    // The largest readable icon (ties: the first), decoded.
    var best: (file: String, pixels: Int)?
    var firstFailure: OpenInIconError?
    for file in candidates {
      do {
        let header = try PNGDecoder.header(of: read(container, file, display(file)), file: display(file))
        if header.width * header.height > best?.pixels ?? 0 { best = (file, header.width * header.height) }
      } catch {
        firstFailure =
          firstFailure ?? (error as? OpenInIconError) ?? (error as? PNGError).map(OpenInIconError.init)
      }
    }
    guard let best else {
      throw firstFailure ?? OpenInIconError(.noIcon, "no icon PNG found", path: display(app.path))
    }
    let image: PNGImage
    do {
      image = try PNGDecoder.decode(read(container, best.file, display(best.file)), file: display(best.file))
    } catch let error as PNGError {
      throw OpenInIconError(error)
    } catch let error as OpenInIconError {
      throw error
    } catch {
      throw OpenInIconError(.io, "\(error)", path: display(best.file))
    }
    return SourceIcon(
      origin: .app, path: display(best.file), image: image, candidates: candidates.map(display))
  }

  private static func read(_ container: BundleContainer, _ file: String, _ display: String)
    throws(OpenInIconError)
    -> [UInt8]
  {
    do {
      return try container.read(file, limit: PNGLimits.maximumFileBytes)
    } catch {
      throw OpenInIconError(
        error.kind == .tooLarge ? .invalidInput : .io, error.message, path: display,
        hint: error.kind == .tooLarge ? "app icons are far smaller; check that this is the icon" : nil)
    }
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
