import CLITestSupport
import Foundation
import Testing

/// `rulekit open-in-icons` and `IntuneMAMConfigurator -generateOpenInIcons`, run as built; the outputs are
/// checked by decoders that are not ours: libpng's `pngfix` and Python's Pillow
/// (`scripts/install-system-packages` installs both).
@Suite("rulekit open-in-icons writes the template icon set", .serialized)
struct OpenInIconsEndToEndTests {
  static let fixtures = RuleKitBinary.packageRoot.appendingPathComponent("Tests/Fixtures/open-in-icons")
  static let pngFixtures = RuleKitBinary.packageRoot.appendingPathComponent("Tests/Fixtures/png")
  static let example = RuleKitBinary.packageRoot.appendingPathComponent(
    "Examples/OpenInIcons/AppIcon.appiconset")
  static let expectedFiles = [
    "OpenInIcon60x60@2x.png": 120, "OpenInIcon60x60@3x.png": 180, "OpenInIcon76x76~ipad.png": 76,
    "OpenInIcon76x76@2x~ipad.png": 152, "OpenInIcon83.5x83.5@2x~ipad.png": 167,
  ]

  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-icons-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Runs a tool (`pngfix`, `python3`) and returns its exit status and output.
  static func tool(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// For each PNG in `folder`: its size, mode, the colours of its non-transparent pixels and its alpha
  /// histogram's extremes, as Pillow reads it.
  static let pillowReport = """
    import json, os, sys
    from PIL import Image
    out = {}
    for name in sorted(os.listdir(sys.argv[1])):
        if not name.endswith(".png"): continue
        image = Image.open(os.path.join(sys.argv[1], name))
        image.load()
        pixels = list(image.convert("RGBA").tobytes())
        alphas = pixels[3::4]
        colours = {tuple(pixels[i:i + 3]) for i in range(0, len(pixels), 4) if pixels[i + 3] > 0}
        out[name] = {"size": list(image.size), "mode": image.mode, "colours": sorted(map(list, colours)),
                     "opaque": sum(a == 255 for a in alphas), "clear": sum(a == 0 for a in alphas),
                     "partial": sum(0 < a < 255 for a in alphas), "coverage": sum(alphas) / 255 / len(alphas)}
    print(json.dumps(out))
    """

  /// Checks every expected file in `folder` with pngfix and Pillow: valid, the researched size, black only,
  /// shape in alpha (some pixels covered, some clear, anti-aliased edges).
  static func checkIndependently(_ folder: URL) throws {
    for name in expectedFiles.keys.sorted() {
      let pngfix = try tool(["pngfix", folder.appendingPathComponent(name).path])
      #expect(pngfix.status == 0, "pngfix \(name): \(pngfix.output)")
      #expect(pngfix.output.contains("IDAT OK"), "pngfix \(name): \(pngfix.output)")
    }
    let pillow = try tool(["python3", "-c", pillowReport, folder.path])
    #expect(pillow.status == 0, "Pillow: \(pillow.output)")
    let report = try JSONSerialization.jsonObject(with: Data(pillow.output.utf8)) as? [String: [String: Any]]
    #expect(Set(report?.keys ?? [:].keys) == Set(expectedFiles.keys))
    for (name, pixels) in expectedFiles {
      let file = report?[name]
      #expect(file?["size"] as? [Int] == [pixels, pixels], "\(name)")
      #expect(file?["mode"] as? String == "RGBA")
      #expect(file?["colours"] as? [[Int]] == [[0, 0, 0]], "\(name): only black, the shape in alpha")
      #expect((file?["opaque"] as? Int ?? 0) > pixels * pixels / 20, "\(name): a shape")
      #expect((file?["clear"] as? Int ?? 0) > pixels * pixels / 4, "\(name): a background")
      #expect((file?["partial"] as? Int ?? 0) > pixels, "\(name): anti-aliased edges")
    }
  }

  @Test(arguments: ["Sample.app", "AppIcon.appiconset", "Round.png"])
  func writesTheDocumentedSet(_ input: String) throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path =
      input == "AppIcon.appiconset" ? Self.example.path : Self.fixtures.appendingPathComponent(input).path
    let output = folder.appendingPathComponent("Icons")
    let run = try RuleKitBinary.run(["open-in-icons", path, "-o", output.path])
    #expect(run.status == 0, "\(run.standardError)")
    let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
    #expect(Set(names) == Set(Self.expectedFiles.keys))
    for name in Self.expectedFiles.keys {
      #expect(run.standardOutput.contains("wrote \(output.path)/\(name)"))
    }
    #expect(run.standardError.contains("<key>CFBundleIcons</key>"))
    try Self.checkIndependently(output)
  }

  /// The closed tool's own command line, renamed binary and all, and the same line under rulekit's name.
  @Test func generateOpenInIconsDropIn() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = Self.fixtures.appendingPathComponent("Sample.app").path
    let renamed = try RuleKitBinary.run(
      ["-generateOpenInIcons", app, "-o", folder.appendingPathComponent("A").path],
      executable: ClosedToolBinary.get())
    #expect(renamed.status == 0, "\(renamed.standardError)")
    try Self.checkIndependently(folder.appendingPathComponent("A"))
    let plain = try RuleKitBinary.run([
      "-generateOpenInIcons", app, "-o", folder.appendingPathComponent("B").path,
    ])
    #expect(plain.status == 0, "\(plain.standardError)")
    for name in Self.expectedFiles.keys {
      let a = try Data(contentsOf: folder.appendingPathComponent("A/\(name)"))
      #expect(a == (try Data(contentsOf: folder.appendingPathComponent("B/\(name)"))))
    }
    // Without -o: the current folder, as the closed tool's first usage line has it.
    let here = folder.appendingPathComponent("C")
    try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
    let bare = try RuleKitBinary.run(
      ["-generateOpenInIcons", app], currentDirectory: here, executable: ClosedToolBinary.get())
    #expect(bare.status == 0, "\(bare.standardError)")
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: here.path)) == Set(Self.expectedFiles.keys))
  }

  @Test func dryRunJSONAndForce() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("Icons").path
    let app = Self.fixtures.appendingPathComponent("Sample.app").path
    let dry = try RuleKitBinary.run(["open-in-icons", app, "-o", output, "--dry-run", "--format", "json"])
    #expect(dry.status == 0)
    #expect(!FileManager.default.fileExists(atPath: output), "a dry run writes nothing")
    let document = try JSONSerialization.jsonObject(with: Data(dry.standardOutput.utf8)) as? [String: Any]
    #expect(document?["schemaVersion"] as? Int == 1)
    #expect(document?["dryRun"] as? Bool == true)
    let source = document?["source"] as? [String: Any]
    #expect(source?["kind"] as? String == "app")
    #expect(source?["appleCgBI"] as? Bool == true)
    #expect(source?["width"] as? Int == 180)
    let files = document?["files"] as? [[String: Any]] ?? []
    #expect(files.compactMap { $0["pixels"] as? Int } == [120, 180, 76, 152, 167])
    let infoPlist = document?["infoPlist"] as? [String: Any]
    #expect(infoPlist?.keys.sorted() == ["CFBundleIcons", "CFBundleIcons~ipad"])

    #expect(try RuleKitBinary.run(["open-in-icons", app, "-o", output]).status == 0)
    let round = Self.fixtures.appendingPathComponent("Round.png").path
    let before = try Data(contentsOf: URL(fileURLWithPath: output + "/OpenInIcon60x60@2x.png"))
    let refused = try RuleKitBinary.run(["open-in-icons", round, "-o", output])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("would be replaced"))
    #expect(refused.standardError.contains("--force"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/OpenInIcon60x60@2x.png")) == before)
    let forced = try RuleKitBinary.run(["open-in-icons", round, "-o", output, "--force"])
    #expect(forced.status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/OpenInIcon60x60@2x.png")) != before)
  }

  /// Bad inputs: a clear error naming the file (and the chunk), the contract's exit status, nothing written.
  @Test(arguments: [
    ("png/bad/not-png.png", 65, "not a PNG file"),
    ("png/bad/truncated.png", 65, "byte 33 (chunk IDAT): the chunk claims"),
    ("png/bad/bad-crc.png", 65, "byte 33 (chunk IDAT): CRC mismatch"),
    ("png/bad/huge-header.png", 65, "byte 8 (chunk IHDR): the image is 100000 × 100000 pixels"),
    ("png/bad/bomb.png", 65, "decompression bomb"),
    ("open-in-icons/CarOnly.app", 65, "only in Assets.car"),
    ("open-in-icons/Missing.app", 66, "no such file or folder"),
  ])
  func badInputs(_ input: String, _ status: Int32, _ message: String) throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = RuleKitBinary.packageRoot.appendingPathComponent("Tests/Fixtures/" + input).path
    let output = folder.appendingPathComponent("Icons")
    let run = try RuleKitBinary.run(["open-in-icons", path, "-o", output.path])
    #expect(run.status == status, "\(run.standardError)")
    #expect(run.standardError.hasPrefix("rulekit: error: \(path): "), "\(run.standardError)")
    #expect(run.standardError.contains(message), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: output.path), "nothing written")
    let dropIn = try RuleKitBinary.run(
      ["-generateOpenInIcons", path, "-o", output.path], executable: ClosedToolBinary.get())
    #expect(dropIn.status == status)
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  /// An output that cannot be written: exit 74, nothing written, nothing left behind.
  @Test func unwritableOutput() throws {
    let folder = try Self.temporaryFolder()
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: folder.path + "/locked")
      try? FileManager.default.removeItem(at: folder)
    }
    let app = Self.fixtures.appendingPathComponent("Sample.app").path
    let file = folder.appendingPathComponent("not-a-folder")
    try Data("x".utf8).write(to: file)
    let onFile = try RuleKitBinary.run(["open-in-icons", app, "-o", file.path])
    #expect(onFile.status == 74, "\(onFile.standardError)")
    #expect(onFile.standardError.contains("not a folder"))
    #expect(try Data(contentsOf: file) == Data("x".utf8))
    let locked = folder.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
    let readOnly = try RuleKitBinary.run(["open-in-icons", app, "-o", locked.path])
    #expect(readOnly.status == 74, "\(readOnly.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
  }
}
