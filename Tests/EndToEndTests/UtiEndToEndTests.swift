import CLITestSupport
import Foundation
import Testing

/// Runs the `rulekit` built with the tests (``RuleKitBinary``) and reads the `uti` goldens.
enum UtiCLI {
  static let golden = RuleKitBinary.testDirectory.appendingPathComponent("Golden/uti")

  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  static func run(_ arguments: [String]) throws -> Result {
    let outcome = try RuleKitBinary.run(arguments)
    return Result(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
  }

  static func expected(_ name: String) throws -> String {
    try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
  }
}

@Suite("rulekit uti (end to end)")
struct UtiEndToEndTests {
  static let declarations = "Tests/Fixtures/uti/Info.plist"

  /// An identifier nobody declares is said on standard error, with the declared one it likely misspells;
  /// the answer on standard output is unchanged; a twin of a declared type is not noted; JSON output has no note.
  @Test func undeclaredIdentifiersAreNotedWithAHint() throws {
    let misspelled = try UtiCLI.run(["uti", "conforms", "public.jpg", "public.image"])
    #expect(misspelled.status == 0)
    #expect(misspelled.stdout == "false\n")
    #expect(
      misspelled.stderr
        == "note: nobody declares public.jpg (did you mean public.jpeg?); an undeclared type conforms only to itself\n"
    )
    let twin = try UtiCLI.run(["uti", "conforms", "com.microsoft.intune.mam.public.jpeg", "public.image"])
    #expect(twin.stderr.isEmpty)
    let json = try UtiCLI.run(["uti", "ancestors", "org.example.unknown", "--format", "json"])
    #expect(json.stdout.contains("\"org.example.unknown\""))
    #expect(json.stderr.isEmpty)
  }

  @Test(
    "conforms prints true or false and exits 0",
    arguments: [
      (["public.heic", "public.image"], "true"),
      (["PUBLIC.JPEG", "public.data"], "true"),
      (["public.image", "public.heic"], "false"),
      (["org.example.unknown", "public.item"], "false"),
      (["dyn.ah62d4rv4ge80s6d2", "public.data"], "true"),
      (["com.microsoft.intune.mam.public.jpeg", "com.microsoft.intune.mam.public.image"], "false"),
      (
        [
          "com.microsoft.intune.mam.public.jpeg", "com.microsoft.intune.mam.public.image", "--twin-policy",
          "mirrored",
        ], "true"
      ),
      (["com.example.tracks.route", "public.xml", "--declarations", declarations], "true"),
      (["dyn.ah62d4rv4ge80s6d2", "com.topografix.gpx", "--declarations", declarations], "true"),
      (["public.jpeg", "public.text", "--declarations", declarations], "false"),
    ])
  func conforms(arguments: [String], expected: String) throws {
    let result = try UtiCLI.run(["uti", "conforms"] + arguments)
    #expect(result.status == 0)
    #expect(result.stdout == expected + "\n")
  }

  @Test(
    "printed output matches the golden files",
    arguments: [
      (["ancestors", "public.heic"], "ancestors-heic.txt"),
      (
        ["ancestors", "com.microsoft.intune.mam.public.heic", "--twin-policy", "mirrored"],
        "ancestors-twin-mirrored.txt"
      ),
      (["descendants", "public.heif-standard"], "descendants-heif-standard.txt"),
      (["info", "public.jpeg"], "info-jpeg.txt"),
      (["info", "dyn.ah62d4rv4ge80s6d2", "--format", "json"], "info-dyn-gpx.json"),
      (["info", "com.example.tracks.route", "--declarations", declarations], "info-route.txt"),
      (["for-extension", "JPG"], "for-extension-jpg.txt"),
      (["for-extension", "plist", "--format", "json"], "for-extension-plist.json"),
      (["for-extension", "gpx"], "for-extension-gpx.txt"),
      (["for-extension", "gpx", "--declarations", declarations], "for-extension-gpx-declared.txt"),
      (["for-mime", "image/heic"], "for-mime-heic.txt"),
      (["for-mime", "application/x-unknown", "--format", "json"], "for-mime-unknown.json"),
      (["conforms", "public.heic", "public.image", "--format", "json"], "conforms-heic-image.json"),
      (["ancestors", "public.utf8-plain-text", "--format", "json"], "ancestors-utf8-plain-text.json"),
      (
        ["descendants", "com.topografix.gpx", "--declarations", declarations, "--format", "json"],
        "descendants-gpx-declared.json"
      ),
      (["--help"], "help-uti.txt"),
      (["conforms", "--help"], "help-uti-conforms.txt"),
    ])
  func golden(arguments: [String], file: String) throws {
    let result = try UtiCLI.run(["uti"] + arguments)
    #expect(result.status == 0)
    #expect(result.stdout == (try UtiCLI.expected(file)))
  }

  @Test("declaration warnings go to stderr, compiler-style with the source line and a caret")
  func warnings() throws {
    let result = try UtiCLI.run([
      "uti", "conforms", "public.jpeg", "public.image", "--declarations", Self.declarations,
    ])
    #expect(result.status == 0)
    #expect(result.stdout == "true\n")
    #expect(result.stderr == (try UtiCLI.expected("declarations-warning.stderr")))
  }

  @Test("bad declarations exit 65 with every diagnostic")
  func badDeclarations() throws {
    let result = try UtiCLI.run(
      [
        "uti", "conforms", "com.example.a", "com.example.b", "--declarations",
        "Tests/EndToEndTests/Golden/uti/Cycle.plist",
      ])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == (try UtiCLI.expected("cycle.stderr")))
  }

  @Test("bad declarations in JSON format")
  func badDeclarationsJSON() throws {
    let result = try UtiCLI.run(
      [
        "uti", "ancestors", "com.example.a", "--format", "json", "--declarations",
        "Tests/EndToEndTests/Golden/uti/Cycle.plist",
      ])
    #expect(result.status == 65)
    #expect(result.stderr == (try UtiCLI.expected("cycle.stderr.json")))
  }

  @Test("a malformed plist exits 65, pointing at the first broken tag")
  func malformedPlist() throws {
    let result = try UtiCLI.run(
      ["uti", "info", "public.jpeg", "--declarations", "Tests/EndToEndTests/Golden/uti/Malformed.plist"])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "Tests/EndToEndTests/Golden/uti/Malformed.plist:6:1: error: not a property list"))
  }

  @Test("a missing declarations file exits 66")
  func missingFile() throws {
    let result = try UtiCLI.run([
      "uti", "ancestors", "public.jpeg", "--declarations", "Tests/no-such-Info.plist",
    ])
    #expect(result.status == 66)
    #expect(
      result.stderr
        == "rulekit: error: Tests/no-such-Info.plist: no such file; check the path (relative paths start at "
        + "the current directory)\n")
  }
}
