import PredicateSyntax

// Expressions: constants, variables, subscripts, aggregates, functions, casts, arithmetic and set operations.

extension PredicateCompiler {
  mutating func compile(_ expression: ExpressionNode) -> ValueCode {
    let range = expression.range
    switch expression.kind {
    case .constant(let constant):
      let value = PredicateValue(constant)
      return { _ throws(EvaluationError) in value }
    case .evaluatedObject:
      return { frame throws(EvaluationError) in frame.object }
    case .variable(let name):
      let slot = slot(for: name)
      return { frame throws(EvaluationError) in
        guard let value = frame.slots[slot] else { throw TreeWalker.unbound(name, at: range) }
        return value
      }
    case .anyKey:
      return { _ throws(EvaluationError) in
        throw EvaluationError(
          .unsupported, "ANYKEY is a Spotlight query key and has no value here", at: range)
      }
    case .keyPath(let base, let components):
      return compileKeyPath(base: base, components: components, range: range)
    case .index(let collection, let index):
      let collectionCode = compile(collection)
      let subscriptCode: @Sendable (Frame) throws(EvaluationError) -> KeyValueCoding.Subscript
      switch index {
      case .first: subscriptCode = { _ throws(EvaluationError) in .first }
      case .last: subscriptCode = { _ throws(EvaluationError) in .last }
      case .size: subscriptCode = { _ throws(EvaluationError) in .size }
      case .expression(let expression):
        let indexCode = compile(expression)
        subscriptCode = { frame throws(EvaluationError) in .value(try indexCode(frame)) }
      }
      return { frame throws(EvaluationError) in
        let container = try collectionCode(frame)
        return try KeyValueCoding.value(at: subscriptCode(frame), of: container, at: range)
      }
    case .aggregate(let elements):
      if let value = Self.constantValue(of: expression) {
        return { _ throws(EvaluationError) in value }
      }
      let codes = compileAll(elements)
      return { frame throws(EvaluationError) in .array(try Self.run(codes, frame)) }
    case .subquery(let collection, let variable, let predicate):
      let filter = compileSubquery(collection, variable, predicate)
      return { frame throws(EvaluationError) in .array(try filter(frame, false).kept) }
    case .function(let name, let arguments):
      let codes = compileAll(arguments)
      guard let function = PredicateFunctions.function(callFormName: name) else {
        return { _ throws(EvaluationError) in
          throw EvaluationError(.unsupported, "unknown function '\(name)'", at: range)
        }
      }
      return { frame throws(EvaluationError) in
        try PredicateFunctions.call(function, Self.run(codes, frame), at: range)
      }
    case .functionCall(let receiver, let selector, let arguments):
      guard let function = PredicateFunctions.Function(rawValue: selector) else {
        return { _ throws(EvaluationError) in throw PredicateFunctions.refusal(selector: selector, at: range)
        }
      }
      let codes = compileAll(function.arity == 0 ? arguments : [receiver] + arguments)
      return { frame throws(EvaluationError) in
        try PredicateFunctions.call(function, Self.run(codes, frame), at: range)
      }
    case .cast(let operand, let type):
      let operandCode = compile(operand)
      let typeCode = compile(type)
      let typeRange = type.range
      return { frame throws(EvaluationError) in
        let target = try Cast.target(typeCode(frame), at: typeRange)
        return try Cast.apply(operandCode(frame), to: target, at: range)
      }
    case .arithmetic(let op, let lhs, let rhs):
      if let value = Self.constantValue(of: expression) {
        return { _ throws(EvaluationError) in value }
      }
      let lhsCode = compile(lhs)
      if let right = Self.constantValue(of: rhs) {
        // `age + 1`: the literal is an operand as it is, without a closure to call for it.
        return { frame throws(EvaluationError) in try Arithmetic.apply(op, lhsCode(frame), right, at: range) }
      }
      let rhsCode = compile(rhs)
      return { frame throws(EvaluationError) in
        let left = try lhsCode(frame)
        return try Arithmetic.apply(op, left, rhsCode(frame), at: range)
      }
    case .negate(let operand):
      let operandCode = compile(operand)
      return { frame throws(EvaluationError) in try Arithmetic.negate(operandCode(frame), at: range) }
    case .setOperation(let op, let lhs, let rhs):
      let lhsCode = compile(lhs)
      let rhsCode = compile(rhs)
      return { frame throws(EvaluationError) in
        let left = try lhsCode(frame)
        return try Aggregates.setOperation(op, left, rhsCode(frame), at: range)
      }
    case .assignment(let variable, _):
      return { _ throws(EvaluationError) in
        throw EvaluationError(
          .unsupported,
          "assignment to $\(variable) is not evaluated: a predicate must not change its bindings",
          at: range)
      }
    case .ternary(let condition, let whenTrue, let whenFalse):
      let conditionCode = compile(condition)
      let trueCode = compile(whenTrue)
      let falseCode = compile(whenFalse)
      return { frame throws(EvaluationError) in
        try conditionCode(frame) ? trueCode(frame) : falseCode(frame)
      }
    }
  }

  private mutating func compileAll(_ expressions: [ExpressionNode]) -> [ValueCode] {
    var codes: [ValueCode] = []
    for expression in expressions { codes.append(compile(expression)) }
    return codes
  }

  private static func run(_ codes: [ValueCode], _ frame: Frame) throws(EvaluationError) -> [PredicateValue] {
    var values: [PredicateValue] = []
    values.reserveCapacity(codes.count)
    for code in codes { values.append(try code(frame)) }
    return values
  }
}
