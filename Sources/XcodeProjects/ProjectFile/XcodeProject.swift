import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An Xcode project (`App.xcodeproj/project.pbxproj`) read as Xcode reads it: its objects by id, the project,
/// its targets in order, configuration lists, build configurations with positioned settings, and file paths.
///
/// ```swift
/// let project = try XcodeProject(path: "App.xcodeproj")
/// let app = project.target(named: "App")
/// let settings = try project.buildSettings(target: app!, configuration: "Release")
/// settings["PRODUCT_BUNDLE_IDENTIFIER"]   // "com.example.app"
/// ```
///
/// Reading never crashes or hangs on damaged input: nesting is bounded by the property-list reader, group
/// parent chains are followed with cycle detection, and ids that name nothing are reported as
/// ``XcodeProjectError/Kind/danglingReference`` with the file, line and id where they are needed, and skipped
/// where they are not (an embed phase's stale build file).
public struct XcodeProject: Sendable {
  /// Larger pbxproj files are refused; the largest real ones are a few megabytes.
  public static let maximumFileBytes = 64 << 20

  /// The `.xcodeproj` folder, as given (or the folder of the `project.pbxproj` given).
  public let path: String
  /// The `project.pbxproj` file.
  public let pbxprojPath: String
  /// The `.xcodeproj`'s name without its extension: `PROJECT_NAME`.
  public let name: String
  /// `SRCROOT` / `PROJECT_DIR`: the folder holding the `.xcodeproj`, joined with `projectDirPath` when set.
  /// Relative when ``path`` is; `.` for a project in the current folder.
  public let sourceRoot: String
  /// The pbxproj's text and node tree, for positions and for text edits.
  public let document: OpenStepDocument
  /// Every object by id.
  public let objects: [String: PBXObject]
  /// The `PBXProject` object.
  public let project: PBXProjectObject
  /// The targets in the order the project lists them.
  public let targets: [XcodeTarget]
  /// Each file element's group, for path resolution (the first group listing it).
  let parents: [String: String]
  /// The xcconfig files its settings were resolved from, each read once.
  let xcconfigFiles = XCConfigFileCache()

  /// Opens `path`: an `.xcodeproj` folder or the `project.pbxproj` inside one.
  ///
  /// A workspace (`App.xcworkspace`) or a folder that holds exactly one app project (CocoaPods'
  /// `Pods.xcodeproj` aside; a folder's `ios/` and `ios/App/` folders are looked in too) opens that project,
  /// as `xcodebuild` run in a folder with one project uses it; ``path`` then names the project opened.
  ///
  /// - Throws: ``XcodeProjectError`` — ``XcodeProjectError/Kind/fileNotFound``,
  ///   ``XcodeProjectError/Kind/ambiguousProject`` for a workspace or folder holding several projects,
  ///   ``XcodeProjectError/Kind/malformed`` (with the pbxproj's line and column for syntax errors),
  ///   ``XcodeProjectError/Kind/danglingReference`` for a root object or target id naming nothing.
  public init(path: String) throws(XcodeProjectError) {
    let pbxproj = path.hasSuffix(".pbxproj") ? path : XcodePath.join(path, "project.pbxproj")
    guard let bytes = try XcodeFileReader.bytes(atPath: pbxproj, limit: Self.maximumFileBytes) else {
      let candidates = path.hasSuffix(".pbxproj") ? [] : Self.projectCandidates(in: path)
      if candidates.count == 1, let only = candidates.first, Self.holdsProjectFile(only) {
        try self.init(path: only)
        return
      }
      if candidates.count > 1 {
        throw XcodeProjectError(
          .ambiguousProject, "\(path) holds \(candidates.count) Xcode projects; say which one to read",
          location: BuildSettingLocation(file: path), hint: Self.openingHint(for: path))
      }
      throw Self.notAProject(path, pbxproj: pbxproj)
    }
    try self.init(bytes: bytes, pbxprojPath: pbxproj)
  }

  /// Reads pbxproj text; `pbxprojPath` places the project (`Dir/App.xcodeproj/project.pbxproj`).
  public init(bytes: [UInt8], pbxprojPath: String) throws(XcodeProjectError) {
    let projectPath = XcodePath.dirname(pbxprojPath)
    self.path = projectPath.isEmpty ? "." : projectPath
    self.pbxprojPath = pbxprojPath
    let base = XcodePath.basename(projectPath)
    self.name = base.hasSuffix(".xcodeproj") ? String(base.dropLast(".xcodeproj".count)) : base
    // Xcode also opens a project file saved as an XML or binary property list (and writes it back as
    // text); RuleKit reads and edits the text form only, so say which it is rather than report a syntax error.
    // PropertyLists' own format detection; it calls a file with no markup at all XML, which this is not.
    let format = PropertyListFile.detectFormat(Data(bytes))
    if format == .binary || (format == .xml && bytes.contains(UInt8(ascii: "<"))) {
      let form = format == .binary ? "a binary" : "an XML"
      throw XcodeProjectError(
        .malformed, "\(pbxprojPath) is \(form) property list, not the text form Xcode writes",
        location: BuildSettingLocation(file: pbxprojPath, line: 1, column: 1),
        hint: "open the project in Xcode and change any setting (Xcode saves project.pbxproj as text), "
          + "or convert it with a tool that writes Xcode's format (such as Ruby's xcodeproj gem), then run again"
      )
    }
    do {
      // Xcode never writes a key twice; a merge that did is read as Xcode's parser would, last one kept.
      document = try OpenStepDocument(bytes: bytes, path: pbxprojPath, duplicateKeys: .keepLast)
    } catch {
      throw XcodeProjectError(
        .malformed, "\(pbxprojPath) is not a readable project file: \(error.message)",
        location: BuildSettingLocation(
          file: pbxprojPath, line: error.position?.line, column: error.position?.column),
        hint: error.hint ?? "a merge conflict marker (<<<<<<<) is the usual cause; resolve it")
    }
    let file = pbxprojPath
    func location(_ position: PropertyListPosition) -> BuildSettingLocation {
      BuildSettingLocation(file: file, line: position.line, column: position.column)
    }
    guard document.root.kind == .dictionary, let objectsNode = document.root["objects"],
      objectsNode.kind == .dictionary
    else {
      throw XcodeProjectError(
        .malformed, "\(pbxprojPath) has no objects dictionary: it is not an Xcode project file",
        location: BuildSettingLocation(file: pbxprojPath, line: 1, column: 1),
        hint: "pass an .xcodeproj folder or its project.pbxproj")
    }
    var objects: [String: PBXObject] = [:]
    for entry in objectsNode.entries where entry.value.kind == .dictionary {
      objects[entry.key] = PBXObject(
        id: entry.key, isa: entry.value["isa"]?.string ?? "", node: entry.value,
        location: location(entry.keyPosition))
    }
    self.objects = objects
    guard let rootEntry = document.root.entry(forKey: "rootObject"), let rootID = rootEntry.value.string
    else {
      throw XcodeProjectError(
        .malformed, "\(pbxprojPath) has no rootObject", location: BuildSettingLocation(file: pbxprojPath),
        hint: "the file is damaged; restore it from version control")
    }
    guard let root = objects[rootID], root.isa == "PBXProject" else {
      throw Self.dangling(
        rootID, expected: "PBXProject", at: location(rootEntry.value.position), in: pbxprojPath, objects)
    }
    project = PBXProjectObject(
      id: rootID, buildConfigurationListID: root.string("buildConfigurationList") ?? "",
      targetIDs: root.strings("targets"), mainGroupID: root.string("mainGroup"),
      projectDirPath: root.string("projectDirPath") ?? "")
    let folder = XcodePath.dirname(projectPath)
    sourceRoot = XcodePath.join(folder.isEmpty ? "." : folder, project.projectDirPath)
    var parents: [String: String] = [:]
    for object in objects.values.sorted(by: { $0.id < $1.id }) {
      for child in object.strings("children") where parents[child] == nil { parents[child] = object.id }
    }
    self.parents = parents
    targets = try Self.readTargets(root: root, objects: objects, file: pbxprojPath)
  }

  /// The target named `name`, or `nil`.
  public func target(named name: String) -> XcodeTarget? {
    targets.first { $0.name == name }
  }

  /// The target `name` probably means when no target has exactly that name: the one whose name differs
  /// only in letter case (Xcode matches `-target` exactly; `ownCloud share extension` is `ownCloud Share
  /// Extension`), or nil.
  public func target(resembling name: String) -> XcodeTarget? {
    let lowercased = name.lowercased()
    return targets.first { $0.name.lowercased() == lowercased }
  }

  /// The targets whose products `target` embeds (app extensions), in phase order.
  public func embeddedTargets(of target: XcodeTarget) -> [XcodeTarget] {
    target.embeddedTargetIDs.compactMap { id in targets.first { $0.id == id } }
  }

  /// The targets `target` depends on (`PBXTargetDependency` objects naming a target), in order.
  public func dependencies(of target: XcodeTarget) -> [XcodeTarget] {
    target.dependencyIDs.compactMap { objects[$0]?.string("target") }.compactMap { id in
      targets.first { $0.id == id }
    }
  }

  /// The object `id`, which the entry `key` of `owner` refers to; it must have one of `isa`s.
  ///
  /// - Throws: ``XcodeProjectError/Kind/danglingReference`` naming the file, line and id when nothing has
  ///   that id, ``XcodeProjectError/Kind/unexpectedObject`` when the object has another `isa`.
  public func object(_ id: String, referencedBy owner: PBXObject, key: String, isa: Set<String>)
    throws(XcodeProjectError) -> PBXObject
  {
    let position = owner.node.entry(forKey: key)?.value.position
    let at = BuildSettingLocation(file: pbxprojPath, line: position?.line, column: position?.column)
    guard let object = objects[id], isa.contains(object.isa) else {
      throw Self.dangling(
        id, expected: isa.sorted().joined(separator: " or "), at: at, in: pbxprojPath, objects)
    }
    return object
  }

  static func dangling(
    _ id: String, expected: String, at location: BuildSettingLocation, in file: String,
    _ objects: [String: PBXObject]
  ) -> XcodeProjectError {
    if let other = objects[id] {
      return XcodeProjectError(
        .unexpectedObject, "\(id) is a \(other.isa) (at \(other.location)), not a \(expected)",
        location: location, hint: "the project file is damaged; restore it from version control")
    }
    return XcodeProjectError(
      .danglingReference, "the object \(id) (a \(expected)) is not in the objects of \(file)",
      location: location,
      hint: "the project file is damaged, often by a merge: restore it from version control, or remove the "
        + "reference to \(id) here and reopen the project in Xcode")
  }

  private static func readTargets(root: PBXObject, objects: [String: PBXObject], file: String)
    throws(XcodeProjectError) -> [XcodeTarget]
  {
    let targetIDs = root.strings("targets")
    let targetsNode = root.node["targets"]
    var targets: [XcodeTarget] = []
    var productOwners: [String: String] = [:]
    for (index, id) in targetIDs.enumerated() {
      let position = targetsNode?.elements[index].position
      let at = BuildSettingLocation(file: file, line: position?.line, column: position?.column)
      guard let object = objects[id], let kind = XcodeTargetKind(rawValue: object.isa) else {
        throw dangling(id, expected: "target", at: at, in: file, objects)
      }
      let product = object.string("productReference")
      if let product { productOwners[product] = id }
      targets.append(
        XcodeTarget(
          id: id, kind: kind, name: object.string("name") ?? "", productName: object.string("productName"),
          productType: object.string("productType"),
          buildConfigurationListID: object.string("buildConfigurationList") ?? "",
          buildPhaseIDs: object.strings("buildPhases"), dependencyIDs: object.strings("dependencies"),
          productReferenceID: product, embeddedTargetIDs: [], embeddedTargetNames: [],
          location: object.location))
    }
    // Embedding: a copy-files phase into PlugIns (dstSubfolderSpec 13, Xcode's "Embed Foundation Extensions")
    // or into the Extensions folder (16, the products directory, at $(EXTENSIONS_FOLDER_PATH): "Embed
    // ExtensionKit Extensions", Nextcloud Talk's App Intents extension), whose build files' fileRefs are other
    // targets' productReferences.
    // Apps carried in the bundle: App Clips and watch apps (16, at $(CONTENTS_FOLDER_PATH)/AppClips or /Watch).
    for index in targets.indices {
      var embedded: [String] = []
      var apps: [String] = []
      for phaseID in targets[index].buildPhaseIDs {
        guard let phase = objects[phaseID], phase.isa == "PBXCopyFilesBuildPhase" else { continue }
        let destination = phase.string("dstPath") ?? ""
        let carriesApps =
          phase.string("dstSubfolderSpec") == "16"
          && (destination.hasSuffix("/AppClips") || destination.hasSuffix("/Watch"))
        guard
          phase.string("dstSubfolderSpec") == "13"
            || (phase.string("dstSubfolderSpec") == "16" && destination.contains("EXTENSIONS_FOLDER_PATH"))
            || carriesApps
        else { continue }
        for buildFileID in phase.strings("files") {
          guard let reference = objects[buildFileID]?.string("fileRef"), let owner = productOwners[reference],
            !embedded.contains(owner), !apps.contains(owner)
          else { continue }
          if carriesApps { apps.append(owner) } else { embedded.append(owner) }
        }
      }
      let name = { (id: String) in targets.first { $0.id == id }?.name }
      targets[index].embeddedTargetIDs = embedded
      targets[index].embeddedTargetNames = embedded.compactMap(name)
      targets[index].embeddedAppTargetNames = apps.compactMap(name)
    }
    return targets
  }
}
