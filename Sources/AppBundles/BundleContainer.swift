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

/// A built app's files, from a folder (`.app`, `.xcarchive`) or a zip archive (`.ipa`), behind one API:
/// list a folder, read a file with a size limit. Paths are relative to the container, with `/` separators.
///
/// An archive is read into memory and entries are inflated only when read; nothing is extracted to disk.
/// In a folder, symbolic links are never followed (``AppBundleError/Kind/symbolicLink``).
///
/// ```swift
/// let container = try BundleContainer(path: "Notes.ipa")
/// for app in try container.applications() {
///   let info = try container.read(app.infoPlistPath, limit: 1 << 20)
///   for appex in app.extensions { print(appex.name) }
/// }
/// ```
public struct BundleContainer: Sendable {
  /// Where the files come from.
  public enum Storage: Sendable {
    /// A folder on disk: an `.app` or `.xcarchive`.
    case directory
    /// A zip archive read into memory: an `.ipa`.
    case archive(ZipArchive)
  }

  /// The path given.
  public let path: String
  /// A folder or an archive.
  public let storage: Storage

  /// Opens the `.app` or `.xcarchive` folder, or the `.ipa` (any zip file), at `path`.
  ///
  /// - Throws: ``AppBundleError`` with kind `notFound`, `tooLarge` (an archive past
  ///   ``ZipLimits/maximumArchiveBytes``), `archive` (a hostile or damaged zip) or `inputOutput`.
  public init(path: String, limits: ZipLimits = ZipLimits()) throws(AppBundleError) {
    self.path = path
    var isDirectory = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw AppBundleError(.notFound, path: path, "no such file or folder")
    }
    if isDirectory {
      storage = .directory
      return
    }
    let data: Data
    do {
      data = try BoundedFileReader.read(contentsOf: path, limit: limits.maximumArchiveBytes)
    } catch {
      throw AppBundleError(error, limit: limits.maximumArchiveBytes)
    }
    do {
      storage = .archive(try ZipArchive(bytes: [UInt8](data), path: path, limits: limits))
    } catch {
      throw AppBundleError(error)
    }
  }

  /// The names of the files and folders directly inside `folder` (`""` for the top), sorted.
  public func contents(of folder: String) throws(AppBundleError) -> [String] {
    switch storage {
    case .directory:
      let full = join(path, folder)
      var isDirectory = false
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory else {
        return []
      }
      do {
        return try FileManager.default.contentsOfDirectory(atPath: full).sorted()
      } catch {
        throw AppBundleError(.inputOutput, path: full, "cannot list the folder: \(error)")
      }
    case .archive(let archive):
      let prefix = folder.isEmpty ? "" : folder + "/"
      var names: Set<String> = []
      for entry in archive.entries where entry.name.hasPrefix(prefix) && entry.name.count > prefix.count {
        // Archives need not list folders: a folder is any prefix of a file's name.
        if let name = entry.name.dropFirst(prefix.count).split(separator: "/").first {
          names.insert(String(name))
        }
      }
      return names.sorted()
    }
  }

  /// Whether a file (not a folder) exists at `file`.
  public func containsFile(_ file: String) -> Bool {
    switch storage {
    case .directory:
      var isDirectory = false
      return FileManager.default.fileExists(atPath: join(path, file), isDirectory: &isDirectory)
        && !isDirectory
    case .archive(let archive):
      return archive.entry(named: file).map { !$0.isDirectory } ?? false
    }
  }

  /// The bytes of `file`, when it is at most `limit` bytes.
  ///
  /// - Throws: ``AppBundleError`` with kind `notFound`, `tooLarge`, `symbolicLink` (in a folder: the file or
  ///   a folder on the way to it is a link), `archive` (the entry does not inflate) or `inputOutput`.
  public func read(_ file: String, limit: Int) throws(AppBundleError) -> [UInt8] {
    switch storage {
    case .directory:
      try refuseLinks(on: file)
      do {
        return [UInt8](try BoundedFileReader.read(contentsOf: join(path, file), limit: limit))
      } catch {
        throw AppBundleError(error, limit: limit)
      }
    case .archive(let archive):
      do {
        return try archive.read(file, limit: limit)
      } catch {
        throw AppBundleError(error)
      }
    }
  }

  /// Refuses `file` when it, or a folder between the container and it, is a symbolic link.
  private func refuseLinks(on file: String) throws(AppBundleError) {
    var current = path
    for component in file.split(separator: "/") {
      current = join(current, String(component))
      var status = stat()
      if lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
        throw AppBundleError(
          .symbolicLink, path: current, "is a symbolic link; RuleKit never follows links inside a bundle")
      }
    }
  }

  private func join(_ base: String, _ relative: String) -> String {
    relative.isEmpty ? base : base + "/" + relative
  }
}
