import UniformTypes

/// How the evaluators ask about Uniform Type Identifiers: `UTI-CONFORMS-TO` and `UTI-EQUALS` go through
/// these closures, which a type registry fills in.
///
/// `conformanceTest(to:)` resolves a right-hand identifier once and returns a test for left-hand
/// identifiers, so the compiled form pays for resolving a literal UTI only when it compiles.
struct TypeOracle: Sendable {
  var conforms: @Sendable (_ type: String, _ target: String) -> Bool
  var equals: @Sendable (_ lhs: String, _ rhs: String) -> Bool
  var conformanceTest: @Sendable (_ target: String) -> @Sendable (_ type: String) -> Bool
}

extension TypeOracle {
  /// Asks `registry`; a right-hand literal is resolved once per compiled comparison.
  init(_ registry: TypeRegistry) {
    conforms = { registry.conforms($0, to: $1) }
    equals = { registry.isEqual($0, $1) }
    conformanceTest = { target in
      let resolvedTarget = registry.resolve(target)
      return { registry.conforms(registry.resolve($0), to: resolvedTarget) }
    }
  }
}
