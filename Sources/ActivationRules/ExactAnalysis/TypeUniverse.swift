import UniformTypes

/// One representative type for every way a type can answer a model's UTI tests.
///
/// A type matters to a rule only through the tests it passes, so types that pass the same tests are
/// interchangeable. A type passes a test against `X` only when it is `X` (ignoring case) or conforms to it,
/// so the registry's descendants of each tested type, their twins, and one type related to none of them
/// realise every answer a type of the registry can give (see the DocC article "Deciding rules exactly").
struct TypeUniverse {
  /// Representatives, most readable first: the rules' own types, their twins, the usual distractors, then
  /// the registry's descendants.
  var representatives: [String] = []
  /// For each representative, which type atoms it passes.
  var signatures: [[Bool]] = []
  /// How many type atoms the model has.
  let atomCount: Int

  /// An identifier nobody declares: it conforms only to itself.
  static let unrelated = "org.rulekit.unrelated-type"

  init(atoms: [TypeAtom], registry: TypeRegistry) {
    atomCount = atoms.count
    var candidates: [String] = []
    var seen = Set<String>()
    func offer(_ type: String) {
      if seen.insert(type.lowercased()).inserted { candidates.append(type) }
    }
    let literals = atoms.map(\.type)
    for type in literals { offer(type) }
    for type in literals { offer(IntuneTwin.twinIfNeeded(type)) }
    for type in ContextEnumerator.distractors { offer(type) }
    offer(Self.unrelated)
    for type in literals {
      for descendant in registry.descendants(of: type) { offer(descendant) }
    }
    // `UTI-EQUALS "X"` tells X from a type that only conforms to it; a dynamic type conforming to X is one
    // even when nothing declares a subtype of X.
    for atom in atoms where !atom.conforms && registry.resolve(atom.type).isKnown {
      offer(
        DynamicTypeIdentifier(tag: "rulekit", tagClass: .filenameExtension, conformingTo: atom.type)
          .identifier)
    }
    let targets = atoms.map { registry.resolve($0.type) }
    let foldedTargets = atoms.map { $0.type.lowercased() }
    var bySignature = Set<[Bool]>()
    for candidate in candidates {
      let resolved = registry.resolve(candidate)
      let folded = candidate.lowercased()
      let signature = atoms.indices.map { index in
        atoms[index].conforms
          ? registry.conforms(resolved, to: targets[index]) : folded == foldedTargets[index]
      }
      if bySignature.insert(signature).inserted {
        representatives.append(candidate)
        signatures.append(signature)
      }
    }
  }

  /// Each type atom's answer on every representative.
  var answers: [BitVector] {
    var result = Array(repeating: BitVector(size: representatives.count, value: false), count: atomCount)
    for (representative, signature) in signatures.enumerated() {
      for (atom, answer) in signature.enumerated() where answer { result[atom][representative] = true }
    }
    return result
  }
}
