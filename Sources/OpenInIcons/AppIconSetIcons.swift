#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The icons of an asset catalog's `.appiconset`, as its `Contents.json` lists them.
enum AppIconSetIcons {
  /// `Contents.json`: the images, each a file name with an optional size, scale, idiom and appearances.
  struct Contents: Decodable {
    struct Image: Decodable {
      var filename: String?
      var size: String?
      var scale: String?
      var idiom: String?
      /// `ios`, `macos`, `watchos` beside `idiom: universal` (Xcode 14's single-size icons).
      var platform: String?
      /// Dark and tinted variants (Xcode 16) carry appearances; the default image has none.
      var appearances: [Appearance]?

      /// Whether the image is an iOS app icon: the Open-In icons are iOS images, and a Mac or watch icon
      /// is another design (the Mac's has its own rounded shape and margins).
      var isIOS: Bool {
        switch idiom {
        case nil, "iphone", "ipad", "ios-marketing": true
        case "universal": platform == nil || platform == "ios"
        default: false
        }
      }
    }

    struct Appearance: Decodable {
      var appearance: String?
      var value: String?
    }

    var images: [Image]?
  }

  static func locate(_ set: String) throws(OpenInIconError) -> SourceIcon {
    let path = set + "/Contents.json"
    let contents: Contents
    do {
      let data = try Data(SourceIcon.readBytes(path))
      contents = try JSONDecoder().decode(Contents.self, from: data)
    } catch let error as OpenInIconError {
      throw error
    } catch {
      throw OpenInIconError(
        .invalidInput, "not an icon set's Contents.json: \(error)", path: path,
        hint: "Xcode writes this file; restore it from version control")
    }
    // iOS images only, of the default appearance first (the dark and tinted ones are other designs), each
    // file once. wallabag's set holds its iOS icon as a JPEG beside Mac PNGs: taking the Mac icon made a
    // filled square of its shape; the JPEG's own error says what to do.
    let all = contents.images ?? []
    let images = all.filter(\.isIOS)
    if images.isEmpty, !all.isEmpty {
      let idioms = Set(all.compactMap { $0.platform ?? $0.idiom }).sorted().joined(separator: ", ")
      throw OpenInIconError(
        .noIcon, "the icon set holds no iOS icon, only \(idioms) ones", path: set,
        hint:
          "give the set an iOS image (the single 1024 × 1024 image is enough since Xcode 14), or pass the "
          + "iOS app's icon set")
    }
    let plain = images.filter { ($0.appearances ?? []).isEmpty }
    var seen = Set<String>()
    let files = (plain + images).compactMap(\.filename).filter { seen.insert($0).inserted }
    let defaultCount = Set(plain.compactMap(\.filename)).count
    let preferred = defaultCount > 0 ? Array(files.prefix(defaultCount)) : files
    let candidates = preferred.map { set + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    guard !candidates.isEmpty else {
      throw OpenInIconError(
        .noIcon, "the icon set's Contents.json names no image file that exists", path: set,
        hint: "add the app icon image in Xcode (the single 1024 × 1024 image is enough since Xcode 14)")
    }
    return try SourceIcon.largest(of: candidates, origin: .appIconSet, context: set)
  }
}
