import Foundation
import TestSupport
import Testing
import XcodeProjects

@Suite("Random byte mutations never crash or hang the readers")
struct MutationTests {
  static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
    var bytes = bytes
    let interesting: [UInt8] = Array("{}();=\"$()[]:/*#\\\n".utf8) + [0, 0xFF, 0xE2]
    for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
      let index = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: bytes[index] = interesting.randomElement(using: &random) ?? 0
      case 1: bytes.remove(at: index)
      default: bytes.insert(interesting.randomElement(using: &random) ?? 0, at: index)
      }
    }
    return bytes
  }

  @Test("mutated pbxproj files open or fail with an error, and resolve when they open")
  func pbxproj() throws {
    let path = Fixtures.shareApp + "/project.pbxproj"
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var random = SeededGenerator(seed: 0x5EED)
    for _ in 0..<300 {
      let bytes = Self.mutate(original, &random)
      guard let project = try? XcodeProject(bytes: bytes, pbxprojPath: path) else { continue }
      for target in project.targets {
        for name in project.configurationNames(for: target) {
          _ = try? project.buildSettings(target: target, configuration: name)
        }
      }
      _ = project.objects.keys.map { project.path(ofFileElement: $0) }
    }
  }

  @Test("mutated xcconfig text parses or fails with an error, and its values expand")
  func xcconfig() throws {
    let text = Array(
      "// c\nA = $(B:lower:rfc1034identifier).x ; // c\nB[sdk=iphoneos*][arch=*] = ${A} $C $$ \\\n  more\n"
        .utf8)
    var random = SeededGenerator(seed: 0xC0FF)
    for _ in 0..<1000 {
      let bytes = Self.mutate(text, &random)
      guard let file = try? XCConfigFile.parse(bytes: bytes, path: "/nonexistent/x.xcconfig") else {
        continue
      }
      for assignment in file.assignments {
        _ = expand(assignment.value, levels: [file.assignments.map { ($0.name, $0.value) }])
      }
    }
  }

  @Test("group parent cycles and dangling ids are handled")
  func cycles() throws {
    let text = """
      // !$*UTF8*$!
      { objects = {
        G1 = {isa = PBXGroup; children = (G2); path = a; sourceTree = "<group>"; };
        G2 = {isa = PBXGroup; children = (G1); path = b; sourceTree = "<group>"; };
        P = {isa = PBXProject; buildConfigurationList = MISSING; targets = (); mainGroup = G1; };
      }; rootObject = P; }
      """
    let project = try XcodeProject(bytes: Array(text.utf8), pbxprojPath: "X.xcodeproj/project.pbxproj")
    #expect(project.path(ofFileElement: "G1") == nil)
    #expect {
      try project.buildConfigurations(of: nil)
    } throws: { error in
      guard let error = error as? XcodeProjectError else { return false }
      return error.kind == .danglingReference && error.message.contains("MISSING")
        && error.location?.line == 5
    }
    let dangling = text.replacingOccurrences(of: "targets = ()", with: "targets = (T9)")
    #expect {
      try XcodeProject(bytes: Array(dangling.utf8), pbxprojPath: "X.xcodeproj/project.pbxproj")
    } throws: { error in
      (error as? XcodeProjectError)?.kind == .danglingReference
    }
  }
}
