import PredicateSyntax

// Key paths (split once, `$variable.key` remembered) and SUBQUERY (a fixed slot for its variable).

extension PredicateCompiler {
  mutating func compileKeyPath(
    base: ExpressionNode?, components: [KeyPathComponent], range: SourceRange
  )
    -> ValueCode
  {
    // SUBQUERY(…).@count counts matches without collecting them.
    if let base, case .subquery(let collection, let variable, let predicate) = base.kind,
      components == [.collectionOperator("count")]
    {
      let filter = compileSubquery(collection, variable, predicate)
      return { frame throws(EvaluationError) in .integer(try filter(frame, true).count) }
    }
    if let base, case .variable(let name) = base.kind, components.count == 1,
      case .key(let key) = components[0]
    {
      let slot = slot(for: name)
      let memo = memo(slot: slot, key: key)
      let baseRange = base.range
      let hashed = PredicateDictionary.HashedKey(key)
      return { frame throws(EvaluationError) in
        if let remembered = frame.memos[memo] { return remembered }
        guard let value = frame.slots[slot] else { throw TreeWalker.unbound(name, at: baseRange) }
        let result: PredicateValue
        if case .dictionary(let dictionary) = value {
          result = dictionary.value(for: hashed) ?? .null
        } else {
          result = try KeyValueCoding.value(forKey: key, of: value, at: range)
        }
        frame.memos[memo] = result
        return result
      }
    }
    // `SELF.age` is `age`: the same steps from the evaluated object, with its fast paths.
    let base = base?.isEvaluatedObject == true ? nil : base
    let baseCode: ValueCode
    if let base {
      baseCode = compile(base)
    } else {
      baseCode = { frame throws(EvaluationError) in frame.object }
    }
    let steps: [KeyValueCoding.Step]
    do {
      steps = try KeyValueCoding.steps(components, at: range)
    } catch {
      return { frame throws(EvaluationError) in
        _ = try baseCode(frame)
        throw error
      }
    }
    if base == nil, let key = Self.countedKey(steps) { return Self.countOfKey(key, range: range) }
    if steps.count == 1, case .key(let key) = steps[0], base == nil {
      // `age`: a key of the evaluated object, the commonest left-hand side.
      let hashed = PredicateDictionary.HashedKey(key)
      return { frame throws(EvaluationError) in
        if case .dictionary(let dictionary) = frame.object { return dictionary.value(for: hashed) ?? .null }
        return try KeyValueCoding.value(forKey: key, of: frame.object, at: range)
      }
    }
    if steps.count == 1, case .key(let key) = steps[0] {
      let hashed = PredicateDictionary.HashedKey(key)
      return { frame throws(EvaluationError) in
        let value = try baseCode(frame)
        if case .dictionary(let dictionary) = value { return dictionary.value(for: hashed) ?? .null }
        return try KeyValueCoding.value(forKey: key, of: value, at: range)
      }
    }
    if let keys = Self.plainKeys(steps) {
      // `address.city`: keys only, each looked up in place while the value is a dictionary; the general
      // steps iterate and copy `Step` values around each look-up. The same answer and errors as `apply`.
      let objectKeys = base == nil && !keys.isEmpty
      return { frame throws(EvaluationError) in
        var current: PredicateValue
        var rest = keys[...]
        if objectKeys, let member = frame.object.member(keys[0]) {
          // The first key is looked up in the evaluated object where it is, rather than in a copy of it.
          current = member
          rest = keys.dropFirst()
        } else {
          current = try baseCode(frame)
        }
        for key in rest {
          if let member = current.member(key) {
            current = member
          } else {
            current = try KeyValueCoding.value(forKey: key.text, of: current, at: range)
          }
        }
        return current
      }
    }
    return { frame throws(EvaluationError) in try KeyValueCoding.apply(steps, to: baseCode(frame), at: range)
    }
  }

  /// The keys of `steps`, hashed, when every step is a key (no collection operator); nil otherwise.
  private static func plainKeys(_ steps: [KeyValueCoding.Step]) -> [PredicateDictionary.HashedKey]? {
    var keys: [PredicateDictionary.HashedKey] = []
    for step in steps {
      guard case .key(let key) = step else { return nil }
      keys.append(PredicateDictionary.HashedKey(key))
    }
    return keys
  }

  /// The filtering loop of a SUBQUERY; `countOnly` skips collecting the kept elements.
  mutating func compileSubquery(
    _ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode
  )
    -> @Sendable (Frame, Bool) throws(EvaluationError) -> (kept: [PredicateValue], count: Int)
  {
    let collectionCode = compile(collection)
    let collectionRange = collection.range
    let slot = slotCount
    slotCount += 1
    scopes.append((name: variable, slot: slot))
    let predicateCode = compile(predicate)
    scopes.removeLast()
    let memos = memosBySlot[slot] ?? []
    return { frame, countOnly throws(EvaluationError) in
      let elements = try TreeWalker.subqueryElements(collectionCode(frame), at: collectionRange)
      var kept: [PredicateValue] = []
      var count = 0
      for element in elements {
        try frame.budget.pointee.takeStep(.subquery, over: collection, elements: elements.count)
        frame.slots[slot] = element
        for memo in memos { frame.memos[memo] = nil }
        if try predicateCode(frame) {
          count += 1
          if !countOnly { kept.append(element) }
        }
      }
      return (kept, count)
    }
  }
}
