/// An app or app extension inside a ``BundleContainer``: where it is, and the extensions it embeds.
public struct AppBundle: Sendable, Hashable {
  /// Its folder inside the container (`Payload/Notes.app`, `Payload/Notes.app/PlugIns/Share.appex`); `""`
  /// when the container is the `.app` folder itself.
  public var path: String
  /// Its folder's name: `Notes.app`, `Share.appex`.
  public var name: String
  /// The extensions in its `PlugIns` folder, sorted by name; empty for an extension.
  public var extensions: [AppBundle]

  /// A bundle at `path` named `name`, embedding `extensions`.
  public init(path: String, name: String, extensions: [AppBundle] = []) {
    self.path = path
    self.name = name
    self.extensions = extensions
  }

  /// The path of a file in the bundle's top folder, e.g. `file("Info.plist")`.
  public func file(_ name: String) -> String { path.isEmpty ? name : path + "/" + name }

  /// Its `Info.plist`: iOS bundles are shallow, so it sits in the top folder.
  public var infoPlistPath: String { file("Info.plist") }
}

extension BundleContainer {
  /// The apps the container holds, each with its `PlugIns/*.appex` extensions: the `.app` folder itself,
  /// an `.xcarchive`'s `Products/Applications/*.app`, or an `.ipa`'s `Payload/*.app`.
  ///
  /// - Throws: ``AppBundleError`` with kind `noApplication` when there is none, `nestedArchive` when
  ///   `Payload` holds only archives (never opened), `notABundle` for a folder that is none of the three.
  public func applications() throws(AppBundleError) -> [AppBundle] {
    let folder: String
    switch storage {
    case .archive:
      folder = "Payload"
    case .directory:
      // An .xcarchive has an Info.plist of its own at the top (the archive's), so it is recognised first.
      if !(try contents(of: "Products/Applications")).isEmpty {
        folder = "Products/Applications"
      } else if containsFile("Info.plist") {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return [try bundle(at: "", name: name)]
      } else {
        throw AppBundleError(
          .notABundle, path: path,
          "is not an .app folder (no Info.plist), an .xcarchive (no Products/Applications) or an .ipa file")
      }
    }
    let children = try contents(of: folder)
    let apps = children.filter { $0.hasSuffix(".app") }
    if apps.isEmpty {
      if let nested = children.first(where: { $0.hasSuffix(".ipa") || $0.hasSuffix(".zip") }) {
        throw AppBundleError(
          .nestedArchive, path: path,
          "\(folder)/\(nested) is an archive inside the archive; RuleKit does not open nested archives: "
            + "audit that file on its own")
      }
      throw AppBundleError(
        .noApplication, path: path,
        "has no \(folder)/*.app: an .ipa holds its app in Payload/, an .xcarchive in Products/Applications/")
    }
    var bundles: [AppBundle] = []
    for app in apps { bundles.append(try bundle(at: folder + "/" + app, name: app)) }
    return bundles
  }

  private func bundle(at path: String, name: String) throws(AppBundleError) -> AppBundle {
    var app = AppBundle(path: path, name: name)
    let plugIns = app.file("PlugIns")
    for appex in try contents(of: plugIns) where appex.hasSuffix(".appex") {
      app.extensions.append(AppBundle(path: plugIns + "/" + appex, name: appex))
    }
    return app
  }
}
