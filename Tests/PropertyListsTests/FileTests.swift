import Foundation
import RuleKitFoundation
import Testing

@testable import PropertyLists

@Suite("Files: formats and atomic writes")
struct FileTests {
  static let sample: PropertyListValue = .dictionary([
    "CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .array([.string("notes")])])]),
    "Count": .integer(3),
    "Enabled": .bool(true),
    "Ratio": .real(0.25),
    "Blob": .data(Data([0, 1, 2, 255])),
    "When": .date(Date(timeIntervalSince1970: 1_700_000_000)),
  ])

  @Test("binary plist in, binary plist out, with the edit applied")
  func binaryRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Info.plist")
    let binary = try PropertyListSerialization.data(
      fromPropertyList: Self.sample.foundationObject, format: .binary, options: 0)
    try binary.write(to: URL(fileURLWithPath: path))

    let file = try PropertyListFile.read(contentsOf: path)
    #expect(file.format == .binary)
    #expect(file.document == nil)
    #expect(file.value.normalizedKeyOrder == Self.sample.normalizedKeyOrder)
    let edit = PropertyListEdit.append(
      .string("notes-intunemam"), to: ["CFBundleURLTypes", 0, "CFBundleURLSchemes"])
    try file.applying([edit]).write()

    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(written.starts(with: Array("bplist00".utf8)))
    #expect(try foundationValue(of: written) == (try Self.sample.applying(edit)).normalizedKeyOrder)
  }

  @Test("OpenStep plist in, OpenStep plist out")
  func openStepRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("old.plist")
    try Data("{ name = \"Notes app\"; schemes = (notes, \"x y\"); blob = <00ff>; }\n".utf8)
      .write(to: URL(fileURLWithPath: path))

    let file = try PropertyListFile.read(contentsOf: path)
    #expect(file.format == .openStep)
    let edited = try file.applying([
      .append(.string("a\"b\\c"), to: ["schemes"]), .set(["empty"], .dictionary([:])),
    ])
    try edited.write()
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    try expectGolden(String(decoding: written, as: UTF8.self), named: "openstep.plist")
    var format = PropertyListSerialization.PropertyListFormat.xml
    _ = try PropertyListSerialization.propertyList(from: written, options: [], format: &format)
    #expect(format == .openStep)
    #expect(try foundationValue(of: written) == edited.value.normalizedKeyOrder)
  }

  @Test("a date cannot be written as OpenStep, and nothing is written")
  func openStepRefusesDates() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("old.plist")
    let original = Data("{ a = b; }".utf8)
    try original.write(to: URL(fileURLWithPath: path))
    let edited = try PropertyListFile.read(contentsOf: path).applying([.set(["when"], .date(Date()))])
    let error = try #require(throws: PropertyListError.self) { try edited.write() }
    #expect(error.kind == .unsupportedValue)
    #expect(error.description == "\(path): error: an OpenStep property list cannot hold a date")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
  }

  @Test(
    "format detection",
    arguments: [
      ("bplist00", PropertyListFormat.binary),
      ("<?xml version=\"1.0\"?><plist/>", .xml),
      ("\u{FEFF}  <plist><dict/></plist>", .xml),
      ("<dict/>", .xml),
      ("{ a = b; }", .openStep),
      ("<0fa3 12>", .openStep),
      ("( a, b )", .openStep),
    ])
  func detection(text: String, format: PropertyListFormat) {
    #expect(PropertyListFile.detectFormat(Data(text.utf8)) == format)
  }

  @Test("an unchanged XML file is written back byte-identical")
  func unchangedXML() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("crlf.plist")
    let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("crlf.plist"))
    try original.write(to: URL(fileURLWithPath: path))
    try PropertyListFile.read(contentsOf: path).write()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
  }

  @Test("a damaged binary plist is an error naming the file")
  func damagedBinary() throws {
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(data: Data("bplist00garbage".utf8), path: "App.plist")
    }
    #expect(error.kind == .malformed)
    #expect(
      error.description
        == "App.plist: error: the binary property list (bplist00) is damaged: it is 15 bytes, too short for "
        + "the 8-byte header, an object and the 32-byte trailer (the file is truncated)")
  }

  @Test("a UTF-16 or UTF-32 plist with a byte order mark is refused rather than rewritten in another format")
  func utf16Refused() throws {
    let text =
      "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist version=\"1.0\"><string>x</string></plist>\n"
    for (encoding, name) in [
      (String.Encoding.utf16, "UTF-16"), (.utf16BigEndian, "UTF-16"), (.utf32, "UTF-32"),
    ] {
      var data = try #require(text.data(using: encoding))
      if encoding == .utf16BigEndian { data = Data([0xFE, 0xFF]) + data }
      let error = try #require(throws: PropertyListError.self) {
        try PropertyListFile(data: data, path: "U.plist")
      }
      #expect(error.kind == .invalidEncoding)
      #expect(
        error.description == "U.plist: error: the property list is \(name) (it starts with a byte order mark)"
      )
      #expect(error.hint == "save the file as UTF-8 (plutil -convert xml1 writes UTF-8)")
    }
  }

  @Test("a missing input file is reported, not a crash")
  func missingInput() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Missing.plist")
    let error = try #require(throws: PropertyListError.self) { try PropertyListFile.read(contentsOf: path) }
    #expect(error.kind == .fileNotFound)
    #expect(error.description == "\(path): error: no such file")
  }

  @Test("parse errors from a file carry its path")
  func parseErrorCarriesPath() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Broken.plist")
    try Data("<plist><dict>\n<key>A</key>".utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: PropertyListError.self) { try PropertyListFile.read(contentsOf: path) }
    #expect(error.description == "\(path):2:13: error: the file ends before <dict> (opened at 1:8) is closed")
  }

  // MARK: Atomic writes

  @Test("an output directory that cannot exist is an error, and the input is untouched")
  func unwritableDirectory() throws {
    let directory = try TemporaryDirectory()
    let input = directory.path("Info.plist")
    let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("app-info.plist"))
    try original.write(to: URL(fileURLWithPath: input))
    let file = try PropertyListFile.read(contentsOf: input).applying([.set(["CFBundleVersion"], .integer(2))])
    // A regular file used as a directory: not writable, even by root.
    let output = input + "/out.plist"
    let error = try #require(throws: PropertyListError.self) { try file.write(to: output) }
    #expect(error.kind == .io)
    #expect(error.description == "\(output): error: cannot write: \(input) is a file, not a directory")
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Info.plist"])
  }

  @Test("a missing output directory is named, with how to create it; nothing is written")
  func missingDirectory() throws {
    let directory = try TemporaryDirectory()
    let input = directory.path("Info.plist")
    try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("app-info.plist"))
      .write(to: URL(fileURLWithPath: input))
    let file = try PropertyListFile.read(contentsOf: input)
    let output = directory.path("nodir/Out.plist")
    let error = try #require(throws: PropertyListError.self) { try file.write(to: output) }
    #expect(error.kind == .io)
    #expect(
      error.rendered(source: [])
        == "\(output): error: cannot write: the directory \(directory.path("nodir")) does not exist\n"
        + "hint: create it first (mkdir -p \(directory.path("nodir"))) or write to a directory that exists")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Info.plist"])
  }

  @Test("a named pipe is refused before reading: it would block, and it cannot be edited in place")
  func namedPipeIsNotRead() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Info.plist")
    #expect(mkfifo(path, 0o644) == 0)
    let error = try #require(throws: PropertyListError.self) { try PropertyListFile.read(contentsOf: path) }
    #expect(error.kind == .io)
    #expect(
      error.description == "\(path): error: cannot read: it is not a regular file but a named pipe (FIFO)")
    #expect(error.hint == "pass the path of the property list file itself")
  }

  @Test(
    "a read-only output directory is an error (skipped as root, who may write anywhere)",
    .enabled(if: geteuid() != 0))
  func readOnlyDirectory() throws {
    let directory = try TemporaryDirectory()
    let output = directory.path("readonly/Info.plist")
    try FileManager.default.createDirectory(
      atPath: directory.path("readonly"), withIntermediateDirectories: false)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o555], ofItemAtPath: directory.path("readonly"))
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: directory.path("readonly"))
    }
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write(Data("x".utf8), to: output)
    }
    #expect(error.description == "\(output): error: cannot write: Permission denied")
  }

  @Test("when the final rename fails (a directory is in the way), the temporary file is removed")
  func directoryInTheWay() throws {
    let directory = try TemporaryDirectory()
    let target = directory.path("Info.plist")
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write(Data("x".utf8), to: target)
    }
    #expect(error.description == "\(target): error: cannot replace the file: Is a directory")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Info.plist"])
  }

  @Test("writing keeps the file's permissions")
  func keepsPermissions() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Info.plist")
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
    try AtomicFileWriter.write(Data("new".utf8), to: path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Info.plist"])
  }

  @Test("writing through a symbolic link replaces its target and keeps the link")
  func writesThroughSymlink() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: directory.path("real"), withIntermediateDirectories: false)
    let target = directory.path("real/Info.plist")
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    let link = directory.path("Info.plist")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/Info.plist")
    try AtomicFileWriter.write(Data("new".utf8), to: link)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/Info.plist")
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("new".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("real")) == ["Info.plist"])
  }

  @Test("a new file is created")
  func createsNewFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("New.plist")
    try PropertyListFile(content: .value(Self.sample, .xml), path: path).write()
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(String(decoding: written, as: UTF8.self) == PropertyListSerializer.xmlDocument(Self.sample))
    #expect(try PropertyListDocument(data: written).value == Self.sample)
  }
}

@Suite("The DocC example")
struct DocumentationExampleTests {
  @Test("the overview's plan works as written")
  func overviewExample() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Info.plist")
    try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("app-info.plist")).write(
      to: URL(fileURLWithPath: path))

    let file = try PropertyListFile.read(contentsOf: path)
    let plan: [PropertyListEdit] = [
      .append(
        .string("notes-intunemam"), to: ["CFBundleURLTypes", 0, "CFBundleURLSchemes"], unlessPresent: true),
      .set(["IntuneMAMSettings", "ContainingAppBundleId"], .string("com.example.notes")),
    ]
    let edited = try file.applying(plan)
    let before = try #require(file.document)
    let after = try #require(edited.document)
    let diff = UnifiedDiff.make(
      from: before.text, to: after.text, oldName: "a/Info.plist", newName: "b/Info.plist")
    #expect(diff.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.count == 5)
    try edited.write()
    #expect(try PropertyListFile.read(contentsOf: path).value == edited.value)
    #expect(try edited.applying(plan).serialized() == edited.serialized())
  }
}

@Suite("Path helpers of the atomic writer")
struct PathTextTests {
  static let paths = [
    "/a/b", "a/b", "Info.plist", "/b", "/", "a/b/", "a//b", "//b", "/a/b//", "./x", "../x/y", "dir/.hidden",
  ]

  @Test("they split paths as NSString's path methods do", arguments: paths)
  func agreeWithNSString(path: String) {
    #expect(PathText.deletingLastComponent(path) == (path as NSString).deletingLastPathComponent)
    #expect(PathText.lastComponent(path) == (path as NSString).lastPathComponent)
  }

  @Test("the empty path and a one-letter name (on which NSString traps on Linux)")
  func short() {
    #expect(PathText.deletingLastComponent("") == "")
    #expect(PathText.lastComponent("") == "")
    #expect(PathText.deletingLastComponent("b") == "")
    #expect(PathText.lastComponent("b") == "b")
  }

  @Test("a relative link target joins its directory")
  func appending() {
    #expect(PathText.appending("t", to: "a") == "a/t")
    #expect(PathText.appending("t", to: "") == "t")
    #expect(PathText.appending("t", to: "/") == "/t")
    #expect(PathText.appending("../t", to: "/a/b") == "/a/b/../t")
  }
}
