import Foundation

/// Reads an input file the way a Unix tool does: `-` is standard input, and pipes, FIFOs and character
/// devices (`/dev/stdin`, `<(…)`) are read to their end instead of by their size, which they do not have.
enum InputFile {
  enum Failure: Error, Equatable {
    case missing
    case unreadable(String)
  }

  /// Whether `path` names standard input.
  static func isStandardInput(_ path: String) -> Bool {
    path == "-" || path == "/dev/stdin" || path == "/dev/fd/0" || path == "/proc/self/fd/0"
  }

  static func read(_ path: String) -> Result<Data, Failure> {
    if path == "-" { return .success(FileHandle.standardInput.readDataToEndOfFile()) }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .failure(.missing)
    }
    if isDirectory.boolValue { return .failure(.unreadable("it is a directory; pass the file inside it")) }
    let isRegular =
      (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    do {
      if isRegular { return .success(try Data(contentsOf: URL(fileURLWithPath: path))) }
      guard let handle = FileHandle(forReadingAtPath: path) else {
        return .failure(.unreadable("cannot open it"))
      }
      defer { try? handle.close() }
      return .success(try handle.readToEnd() ?? Data())
    } catch {
      return .failure(.unreadable(error.localizedDescription))
    }
  }
}
