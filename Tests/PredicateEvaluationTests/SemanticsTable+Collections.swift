// Rows for quantifiers, compound predicates, key paths, collection operators and SUBQUERY.

extension SemanticsTable {
  static let quantifiers: [SemanticsCase] = [
    SemanticsCase("ANY children.age < 18", true, "Apple's ANY example"),
    SemanticsCase("SOME children.age < 18", true, "SOME is ANY"),
    SemanticsCase("ALL children.age < 18", false, "Apple's ALL example"),
    SemanticsCase("NONE children.age < 18", false, "Apple's NONE example"),
    SemanticsCase("ALL children.age < 21", true, "ALL holds"),
    SemanticsCase("NONE children.age > 30", true, "NONE holds"),
    SemanticsCase("NOT (ANY children.age < 18)", false, "NONE is NOT ANY"),
    SemanticsCase("ANY empty == 1", false, "ANY over an empty collection is false"),
    SemanticsCase("SOME empty == 1", false, "SOME over an empty collection is false"),
    SemanticsCase("ALL empty == 1", true, "ALL over an empty collection is vacuously true"),
    SemanticsCase("NONE empty == 1", true, "NONE over an empty collection is true"),
    SemanticsCase("ANY missing == 1", false, "ANY over a missing collection is false"),
    SemanticsCase("ALL missing == 1", true, "ALL over a missing collection is true"),
    SemanticsCase("NONE missing == 1", true, "NONE over a missing collection is true"),
    SemanticsCase("ANY nick == 1", false, "ANY over null is false"),
    SemanticsCase("ALL nick == 1", true, "ALL over null is true"),
    SemanticsCase("NONE nick == 1", true, "NONE over null is true"),
    SemanticsCase("ANY age == 30", .error(.typeMismatch), "ANY needs a collection"),
    SemanticsCase("ALL name == \"Ben\"", .error(.typeMismatch), "ALL needs a collection"),
    SemanticsCase("NONE score == 1", .error(.typeMismatch), "NONE needs a collection"),
    SemanticsCase("ANY tags ==[c] \"B\"", true, "options apply per element"),
    SemanticsCase("ALL tags IN {\"a\", \"b\", \"c\"}", true, "ALL with IN"),
    SemanticsCase("ALL tags IN {\"a\", \"b\"}", false, "ALL with IN fails on c"),
    SemanticsCase("ANY dict == 2", true, "ANY over a dictionary looks at values"),
    SemanticsCase("ANY children.name BEGINSWITH \"C\"", true, "ANY with BEGINSWITH"),
    SemanticsCase("ANY nums BETWEEN {4, 5}", true, "ANY with BETWEEN"),
    SemanticsCase("ALL nums > 0", true, "ALL with >"),
    SemanticsCase("ANY children.name LIKE \"?o?\"", true, "ANY with LIKE"),
    SemanticsCase("ANY children.name MATCHES \"C.\"", true, "ANY with MATCHES"),
    SemanticsCase("any children.age < 18", true, "quantifiers are case-insensitive keywords"),
    SemanticsCase("ANY {1, 2, 3} == 2", true, "ANY over a literal aggregate"),
    SemanticsCase("ALL {} == 2", true, "ALL over an empty literal aggregate"),
    SemanticsCase(
      "children.name == \"Ann\"", false, "a key on a to-many gives a collection, never equal to a string"),
    SemanticsCase("children.age == {5, 17, 20}", true, "the mapped collection equals the literal array"),
    SemanticsCase("ANY matrix == {3}", true, "nested arrays are compared whole"),
  ]

  static let compounds: [SemanticsCase] = [
    SemanticsCase("TRUEPREDICATE", true, "TRUEPREDICATE"),
    SemanticsCase("FALSEPREDICATE", false, "FALSEPREDICATE"),
    SemanticsCase("truepredicate", true, "keywords are case-insensitive"),
    SemanticsCase("NOT TRUEPREDICATE", false, "NOT"),
    SemanticsCase("!FALSEPREDICATE", true, "! is NOT"),
    SemanticsCase("NOT NOT TRUEPREDICATE", true, "double negation"),
    SemanticsCase("age == 30 AND name == \"Ben\"", true, "AND of two true comparisons"),
    SemanticsCase("age == 30 && name == \"Bob\"", false, "&& is AND"),
    SemanticsCase("age == 1 OR name == \"Ben\"", true, "OR"),
    SemanticsCase("age == 1 || name == \"Bob\"", false, "|| is OR"),
    SemanticsCase("age == 30 and name == \"Ben\"", true, "lowercase and"),
    SemanticsCase("age == 1 or name == \"Ben\"", true, "lowercase or"),
    SemanticsCase(
      "TRUEPREDICATE OR 1 < \"a\"", true, "OR short-circuits: the failing right side is never evaluated"),
    SemanticsCase("FALSEPREDICATE AND 1 < \"a\"", false, "AND short-circuits"),
    SemanticsCase(
      "FALSEPREDICATE OR 1 < \"a\"", .error(.typeMismatch), "without a short circuit the error surfaces"),
    SemanticsCase(
      "TRUEPREDICATE AND 1 < \"a\"", .error(.typeMismatch), "AND evaluates its right side when the left holds"
    ),
    SemanticsCase("NOT (age == 30)", false, "NOT of a parenthesised comparison"),
    SemanticsCase("(age == 30 OR age == 31) AND NOT name == \"Bob\"", true, "parentheses and NOT"),
    SemanticsCase("age == 1 OR age == 2 OR age == 30", true, "OR chains"),
    SemanticsCase("age == 30 AND age > 1 AND age < 100", true, "AND chains"),
    SemanticsCase("NOT ANY children.age > 18", false, "NOT in front of a quantified comparison"),
  ]

  static let keyPaths: [SemanticsCase] = [
    SemanticsCase("address.city == \"Zürich\"", true, "a nested key"),
    SemanticsCase("address.missing == nil", true, "a missing nested key is nil"),
    SemanticsCase("children[FIRST].name == \"Ann\"", true, "[FIRST]"),
    SemanticsCase("children[LAST].name == \"Cy\"", true, "[LAST]"),
    SemanticsCase("children[SIZE] == 3", true, "[SIZE]"),
    SemanticsCase("tags[size] == 3", true, "[size] is case-insensitive"),
    SemanticsCase("children[first].age == 5", true, "[first] is case-insensitive"),
    SemanticsCase("children[1].age == 17", true, "a numeric index"),
    SemanticsCase("nums[0] == 1", true, "index zero is the first element"),
    SemanticsCase("nums[10] == 1", .error(.invalidArgument), "an index beyond the bounds is an error"),
    SemanticsCase("nums[\"a\"] == 1", .error(.typeMismatch), "an array index must be a number"),
    SemanticsCase("empty[FIRST] == nil", true, "[FIRST] of an empty array is nil"),
    SemanticsCase("empty[LAST] == nil", true, "[LAST] of an empty array is nil"),
    SemanticsCase("empty[SIZE] == 0", true, "[SIZE] of an empty array is 0"),
    SemanticsCase("dict[\"x\"] == 1", true, "a dictionary subscript is a key"),
    SemanticsCase("dict[\"z\"] == nil", true, "a missing dictionary key is nil"),
    SemanticsCase("dict[SIZE] == 2", true, "[SIZE] of a dictionary"),
    SemanticsCase("missing[FIRST] == nil", true, "indexing null gives null"),
    SemanticsCase("age[0] == 1", .error(.typeMismatch), "a number cannot be indexed"),
    SemanticsCase("SELF.name == \"Ben\"", true, "SELF then a key"),
    SemanticsCase("self.name == \"Ben\"", true, "self is case-insensitive"),
    SemanticsCase("SELF == \"abc\"", true, "SELF is the evaluated object", object: #""abc""#),
    SemanticsCase("SELF == nil", true, "SELF can be null", object: "null"),
    SemanticsCase("SELF[SIZE] == 2", true, "SELF as a collection", object: "[1, 2]"),
    SemanticsCase("#size == 4", true, "# escapes a reserved word into a key", object: #"{"size": 4}"#),
    SemanticsCase("name.missing == nil", .error(.typeMismatch), "a string has no keys"),
    SemanticsCase("children.age[LAST] == 20", true, "indexing a mapped collection"),
    SemanticsCase(
      "groups.members == {{1, 2, 3}, {0}, {}}", true, "a key on nested to-manys keeps the nesting"),
  ]

  static let collectionOperators: [SemanticsCase] = [
    SemanticsCase("nums.@count == 4", true, "@count"),
    SemanticsCase("nums.@sum == 10", true, "@sum"),
    SemanticsCase("nums.@avg == 2.5", true, "@avg"),
    SemanticsCase("nums.@min == 1", true, "@min"),
    SemanticsCase("nums.@max == 4", true, "@max"),
    SemanticsCase("children.@count == 3", true, "@count of dictionaries"),
    SemanticsCase("children.@sum.age == 42", true, "@sum with a right-hand key path"),
    SemanticsCase("children.@avg.age == 14", true, "@avg with a right-hand key path"),
    SemanticsCase("children.@max.age == 20", true, "@max with a right-hand key path"),
    SemanticsCase("children.@min.age == 5", true, "@min with a right-hand key path"),
    SemanticsCase("children.@min.name == \"Ann\"", true, "@min orders strings too"),
    SemanticsCase("tags.@max == \"c\"", true, "@max of strings"),
    SemanticsCase("empty.@count == 0", true, "@count of an empty array"),
    SemanticsCase("empty.@sum == 0", true, "@sum of an empty array is 0"),
    SemanticsCase("empty.@max == nil", true, "@max of an empty array is nil"),
    SemanticsCase("missing.@count == 0", true, "@count of a missing key is 0"),
    SemanticsCase("dict.@count == 2", true, "@count of a dictionary"),
    SemanticsCase("dict.@sum == 3", true, "@sum of a dictionary's values"),
    SemanticsCase("dups.@distinctUnionOfObjects == {1, 2}", true, "@distinctUnionOfObjects drops repeats"),
    SemanticsCase("dups.@unionOfObjects == {1, 1, 2}", true, "@unionOfObjects keeps repeats"),
    SemanticsCase("children.@unionOfObjects.age == {5, 17, 20}", true, "@unionOfObjects with a key path"),
    SemanticsCase("matrix.@unionOfArrays == {1, 2, 3}", true, "@unionOfArrays flattens one level"),
    SemanticsCase(
      "groups.@distinctUnionOfArrays.@count == 4", .error(.unsupported), "operators cannot be chained"),
    SemanticsCase(
      "{{1, 2}, {2}}.@distinctUnionOfArrays == {1, 2}", true,
      "@distinctUnionOfArrays flattens and drops repeats"),
    SemanticsCase("nums.@bogus == 1", .error(.unsupported), "an unknown collection operator is an error"),
    SemanticsCase("age.@count == 1", .error(.typeMismatch), "@count of a number is an error"),
    SemanticsCase("tags.@sum == 0", .error(.typeMismatch), "@sum of strings is an error"),
    SemanticsCase("{1, 2, 3}.@count == 3", true, "@count of a literal aggregate"),
    SemanticsCase("children.age.@sum == 42", true, "a key path before the operator"),
  ]

  static let subqueries: [SemanticsCase] = [
    SemanticsCase(
      "(SUBQUERY(residents, $x, $x.firstname == \"Jane\" && $x.lastname == \"Doe\").@count != 0)", true,
      "Apple's SUBQUERY example with @count"),
    SemanticsCase(
      "(SUBQUERY(residents, $x, $x.firstname == \"Jane\" && $x.lastname == \"Doe\")[size] != 0)", true,
      "Apple's SUBQUERY example with [size]"),
    SemanticsCase(
      "residents.firstname == \"Jane\"", false, "why SUBQUERY exists: the key path gives a collection"),
    SemanticsCase(
      "SUBQUERY(children, $x, $x.age > 10).@count == 2", true, "SUBQUERY keeps matching elements"),
    SemanticsCase(
      "SUBQUERY(children, $c, $c.age > 10)[FIRST].name == \"Bob\"", true, "the result keeps the order"),
    SemanticsCase(
      "SUBQUERY(empty, $x, TRUEPREDICATE).@count == 0", true, "SUBQUERY over an empty collection"),
    SemanticsCase(
      "SUBQUERY(missing, $x, TRUEPREDICATE).@count == 0", true, "SUBQUERY over a missing collection"),
    SemanticsCase(
      "SUBQUERY(age, $x, TRUEPREDICATE).@count == 0", .error(.typeMismatch), "SUBQUERY needs a collection"),
    SemanticsCase("SUBQUERY(nums, $n, $n > 2) == {3, 4}", true, "the SUBQUERY result is a collection"),
    SemanticsCase(
      "SUBQUERY(groups, $g, SUBQUERY($g.members, $m, $m > 2).@count > 0).@count == 1", true, "nested SUBQUERY"
    ),
    SemanticsCase(
      "SUBQUERY(groups, $g, SUBQUERY($g.members, $m, $m >= 0).@count == $g.members.@count).@count == 3", true,
      "nested SUBQUERY: every group (the empty one vacuously) has all members >= 0"),
    SemanticsCase(
      "SUBQUERY(children, $x, SUBQUERY(nums, $x, $x > 3).@count == 1 AND $x.age > 10).@count == 2", true,
      "an inner variable shadows the outer one and is restored afterwards"),
    SemanticsCase(
      "SUBQUERY(nums, $x, $x > 2).@count == 2 AND $x == 5", true,
      "a SUBQUERY variable shadows a caller's variable",
      variables: #"{"x": 5}"#),
    SemanticsCase(
      "SUBQUERY(nums, $n, $n > $limit).@count == 1", true, "the inner predicate sees caller variables",
      variables: #"{"limit": 3}"#),
    SemanticsCase("SUBQUERY(dict, $v, $v > 1).@count == 1", true, "SUBQUERY over a dictionary's values"),
    SemanticsCase(
      "SUBQUERY(nums, $n, 1 < \"a\").@count == 0", .error(.typeMismatch), "errors inside SUBQUERY surface"),
    SemanticsCase(
      "SUBQUERY(empty, $n, 1 < \"a\").@count == 0", true,
      "the inner predicate is not evaluated for no elements"),
    SemanticsCase("$unbound == 1", .error(.unboundVariable), "an unbound variable is an error"),
    SemanticsCase("$x == 1", true, "a caller variable", variables: #"{"x": 1}"#),
    SemanticsCase(
      "$x.name == \"Ann\"", true, "a key path on a variable", variables: #"{"x": {"name": "Ann"}}"#),
  ]
}
