// swift-tools-version: 6.1
import PackageDescription

// Module boundaries follow DESIGN.md: arrows there are the only allowed imports.
let package = Package(
  name: "RuleKit",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "PredicateSyntax", targets: ["PredicateSyntax"]),
    .library(name: "UniformTypes", targets: ["UniformTypes"]),
    .executable(name: "rulekit", targets: ["rulekit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "PredicateSyntax"),
    .target(name: "UniformTypes"),
    .executableTarget(
      name: "rulekit",
      dependencies: [
        "PredicateSyntax",
        "UniformTypes",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "UniformTypesBenchmark",
      dependencies: ["UniformTypes"],
      path: "Benchmarks/UniformTypesBenchmark"
    ),
    .testTarget(
      name: "PredicateSyntaxTests",
      dependencies: ["PredicateSyntax"]
    ),
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
