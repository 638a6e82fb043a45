import Foundation

/// Writes a large, realistic-looking Xcode project into a temporary folder: an app and many extensions,
/// each with its own configuration list, Xcode's usual settings, `$(inherited)` chains through the project
/// and target xcconfig levels, and conditional settings.
enum SyntheticProject {
  static let configurations = ["Debug", "Release", "Staging", "Beta", "Enterprise", "Profile"]
  /// How many `CHAIN_n = $(CHAIN_n-1) …` settings link each target configuration to the levels below.
  static let chainLength = 8

  /// The folder holding `Synthetic.xcodeproj` and `Config/*.xcconfig`; targets are added until the pbxproj
  /// has at least `minimumBytes`.
  static func write(minimumBytes: Int) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "XcodeProjectsBenchmark-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: root)
    let config = root.appendingPathComponent("Config")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Synthetic.xcodeproj"), withIntermediateDirectories: true)
    for (name, text) in xcconfigs() {
      try Data(text.utf8).write(to: config.appendingPathComponent(name))
    }
    var targets = 8
    var text = pbxproj(targets: targets)
    while text.utf8.count < minimumBytes {
      targets += max(1, targets * (minimumBytes - text.utf8.count) / max(1, text.utf8.count))
      text = pbxproj(targets: targets)
    }
    try Data(text.utf8).write(to: root.appendingPathComponent("Synthetic.xcodeproj/project.pbxproj"))
    return root
  }

  static func xcconfigs() -> [(String, String)] {
    var files: [(String, String)] = [
      (
        "Shared.xcconfig",
        """
        // Settings every configuration shares.
        BASE_BUNDLE_IDENTIFIER = com.example.synthetic
        CHAIN_0 = shared
        OTHER_SWIFT_FLAGS = $(inherited) -DSHARED
        OTHER_LDFLAGS[sdk=iphoneos*] = $(inherited) -ObjC
        OTHER_LDFLAGS[sdk=iphonesimulator*] = $(inherited) -ObjC -Wl,-sim
        SWIFT_VERSION = 5.0
        IPHONEOS_DEPLOYMENT_TARGET = 16.0
        APP_GROUP = group.$(BASE_BUNDLE_IDENTIFIER)$(BUNDLE_SUFFIX)
        #include? "Local.xcconfig"

        """
      ),
      (
        "Target-Common.xcconfig",
        """
        CHAIN_0 = $(inherited) target-common
        OTHER_SWIFT_FLAGS = $(inherited) -DTARGET
        PRODUCT_NAME = $(TARGET_NAME:c99extidentifier)
        CODE_SIGN_STYLE = Automatic
        LD_RUNPATH_SEARCH_PATHS = $(inherited) @executable_path/Frameworks @executable_path/../../Frameworks

        """
      ),
    ]
    for (index, name) in configurations.enumerated() {
      files.append(
        (
          "Project-\(name).xcconfig",
          """
          #include "Shared.xcconfig"
          BUNDLE_SUFFIX = \(index == 1 ? "" : "." + name.lowercased())
          SWIFT_ACTIVE_COMPILATION_CONDITIONS = $(inherited) \(name.uppercased())
          GCC_PREPROCESSOR_DEFINITIONS[config=Debug] = $(inherited) DEBUG=1
          SWIFT_OPTIMIZATION_LEVEL = \(index == 0 ? "-Onone" : "-O")

          """
        ))
      files.append(
        (
          "Target-\(name).xcconfig",
          """
          #include "Target-Common.xcconfig"
          CHAIN_1 = $(CHAIN_0) \(name)
          OTHER_SWIFT_FLAGS[arch=arm64] = $(inherited) -DARM64
          ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon$(BUNDLE_SUFFIX:upper)

          """
        ))
    }
    return files
  }

  /// A 24-hex-digit object id: `kind` (one byte) and a serial number.
  static func id(_ kind: Int, _ serial: Int) -> String {
    let digits = String(serial, radix: 16, uppercase: true)
    let kindDigits = String(kind, radix: 16, uppercase: true)
    return "5A" + String(repeating: "0", count: 2 - kindDigits.count) + kindDigits
      + String(repeating: "0", count: 20 - digits.count) + digits
  }

  /// The settings of target `t` in configuration `c`: Xcode's usual ones, identity, chains, conditions.
  static func targetSettings(_ t: Int, _ c: Int, isApp: Bool) -> [(String, String)] {
    let name = configurations[c]
    var settings: [(String, String)] = [
      ("ALWAYS_EMBED_SWIFT_STANDARD_LIBRARIES", isApp ? "YES" : "NO"),
      ("ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME", "AccentColor"),
      ("CLANG_ANALYZER_NONNULL", "YES"),
      ("CLANG_CXX_LANGUAGE_STANDARD", "\"gnu++20\""),
      ("CLANG_ENABLE_MODULES", "YES"),
      ("CLANG_ENABLE_OBJC_ARC", "YES"),
      ("CLANG_WARN_DOCUMENTATION_COMMENTS", "YES"),
      ("CLANG_WARN_UNGUARDED_AVAILABILITY", "YES_AGGRESSIVE"),
      ("CODE_SIGN_ENTITLEMENTS", "\"Target\(t)/Target\(t)\(c == 0 ? "Debug" : "").entitlements\""),
      ("\"CODE_SIGN_IDENTITY[sdk=iphoneos*]\"", "\"iPhone Developer\""),
      ("CURRENT_PROJECT_VERSION", "1"),
      ("DEBUG_INFORMATION_FORMAT", c == 0 ? "dwarf" : "\"dwarf-with-dsym\""),
      ("DEVELOPMENT_TEAM", "ABCDE12345"),
      ("ENABLE_BITCODE", "NO"),
      ("GCC_C_LANGUAGE_STANDARD", "gnu11"),
      (
        "GCC_PREPROCESSOR_DEFINITIONS",
        "(\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t\t\"TARGET_\(t)=1\",\n\t\t\t\t)"
      ),
      ("INFOPLIST_FILE", "\"Target\(t)/Info.plist\""),
      ("INFOPLIST_KEY_CFBundleDisplayName", "\"Target \(t)\""),
      ("IPHONEOS_DEPLOYMENT_TARGET", "16.0"),
      (
        "LD_RUNPATH_SEARCH_PATHS",
        "(\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t\t\"@executable_path/Frameworks\",\n\t\t\t\t)"
      ),
      ("MARKETING_VERSION", "1.\(t)"),
      (
        "OTHER_LDFLAGS",
        "(\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t\t\"-framework\",\n\t\t\t\t\tKit\(t % 7),\n\t\t\t\t)"
      ),
      ("\"OTHER_LDFLAGS[arch=x86_64]\"", "\"$(inherited) -Wl,-x86\""),
      ("OTHER_SWIFT_FLAGS", "\"$(inherited) -DT\(t)\""),
      (
        "PRODUCT_BUNDLE_IDENTIFIER",
        isApp
          ? "\"$(BASE_BUNDLE_IDENTIFIER)$(BUNDLE_SUFFIX)\""
          : "\"$(BASE_BUNDLE_IDENTIFIER)$(BUNDLE_SUFFIX).target\(t)\""
      ),
      ("PRODUCT_NAME", "\"$(TARGET_NAME)\""),
      ("PROVISIONING_PROFILE_SPECIFIER", "\"\""),
      ("SKIP_INSTALL", isApp ? "NO" : "YES"),
      ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "\"$(inherited) TARGET\(t)\""),
      (
        "\"SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=\(name)]\"",
        "\"$(inherited) \(name.uppercased())_ONLY\""
      ),
      ("SWIFT_EMIT_LOC_STRINGS", "YES"),
      ("SWIFT_VERSION", "5.0"),
      ("TARGETED_DEVICE_FAMILY", "\"1,2\""),
    ]
    for link in 2..<chainLength {
      settings.append(("CHAIN_\(link)", "\"$(CHAIN_\(link - 1)) $(inherited) t\(t)l\(link)\""))
    }
    // Xcode's order: by the key's bytes, quotes left out.
    return settings.map { (key: $0.0.filter { $0 != "\"" }, setting: $0) }.sorted { $0.key < $1.key }
      .map(\.setting)
  }

  static func pbxproj(targets: Int) -> String {
    let configCount = configurations.count
    // Ids: 1 project, 2 groups, 3 xcconfig references, 4 targets, 5 products, 6 lists, 7 configurations,
    // 8 build phases, 9 build files.
    let projectID = id(1, 0)
    let mainGroup = id(2, 0)
    let configGroup = id(2, 1)
    let productsGroup = id(2, 2)
    var xcconfigReferences: [String: String] = [:]
    var out =
      "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n"

    out += "\n/* Begin PBXBuildFile section */\n"
    for t in 1..<targets {
      out +=
        "\t\t\(id(9, t)) /* Target\(t).appex in Embed Foundation Extensions */ = {isa = PBXBuildFile; "
        + "fileRef = \(id(5, t)) /* Target\(t).appex */; settings = {ATTRIBUTES = (RemoveHeadersOnCopy, ); }; };\n"
    }
    out += "/* End PBXBuildFile section */\n"

    out += "\n/* Begin PBXCopyFilesBuildPhase section */\n"
    out +=
      "\t\t\(id(8, 0)) /* Embed Foundation Extensions */ = {\n\t\t\tisa = PBXCopyFilesBuildPhase;\n"
      + "\t\t\tbuildActionMask = 2147483647;\n\t\t\tdstPath = \"\";\n\t\t\tdstSubfolderSpec = 13;\n\t\t\tfiles = (\n"
    for t in 1..<targets {
      out += "\t\t\t\t\(id(9, t)) /* Target\(t).appex in Embed Foundation Extensions */,\n"
    }
    out +=
      "\t\t\t);\n\t\t\tname = \"Embed Foundation Extensions\";\n"
      + "\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};\n"
    out += "/* End PBXCopyFilesBuildPhase section */\n"

    out += "\n/* Begin PBXFileReference section */\n"
    var serial = 0
    for (name, _) in xcconfigs() {
      let reference = id(3, serial)
      serial += 1
      xcconfigReferences[name] = reference
      out +=
        "\t\t\(reference) /* \(name) */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; "
        + "path = \(name); sourceTree = \"<group>\"; };\n"
    }
    for t in 0..<targets {
      let product = t == 0 ? "Synthetic.app" : "Target\(t).appex"
      out +=
        "\t\t\(id(5, t)) /* \(product) */ = {isa = PBXFileReference; explicitFileType = "
        + "\(t == 0 ? "wrapper.application" : "\"wrapper.app-extension\""); includeInIndex = 0; "
        + "path = \(product); sourceTree = BUILT_PRODUCTS_DIR; };\n"
    }
    out += "/* End PBXFileReference section */\n"

    out += "\n/* Begin PBXGroup section */\n"
    out +=
      "\t\t\(mainGroup) = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t\(configGroup) /* Config */,\n"
      + "\t\t\t\t\(productsGroup) /* Products */,\n\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
    out += "\t\t\(configGroup) /* Config */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n"
    for (name, _) in xcconfigs() { out += "\t\t\t\t\(xcconfigReferences[name] ?? "") /* \(name) */,\n" }
    out += "\t\t\t);\n\t\t\tpath = Config;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
    out += "\t\t\(productsGroup) /* Products */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n"
    for t in 0..<targets { out += "\t\t\t\t\(id(5, t)) /* product */,\n" }
    out += "\t\t\t);\n\t\t\tname = Products;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
    out += "/* End PBXGroup section */\n"

    out += "\n/* Begin PBXNativeTarget section */\n"
    for t in 0..<targets {
      let name = t == 0 ? "Synthetic" : "Target\(t)"
      out +=
        "\t\t\(id(4, t)) /* \(name) */ = {\n\t\t\tisa = PBXNativeTarget;\n"
        + "\t\t\tbuildConfigurationList = \(id(6, t + 1)) /* Build configuration list for PBXNativeTarget "
        + "\"\(name)\" */;\n\t\t\tbuildPhases = (\n"
      if t == 0 { out += "\t\t\t\t\(id(8, 0)) /* Embed Foundation Extensions */,\n" }
      out +=
        "\t\t\t);\n\t\t\tbuildRules = (\n\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n"
        + "\t\t\tname = \(name);\n\t\t\tproductName = \(name);\n"
        + "\t\t\tproductReference = \(id(5, t)) /* product */;\n"
        + "\t\t\tproductType = \"com.apple.product-type.\(t == 0 ? "application" : "app-extension")\";\n\t\t};\n"
    }
    out += "/* End PBXNativeTarget section */\n"

    out += "\n/* Begin PBXProject section */\n"
    out +=
      "\t\t\(projectID) /* Project object */ = {\n\t\t\tisa = PBXProject;\n"
      + "\t\t\tbuildConfigurationList = \(id(6, 0)) /* Build configuration list for PBXProject \"Synthetic\" */;\n"
      + "\t\t\tcompatibilityVersion = \"Xcode 14.0\";\n\t\t\tdevelopmentRegion = en;\n"
      + "\t\t\tmainGroup = \(mainGroup);\n\t\t\tproductRefGroup = \(productsGroup) /* Products */;\n"
      + "\t\t\tprojectDirPath = \"\";\n\t\t\tprojectRoot = \"\";\n\t\t\ttargets = (\n"
    for t in 0..<targets { out += "\t\t\t\t\(id(4, t)) /* target */,\n" }
    out += "\t\t\t);\n\t\t};\n/* End PBXProject section */\n"

    out += "\n/* Begin XCBuildConfiguration section */\n"
    for owner in 0...targets {
      for (c, name) in configurations.enumerated() {
        let base =
          owner == 0
          ? xcconfigReferences["Project-\(name).xcconfig"] ?? ""
          : xcconfigReferences["Target-\(name).xcconfig"] ?? ""
        out +=
          "\t\t\(id(7, owner * configCount + c)) /* \(name) */ = {\n\t\t\tisa = XCBuildConfiguration;\n"
          + "\t\t\tbaseConfigurationReference = \(base) /* xcconfig */;\n\t\t\tbuildSettings = {\n"
        let settings: [(String, String)] =
          owner == 0
          ? [
            ("ALWAYS_SEARCH_USER_PATHS", "NO"), ("CLANG_ENABLE_MODULES", "YES"),
            ("CHAIN_1", "\"$(inherited) project-\(name)\""), ("ENABLE_TESTABILITY", c == 0 ? "YES" : "NO"),
            ("\"EXCLUDED_ARCHS[sdk=iphonesimulator*]\"", "i386"), ("IPHONEOS_DEPLOYMENT_TARGET", "16.0"),
            ("SDKROOT", "iphoneos"), ("VALIDATE_PRODUCT", c == 0 ? "NO" : "YES"),
          ]
          : targetSettings(owner - 1, c, isApp: owner == 1)
        for (key, value) in settings { out += "\t\t\t\t\(key) = \(value);\n" }
        out += "\t\t\t};\n\t\t\tname = \(name);\n\t\t};\n"
      }
    }
    out += "/* End XCBuildConfiguration section */\n"

    out += "\n/* Begin XCConfigurationList section */\n"
    for owner in 0...targets {
      out +=
        "\t\t\(id(6, owner)) /* Build configuration list */ = {\n\t\t\tisa = XCConfigurationList;\n"
        + "\t\t\tbuildConfigurations = (\n"
      for (c, name) in configurations.enumerated() {
        out += "\t\t\t\t\(id(7, owner * configCount + c)) /* \(name) */,\n"
      }
      out +=
        "\t\t\t);\n\t\t\tdefaultConfigurationIsVisible = 0;\n\t\t\tdefaultConfigurationName = Release;\n\t\t};\n"
    }
    out += "/* End XCConfigurationList section */\n"
    out += "\t};\n\trootObject = \(projectID) /* Project object */;\n}\n"
    return out
  }
}
