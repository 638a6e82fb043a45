import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads an input file the way a Unix tool does: `-` is standard input, and pipes, FIFOs and character
/// devices (`/dev/stdin`, `<(…)`) are read to their end instead of by their size, which they do not have.
///
/// No input is read past ``maximumBytes``: a regular file is refused by its size before a byte is read, and
/// a pipe as soon as it goes past the limit, so a 1 GB file costs a `stat`, not a gigabyte of memory.
enum InputFile {
  /// The most `rulekit` reads of any input: twice the largest of RuleKit's input limits (property lists,
  /// JSON contexts and rule files, 16 MiB). It is a backstop: an input near a reader's own limit still gets
  /// that reader's message, with the limit's name and a position, and anything far past every limit is
  /// refused here without being read.
  static let maximumBytes = 2 * PropertyListLimits.maximumFileBytes

  /// Whether `path` names standard input.
  static func isStandardInput(_ path: String) -> Bool {
    path == "-" || path == "/dev/stdin" || path == "/dev/fd/0" || path == "/proc/self/fd/0"
  }

  /// The bytes of the input at `path`, or why they were not read (``BoundedFileReader/Failure``, whose
  /// `reason` and `hint` callers put after the file's name).
  static func read(_ path: String) -> Result<Data, BoundedFileReader.Failure> {
    do throws(BoundedFileReader.Failure) {
      if path == "-" {
        return .success(
          try BoundedFileReader.read(fileDescriptor: STDIN_FILENO, limit: maximumBytes, path: "<stdin>"))
      }
      return .success(try BoundedFileReader.read(contentsOf: path, limit: maximumBytes))
    } catch {
      return .failure(error)
    }
  }
}
