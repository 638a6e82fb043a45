// swift-tools-version: 6.1
import PackageDescription

// Module boundaries follow DESIGN.md: arrows there are the only allowed imports.
let package = Package(
  name: "RuleKit",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "PredicateSyntax", targets: ["PredicateSyntax"]),
    .executable(name: "rulekit", targets: ["rulekit"]),
    .executable(name: "PredicateSyntaxBenchmark", targets: ["PredicateSyntaxBenchmark"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "PredicateSyntax"),
    .executableTarget(
      name: "rulekit",
      dependencies: [
        "PredicateSyntax",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "PredicateSyntaxTests",
      dependencies: ["PredicateSyntax"],
      exclude: ["Fixtures", "Golden"]
    ),
    .executableTarget(
      name: "PredicateSyntaxBenchmark", dependencies: ["PredicateSyntax"],
      path: "Benchmarks/PredicateSyntaxBenchmark"),
    // Runs the built `rulekit` binary (swift test builds it); depends on no module on purpose.
    .testTarget(name: "EndToEndTests"),
  ],
  swiftLanguageModes: [.v6]
)
