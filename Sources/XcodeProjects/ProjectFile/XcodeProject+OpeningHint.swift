import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension XcodeProject {
  /// What to pass instead of `path`, which holds no `project.pbxproj`: the projects a workspace lists, or
  /// the `.xcodeproj` folders in a folder and in the `ios/` and `ios/App/` folders of a Flutter, React
  /// Native or Capacitor repository. CocoaPods' `Pods.xcodeproj` is left out: it holds no app.
  static func openingHint(for path: String) -> String {
    let generic = "pass the .xcodeproj folder (App.xcodeproj) or the project.pbxproj inside it"
    let candidates = projectCandidates(in: path)
    guard !candidates.isEmpty else {
      if let dotNet = dotNetHint(for: path) { return dotNet }
      // A repository root whose project sits deeper (Brave's App/Client.xcodeproj, a plugin's
      // example/ios/Runner.xcodeproj): named, not opened, as the deeper one may be a sample.
      let deeper = isWorkspace(path) ? [] : nestedProjects(in: path)
      guard !deeper.isEmpty else { return generic }
      return (deeper.count == 1 ? "pass " : "pass one of ") + deeper.joined(separator: ", ")
    }
    let pass = candidates.count == 1 ? "pass " : "pass one of "
    let opening = isWorkspace(path) ? "\(XcodePath.basename(path)) is a workspace; " : ""
    return opening + pass + candidates.joined(separator: ", ")
  }

  /// Why `path` opens no project: it does not exist, it is a file (an XcodeGen or Tuist spec, say) rather
  /// than an `.xcodeproj`, a folder that holds none, or an `.xcodeproj` without its `project.pbxproj`; the
  /// location is what the user gave, or the `project.pbxproj` an `.xcodeproj` lacks.
  static func notAProject(_ path: String, pbxproj: String) -> XcodeProjectError {
    let exists = FileManager.default.fileExists(atPath: path)
    let isFolder = exists && (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    let hint = generatorHint(for: path, isFolder: isFolder) ?? openingHint(for: path)
    let message: String
    var location = BuildSettingLocation(file: path)
    if !exists {
      message = "no such file or folder"
    } else if !isFolder {
      message = "not an Xcode project: pass an .xcodeproj folder, a workspace, or a folder holding one"
    } else if XcodePath.fileExtension(XcodePath.normalize(path)) == "xcodeproj" {
      message = "no Xcode project here: \(pbxproj) does not exist"
      location = BuildSettingLocation(file: pbxproj)
    } else {
      message = "no Xcode project here: \(path) holds no .xcodeproj"
    }
    return XcodeProjectError(.fileNotFound, message, location: location, hint: hint)
  }

  /// For a project that a generator writes from a spec (XcodeGen's `project.yml`, Tuist's `Project.swift`),
  /// given as the spec or as its folder when no `.xcodeproj` is there (generated projects are often not
  /// committed): the command that writes it.
  static func generatorHint(for path: String, isFolder: Bool) -> String? {
    let folder = isFolder ? path : XcodePath.dirname(path)
    let place = folder.isEmpty ? "." : folder
    let names = Set((try? FileManager.default.contentsOfDirectory(atPath: place)) ?? [])
    let given = isFolder ? nil : XcodePath.basename(path)
    let spec: (file: String, command: String)? =
      if let name = ["project.yml", "project.yaml"].first(where: {
        given == nil ? names.contains($0) : given == $0
      }) {
        (name, "xcodegen generate")
      } else if given == nil ? names.contains("Project.swift") : given == "Project.swift" {
        ("Project.swift", "tuist generate")
      } else {
        nil
      }
    guard let spec else { return nil }
    let tool = spec.command.hasPrefix("xcodegen") ? "an XcodeGen" : "a Tuist"
    return
      "\(XcodePath.join(place, spec.file)) is \(tool) spec: run `\(spec.command)` in \(place) to write the "
      + ".xcodeproj, then pass that"
  }

  /// The app projects `path` stands for when it is a workspace or a folder rather than an `.xcodeproj`:
  /// the projects the workspace lists, or those in the folder (or its `ios/` or `ios/App/` folder), without
  /// CocoaPods' `Pods.xcodeproj`.
  static func projectCandidates(in path: String) -> [String] {
    (isWorkspace(path) ? workspaceProjects(path) : folderProjects(path)).filter {
      XcodePath.basename($0) != "Pods.xcodeproj"
    }
  }

  /// Whether `path` is an `.xcodeproj` folder with a `project.pbxproj` in it.
  static func holdsProjectFile(_ path: String) -> Bool {
    XcodePath.fileExtension(path) == "xcodeproj"
      && FileManager.default.fileExists(atPath: XcodePath.join(path, "project.pbxproj"))
  }

  static func isWorkspace(_ path: String) -> Bool {
    XcodePath.fileExtension(XcodePath.normalize(path)) == "xcworkspace"
  }

  /// For a .NET MAUI or Xamarin iOS head (a `.csproj`, or the folder holding one, and no `.xcodeproj`):
  /// there is no Xcode project to read, so the Info.plist and entitlements it builds with are named, to be
  /// configured as files. MAUI keeps them in `Platforms/iOS/`, Xamarin.iOS beside the `.csproj`.
  static func dotNetHint(for path: String) -> String? {
    let isProjectFile = XcodePath.fileExtension(path) == "csproj"
    let folder = isProjectFile ? XcodePath.dirname(path) : path
    let place = folder.isEmpty ? "." : folder
    let names = (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []
    guard
      let csproj = isProjectFile
        ? XcodePath.basename(path) : names.filter({ XcodePath.fileExtension($0) == "csproj" }).sorted().first
    else { return nil }
    func existing(_ candidates: [String]) -> String? {
      candidates.map { XcodePath.join(place, $0) }.first { FileManager.default.fileExists(atPath: $0) }
    }
    let info =
      existing(["Platforms/iOS/Info.plist", "Info.plist"])
      ?? XcodePath.join(place, "Platforms/iOS/Info.plist")
    let entitlements = existing(["Platforms/iOS/Entitlements.plist", "Entitlements.plist"])
    let files =
      entitlements.map { "-i \(info) -e \($0)" }
      ?? "-i \(info) (and -e with the entitlements file its CodesignEntitlements names)"
    return
      "\(csproj) is a .NET (MAUI or Xamarin) project: it has no Xcode project to read; configure the files "
      + "its iOS app builds with instead: configure \(files)"
  }

  /// The `.xcodeproj` paths a workspace's `contents.xcworkspacedata` lists, joined with the folders of the
  /// groups around them.
  static func workspaceProjects(_ workspace: String) -> [String] {
    let data = XcodePath.join(workspace, "contents.xcworkspacedata")
    guard let bytes = try? XcodeFileReader.bytes(atPath: data, limit: 1 << 20) else { return [] }
    let text = String(decoding: bytes, as: UTF8.self)
    let root = XcodePath.dirname(workspace)
    var folders: [String] = [root.isEmpty ? "." : root]
    var found: [String] = []
    var rest = text[...]
    // Elements in document order: <Group location=…> opens a folder, </Group> closes it.
    while let open = rest.firstIndex(of: "<") {
      rest = rest[rest.index(after: open)...]
      let end = rest.firstIndex(of: ">") ?? rest.endIndex
      let element = rest[..<end]
      if element.hasPrefix("/Group") {
        if folders.count > 1 { folders.removeLast() }
        continue
      }
      guard element.hasPrefix("Group") || element.hasPrefix("FileRef") else { continue }
      let location = Self.attribute("location", in: element) ?? ""
      let resolved = Self.workspaceLocation(location, in: folders.last ?? ".")
      if element.hasPrefix("Group") {
        // A self-closing group (`<Group … />`) holds nothing.
        if !element.hasSuffix("/") { folders.append(resolved ?? folders.last ?? ".") }
      } else if let resolved, XcodePath.fileExtension(resolved) == "xcodeproj" {
        found.append(XcodePath.normalize(resolved))
      }
    }
    return found
  }

  /// `group:App.xcodeproj` and `container:App.xcodeproj` relative to `folder`, `absolute:/…` as is.
  static func workspaceLocation(_ location: String, in folder: String) -> String? {
    guard let colon = location.firstIndex(of: ":") else { return nil }
    let kind = location[..<colon]
    let value = String(location[location.index(after: colon)...])
    switch kind {
    case "absolute": return value
    case "group", "container": return value.isEmpty ? folder : XcodePath.join(folder, value)
    default: return nil
    }
  }

  /// The value of `name = "…"` in an XML start tag.
  static func attribute(_ name: String, in element: Substring) -> String? {
    guard let key = element.firstRange(of: name) else { return nil }
    let after = element[key.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "=" }
    guard after.first == "\"" else { return nil }
    let value = after.dropFirst()
    return value.firstIndex(of: "\"").map { String(value[..<$0]) }
  }

  /// The `.xcodeproj` folders up to `depth` folders below `folder` (hidden folders, bundles and the folders
  /// dependency managers and builds fill left out), `Pods.xcodeproj` aside, at most `limit` of them, after
  /// looking in at most 2 000 folders; sorted, each `folder` joined with its path below it.
  public static func nestedProjects(in folder: String, depth: Int = 3, limit: Int = 8) -> [String] {
    let skipped: Set<String> = [
      "Pods", "Carthage", "node_modules", "build", "Build", "DerivedData", ".build", "vendor", "third_party",
    ]
    var found: [String] = []
    var level = [folder]
    var visited = 0
    for _ in 0..<depth {
      var next: [String] = []
      for place in level {
        visited += 1
        guard visited <= 2_000 else { return found.sorted() }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") && !skipped.contains(name) {
          let path = XcodePath.normalize(XcodePath.join(place, name))
          switch XcodePath.fileExtension(name) {
          case "xcodeproj":
            if name != "Pods.xcodeproj", holdsProjectFile(path), found.count < limit { found.append(path) }
          case "":
            // Listed in the next round; a file without an extension lists nothing.
            next.append(path)
          default:
            continue
          }
        }
      }
      level = next
    }
    return found.sorted()
  }

  /// The `.xcodeproj` folders in `folder`, else in its `ios/` or `ios/App/` folder.
  static func folderProjects(_ folder: String) -> [String] {
    for sub in ["", "ios", "ios/App"] {
      let place = sub.isEmpty ? folder : XcodePath.join(folder, sub)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []
      let projects = names.filter { XcodePath.fileExtension($0) == "xcodeproj" }.sorted()
      if !projects.isEmpty { return projects.map { XcodePath.normalize(XcodePath.join(place, $0)) } }
    }
    return []
  }
}
