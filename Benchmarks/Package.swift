// swift-tools-version: 6.1
import PackageDescription

// The benchmark executables, kept out of RuleKit's own package so they are not products a user of the
// libraries sees (as swift-collections and swift-nio keep theirs). The scripts in ../scripts build them with
// `swift build -c release --package-path Benchmarks`; figures and commands are in ../docs/performance.md.
// The dependency is named so the package resolves whatever the RuleKit checkout's folder is called.
let package = Package(
  name: "RuleKitBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "RuleKit", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "EvaluationBenchmark",
      dependencies: [
        .product(name: "PredicateEvaluation", package: "RuleKit"),
        .product(name: "PredicateSyntax", package: "RuleKit"),
        .product(name: "UniformTypes", package: "RuleKit"),
      ],
      path: "EvaluationBenchmark"),
    .executableTarget(
      name: "ExactDiffBenchmark",
      dependencies: [
        .product(name: "ActivationRules", package: "RuleKit"),
        .product(name: "PredicateSyntax", package: "RuleKit"),
      ],
      path: "ExactDiffBenchmark"),
    .executableTarget(
      name: "PeerWorkload",
      dependencies: [
        .product(name: "PredicateEvaluation", package: "RuleKit"),
        .product(name: "PredicateSyntax", package: "RuleKit"),
        .product(name: "UniformTypes", package: "RuleKit"),
      ],
      path: "PeerWorkload"),
    .executableTarget(
      name: "PredicateSyntaxBenchmark",
      dependencies: [.product(name: "PredicateSyntax", package: "RuleKit")],
      path: "PredicateSyntaxBenchmark"),
    .executableTarget(
      name: "PropertyListsBenchmark",
      dependencies: [.product(name: "PropertyLists", package: "RuleKit")],
      path: "PropertyListsBenchmark"),
    .executableTarget(
      name: "UniformTypesBenchmark",
      dependencies: [.product(name: "UniformTypes", package: "RuleKit")],
      path: "UniformTypesBenchmark"),
    .executableTarget(
      name: "XcodeProjectsBenchmark",
      dependencies: [
        .product(name: "IntuneConfigurator", package: "RuleKit"),
        .product(name: "XcodeProjects", package: "RuleKit"),
      ],
      path: "XcodeProjectsBenchmark"),
  ],
  swiftLanguageModes: [.v6]
)
