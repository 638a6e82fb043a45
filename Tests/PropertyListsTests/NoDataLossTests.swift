import Foundation
import Testing

@testable import PropertyLists

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed write never loses or damages the file it was replacing, and never leaves a temporary file.
@Suite("No data loss: interrupted and refused writes")
struct NoDataLossTests {
  static let original = Data("<plist><dict><key>a</key><string>original</string></dict></plist>\n".utf8)
  static let replacement = Data("<plist><dict><key>a</key><string>replaced</string></dict></plist>\n".utf8)

  /// The directory's entries, so a test can see that no temporary file was left behind.
  private func entries(_ directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
  }

  private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  /// The system's operations with `write` failing (EIO) once `failAfter` bytes are written.
  private func failingWrite(after failAfter: Int) -> AtomicFileWriter.Operations {
    var operations = AtomicFileWriter.Operations.system
    operations.write = { descriptor, buffer, count in
      guard failAfter > 0 else {
        errno = EIO
        return -1
      }
      // Write part of the data for real, so the temporary file is non-empty when the failure comes.
      return posixWrite(descriptor, buffer, Swift.min(count, failAfter))
    }
    return operations
  }

  @Test("a write that fails half way removes the temporary file and keeps the original", arguments: [0, 10])
  func interruptedWrite(failAfter: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Info.plist")
    try Self.original.write(to: URL(fileURLWithPath: path))
    var operations = failingWrite(after: failAfter)
    if failAfter > 0 {
      // The first short write succeeds, the next one fails.
      let written = Counter()
      let real = operations.write
      operations.write = { descriptor, buffer, count in
        if written.next() > 0 {
          errno = EIO
          return -1
        }
        return real(descriptor, buffer, count)
      }
    }
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write([(Self.replacement, path)], using: operations)
    }
    #expect(error.kind == .io)
    #expect(error.message == "cannot write: \(String(cString: strerror(EIO)))")
    #expect(try contents(path) == Self.original)
    #expect(try entries(directory) == ["Info.plist"])
  }

  @Test("a rename that fails removes the temporary file and keeps the original")
  func failedRename() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Info.plist")
    try Self.original.write(to: URL(fileURLWithPath: path))
    var operations = AtomicFileWriter.Operations.system
    operations.rename = { _, _ in
      errno = EXDEV
      return -1
    }
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write([(Self.replacement, path)], using: operations)
    }
    #expect(error.kind == .io)
    #expect(error.message == "cannot replace the file: \(String(cString: strerror(EXDEV)))")
    #expect(try contents(path) == Self.original)
    #expect(try entries(directory) == ["Info.plist"])
  }

  @Test("when the second of two renames fails, the first file gets its old content back")
  func allOrNothing() throws {
    let directory = try TemporaryDirectory()
    let info = directory.path("Info.plist")
    let entitlements = directory.path("App.entitlements")
    let newFile = directory.path("New.plist")
    try Self.original.write(to: URL(fileURLWithPath: info))
    try Self.original.write(to: URL(fileURLWithPath: entitlements))
    var operations = AtomicFileWriter.Operations.system
    let real = operations.rename
    operations.rename = { from, to in
      guard !to.hasSuffix("App.entitlements") else {
        errno = EIO
        return -1
      }
      return real(from, to)
    }
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write(
        [(Self.replacement, info), (Self.replacement, newFile), (Self.replacement, entitlements)],
        using: operations)
    }
    #expect(error.kind == .io)
    #expect(error.path == entitlements)
    #expect(error.hint == "no file was changed")
    #expect(try contents(info) == Self.original)
    #expect(try contents(entitlements) == Self.original)
    // The file that did not exist before is gone again.
    #expect(try entries(directory) == ["App.entitlements", "Info.plist"])
  }

  @Test("when the second file cannot even be staged, the first is never replaced")
  func stagingFailureTouchesNothing() throws {
    let directory = try TemporaryDirectory()
    let info = directory.path("Info.plist")
    try Self.original.write(to: URL(fileURLWithPath: info))
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write([
        (Self.replacement, info), (Self.replacement, directory.path("missing/App.entitlements")),
      ])
    }
    #expect(error.kind == .io)
    #expect(try contents(info) == Self.original)
    #expect(try entries(directory) == ["Info.plist"])
  }

  @Test("a read-only file is refused, even for root, and stays as it was")
  func readOnlyFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("Info.plist")
    try Self.original.write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write(Self.replacement, to: path)
    }
    #expect(error.kind == .io)
    #expect(error.description == "\(path): error: cannot write: the file is read-only")
    #expect(error.hint == "make it writable (chmod u+w) or write the result elsewhere")
    #expect(try contents(path) == Self.original)
    let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
    #expect(permissions?.intValue == 0o444)
    #expect(try entries(directory) == ["Info.plist"])
  }

  @Test("a file in a read-only directory is refused, even for root, and stays as it was")
  func readOnlyDirectory() throws {
    let directory = try TemporaryDirectory()
    let folder = directory.path("App")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/Info.plist"
    try Self.original.write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
    let error = try #require(throws: PropertyListError.self) {
      try AtomicFileWriter.write(Self.replacement, to: path)
    }
    #expect(error.kind == .io)
    #expect(error.message == "cannot write: the directory \(folder) is read-only")
    #expect(try contents(path) == Self.original)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Info.plist"])
  }

  @Test("writing a PropertyListFile through a symbolic link replaces the target; the link stays a link")
  func symbolicLink() throws {
    let directory = try TemporaryDirectory()
    let target = directory.path("Real.plist")
    let link = directory.path("Info.plist")
    try Self.original.write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "Real.plist")
    let file = try PropertyListFile.read(contentsOf: link)
    try PropertyListFile.write([(file.applying([.set(["b"], .string("new"))]), nil)])
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "Real.plist")
    #expect(try String(decoding: contents(target), as: UTF8.self).contains("<key>b</key>"))
    #expect(try entries(directory) == ["Info.plist", "Real.plist"])
  }
}

/// Counts calls from a `@Sendable` closure.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// The number of calls before this one.
  func next() -> Int {
    lock.withLock {
      defer { count += 1 }
      return count
    }
  }
}

/// POSIX `write(2)` under a name the test's closures can reach.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
