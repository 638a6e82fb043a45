import Foundation
import OpenInIcons
import PNGImages
import Testing

enum IconFixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let folder = root.appendingPathComponent("Tests/Fixtures/open-in-icons")
  static let example = root.appendingPathComponent("Examples/OpenInIcons/AppIcon.appiconset")
  static let golden = root.appendingPathComponent("Tests/OpenInIconsTests/Golden")

  static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "open-in-icons-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

@Suite struct SourceIconTests {
  /// A built app: the declared names lead to Xcode's loose CgBI PNGs; the largest (180 px) wins.
  @Test func builtAppWithCgBIIcons() throws {
    let source = try SourceIcon.locate(IconFixtures.path("Sample.app"))
    #expect(source.origin == .app)
    #expect(source.path.hasSuffix("Sample.app/AppIcon60x60@3x.png"))
    #expect(source.image.width == 180 && source.image.height == 180)
    #expect(source.image.source?.isAppleCgBI == true)
    #expect(source.candidates.count == 3)
  }

  /// The same app in an .ipa (Payload/Sample.app), read in memory: the same icon.
  @Test func ipaArchive() throws {
    let source = try SourceIcon.locate(IconFixtures.path("Sample.ipa"))
    #expect(source.origin == .app)
    #expect(source.path.hasSuffix("Sample.ipa/Payload/Sample.app/AppIcon60x60@3x.png"))
    #expect(source.image == (try SourceIcon.locate(IconFixtures.path("Sample.app"))).image)
  }

  /// An app whose icon is only in Assets.car says so, and what to pass instead.
  @Test func assetsCarOnlyIsExplained() throws {
    let error = #expect(throws: OpenInIconError.self) {
      try SourceIcon.locate(IconFixtures.path("CarOnly.app"))
    }
    #expect(error?.kind == .noIcon)
    #expect(error?.message.contains("only in Assets.car") == true)
    #expect(error?.hint?.contains("AppIcon.appiconset") == true)
  }

  /// Xcode 14+'s single-size set; Xcode 16's dark variant (listed first, larger) is not the design.
  @Test func appIconSets() throws {
    let single = try SourceIcon.locate(IconFixtures.example.path)
    #expect(single.origin == .appIconSet && single.image.width == 1024)
    let dark = try SourceIcon.locate(IconFixtures.path("DarkAppearance.appiconset"))
    #expect(dark.path.hasSuffix("light.png"))
  }

  /// wallabag's set holds its one iOS icon as a JPEG beside Mac PNGs: the Mac icon was taken, and the
  /// template was a filled square of the Mac's shape. Only iOS images are sources; the JPEG's error says
  /// what to do, and a set of Mac images only is refused.
  @Test func onlyIOSImagesAreSources() throws {
    let folder = try IconFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = try Data(
      contentsOf: URL(fileURLWithPath: IconFixtures.path("DarkAppearance.appiconset/light.png")))
    func iconSet(_ name: String, images: String, files: [String: Data]) throws -> String {
      let set = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
      try Data(#"{"images": [\#(images)], "info": {"author": "xcode", "version": 1}}"#.utf8)
        .write(to: set.appendingPathComponent("Contents.json"))
      for (file, data) in files { try data.write(to: set.appendingPathComponent(file)) }
      return set.path
    }
    let mac = #"{"filename": "mac1024.png", "idiom": "mac", "scale": "2x", "size": "512x512"}"#
    let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 1])
    let mixed = try iconSet(
      "Mixed.appiconset",
      images: #"{"filename": "icon.jpg", "idiom": "universal", "platform": "ios", "size": "1024x1024"}, "#
        + mac,
      files: ["icon.jpg": jpeg, "mac1024.png": png])
    let error = #expect(throws: OpenInIconError.self) { try SourceIcon.locate(mixed) }
    #expect(error?.hint?.contains("JPEG") == true, "\(String(describing: error))")
    let macOnly = try iconSet("Mac.appiconset", images: mac, files: ["mac1024.png": png])
    let refused = #expect(throws: OpenInIconError.self) { try SourceIcon.locate(macOnly) }
    #expect(refused?.kind == .noIcon)
    #expect(refused?.message == "the icon set holds no iOS icon, only mac ones")
    // A universal iOS image beside the Mac one is the source.
    let both = try iconSet(
      "Both.appiconset",
      images: #"{"filename": "ios.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"}, "#
        + mac,
      files: ["ios.png": png, "mac1024.png": png])
    #expect(try SourceIcon.locate(both).path.hasSuffix("ios.png"))
  }

  @Test func inputsItDoesNotRead() throws {
    let missing = #expect(throws: OpenInIconError.self) { try SourceIcon.locate("/nonexistent/App.app") }
    #expect(missing?.kind == .notFound)
    let folder = try IconFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ipa = folder.appendingPathComponent("App.ipa")
    try Data([0x50, 0x4B, 3, 4]).write(to: ipa)
    let error = #expect(throws: OpenInIconError.self) { try SourceIcon.locate(ipa.path) }
    #expect(error?.kind == .invalidInput, "a damaged .ipa: \(String(describing: error))")
  }
}

@Suite struct TemplateTransformTests {
  /// Every image has the researched size, is black wherever it is not transparent, and its alpha matches
  /// the committed golden pixels (compared as pixels: zlib versions may compress differently).
  @Test(arguments: OpenInIconSet.sizes)
  func exampleIconSizesAndPixels(_ size: OpenInIconSize) throws {
    let source = try SourceIcon.locate(IconFixtures.example.path)
    let image = TemplateTransform.render(TemplateTransform.coverage(of: source.image), size: size.pixels)
    #expect(image.width == size.pixels && image.height == size.pixels)
    for index in stride(from: 0, to: image.pixels.count, by: 4) {
      #expect(image.pixels[index..<(index + 3)].allSatisfy { $0 == 0 }, "no colour left")
    }
    let golden = IconFixtures.golden.appendingPathComponent(size.fileName(base: OpenInIconSet.baseName))
    if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
      try Data(try PNGEncoder.encode(image)).write(to: golden)
    }
    let expected = try PNGDecoder.decode([UInt8](Data(contentsOf: golden)))
    #expect(image.pixels == expected.pixels)
  }

  /// The shape of the example: the page is opaque, the arrow cut into it and the background transparent,
  /// the edges anti-aliased (some alpha strictly between 0 and 255), about the page's share covered.
  @Test func exampleShape() throws {
    let source = try SourceIcon.locate(IconFixtures.example.path)
    let coverage = TemplateTransform.coverage(of: source.image)
    #expect(coverage.method == .contrast)
    let image = TemplateTransform.render(coverage, size: 120)
    func alpha(_ x: Double, _ y: Double) -> UInt8 {
      image.pixel(x: Int(x / 1024 * 120), y: Int(y / 1024 * 120)).alpha
    }
    #expect(alpha(20, 20) == 0)  // background
    #expect(alpha(350, 700) == 255)  // the page
    #expect(alpha(450, 550) == 0)  // the arrow's shaft, cut out of the page
    #expect(alpha(670, 280) == 255)  // the folded corner
    #expect(alpha(595, 260) == 0)  // the gap between the fold and the page
    let alphas = stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
    let covered = Double(alphas.map(Int.init).reduce(0, +)) / 255 / Double(alphas.count)
    // The page (440 × 620 of 1024², minus the notch, the arrow and plus the fold) covers about 22%.
    #expect(covered > 0.19 && covered < 0.25, "\(covered)")
    #expect(alphas.contains { $0 > 0 && $0 < 255 }, "anti-aliased edges kept")
  }

  /// A transparent icon's own alpha is its shape: the ring and the dot, nothing of its colour.
  @Test func transparentIconUsesItsAlpha() throws {
    let source = try SourceIcon.locate(IconFixtures.path("Round.png"))
    let coverage = TemplateTransform.coverage(of: source.image)
    #expect(coverage.method == .alpha)
    let image = TemplateTransform.render(coverage, size: 60)
    #expect(image.pixel(x: 30, y: 30).alpha == 255)  // the dot
    #expect(image.pixel(x: 30, y: 21).alpha == 0)  // between the dot and the ring
    #expect(image.pixel(x: 30, y: 11).alpha == 255)  // the ring
    #expect(image.pixel(x: 1, y: 1).alpha == 0)
  }

  /// An opaque 256 px icon: `background(x, y)` everywhere, and each square (left, top, side, colour) on it.
  static func icon(
    background: (Int, Int) -> (Int, Int, Int), squares: [(Int, Int, Int, (Int, Int, Int))]
  ) -> PNGImage {
    var image = PNGImage(width: 256, height: 256)
    for y in 0..<256 {
      for x in 0..<256 {
        var colour = background(x, y)
        for (left, top, side, fill) in squares
        where (left..<left + side).contains(x) && (top..<top + side).contains(y) {
          colour = fill
        }
        let offset = (y * 256 + x) * 4
        image.pixels[offset] = UInt8(colour.0)
        image.pixels[offset + 1] = UInt8(colour.1)
        image.pixels[offset + 2] = UInt8(colour.2)
        image.pixels[offset + 3] = 255
      }
    }
    return image
  }

  /// A light shape on a white-to-teal gradient (IceCubes' elephant icon, in short): against one colour the
  /// gradient's own range hid it; against the surface read from the edges it stands out.
  @Test(arguments: [false, true])
  func lightShapeOnAGradient(_ diagonal: Bool) {
    let icon = Self.icon(
      background: { x, y in
        let t = diagonal ? (x + y) / 2 : y
        return (250 - t / 2, 250 - t / 4, 250 - t / 4)
      },
      squares: [(40, 60, 60, (100, 180, 250)), (150, 150, 60, (90, 40, 160))])
    let coverage = TemplateTransform.coverage(of: icon)
    #expect(coverage.method == .contrast)
    #expect(coverage.backgroundFollowsEdges)
    let image = TemplateTransform.render(coverage, size: 256)
    #expect(image.pixel(x: 70, y: 90).alpha == 255)  // the light square
    #expect(image.pixel(x: 180, y: 180).alpha == 255)  // the dark one
    #expect(image.pixel(x: 20, y: 20).alpha == 0)  // the gradient, top
    #expect(image.pixel(x: 128, y: 240).alpha == 0)  // and bottom
    #expect(image.pixel(x: 240, y: 128).alpha == 0)
  }

  /// One colour with a design crossing the edge over 6% of the ring: the one colour stays (the surface is no
  /// better: it cannot follow the design), and the design is not taken for background noise: both shapes
  /// are found whole (the ring's 95th percentile had made the bar's own distance the threshold).
  @Test func flatBackgroundWithADesignAtTheEdge() {
    let icon = Self.icon(
      background: { _, _ in (240, 240, 240) },
      squares: [(0, 100, 60, (20, 20, 20)), (120, 120, 40, (20, 20, 20))])
    let coverage = TemplateTransform.coverage(of: icon)
    #expect(!coverage.backgroundFollowsEdges)
    let image = TemplateTransform.render(coverage, size: 256)
    #expect(image.pixel(x: 2, y: 130).alpha == 255)
    #expect(image.pixel(x: 140, y: 140).alpha == 255)
    #expect(image.pixel(x: 200, y: 40).alpha == 0)
  }

  /// Line art on white whose frame runs along the top and bottom edges (kfdm/ios-markdowntodo's to-do list
  /// icon, found by the third sweep; no licence, so drawn here): the frame is 44% of the ring, more than
  /// the quarter the spread sets aside, and the template came out empty ("0% of it is covered"). The ring
  /// is two tones, a flat background and a one-colour design, so the background's noise is measured on its
  /// own: frame and glyph are found, the white margin and the paper are not.
  @Test func oneColourDesignAlongTwoEdges() {
    let black = (4, 1, 5)
    let icon = Self.icon(
      background: { x, y in
        let frame = (18..<238).contains(x) && !((34..<222).contains(x) && (16..<240).contains(y))
        return frame ? black : (255, 255, 255)
      },
      squares: [(70, 80, 40, black), (130, 90, 20, black)])
    let coverage = TemplateTransform.coverage(of: icon)
    #expect(coverage.coveredFraction > 0.2, "\(coverage.coveredFraction)")
    #expect(!coverage.backgroundFollowsEdges)
    let image = TemplateTransform.render(coverage, size: 256)
    #expect(image.pixel(x: 128, y: 3).alpha == 255)  // the frame, at the top edge
    #expect(image.pixel(x: 25, y: 128).alpha == 255)  // its left side
    #expect(image.pixel(x: 90, y: 100).alpha == 255)  // the glyph
    #expect(image.pixel(x: 6, y: 128).alpha == 0)  // the white margin
    #expect(image.pixel(x: 180, y: 180).alpha == 0)  // the paper
  }

  /// Three flat greens behind a brown logo (GitJournal's icon, drawn here: a dark band on the left, a light
  /// panel reaching the right edge, medium bars above and below it). The edge surface blended the dark band
  /// into a ramp and the light panel came out as a grey ramp beside the logo (trial 3, P8); each green is
  /// background now, and the logo alone is the shape.
  @Test func flatBandsAreBackground() {
    let (dark, medium, light, brown) = ((46, 125, 50), (102, 187, 106), (156, 236, 150), (109, 76, 65))
    let icon = Self.icon(
      background: { x, y in x < 54 ? dark : ((40..<200).contains(y) ? light : medium) },
      squares: [(110, 80, 90, brown)])
    let coverage = TemplateTransform.coverage(of: icon)
    #expect(coverage.method == .contrast)
    #expect(!coverage.backgroundFollowsEdges)
    #expect(coverage.flatBackground.count == 3)
    let image = TemplateTransform.render(coverage, size: 256)
    #expect(image.pixel(x: 150, y: 120).alpha == 255)  // the logo
    for (x, y) in [(20, 128), (80, 120), (230, 120), (128, 20), (128, 240), (60, 60)] {
      #expect(image.pixel(x: x, y: y).alpha == 0, "(\(x), \(y))")  // every green
    }
    #expect(coverage.coveredFraction < 0.15)
  }

  /// A gradient drawn in 16 levels 8 apart is not taken for flat colours: the pixels gathered around its
  /// commonest level take in the next levels too, so no cluster is flat.
  @Test func fineStepsStayAGradient() {
    let icon = Self.icon(
      background: { x, y in
        let level = ((x + y) / 32) * 8
        return (250 - level, 250 - level / 2, 250 - level / 2)
      },
      squares: [(100, 100, 60, (20, 20, 120))])
    let coverage = TemplateTransform.coverage(of: icon)
    #expect(coverage.flatBackground.isEmpty)
    let image = TemplateTransform.render(coverage, size: 256)
    #expect(image.pixel(x: 130, y: 130).alpha == 255)
  }

  /// Same input, same bytes.
  @Test func deterministic() throws {
    let source = try SourceIcon.locate(IconFixtures.path("Sample.app"))
    let coverage = TemplateTransform.coverage(of: source.image)
    #expect(
      try PNGEncoder.encode(TemplateTransform.render(coverage, size: 167))
        == PNGEncoder.encode(TemplateTransform.render(coverage, size: 167)))
  }

  /// The filter is normalised: a uniform coverage stays uniform at every size (no ringing, no seams).
  @Test(arguments: [1, 7, 76, 167, 300])
  func uniformStaysUniform(_ size: Int) {
    let coverage = TemplateTransform.Coverage(
      width: 97, height: 97, values: [UInt8](repeating: 200, count: 97 * 97), method: .alpha)
    let image = TemplateTransform.render(coverage, size: size)
    #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 200 })
  }
}

@Suite struct OpenInIconGeneratorTests {
  @Test func writesTheSetAndRefusesToOverwrite() throws {
    let folder = try IconFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("Icons").path
    let generator = try OpenInIconGenerator(
      input: IconFixtures.path("Sample.app"), outputDirectory: output, appIconSet: true)
    #expect(generator.files.count == OpenInIconSet.sizes.count * 2 + 1)
    try generator.write(force: false)
    let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
    #expect(
      names == [
        "OpenInIcon.appiconset", "OpenInIcon60x60@2x.png", "OpenInIcon60x60@3x.png",
        "OpenInIcon76x76@2x~ipad.png", "OpenInIcon76x76~ipad.png", "OpenInIcon83.5x83.5@2x~ipad.png",
      ])
    let contents = try Data(contentsOf: URL(fileURLWithPath: output + "/OpenInIcon.appiconset/Contents.json"))
    let json = try JSONSerialization.jsonObject(with: contents) as? [String: Any]
    #expect((json?["images"] as? [Any])?.count == OpenInIconSet.sizes.count)
    // A second run sees the files and writes nothing without force.
    let again = try OpenInIconGenerator(input: IconFixtures.path("Round.png"), outputDirectory: output)
    #expect(again.files.allSatisfy { $0.exists })
    let error = #expect(throws: OpenInIconError.self) { try again.write(force: false) }
    #expect(error?.kind == .outputExists)
    let before = try Data(contentsOf: URL(fileURLWithPath: output + "/OpenInIcon60x60@2x.png"))
    #expect(before == Data(generator.files[0].data))
    try again.write(force: true)
    let after = try Data(contentsOf: URL(fileURLWithPath: output + "/OpenInIcon60x60@2x.png"))
    #expect(after == Data(again.files[0].data) && after != before)
  }

  /// A template that would show nothing, or only a filled square, is said before anyone ships it; the
  /// example's is not.
  @Test(
    arguments: [
      (20, "almost nothing of the icon stands out"), (200, nil), (232, "most of the icon differs"),
    ] as [(Int, String?)])
  func warnsAboutADoubtfulTemplate(_ side: Int, _ expected: String?) throws {
    let folder = try IconFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A dark square of `side` pixels centred on a light 256-pixel icon, inside its 8-pixel ring.
    let inset = (256 - side) / 2
    let icon = TemplateTransformTests.icon(
      background: { _, _ in (235, 235, 235) }, squares: [(inset, inset, side, (30, 30, 30))])
    let path = folder.appendingPathComponent("Icon.png").path
    try Data(try PNGEncoder.encode(icon)).write(to: URL(fileURLWithPath: path))
    let generator = try OpenInIconGenerator(
      input: path, outputDirectory: folder.appendingPathComponent("out").path)
    if let expected {
      #expect(generator.warnings.count == 1)
      #expect(generator.warnings.first?.contains(expected) == true, "\(generator.warnings)")
      #expect(generator.warnings.first?.contains("pass that PNG instead") == true)
    } else {
      #expect(generator.warnings.isEmpty, "\(generator.warnings)")
    }
    let example = try OpenInIconGenerator(input: IconFixtures.example.path, outputDirectory: folder.path)
    #expect(example.warnings.isEmpty)
  }

  @Test func infoPlistEntries() {
    #expect(OpenInIconSet.iPhoneIconFiles == ["OpenInIcon60x60"])
    #expect(OpenInIconSet.iPadIconFiles == ["OpenInIcon76x76", "OpenInIcon83.5x83.5"])
    #expect(OpenInIconSet.sizes.map(\.pixels) == [120, 180, 76, 152, 167])
    #expect(OpenInIconSet.infoPlistXML.contains("<key>CFBundleIcons~ipad</key>"))
  }
}
