// swift-tools-version: 6.1
import PackageDescription

// A separate package using RuleKit the way an app's build tooling and test suite would: by path here, by URL
// (`.package(url: "https://github.com/…/RuleKit", from: "…")`) in a real project. The dependency is named so
// the example works whatever the RuleKit checkout's folder is called.
let package = Package(
  name: "LibraryUsage",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "RuleKit", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "ConfigureSampleApp",
      dependencies: [
        .product(name: "IntuneConfigurator", package: "RuleKit"),
        .product(name: "ActivationRules", package: "RuleKit"),
      ]),
    .testTarget(
      name: "ShareExtensionRuleTests",
      dependencies: [
        .product(name: "RuleKitTesting", package: "RuleKit"),
        .product(name: "ActivationRules", package: "RuleKit"),
        .product(name: "IntuneConfigurator", package: "RuleKit"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
