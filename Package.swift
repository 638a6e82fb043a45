// swift-tools-version: 6.1
import PackageDescription

// Module boundaries follow DESIGN.md: arrows there are the only allowed imports.
let package = Package(
  name: "RuleKit",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "PredicateSyntax", targets: ["PredicateSyntax"]),
    .library(name: "PredicateEvaluation", targets: ["PredicateEvaluation"]),
    .executable(name: "rulekit", targets: ["rulekit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "PredicateSyntax"),
    .systemLibrary(
      name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]),
    .target(name: "PredicateEvaluation", dependencies: ["PredicateSyntax", "CPCRE2"]),
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
    .testTarget(name: "PredicateEvaluationTests", dependencies: ["PredicateEvaluation", "PredicateSyntax"]),
  ],
  swiftLanguageModes: [.v6]
)
