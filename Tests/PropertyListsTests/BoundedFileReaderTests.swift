import Foundation
import PropertyLists
import Testing

/// `BoundedFileReader`: an oversized input costs at most `limit + 1` bytes of reading, whatever its kind.
@Suite struct BoundedFileReaderTests {
  /// A sparse file of `size` bytes: its size is what `stat` reports, and nothing is written to disk.
  private func sparseFile(_ path: String, size: UInt64) throws {
    _ = FileManager.default.createFile(atPath: path, contents: Data("<plist>".utf8))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: size)
    try handle.close()
  }

  @Test func aGigabyteFileIsRefusedByItsSizeWithoutBeingRead() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("huge.plist")
    try sparseFile(path, size: 1 << 30)
    let error = try #require(throws: BoundedFileReader.Failure.self) {
      try BoundedFileReader.read(contentsOf: path, limit: 16 << 20)
    }
    // The exact size comes from fstat; reading would have stopped at 16 MiB + 1 and known only "more than".
    #expect(error == .tooLarge(path: path, size: .exactly(1 << 30), limit: 16 << 20))
    #expect(error.description == "\(path) is 1073741824 bytes, more than the limit of 16777216 bytes")
  }

  @Test(arguments: [0, 1, 99, 100])
  func aRegularFileAtOrUnderTheLimitIsReadWhole(size: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("file")
    let bytes = Data((0..<size).map { UInt8($0 % 251) })
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect(try BoundedFileReader.read(contentsOf: path, limit: 100) == bytes)
  }

  @Test func aRegularFileOneBytePastTheLimitIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("file")
    try Data(repeating: 0x61, count: 101).write(to: URL(fileURLWithPath: path))
    #expect(throws: BoundedFileReader.Failure.tooLarge(path: path, size: .exactly(101), limit: 100)) {
      try BoundedFileReader.read(contentsOf: path, limit: 100)
    }
  }

  @Test func missingFilesDirectoriesAndDanglingLinksAreNamedFailures() throws {
    let directory = try TemporaryDirectory()
    let missing = directory.path("missing")
    #expect(throws: BoundedFileReader.Failure.notFound(path: missing)) {
      try BoundedFileReader.read(contentsOf: missing, limit: 10)
    }
    #expect(throws: BoundedFileReader.Failure.notFound(path: missing + "/inside")) {
      try BoundedFileReader.read(contentsOf: missing + "/inside", limit: 10)
    }
    let link = directory.path("link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: missing)
    #expect(throws: BoundedFileReader.Failure.notFound(path: link)) {
      try BoundedFileReader.read(contentsOf: link, limit: 10)
    }
    let error = try #require(throws: BoundedFileReader.Failure.self) {
      try BoundedFileReader.read(contentsOf: directory.url.path, limit: 10)
    }
    #expect(error == .isDirectory(path: directory.url.path))
    #expect(error.reason == "cannot read: it is a directory")
    #expect(error.hint == "pass the file inside it")
    #expect(
      error.description == "\(directory.url.path): cannot read: it is a directory; pass the file inside it")
  }

  @Test("every failure has one path-free reason, and a hint where the failure alone says how to fix it")
  func reasonsAndHints() {
    let failures: [(BoundedFileReader.Failure, String, String?)] = [
      (.notFound(path: "a"), "no such file", nil),
      (.isDirectory(path: "a"), "cannot read: it is a directory", "pass the file inside it"),
      (
        .tooLarge(path: "a", size: .exactly(20), limit: 10), "is 20 bytes, more than the limit of 10 bytes",
        nil
      ),
      (.tooLarge(path: "a", size: .moreThan(10), limit: 10), "goes on past the limit of 10 bytes", nil),
      (.unreadable(path: "a", reason: "Permission denied"), "cannot read: Permission denied", nil),
    ]
    for (failure, reason, hint) in failures {
      #expect(failure.reason == reason)
      #expect(failure.hint == hint)
      #expect(!failure.reason.contains("a:"))
    }
    #expect(BoundedFileReader.describe(limit: 16 << 20) == "16 MiB")
    #expect(BoundedFileReader.describe(limit: 1000) == "1000 bytes")
  }

  @Test func aPipeIsReadToItsEndWhenItFits() throws {
    let pipe = try PipeEnds.make()
    defer { close(pipe.read) }
    let writer = Writer(descriptor: pipe.write, total: 1000, closeWhenDone: true)
    let data = try BoundedFileReader.read(fileDescriptor: pipe.read, limit: 1000, path: "<pipe>")
    #expect(data.count == 1000)
    #expect(writer.wait() == 1000)
  }

  @Test func aPipeIsReadOnlyToOneBytePastTheLimit() throws {
    let pipe = try PipeEnds.make()
    defer { close(pipe.read) }
    let limit = 1 << 20
    let total = 8 << 20
    let writer = Writer(descriptor: pipe.write, total: total, closeWhenDone: true)
    let error = try #require(throws: BoundedFileReader.Failure.self) {
      try BoundedFileReader.read(fileDescriptor: pipe.read, limit: limit, path: "<pipe>")
    }
    #expect(error == .tooLarge(path: "<pipe>", size: .moreThan(limit), limit: limit))
    #expect(error.description == "<pipe> goes on past the limit of 1048576 bytes")
    // Whatever the reader did not take is still in the pipe.
    var rest = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      rest += count
    }
    #expect(writer.wait() == total)
    #expect(total - rest == limit + 1)
  }

  @Test func aFIFOThatNeverEndsIsRefusedOnceItPassesTheLimit() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("endless")
    #expect(mkfifo(path, 0o600) == 0)
    // Writes until the reader goes away (EPIPE), or 256 MiB if it never stops reading.
    let cap = 256 << 20
    let writer = Writer(fifo: path, total: cap)
    let limit = 1 << 20
    let error = try #require(throws: BoundedFileReader.Failure.self) {
      try BoundedFileReader.read(contentsOf: path, limit: limit)
    }
    #expect(error == .tooLarge(path: path, size: .moreThan(limit), limit: limit))
    // The writer got no further than the limit plus what the pipe buffers.
    #expect(writer.wait() < 8 << 20)
  }

  /// A property list file is a document to edit and write back in place, so a FIFO is refused by `stat`
  /// before it is opened: opening it would block until something writes to it (here nothing does, so a
  /// reader that opened it would hang this test). Bounded reading of pipes is `BoundedFileReader`'s.
  @Test func propertyListFilesRefuseAFIFOWithoutOpeningIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("endless.plist")
    #expect(mkfifo(path, 0o600) == 0)
    let error = try #require(throws: PropertyListError.self) { try PropertyListFile.read(contentsOf: path) }
    #expect(error.kind == .io)
    #expect(error.message == "cannot read: it is not a regular file but a named pipe (FIFO)")
  }
}

/// The two ends of a pipe.
private struct PipeEnds {
  var read: Int32
  var write: Int32

  static func make() throws -> PipeEnds {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { throw POSIXError(.EMFILE) }
    return PipeEnds(read: descriptors[0], write: descriptors[1])
  }
}

/// Writes `total` bytes on a thread of its own and reports how many it wrote; a write that fails because
/// the reader went away (EPIPE) ends it early.
private final class Writer: @unchecked Sendable {
  private let condition = NSCondition()
  private var written: Int?

  init(descriptor: Int32, total: Int, closeWhenDone: Bool) {
    let thread = Thread { [self] in
      finish(Self.write(to: descriptor, total: total))
      if closeWhenDone { close(descriptor) }
    }
    thread.start()
  }

  /// Opens the FIFO at `path` for writing once a reader has opened it, then writes.
  init(fifo path: String, total: Int) {
    let thread = Thread { [self] in
      let deadline = Date().addingTimeInterval(30)
      var descriptor: Int32 = -1
      // Non-blocking until the reader is there, so a reader that never comes cannot hang the test.
      while descriptor < 0, Date() < deadline {
        descriptor = open(path, O_WRONLY | O_NONBLOCK)
        if descriptor < 0 { usleep(1000) }
      }
      guard descriptor >= 0 else { return finish(0) }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
      finish(Self.write(to: descriptor, total: total))
      close(descriptor)
    }
    thread.start()
  }

  private static func write(to descriptor: Int32, total: Int) -> Int {
    // EPIPE instead of a SIGPIPE that would end the test process: the signal goes to this thread.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 16)
    var written = 0
    while written < total {
      let count = chunk.withUnsafeBytes {
        systemWrite(descriptor, $0.baseAddress, Swift.min($0.count, total - written))
      }
      if count < 0 {
        if errno == EINTR { continue }
        break
      }
      written += count
    }
    return written
  }

  private func finish(_ count: Int) {
    condition.lock()
    written = count
    condition.broadcast()
    condition.unlock()
  }

  /// How many bytes were written, once the writer is done.
  func wait() -> Int {
    condition.lock()
    defer { condition.unlock() }
    while written == nil { condition.wait() }
    return written ?? 0
  }
}

/// The C library's `write`, named apart from `Writer.write(to:total:)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
