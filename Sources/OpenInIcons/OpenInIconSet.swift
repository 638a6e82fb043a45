/// One image of the Open-In extension's icon set: a size in points at a scale, for a device family.
public struct OpenInIconSize: Sendable, Hashable, CustomStringConvertible {
  /// The device family, as asset catalogs name it.
  public enum Idiom: String, Sendable, Hashable {
    case iphone
    case ipad
  }

  /// The device family.
  public var idiom: Idiom
  /// The side in points (`83.5` for the iPad Pro).
  public var points: Double
  /// The scale factor: 1, 2 or 3.
  public var scale: Int

  /// Creates a size.
  public init(idiom: Idiom, points: Double, scale: Int) {
    self.idiom = idiom
    self.points = points
    self.scale = scale
  }

  /// The side in pixels.
  public var pixels: Int { Int((points * Double(scale)).rounded()) }

  /// `60x60`, `83.5x83.5`: the size as asset catalogs and icon file names write it.
  public var pointsText: String {
    let text = points == points.rounded() ? String(Int(points)) : String(points)
    return "\(text)x\(text)"
  }

  /// The `CFBundleIconFiles` entry this image answers to: `OpenInIcon60x60`.
  public func bundleName(base: String) -> String { base + pointsText }

  /// The file name iOS looks up for ``bundleName(base:)`` at this scale: `OpenInIcon60x60@2x.png`,
  /// `OpenInIcon76x76@2x~ipad.png`.
  public func fileName(base: String) -> String {
    bundleName(base: base) + (scale == 1 ? "" : "@\(scale)x") + (idiom == .ipad ? "~ipad" : "") + ".png"
  }

  /// `60x60@2x (120 px)`.
  public var description: String { "\(pointsText)@\(scale)x (\(pixels) px)" }
}

/// The images the Open-In action extension's template icon is made of, and the Info.plist entries that
/// declare them (see <doc:OpenInActionExtensionIcons>).
public enum OpenInIconSet {
  /// The base name of the files: `OpenInIcon60x60@2x.png`.
  public static let baseName = "OpenInIcon"

  /// The app-icon sizes of iOS's current devices, which the share sheet draws an action extension's
  /// icon from: iPhone 60 pt at 2x and 3x, iPad 76 pt at 1x and 2x, iPad Pro 83.5 pt at 2x.
  public static let sizes: [OpenInIconSize] = [
    OpenInIconSize(idiom: .iphone, points: 60, scale: 2),
    OpenInIconSize(idiom: .iphone, points: 60, scale: 3),
    OpenInIconSize(idiom: .ipad, points: 76, scale: 1),
    OpenInIconSize(idiom: .ipad, points: 76, scale: 2),
    OpenInIconSize(idiom: .ipad, points: 83.5, scale: 2),
  ]

  /// The `CFBundleIconFiles` names of the iPhone set (`CFBundleIcons`).
  public static var iPhoneIconFiles: [String] {
    unique(sizes.filter { $0.idiom == .iphone }.map { $0.bundleName(base: baseName) })
  }

  /// The `CFBundleIconFiles` names of the iPad set (`CFBundleIcons~ipad`).
  public static var iPadIconFiles: [String] {
    unique(sizes.filter { $0.idiom == .ipad }.map { $0.bundleName(base: baseName) })
  }

  private static func unique(_ names: [String]) -> [String] {
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }

  /// The extension's Info.plist entries that declare the icons, as XML to paste at the top level of its
  /// root dictionary.
  public static var infoPlistXML: String {
    func block(_ key: String, _ names: [String]) -> String {
      let strings = names.map { "\t\t\t\t<string>\($0)</string>" }.joined(separator: "\n")
      return """
        \t<key>\(key)</key>
        \t<dict>
        \t\t<key>CFBundlePrimaryIcon</key>
        \t\t<dict>
        \t\t\t<key>CFBundleIconFiles</key>
        \t\t\t<array>
        \(strings)
        \t\t\t</array>
        \t\t</dict>
        \t</dict>
        """
    }
    return block("CFBundleIcons", iPhoneIconFiles) + "\n" + block("CFBundleIcons~ipad", iPadIconFiles)
  }

  /// The `Contents.json` of an `OpenInIcon.appiconset` holding the same files, for an extension target
  /// that takes its icon from an asset catalog (`ASSETCATALOG_COMPILER_APPICON_NAME = OpenInIcon`).
  public static var appIconSetContents: String {
    let images = sizes.map { size in
      """
          {
            "filename" : "\(size.fileName(base: baseName))",
            "idiom" : "\(size.idiom.rawValue)",
            "scale" : "\(size.scale)x",
            "size" : "\(size.pointsText)"
          }
      """
    }
    return """
      {
        "images" : [
      \(images.joined(separator: ",\n"))
        ],
        "info" : {
          "author" : "rulekit",
          "version" : 1
        }
      }

      """
  }
}
