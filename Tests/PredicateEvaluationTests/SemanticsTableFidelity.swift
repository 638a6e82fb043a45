/// Rows for the behaviours of issue 17 (Apple fidelity, round two); docs/language.md gives the evidence.
extension SemanticsTable {
  /// Functions named as `NSExpression(forFunction:arguments:)` names them, in the format syntax's call form.
  static let selectorFunctions: [SemanticsCase] = [
    SemanticsCase("sum:({1, 2, 3}) == 6", true, "sum: of an aggregate"),
    SemanticsCase("sum:(nums) == 10", true, "sum: of a collection key"),
    SemanticsCase("count:({1, 2}) == 2", true, "count:"),
    SemanticsCase("min:({4, 2, 8}) == 2", true, "min:"),
    SemanticsCase("max:({4, 2, 8}) == 8", true, "max:"),
    SemanticsCase("average:({1, 2, 3, 4}) == 2.5", true, "average:, Apple's name for avg"),
    SemanticsCase("median:({3, 1, 2}) == 2", true, "median:"),
    SemanticsCase("mode:({1, 2, 2, 3}) == {2}", true, "mode:"),
    SemanticsCase("stddev:({2, 4, 4, 4, 5, 5, 7, 9}) == 2", true, "stddev:"),
    SemanticsCase("sqrt:(16) == 4", true, "sqrt:"),
    SemanticsCase("log:(1000) == 3", true, "log: is base 10"),
    SemanticsCase("ln:(1) == 0", true, "ln:"),
    SemanticsCase("exp:(0) == 1", true, "exp:"),
    SemanticsCase("floor:(2.7) == 2", true, "floor:"),
    SemanticsCase("ceiling:(2.2) == 3", true, "ceiling:"),
    SemanticsCase("abs:(-5) == 5", true, "abs:"),
    SemanticsCase("trunc:(-2.7) == -2", true, "trunc:"),
    SemanticsCase("raise:toPower:(2, 10) == 1024", true, "raise:toPower: is **"),
    SemanticsCase("add:to:(age, 1) == 31", true, "add:to: is +"),
    SemanticsCase("from:subtract:(age, 1) == 29", true, "from:subtract: is -"),
    SemanticsCase("multiply:by:(age, 2) == 60", true, "multiply:by: is *"),
    SemanticsCase("divide:by:(age, 4) == 7.5", true, "divide:by: is /"),
    SemanticsCase("modulus:by:(age, 7) == 2", true, "modulus:by:"),
    SemanticsCase("uppercase:(name) == 'BEN'", true, "uppercase:"),
    SemanticsCase("lowercase:(name) == 'ben'", true, "lowercase:"),
    SemanticsCase("length:(name) == 3", true, "length:"),
    SemanticsCase("bitwiseAnd:with:(6, 3) == 2", true, "bitwiseAnd:with:"),
    SemanticsCase("bitwiseOr:with:(6, 3) == 7", true, "bitwiseOr:with:"),
    SemanticsCase("bitwiseXor:with:(6, 3) == 5", true, "bitwiseXor:with:"),
    SemanticsCase("leftshift:by:(1, 4) == 16", true, "leftshift:by:"),
    SemanticsCase("rightshift:by:(16, 4) == 1", true, "rightshift:by:"),
    SemanticsCase("onesComplement:(0) == -1", true, "onesComplement:"),
    SemanticsCase("noindex:(age) == 30", true, "noindex: is the identity"),
    SemanticsCase("random:({7}) == 7", true, "random: picks an element"),
    SemanticsCase("add:to:(multiply:by:(2, 3), 1) == 7", true, "selector calls nest"),
    SemanticsCase("SUM:({1}) == 1", .error(.unsupported), "a selector is exact: SUM: is no function"),
    SemanticsCase("add:to:(1, 2, 3) == 6", .error(.invalidArgument), "add:to: takes two arguments"),
  ]

  /// `MATCHES` over text with line breaks: `.` matches one, `^` and `$` match at line boundaries, and the
  /// match still covers the whole string.
  static let multiLineMatches: [SemanticsCase] = [
    SemanticsCase("lines MATCHES 'a.b'", true, "dot matches a line break", object: multiLine),
    SemanticsCase("lines MATCHES 'a.*'", true, "dot-star runs across lines", object: multiLine),
    SemanticsCase("lines MATCHES 'a$\\nb'", true, "$ matches before an inner line break", object: multiLine),
    SemanticsCase("lines MATCHES 'a\\n^b'", true, "^ matches after an inner line break", object: multiLine),
    SemanticsCase("lines MATCHES '.*^b$'", true, "^ at a line start inside the match", object: multiLine),
    SemanticsCase(
      "lines MATCHES '^b'", false, "the match still starts at the string's start", object: multiLine),
    SemanticsCase("lines MATCHES 'a$'", false, "the match still ends at the string's end", object: multiLine),
    SemanticsCase("crlf MATCHES 'a$\\r\\nb'", true, "CRLF ends a line", object: multiLine),
    SemanticsCase("separated MATCHES 'a$.^b'", true, "U+2028 ends a line, as in ICU", object: multiLine),
  ]

  static let multiLine = #"{"lines": "a\nb", "crlf": "a\r\nb", "separated": "a\u2028b"}"#

  /// Keys Foundation's value classes answer through key-value coding.
  static let valueKeys: [SemanticsCase] = [
    SemanticsCase("description == 'Do'", true, "GNUstep's filter with description", object: #""Do""#),
    SemanticsCase("name.description == 'Ben'", true, "NSString description"),
    SemanticsCase("name.length == 3", true, "NSString length"),
    SemanticsCase("'😀'.length == 2", true, "length counts UTF-16 units"),
    SemanticsCase("name.uppercaseString == 'BEN'", true, "uppercaseString"),
    SemanticsCase("name.lowercaseString == 'ben'", true, "lowercaseString"),
    SemanticsCase("'hello wORLD'.capitalizedString == 'Hello World'", true, "capitalizedString"),
    SemanticsCase("address.zip.intValue == 8001", true, "NSString intValue"),
    SemanticsCase("' -12abc'.integerValue == -12", true, "intValue reads a leading number"),
    SemanticsCase("'abc'.intValue == 0", true, "intValue is 0 without a number"),
    SemanticsCase("'2.5e1x'.doubleValue == 25", true, "doubleValue reads a leading number"),
    SemanticsCase("'YES'.boolValue == YES", true, "boolValue: Y"),
    SemanticsCase("'0042'.boolValue == YES", true, "boolValue: a digit 1-9 after zeros"),
    SemanticsCase("'no'.boolValue == NO", true, "boolValue: anything else"),
    SemanticsCase("age.stringValue == '30'", true, "NSNumber stringValue"),
    SemanticsCase("score.description == '2.5'", true, "NSNumber description of a double"),
    SemanticsCase("2.0.description == '2'", true, "an integral double prints without a fraction"),
    SemanticsCase("flags.stringValue == '1'", true, "a boolean NSNumber prints as 1"),
    SemanticsCase("score.intValue == 2", true, "NSNumber intValue truncates"),
    SemanticsCase("age.doubleValue == 30", true, "NSNumber doubleValue"),
    SemanticsCase("tags.length == {1, 1, 1}", true, "a key on an array still maps over its elements"),
    SemanticsCase("age.length == 2", .error(.typeMismatch), "NSNumber has no length"),
    SemanticsCase("name.count == 3", .error(.typeMismatch), "NSString has no count"),
  ]

  /// `FIRST`, `LAST` and `SIZE` outside a subscript are keys.
  static let reservedWordKeys: [SemanticsCase] = [
    SemanticsCase(
      "name == 'a' AND size == 2", true, "GNUstep's compound test", object: #"{"name": "a", "size": 2}"#),
    SemanticsCase(
      "first == 1 AND last == 2", true, "FIRST and LAST as keys", object: #"{"first": 1, "last": 2}"#),
    SemanticsCase("box.SIZE == 3", true, "after a dot, in any case", object: #"{"box": {"SIZE": 3}}"#),
    SemanticsCase("nums[SIZE] == 4", true, "inside a subscript SIZE is still the count"),
    SemanticsCase("nums[FIRST] == 1 AND nums[LAST] == 4", true, "FIRST and LAST still index"),
  ]
}
