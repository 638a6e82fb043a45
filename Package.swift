// swift-tools-version: 6.1
import PackageDescription

// Module boundaries follow DESIGN.md: arrows there are the only allowed imports.
let package = Package(
  name: "RuleKit",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "PredicateSyntax", targets: ["PredicateSyntax"]),
    .library(name: "IntuneConfigurator", targets: ["IntuneConfigurator"]),
    .library(name: "PropertyLists", targets: ["PropertyLists"]),
    .library(name: "UniformTypes", targets: ["UniformTypes"]),
    .executable(name: "rulekit", targets: ["rulekit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "PredicateSyntax"),
    .target(name: "IntuneConfigurator", dependencies: ["PropertyLists", "UniformTypes"]),
    .target(name: "PropertyLists"),
    .target(name: "UniformTypes"),
    .executableTarget(
      name: "rulekit",
      dependencies: [
        "PredicateSyntax",
        "UniformTypes",
        "PropertyLists",
        "IntuneConfigurator",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "PredicateSyntaxTests",
      dependencies: ["PredicateSyntax"]
    ),
    .testTarget(
      name: "IntuneConfiguratorTests", dependencies: ["IntuneConfigurator", "PropertyLists"],
      exclude: ["Fixtures", "Golden"]),
    .testTarget(
      name: "PropertyListsTests", dependencies: ["PropertyLists"], exclude: ["Fixtures", "Golden"]),
    .testTarget(
      name: "UniformTypesTests",
      dependencies: ["UniformTypes"]
    ),
    .testTarget(
      name: "EndToEndTests",
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
