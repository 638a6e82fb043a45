// swift-tools-version: 6.1
import PackageDescription

// Module boundaries follow DESIGN.md: arrows there are the only allowed imports.
let package = Package(
  name: "RuleKit",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "PredicateSyntax", targets: ["PredicateSyntax"]),
    .library(name: "PropertyLists", targets: ["PropertyLists"]),
    .executable(name: "rulekit", targets: ["rulekit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "PredicateSyntax"),
    .target(name: "PropertyLists"),
    .executableTarget(
      name: "rulekit",
      dependencies: [
        "PredicateSyntax",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "PredicateSyntaxTests",
      dependencies: ["PredicateSyntax"]
    ),
    .executableTarget(
      name: "PropertyListsBenchmark", dependencies: ["PropertyLists"],
      path: "Benchmarks/PropertyListsBenchmark"),
    .testTarget(
      name: "PropertyListsTests", dependencies: ["PropertyLists"], exclude: ["Fixtures", "Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
