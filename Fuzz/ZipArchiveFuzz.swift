// libFuzzer entry point for the zip reader behind `.ipa` files; built and run by `scripts/fuzz zip SECONDS`.
//
// Any bytes: opening ends in an archive or a `ZipError`, never a crash, a hang or memory past `ZipLimits`
// (libFuzzer's -rss_limit_mb catches the last). Of an archive that opens, every entry name stays inside the
// archive (no `..`, no leading `/`, no `\`), and every file entry reads either to exactly the size the
// central directory declares or to a `ZipError`, and reads the same twice.
import AppBundles
import Foundation

func propertyFailed(_ message: String, input: [UInt8]) -> Never {
  FileHandle.standardError.write(
    Data("zip property failed: \(message)\ninput: \(input.count) bytes\n".utf8))
  abort()
}

// Small limits, so that a hostile input reaches every limit within the fuzzer's memory bound.
let limits = ZipLimits(
  maximumArchiveBytes: 1 << 20, maximumEntryCount: 256, maximumEntryBytes: 1 << 20,
  maximumTotalBytes: 4 << 20, maximumCompressionRatio: 200)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  guard let archive = try? ZipArchive(bytes: bytes, path: "fuzz.ipa", limits: limits) else { return 0 }
  for entry in archive.entries {
    let components = entry.name.split(separator: "/", omittingEmptySubsequences: false)
    if entry.name.hasPrefix("/") || entry.name.contains("\\") || components.contains("..") {
      propertyFailed("a hostile name was accepted: \(entry.name)", input: bytes)
    }
    guard !entry.isDirectory else { continue }
    let first = try? archive.read(entry.name, limit: limits.maximumEntryBytes)
    if let first, first.count != entry.uncompressedSize {
      propertyFailed(
        "\(entry.name) read \(first.count) bytes, declared \(entry.uncompressedSize)", input: bytes)
    }
    if (try? archive.read(entry.name, limit: limits.maximumEntryBytes)) != first {
      propertyFailed("\(entry.name) read differently the second time", input: bytes)
    }
  }
  return 0
}
