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
    .executable(name: "rulekit", targets: ["rulekit"]),
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
      dependencies: ["ActivationRules", "PredicateSyntax", "PropertyLists", "UniformTypes", "XcodeProjects"]),
    .target(name: "PropertyLists"),
    // Xcode projects as Xcode reads them: project.pbxproj, xcconfig files, build-setting resolution.
    .target(name: "XcodeProjects", dependencies: ["PropertyLists"]),
    .systemLibrary(
      name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]),
    // zlib's inflate and deflate, for PNG images and zip archives: a well-kept library, not our own codec.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(name: "PredicateEvaluation", dependencies: ["PredicateSyntax", "UniformTypes", "CPCRE2"]),
    .target(name: "UniformTypes", dependencies: ["PropertyLists"]),
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
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "PredicateSyntaxTests",
      dependencies: ["PredicateSyntax"],
      exclude: ["Fixtures", "Golden"]
    ),
    .testTarget(
      name: "IntuneConfiguratorTests",
      dependencies: [
        "IntuneConfigurator", "PredicateSyntax", "PropertyLists", "XcodeProjects",
      ],
      exclude: ["Fixtures", "Golden"]),
    .testTarget(
      name: "PropertyListsTests", dependencies: ["PropertyLists", "RuleKitFoundation"],
      exclude: ["Fixtures", "Golden"]),
    .testTarget(
      name: "PredicateEvaluationTests",
      dependencies: ["PredicateEvaluation", "PredicateSyntax", "UniformTypes", "RuleKitFoundation"]),
    .testTarget(
      name: "UniformTypesTests",
      dependencies: ["UniformTypes"]
    ),
    .testTarget(
      name: "ActivationRulesTests",
      dependencies: [
        "ActivationRules", "PredicateEvaluation", "PredicateSyntax", "PropertyLists", "UniformTypes",
        "CLITestSupport",
      ],
      exclude: ["Goldens"]),
    // Runs the built `rulekit` binary (swift test builds it); depends on no RuleKit module on purpose.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["CLITestSupport"],
      exclude: ["Golden", "BadInput"]
    ),
    // Finds and runs the `rulekit` built beside the test bundle, for every test that runs the CLI.
    .target(name: "CLITestSupport", path: "Tests/CLITestSupport"),
    .testTarget(
      name: "XcodeProjectsTests", dependencies: ["XcodeProjects", "PropertyLists"], exclude: ["Fixtures"]),
    .testTarget(name: "RuleKitTestingTests", dependencies: ["RuleKitTesting", "ActivationRules"]),
  ],
  swiftLanguageModes: [.v6]
)

// Members of a module are visible only where it is imported (SE-0444): without it, an extension of
// Foundation imported by one module leaks into the modules that import that one, hiding a Foundation
// dependency the rulekit binary must not have.
for target in package.targets where target.type != .system && target.type != .test {
  target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
