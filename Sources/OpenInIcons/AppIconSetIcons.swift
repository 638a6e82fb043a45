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
      /// Dark and tinted variants (Xcode 16) carry appearances; the default image has none.
      var appearances: [Appearance]?
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
    // Images of the default appearance first (the dark and tinted ones are other designs), each file once.
    let images = contents.images ?? []
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
