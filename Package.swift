// swift-tools-version: 6.1
import PackageDescription

// Module boundaries follow docs/design.md: arrows there are the only allowed imports.
let package = Package(
  name: "RuleKit",
  // macOS 15 for Synchronization.Mutex (Xcode 26, which runs the build phases, needs macOS 15.6 anyway).
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "PredicateSyntax", targets: ["PredicateSyntax"]),
    .library(name: "IntuneConfigurator", targets: ["IntuneConfigurator"]),
    .library(name: "PropertyLists", targets: ["PropertyLists"]),
    .library(name: "PredicateEvaluation", targets: ["PredicateEvaluation"]),
    .library(name: "UniformTypes", targets: ["UniformTypes"]),
    .library(name: "ActivationRules", targets: ["ActivationRules"]),
    .library(name: "RuleKitTesting", targets: ["RuleKitTesting"]),
    .library(name: "RuleKitFoundation", targets: ["RuleKitFoundation"]),
    .library(name: "XcodeProjects", targets: ["XcodeProjects"]),
    .library(name: "PNGImages", targets: ["PNGImages"]),
    .library(name: "OpenInIcons", targets: ["OpenInIcons"]),
    .library(name: "AppBundles", targets: ["AppBundles"]),
    .executable(name: "rulekit", targets: ["rulekit"]),
    .plugin(name: "RuleKitLintPlugin", targets: ["RuleKitLintPlugin"]),
    .plugin(name: "RuleKitConfigurePlugin", targets: ["RuleKitConfigurePlugin"]),
    .plugin(name: "RuleKitBuildToolPlugin", targets: ["RuleKitBuildToolPlugin"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "PredicateSyntax", dependencies: ["CThreadStack"]),
    // The calling thread's stack bounds, which Swift cannot ask glibc for (LargeStack.swift).
    .target(name: "CThreadStack"),
    .target(
      name: "IntuneConfigurator",
      dependencies: [
        "ActivationRules", "AppBundles", "PredicateSyntax", "PropertyLists", "UniformTypes", "XcodeProjects",
      ]),
    // Built apps (.app, .xcarchive, .ipa) read in place: a zip reader over zlib with limits, no extraction.
    .target(name: "AppBundles", dependencies: ["PropertyLists", "CZlib"]),
    .target(name: "PropertyLists"),
    // Xcode projects as Xcode reads them: project.pbxproj, xcconfig files, build-setting resolution.
    .target(name: "XcodeProjects", dependencies: ["PropertyLists", "Locking"]),
    .systemLibrary(
      name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]),
    // zlib's inflate and deflate, for PNG images and zip archives: a well-kept library, not our own codec.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // PNG files in and out, Apple's CgBI variant included; inflate and deflate are zlib's.
    .target(name: "PNGImages", dependencies: ["CZlib"]),
    // Template icons for the Open-In action extension from an app's icon (-generateOpenInIcons).
    .target(name: "OpenInIcons", dependencies: ["AppBundles", "PNGImages", "PropertyLists"]),
    .target(
      name: "PredicateEvaluation", dependencies: ["PredicateSyntax", "UniformTypes", "CPCRE2", "Locking"]),
    .target(name: "UniformTypes", dependencies: ["PropertyLists", "Locking"]),
    // A lock ThreadSanitizer understands (Locked.swift says why not Synchronization.Mutex); no product.
    .target(name: "Locking"),
    .target(
      name: "ActivationRules",
      dependencies: ["PredicateSyntax", "PredicateEvaluation", "PropertyLists", "UniformTypes"]),
    .target(
      name: "RuleKitTesting",
      dependencies: [
        "ActivationRules", "PredicateSyntax", "PropertyLists", "RuleKitFoundation", "UniformTypes",
      ]),
    // Conversions from Foundation's object graphs; the only module importing all of Foundation, so the
    // rulekit binary, which does not use it, links no CoreFoundation or ICU.
    .target(name: "RuleKitFoundation", dependencies: ["PredicateEvaluation", "PropertyLists"]),
    .executableTarget(
      name: "rulekit",
      dependencies: [
        "PredicateSyntax",
        "UniformTypes",
        "PropertyLists",
        "IntuneConfigurator",
        "ActivationRules",
        "PredicateEvaluation",
        "XcodeProjects",
        "OpenInIcons",
        "PNGImages",
        "AppBundles",
        "Locking",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // SwiftPM plugins running the rulekit CLI (Examples/PluginUsage; scripts/check-plugins runs them).
    .plugin(
      name: "RuleKitLintPlugin",
      capability: .command(
        intent: .custom(
          verb: "rulekit-lint", description: "Lint the activation rules of the targets' Info.plists")),
      dependencies: ["rulekit"]),
    .plugin(
      name: "RuleKitConfigurePlugin",
      capability: .command(
        intent: .custom(
          verb: "rulekit-configure", description: "Configure the targets' Info.plists for Intune"),
        permissions: [.writeToPackageDirectory(reason: "rulekit configure edits Info.plist and entitlements")]
      ),
      dependencies: ["rulekit"]),
    .plugin(name: "RuleKitBuildToolPlugin", capability: .buildTool(), dependencies: ["rulekit"]),
    .testTarget(
      name: "PredicateSyntaxTests",
      dependencies: ["PredicateSyntax", "TestSupport"]
    ),
    .testTarget(
      name: "IntuneConfiguratorTests",
      dependencies: [
        "IntuneConfigurator", "ActivationRules", "PredicateSyntax", "PropertyLists", "XcodeProjects",
        "AppBundles", "CLITestSupport",
      ]),
    .testTarget(
      name: "PropertyListsTests", dependencies: ["PropertyLists", "RuleKitFoundation", "TestSupport"],
      exclude: ["Fixtures", "Golden"]),
    .testTarget(
      name: "PredicateEvaluationTests",
      dependencies: [
        "PredicateEvaluation", "PredicateSyntax", "UniformTypes", "RuleKitFoundation", "TestSupport",
      ]),
    .testTarget(
      name: "UniformTypesTests",
      dependencies: ["UniformTypes", "TestSupport"]
    ),
    .testTarget(
      name: "ActivationRulesTests",
      dependencies: [
        "ActivationRules", "PredicateEvaluation", "PredicateSyntax", "PropertyLists", "UniformTypes",
        "TestSupport",
      ],
      exclude: ["Goldens"]),
    // Runs the built `rulekit` binary (swift test builds it); depends on no RuleKit module on purpose.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["CLITestSupport"],
      exclude: ["Golden", "BadInput"]
    ),
    // Finds and runs the `rulekit` built beside the test bundle, for every test that runs the CLI.
    // Also writes zip archives (synthetic .ipa files) for the tests that read them.
    .target(name: "CLITestSupport", dependencies: ["CZlib"], path: "Tests/CLITestSupport"),
    .testTarget(
      name: "XcodeProjectsTests", dependencies: ["XcodeProjects", "PropertyLists", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(name: "RuleKitTestingTests", dependencies: ["RuleKitTesting", "ActivationRules"]),
    .testTarget(name: "PNGImagesTests", dependencies: ["PNGImages"]),
    .testTarget(name: "OpenInIconsTests", dependencies: ["OpenInIcons", "PNGImages"], exclude: ["Golden"]),
    .testTarget(name: "AppBundlesTests", dependencies: ["AppBundles", "CLITestSupport", "TestSupport"]),
    // What several test targets share: one seeded generator for the property tests.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
  ],
  swiftLanguageModes: [.v6]
)

// Members of a module are visible only where it is imported (SE-0444): without it, an extension of
// Foundation imported by one module leaks into the modules that import that one, hiding a Foundation
// dependency the rulekit binary must not have.
for target in package.targets where target.type != .system && target.type != .test && target.type != .plugin {
  target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
