import PNGImages
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The icon the template is made from: the largest readable image an app, an icon set or a PNG offers.
public struct SourceIcon: Sendable {
  /// What the input was.
  public enum Origin: String, Sendable, Hashable {
    /// A built `.app` folder.
    case app
    /// An asset catalog's `AppIcon.appiconset` folder (or the `.xcassets` holding it).
    case appIconSet
    /// A single PNG file.
    case png
  }

  /// The kind of input.
  public var origin: Origin
  /// The PNG file chosen.
  public var path: String
  /// Its pixels.
  public var image: PNGImage
  /// Every icon file the input offered, the chosen one included, in the order they were considered.
  public var candidates: [String]

  /// Finds the largest icon in `input`: a built `.app` (its Info.plist's `CFBundleIcons`, the older
  /// `CFBundleIconFiles`/`CFBundleIconFile`, or Xcode's `AppIcon*.png` files), an `.appiconset` (its
  /// `Contents.json`; an `.xcassets` folder is searched for `AppIcon.appiconset`) or a PNG file.
  ///
  /// - Throws: ``OpenInIconError``; an app whose icons are only in `Assets.car` is
  ///   ``OpenInIconError/Kind/noIcon`` with a hint at the inputs that work.
  public static func locate(_ input: String) throws(OpenInIconError) -> SourceIcon {
    let trimmed = input.count > 1 && input.hasSuffix("/") ? String(input.dropLast()) : input
    guard FileManager.default.fileExists(atPath: trimmed) else {
      throw OpenInIconError(.notFound, "no such file or folder", path: input)
    }
    let lower = trimmed.lowercased()
    if lower.hasSuffix(".ipa") {
      throw OpenInIconError(
        .unsupportedInput, "reading .ipa archives is not supported", path: input,
        hint:
          "unzip it and pass the app inside: unzip App.ipa && rulekit open-in-icons Payload/App.app -o DIR")
    }
    guard isFolder(trimmed) else {
      let image = try readPNG(trimmed)
      return SourceIcon(origin: .png, path: trimmed, image: image, candidates: [trimmed])
    }
    if lower.hasSuffix(".app") { return try AppBundleIcons.locate(trimmed) }
    if lower.hasSuffix(".xcassets") {
      let set = trimmed + "/AppIcon.appiconset"
      guard FileManager.default.fileExists(atPath: set + "/Contents.json") else {
        throw OpenInIconError(
          .noIcon, "the asset catalog has no AppIcon.appiconset", path: input,
          hint: "pass the app icon set folder itself (NAME.appiconset)")
      }
      return try AppIconSetIcons.locate(set)
    }
    if FileManager.default.fileExists(atPath: trimmed + "/Contents.json") {
      return try AppIconSetIcons.locate(trimmed)
    }
    throw OpenInIconError(
      .unsupportedInput, "a folder that is neither an .app nor an .appiconset", path: input,
      hint: "pass a built APP.app, an AppIcon.appiconset folder or an icon PNG")
  }

  /// Whether `path` is a folder (or a link to one).
  static func isFolder(_ path: String) -> Bool {
    (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
  }

  /// The pixels of the PNG file at `path`.
  static func readPNG(_ path: String) throws(OpenInIconError) -> PNGImage {
    let bytes = try readBytes(path)
    do {
      return try PNGDecoder.decode(bytes, file: path)
    } catch {
      throw OpenInIconError(error)
    }
  }

  /// The header of the PNG file at `path`, or `nil` when it is not a readable PNG.
  static func header(_ path: String) -> PNGHeader? {
    guard let bytes = try? readBytes(path) else { return nil }
    return try? PNGDecoder.header(of: bytes)
  }

  static func readBytes(_ path: String) throws(OpenInIconError) -> [UInt8] {
    do {
      return [UInt8](try BoundedFileReader.read(contentsOf: path, limit: PNGLimits.maximumFileBytes))
    } catch {
      switch error {
      case .notFound: throw OpenInIconError(.notFound, "no such file", path: path)
      case .tooLarge(_, let size, let limit):
        throw OpenInIconError(
          .invalidInput, "the file \(size.exceeding(limit: limit)) (the most rulekit reads of a PNG)",
          path: path,
          hint: "app icons are far smaller; check that this is the icon")
      default: throw OpenInIconError(.io, error.reason, path: path, hint: error.hint)
      }
    }
  }

  /// Of `paths`, the readable PNG with the most pixels (ties: the first), decoded.
  static func largest(
    of paths: [String], origin: Origin, context: String
  ) throws(OpenInIconError) -> SourceIcon {
    var best: (path: String, pixels: Int)?
    for path in paths {
      guard let header = header(path) else { continue }
      let pixels = header.width * header.height
      if pixels > best?.pixels ?? 0 { best = (path, pixels) }
    }
    guard let best else {
      // None reads: decoding the first gives the error that says why.
      if let first = paths.first { _ = try readPNG(first) }
      throw OpenInIconError(.noIcon, "no icon PNG found", path: context)
    }
    return SourceIcon(origin: origin, path: best.path, image: try readPNG(best.path), candidates: paths)
  }
}
