import PredicateSyntax

/// The levels of an extension context, innermost first: a type is an element of an attachment's
/// `registeredTypeIdentifiers`, an attachment of an item's `attachments`, an item of the context's
/// `extensionItems`.
enum ExactLevel: Int, Sendable, CaseIterable {
  case type = 0, attachment, item, context

  /// The key that holds this level's elements in the level above, `nil` for types.
  var childKey: String? {
    switch self {
    case .type: nil
    case .attachment: "registeredTypeIdentifiers"
    case .item: "attachments"
    case .context: "extensionItems"
    }
  }
}

/// A Boolean formula over the atoms of one level.
indirect enum ExactFormula: Sendable, Hashable {
  case constant(Bool)
  case atom(Int)
  case not(ExactFormula)
  case and([ExactFormula])
  case or([ExactFormula])

  /// Kleene's three-valued evaluation: nil when the unknown atoms (nil) decide the answer.
  func evaluate(partially atom: (Int) -> Bool?) -> Bool? {
    switch self {
    case .constant(let value): return value
    case .atom(let index): return atom(index)
    case .not(let operand): return operand.evaluate(partially: atom).map { !$0 }
    case .and(let operands): return Self.evaluate(operands, decidedBy: false, partially: atom)
    case .or(let operands): return Self.evaluate(operands, decidedBy: true, partially: atom)
    }
  }

  /// A conjunction (`decisive` false) or disjunction (true): decided by any operand equal to `decisive`,
  /// else unknown if any operand is.
  private static func evaluate(
    _ operands: [ExactFormula], decidedBy decisive: Bool, partially atom: (Int) -> Bool?
  )
    -> Bool?
  {
    var unknown = false
    for operand in operands {
      guard let value = operand.evaluate(partially: atom) else {
        unknown = true
        continue
      }
      if value == decisive { return decisive }
    }
    return unknown ? nil : !decisive
  }

  /// The largest atom index the formula reads, -1 when it reads none.
  var largestAtom: Int {
    switch self {
    case .constant: -1
    case .atom(let index): index
    case .not(let operand): operand.largestAtom
    case .and(let operands), .or(let operands): operands.map(\.largestAtom).max() ?? -1
    }
  }

  func evaluate(_ atom: (Int) -> Bool) -> Bool {
    switch self {
    case .constant(let value): value
    case .atom(let index): atom(index)
    case .not(let operand): !operand.evaluate(atom)
    case .and(let operands): operands.allSatisfy { $0.evaluate(atom) }
    case .or(let operands): operands.contains { $0.evaluate(atom) }
    }
  }
}

/// A test of a count against constants: `== 2`, `<= 10`, `BETWEEN {1, 3}`, `IN {1, 2}`.
struct CountTest: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case compare(ComparisonOperator, Double)
    case between(Double, Double)
    case oneOf([Double])
  }
  var kind: Kind

  func holds(_ count: Int) -> Bool {
    let value = Double(count)
    switch kind {
    case .compare(let op, let constant):
      switch op {
      case .equalTo: return value == constant
      case .notEqualTo: return value != constant
      case .lessThan: return value < constant
      case .lessThanOrEqualTo: return value <= constant
      case .greaterThan: return value > constant
      case .greaterThanOrEqualTo: return value >= constant
      default: return false
      }
    case .between(let low, let high): return low <= value && value <= high
    case .oneOf(let values): return values.contains(value)
    }
  }

  /// The numbers the count is compared with.
  var constants: [Double] {
    switch kind {
    case .compare(_, let constant): [constant]
    case .between(let low, let high): [low, high]
    case .oneOf(let values): values
    }
  }

  /// The smallest count `c` such that every count from `c` on answers this test alike: a count compared
  /// with constants up to `K` cannot tell `K + 1` from anything larger (the small-model bound).
  var saturation: Double {
    Swift.max(1, (constants.max() ?? 0).rounded(.down) + 1)
  }
}

/// An atom of the attachment, item or context level.
enum ExactAtom: Sendable, Hashable {
  /// The number of child elements satisfying formula `term` (of the level below) passes `test`.
  case count(term: ExactFormula, test: CountTest)
  /// Two such numbers compared: `SUBQUERY(…).@count == $extensionItem.attachments.@count`.
  case counts(ExactFormula, ComparisonOperator, ExactFormula)
}

/// An atom of the type level: a UTI test against a literal type.
struct TypeAtom: Sendable, Hashable {
  /// `UTI-CONFORMS-TO` when true, `UTI-EQUALS` when false.
  var conforms: Bool
  var type: String
}

/// Why a rule is outside the fragment the exact engine decides, with where in the rule, or why its search
/// stopped short.
struct OutsideFragment: Error, Sendable {
  var reason: String
  /// The rule is inside the fragment, but a search passed a bound that only bounds its time:
  /// ``ExactRuleAnalysis/Effort/exhaustive`` would go on.
  var searchLimitReached = false
}

/// Rules translated to formulas over per-level atoms, sharing one atom table so two rules can be searched
/// together.
struct ExactModel: Sendable {
  var typeAtoms: [TypeAtom] = []
  /// Atoms of the attachment, item and context levels, by `ExactLevel.rawValue - 1`.
  var atoms: [[ExactAtom]] = [[], [], []]

  /// Translates `rule` into a formula over context atoms.
  mutating func add(_ rule: PredicateNode) throws(OutsideFragment) -> ExactFormula {
    try predicate(rule, level: .context, element: nil)
  }

  private mutating func atomIndex(_ atom: ExactAtom, level: ExactLevel) -> Int {
    let slot = level.rawValue - 1
    if let index = atoms[slot].firstIndex(of: atom) { return index }
    atoms[slot].append(atom)
    return atoms[slot].count - 1
  }

  private mutating func typeAtomIndex(_ atom: TypeAtom) -> Int {
    if let index = typeAtoms.firstIndex(of: atom) { return index }
    typeAtoms.append(atom)
    return typeAtoms.count - 1
  }

  /// A formula with `some element satisfies f` kept apart, so that `ANY a || ANY b` over one collection
  /// merges into one count (`ANY (a || b)`): a rule listing 32 types then has one atom, not 32.
  private enum Part {
    case formula(ExactFormula)
    /// Some child element satisfies the formula (or, negated, none does).
    case exists(ExactFormula, negated: Bool)
  }

  private mutating func close(_ part: Part, level: ExactLevel) -> ExactFormula {
    switch part {
    case .formula(let formula): return formula
    case .exists(let term, let negated):
      let index = atomIndex(
        .count(term: term, test: CountTest(kind: .compare(.greaterThanOrEqualTo, 1))), level: level)
      return negated ? .not(.atom(index)) : .atom(index)
    }
  }

  /// `node` as a formula of `level`, whose element is `$element` (`nil`: the context, `SELF`).
  private mutating func predicate(_ node: PredicateNode, level: ExactLevel, element: String?)
    throws(OutsideFragment) -> ExactFormula
  {
    close(try part(node, level: level, element: element), level: level)
  }

  private mutating func part(_ node: PredicateNode, level: ExactLevel, element: String?)
    throws(OutsideFragment) -> Part
  {
    switch node.kind {
    case .truePredicate: return .formula(.constant(true))
    case .falsePredicate: return .formula(.constant(false))
    case .not(let operand):
      switch try part(operand, level: level, element: element) {
      case .formula(let formula): return .formula(.not(formula))
      case .exists(let term, let negated): return .exists(term, negated: !negated)
      }
    case .and, .or:
      let isOr: Bool
      if case .or = node.kind { isOr = true } else { isOr = false }
      var operands: [PredicateNode] = []
      Self.flatten(node, isOr: isOr, into: &operands)
      var merged: [ExactFormula] = []
      var formulas: [ExactFormula] = []
      for operand in operands {
        let piece = try part(operand, level: level, element: element)
        // ∃a ∨ ∃b = ∃(a ∨ b), and ¬∃a ∧ ¬∃b = ¬∃(a ∨ b).
        if case .exists(let term, let negated) = piece, negated != isOr {
          merged.append(term)
        } else {
          formulas.append(close(piece, level: level))
        }
      }
      var result = formulas
      if !merged.isEmpty {
        let term = merged.count == 1 ? merged[0] : .or(merged)
        let existing = Part.exists(term, negated: !isOr)
        if formulas.isEmpty { return existing }
        result.append(close(existing, level: level))
      }
      return .formula(isOr ? .or(result) : .and(result))
    case .comparison(let comparison):
      return try self.comparison(comparison, level: level, element: element)
    }
  }

  private static func flatten(_ node: PredicateNode, isOr: Bool, into operands: inout [PredicateNode]) {
    switch node.kind {
    case .or(let lhs, let rhs) where isOr, .and(let lhs, let rhs) where !isOr:
      flatten(lhs, isOr: isOr, into: &operands)
      flatten(rhs, isOr: isOr, into: &operands)
    default: operands.append(node)
    }
  }

  private mutating func comparison(_ comparison: Comparison, level: ExactLevel, element: String?)
    throws(OutsideFragment) -> Part
  {
    var text: String { PredicatePrinter().string(for: PredicateNode(.comparison(comparison))) }
    if level == .type {
      return .formula(try typeTest(comparison, element: element, text: text))
    }
    if let quantifier = comparison.quantifier {
      // ANY/ALL/NONE over the child collection, each element compared on its own: only types are plain
      // values a comparison can look at.
      guard level == .attachment, isChildCollection(comparison.lhs, level: level, element: element) else {
        throw OutsideFragment(
          reason:
            "\(text): \(quantifier.rawValue) is modelled only over an attachment's registeredTypeIdentifiers "
            + "inside a SUBQUERY over attachments")
      }
      var elementComparison = comparison
      elementComparison.quantifier = nil
      elementComparison.lhs = ExpressionNode(.variable(Self.typeVariable))
      let test = try typeTest(elementComparison, element: Self.typeVariable, text: text)
      switch quantifier {
      case .any, .some: return .exists(test, negated: false)
      case .none: return .exists(test, negated: true)
      case .all: return .exists(.not(test), negated: true)
      }
    }
    guard comparison.options.isEmpty else {
      throw OutsideFragment(reason: "\(text): comparison options on counts")
    }
    let lhs = try count(comparison.lhs, level: level, element: element)
    let rhs = try count(comparison.rhs, level: level, element: element)
    switch (lhs, rhs, comparison.op) {
    case (.term(let a), .term(let b), let op) where Self.ordering.contains(op):
      return .formula(.atom(atomIndex(.counts(a, op, b), level: level)))
    case (.term(let term), .constants(let values), let op):
      return .formula(
        .atom(atomIndex(.count(term: term, test: try Self.test(op, values, text)), level: level)))
    case (.constants(let values), .term(let term), let op) where values.count == 1:
      guard let flipped = Self.flipped[op] else { break }
      return .formula(
        .atom(atomIndex(.count(term: term, test: try Self.test(flipped, values, text)), level: level)))
    default: break
    }
    throw OutsideFragment(reason: "\(text): not a comparison of a count with numbers or another count")
  }

  private static let typeVariable = "\u{0}type"
  private static let ordering: Set<ComparisonOperator> = [
    .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
  ]
  private static let flipped: [ComparisonOperator: ComparisonOperator] = [
    .equalTo: .equalTo, .notEqualTo: .notEqualTo, .lessThan: .greaterThan,
    .lessThanOrEqualTo: .greaterThanOrEqualTo, .greaterThan: .lessThan,
    .greaterThanOrEqualTo: .lessThanOrEqualTo,
  ]

  private static func test(
    _ op: ComparisonOperator, _ values: [Double], _ text: @autoclosure () -> String
  )
    throws(OutsideFragment) -> CountTest
  {
    switch op {
    case _ where ordering.contains(op) && values.count == 1: return CountTest(kind: .compare(op, values[0]))
    case .between where values.count == 2: return CountTest(kind: .between(values[0], values[1]))
    case .in: return CountTest(kind: .oneOf(values))
    default: throw OutsideFragment(reason: "\(text()): \(op.rawValue) on a count")
    }
  }

  private enum CountOperand {
    case term(ExactFormula)
    case constants([Double])
  }

  /// A count of child elements (`X.@count`, `SUBQUERY(X, $v, P).@count`) or numeric constants.
  private mutating func count(_ expression: ExpressionNode, level: ExactLevel, element: String?)
    throws(OutsideFragment) -> CountOperand
  {
    func number(_ node: ExpressionNode) -> Double? {
      switch node.kind {
      case .constant(.integer(let value)): Double(value)
      case .constant(.double(let value)) where value.isFinite: value
      default: nil
      }
    }
    if let value = number(expression) { return .constants([value]) }
    if case .aggregate(let elements) = expression.kind {
      let values = elements.compactMap(number)
      if values.count == elements.count, !values.isEmpty { return .constants(values) }
    }
    var text: String { PredicatePrinter().string(for: expression) }
    guard case .keyPath(let base, let components) = expression.kind,
      components.last == .collectionOperator("count")
    else { throw OutsideFragment(reason: "\(text): not a count the exact engine models") }
    let collection = ExpressionNode(.keyPath(base: base, components: Array(components.dropLast())))
    if components.count > 1, isChildCollection(collection, level: level, element: element) {
      return .term(.constant(true))
    }
    if components.count == 1, let base, case .subquery(let inner, let variable, let body) = base.kind,
      isChildCollection(inner, level: level, element: element),
      let below = ExactLevel(rawValue: level.rawValue - 1)
    {
      return .term(try predicate(body, level: below, element: variable))
    }
    throw OutsideFragment(reason: "\(text): not a count the exact engine models")
  }

  /// Whether `expression` is the collection of this level's children: `extensionItems` on the context,
  /// `$element.attachments` on an item, `$element.registeredTypeIdentifiers` on an attachment.
  private func isChildCollection(_ expression: ExpressionNode, level: ExactLevel, element: String?) -> Bool {
    guard case .keyPath(let base, let components) = expression.kind, let key = level.childKey,
      components == [.key(key)]
    else { return false }
    switch base?.kind {
    case nil, .evaluatedObject?: return element == nil
    case .variable(let name)?: return name == element
    default: return false
    }
  }

  private mutating func typeTest(
    _ comparison: Comparison, element: String?, text: @autoclosure () -> String
  )
    throws(OutsideFragment) -> ExactFormula
  {
    guard comparison.quantifier == nil, comparison.options.isEmpty,
      comparison.op == .utiConformsTo || comparison.op == .utiEquals,
      case .variable(let name) = comparison.lhs.kind, name == element,
      case .constant(.string(let type)) = comparison.rhs.kind
    else { throw OutsideFragment(reason: "\(text()): not a UTI test of a type against a literal type") }
    return .atom(typeAtomIndex(TypeAtom(conforms: comparison.op == .utiConformsTo, type: type)))
  }
}
