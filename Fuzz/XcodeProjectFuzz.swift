// libFuzzer entry point for the Xcode project and xcconfig readers, build-setting resolution and the
// pbxproj editor; built and run by `scripts/fuzz xcode SECONDS`.
//
// Any bytes, read as a `project.pbxproj` placed in an empty scratch folder: reading ends in a project or an
// `XcodeProjectError`, never a crash or a hang. A project read has every target resolved in every one of
// its configurations (base xcconfigs are missing there, which resolution reports as warnings). Then, for
// each of its build configurations (up to a few), a `ProjectFileEditor` edit setting a new setting, a
// conditional one and an existing one: the edit must succeed unless the configuration's buildSettings is
// no dictionary, the edited text must read back, as a project, to exactly the intended raw values, and
// applying the same edits to the edited text must change no byte.
//
// The same bytes are also parsed as an `.xcconfig` (`XCConfigFile.parse`), which must end in a file or an
// `XcodeProjectError`.
//
// Nothing outside the scratch folder is read: a project whose base configuration resolves elsewhere (an
// `<absolute>` path, `..` out of the folder) is not resolved, and an xcconfig input with a `#include` that
// could leave the folder (`"/…`, `..`) is not parsed, so fuzzing never opens `/dev/stdin` or a real file.
import Foundation
import XcodeProjects

func propertyFailed(_ message: String, input: [UInt8]) -> Never {
  let text = String(decoding: input, as: UTF8.self)
  FileHandle.standardError.write(
    Data("xcode property failed: \(message)\ninput: \(text.debugDescription)\n".utf8))
  abort()
}

/// An empty folder, created once, that every relative path of the fuzzed files resolves into.
let scratch: String = {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "rulekit-fuzz-xcode-\(ProcessInfo.processInfo.processIdentifier)"
  ).path
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  checkXCConfig(bytes)
  let pbxprojPath = scratch + "/App.xcodeproj/project.pbxproj"
  guard let project = try? XcodeProject(bytes: bytes, pbxprojPath: pbxprojPath) else { return 0 }
  resolveEverything(project)
  checkEdits(project, input: bytes)
  return 0
}

/// Every target in every configuration, when no base configuration lies outside the scratch folder.
func resolveEverything(_ project: XcodeProject) {
  var configurations = (try? project.buildConfigurations(of: nil)) ?? []
  for target in project.targets {
    configurations += (try? project.buildConfigurations(of: target)) ?? []
  }
  for configuration in configurations {
    if let base = project.baseConfigurationPath(of: configuration), !base.hasPrefix(scratch + "/") {
      return
    }
  }
  for target in project.targets {
    for name in project.configurationNames(for: target) {
      guard let settings = try? project.buildSettings(target: target, configuration: name) else { continue }
      _ = settings.expand("$(PRODUCT_BUNDLE_IDENTIFIER).$(inherited)")
      // Whether the target also copies its Info.plist as a resource: group chains, exception sets and
      // build files of any shape answer, never crash.
      if let info = settings.path(for: "INFOPLIST_FILE") {
        _ = project.resourceMembership(ofFile: info, in: target)
      }
    }
  }
}

/// The string the project reads for the edit's key in configuration `id` (the last entry with that key).
func rawValue(_ project: XcodeProject, _ id: String, _ edit: BuildSettingEdit) -> String? {
  project.objects[id]?.node["buildSettings"]?[edit.key]?.string
}

/// Edits of up to three configurations: a new plain setting, a new conditional one (values that need
/// quoting), and a new value for the configuration's first existing setting.
func checkEdits(_ project: XcodeProject, input: [UInt8]) {
  let ids = project.objects.values.filter { $0.isa == "XCBuildConfiguration" }.map(\.id).sorted().prefix(3)
  for id in ids {
    var edits = [
      BuildSettingEdit(
        configurationID: id, name: "RULEKIT_FUZZ_SETTING", value: "$(inherited) \"a b\" -DX=1 // c"),
      BuildSettingEdit(
        configurationID: id, name: "RULEKIT_FUZZ_SETTING",
        conditions: [BuildSettingCondition(parameter: "sdk", pattern: "iphoneos*")],
        value: "com.example.my-app"),
    ]
    // The key exactly as written, conditions and all, so the edit replaces that entry.
    if let first = project.objects[id]?.node["buildSettings"]?.entries.first {
      edits.append(
        BuildSettingEdit(configurationID: id, name: first.key, value: (first.value.string ?? "") + " x"))
    }
    let editor = ProjectFileEditor(document: project.document)
    let edited: [UInt8]
    do {
      edited = try editor.applying(edits)
    } catch {
      // The one refusal a project that reads may get: a configuration whose buildSettings (or itself) is
      // not a dictionary. Anything else (an edit that reads back to another value, a re-read that fails)
      // is a finding.
      guard error.kind == .invalidEdit, error.message.contains("not a dictionary") else {
        propertyFailed("an edit of \(id) fails: \(error)", input: input)
      }
      continue
    }
    let reread: XcodeProject
    do {
      reread = try XcodeProject(bytes: edited, pbxprojPath: project.pbxprojPath)
    } catch {
      propertyFailed("the edited project does not read: \(error)", input: input)
    }
    // When two edits set one key, the later wins.
    for (index, edit) in edits.enumerated()
    where !edits[(index + 1)...].contains(where: { $0.key == edit.key })
      && rawValue(reread, id, edit) != edit.value
    {
      propertyFailed(
        "after \(edit) the project reads \(rawValue(reread, id, edit).debugDescription)", input: input)
    }
    let again: [UInt8]
    do {
      again = try ProjectFileEditor(document: reread.document).applying(edits)
    } catch {
      propertyFailed("applying the same edits again fails: \(error)", input: input)
    }
    guard again == edited else {
      propertyFailed("applying the same edits twice changed the text", input: input)
    }
  }
}

/// The bytes as an xcconfig, unless an `#include` in them could name a file outside the scratch folder.
func checkXCConfig(_ bytes: [UInt8]) {
  if bytes.contains(UInt8(ascii: "#")) {
    for (index, byte) in bytes.enumerated().dropLast() {
      let next = bytes[index + 1]
      if (byte == UInt8(ascii: "\"") && next == UInt8(ascii: "/"))
        || (byte == UInt8(ascii: ".") && next == UInt8(ascii: "."))
      {
        return
      }
    }
  }
  _ = try? XCConfigFile.parse(bytes: bytes, path: scratch + "/Fuzz.xcconfig", missingIncludes: .record)
  _ = try? XCConfigFile.parse(bytes: bytes, path: scratch + "/Fuzz.xcconfig", missingIncludes: .error)
}
