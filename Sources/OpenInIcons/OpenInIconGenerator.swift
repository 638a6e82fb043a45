import PNGImages
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Makes the Open-In action extension's template icons from an app's icon, and writes them: all or none,
/// never over an existing file unless asked.
public struct OpenInIconGenerator: Sendable {
  /// One file to write.
  public struct OutputFile: Sendable, Hashable {
    /// Where it goes.
    public var path: String
    /// Its bytes.
    public var data: [UInt8]
    /// The image size it holds, for the PNGs; `nil` for `Contents.json`.
    public var size: OpenInIconSize?
    /// Whether a file already exists there.
    public var exists: Bool
  }

  /// The icon the templates were made from.
  public var source: SourceIcon
  /// The coverage found in it.
  public var coverage: TemplateTransform.Coverage
  /// The files, in the order they are listed and written.
  public var files: [OutputFile]
  /// What makes the template doubtful, said before anyone ships it: a shape that covers almost nothing of
  /// the icon (its design hardly differs from its background, or is a photograph) or most of it (a
  /// full-bleed illustration: the template is a filled block). Empty when the shape looks usable.
  public var warnings: [String] {
    let covered = coverage.coveredFraction
    let percent = Int((covered * 100).rounded())
    let instead =
      "check the images; if they do not show the app's mark, draw a one-colour glyph (transparent around "
      + "it) and pass that PNG instead"
    if covered < 0.02 {
      return [
        "almost nothing of the icon stands out from its background (\(percent)% of it is covered): the "
          + "template would be nearly empty; " + instead
      ]
    }
    // The ring at the edge is background by definition, so even a full-bleed picture covers at most
    // (1 − 2/32)² ≈ 88% of the icon: past three quarters, the template is mostly a filled block.
    if covered > 0.75 {
      return [
        "most of the icon differs from its background (\(percent)% of it is covered): the template would "
          + "be mostly a filled block; " + instead
      ]
    }
    return []
  }

  /// Finds the icon in `input` (see ``SourceIcon/locate(_:)``), makes every size of ``OpenInIconSet`` and
  /// plans them under `outputDirectory`; with `appIconSet`, also `OpenInIcon.appiconset/` holding the same
  /// images and its `Contents.json`. Nothing is written yet.
  ///
  /// - Throws: ``OpenInIconError`` when the input has no readable icon.
  public init(input: String, outputDirectory: String, appIconSet: Bool = false) throws(OpenInIconError) {
    let source = try SourceIcon.locate(input)
    self.source = source
    coverage = TemplateTransform.coverage(of: source.image)
    let directory =
      outputDirectory.count > 1 && outputDirectory.hasSuffix("/")
      ? String(outputDirectory.dropLast()) : outputDirectory
    var files: [OutputFile] = []
    let setDirectory = directory + "/\(OpenInIconSet.baseName).appiconset"
    for size in OpenInIconSet.sizes {
      let data: [UInt8]
      do {
        data = try PNGEncoder.encode(TemplateTransform.render(coverage, size: size.pixels))
      } catch {
        throw OpenInIconError(.io, "could not write the \(size.pixels) px icon: \(error.message)", png: error)
      }
      let name = size.fileName(base: OpenInIconSet.baseName)
      files.append(Self.file(directory + "/" + name, data, size))
      if appIconSet { files.append(Self.file(setDirectory + "/" + name, data, size)) }
    }
    if appIconSet {
      files.append(
        Self.file(setDirectory + "/Contents.json", Array(OpenInIconSet.appIconSetContents.utf8), nil))
    }
    self.files = files
  }

  private static func file(_ path: String, _ data: [UInt8], _ size: OpenInIconSize?) -> OutputFile {
    OutputFile(path: path, data: data, size: size, exists: FileManager.default.fileExists(atPath: path))
  }

  /// Writes every file, creating the folders they go in, all or none.
  ///
  /// - Parameter force: replace files that exist; without it, any existing file is an
  ///   ``OpenInIconError/Kind/outputExists`` error and nothing is written.
  /// - Throws: ``OpenInIconError``.
  public func write(force: Bool) throws(OpenInIconError) {
    let existing = files.filter(\.exists).map(\.path)
    if !existing.isEmpty && !force {
      throw OpenInIconError(
        .outputExists,
        "\(existing.count == 1 ? "a file exists" : "\(existing.count) files exist") and would be replaced: "
          + existing.joined(separator: ", "),
        path: nil, hint: "pass --force to replace them, or choose another output folder")
    }
    var folders: [String] = []
    for file in files {
      let folder = String(file.path[..<(file.path.lastIndex(of: "/") ?? file.path.startIndex)])
      if !folder.isEmpty && !folders.contains(folder) { folders.append(folder) }
    }
    // Folders this call creates, removed again (innermost first) when writing fails, so a failed run
    // leaves nothing behind.
    var created: [String] = []
    func removeCreated() {
      for folder in created.reversed() { try? FileManager.default.removeItem(atPath: folder) }
    }
    for folder in folders {
      if FileManager.default.fileExists(atPath: folder) {
        guard SourceIcon.isFolder(folder) else {
          removeCreated()
          throw OpenInIconError(
            .io, "exists and is not a folder", path: folder, hint: "choose another output folder")
        }
        continue
      }
      var missing: [String] = []
      var ancestor = folder
      while !ancestor.isEmpty && !FileManager.default.fileExists(atPath: ancestor) {
        missing.append(ancestor)
        ancestor = String(ancestor[..<(ancestor.lastIndex(of: "/") ?? ancestor.startIndex)])
      }
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        created += missing.reversed()
      } catch {
        removeCreated()
        throw OpenInIconError(.io, "cannot create the folder: \(error)", path: folder)
      }
    }
    do {
      try AtomicFileWriter.write(files.map { (Data($0.data), $0.path) })
    } catch {
      removeCreated()
      throw OpenInIconError(.io, error.description, path: error.path)
    }
  }
}
