import PredicateEvaluation
import Testing

/// One row of the semantics table: a predicate as text, the object and variables as JSON, and the answer
/// Apple's documentation implies, with a note saying which behaviour the row pins.
struct SemanticsCase: Sendable, CustomTestStringConvertible {
  enum Expected: Sendable, Equatable {
    case answer(Bool)
    case error(EvaluationError.Kind)
  }

  var predicate: String
  var expected: Expected
  var note: String
  var object: String
  var variables: String

  init(
    _ predicate: String, _ expected: Bool, _ note: String, object: String = SemanticsTable.person,
    variables: String = "{}"
  ) {
    self.init(predicate, .answer(expected), note, object: object, variables: variables)
  }

  init(
    _ predicate: String, _ expected: Expected, _ note: String, object: String = SemanticsTable.person,
    variables: String = "{}"
  ) {
    self.predicate = predicate
    self.expected = expected
    self.note = note
    self.object = object
    self.variables = variables
  }

  var testDescription: String { "\(predicate)  — \(note)" }
}

/// The rows, grouped by the part of Apple's documentation they come from (apple-predicates-and-utis.md §A.4–A.6).
enum SemanticsTable {
  /// The object most rows are evaluated against.
  static let person = #"""
    {"name": "Ben", "age": 30, "score": 2.5, "nick": null, "flags": true, "tags": ["a", "b", "c"],
     "children": [{"name": "Ann", "age": 5}, {"name": "Bob", "age": 17}, {"name": "Cy", "age": 20}],
     "address": {"city": "Zürich", "zip": "8001"}, "empty": [], "nums": [1, 2, 3, 4], "dups": [1, 1, 2],
     "matrix": [[1, 2], [3]], "dict": {"x": 1, "y": 2}, "firstName": "Béatrice",
     "types": ["public.jpeg", "public.file-url"],
     "residents": [{"firstname": "Jane", "lastname": "Doe"}, {"firstname": "John", "lastname": "Roe"}],
     "groups": [{"members": [1, 2, 3]}, {"members": [0]}, {"members": []}]}
    """#

  static let numbers: [SemanticsCase] = [
    SemanticsCase("age == 30", true, "integer equality"),
    SemanticsCase("age = 30", true, "= is the same operator as =="),
    SemanticsCase("age == 30.0", true, "an integer equals the same double"),
    SemanticsCase("score == 2.5", true, "double equality"),
    SemanticsCase("age != 31", true, "!= on numbers"),
    SemanticsCase("age <> 30", false, "<> is the same operator as !="),
    SemanticsCase("age < 31", true, "< on integers"),
    SemanticsCase("age <= 30", true, "<= is inclusive"),
    SemanticsCase("age =< 29", false, "=< is the same operator as <="),
    SemanticsCase("age > 29.5", true, "ordering across integer and double"),
    SemanticsCase("age >= 30", true, ">= is inclusive"),
    SemanticsCase("age => 31", false, "=> is the same operator as >="),
    SemanticsCase("score < 3", true, "double against integer literal"),
    SemanticsCase("flags == 1", true, "a boolean compares numerically, as NSNumber does"),
    SemanticsCase("flags == TRUE", true, "TRUE literal"),
    SemanticsCase("flags == YES", true, "YES is TRUE"),
    SemanticsCase("flags == NO", false, "NO is FALSE"),
    SemanticsCase("flags == FALSE", false, "FALSE literal"),
    SemanticsCase("age == '30'", false, "a string never equals a number"),
    SemanticsCase("age < '31'", .error(.typeMismatch), "ordering a number against a string is an error"),
    SemanticsCase("1 < 2", true, "two literals"),
    SemanticsCase("-1 < 0", true, "unary minus on a literal"),
    SemanticsCase("2 > 10", false, "numeric, not textual, ordering"),
    SemanticsCase("0x1F == 31", true, "hexadecimal literal"),
    SemanticsCase("0X1f == 31", true, "hexadecimal prefix and digits in either case"),
    SemanticsCase("0o17 == 15", true, "octal literal"),
    SemanticsCase("0b101 == 5", true, "binary literal"),
    SemanticsCase("1e3 == 1000", true, "exponent literal"),
    SemanticsCase("9.2e-5 < 0.001", true, "negative exponent, Apple's example value"),
    SemanticsCase("2.71828 > 2", true, "fixed-point literal, Apple's example value"),
    SemanticsCase("19.75 == 19.75", true, "fixed-point equality"),
    SemanticsCase("1.0 == 1", true, "double literal equals integer literal"),
    SemanticsCase("27 == 27", true, "Apple's example integer"),
    SemanticsCase("-age == -30", true, "unary minus on a key path"),
  ]

  static let strings: [SemanticsCase] = [
    SemanticsCase("name == \"Ben\"", true, "double-quoted string"),
    SemanticsCase("name == 'Ben'", true, "single-quoted string is the same"),
    SemanticsCase("\"abc\" == 'abc'", true, "the two quote styles are equivalent"),
    SemanticsCase("name == \"ben\"", false, "== is case-sensitive by default"),
    SemanticsCase("name ==[c] \"ben\"", true, "==[c] folds case"),
    SemanticsCase("name ==[cd] \"BEN\"", true, "[cd] folds case and diacritics"),
    SemanticsCase("name != \"Ben\"", false, "!= on strings"),
    SemanticsCase("name !=[c] \"ben\"", false, "!=[c] folds case"),
    SemanticsCase("name < \"Bob\"", true, "strings order"),
    SemanticsCase("name > \"Ann\"", true, "strings order, greater"),
    SemanticsCase("\"abc\" < \"abd\"", true, "ordering by the first difference"),
    SemanticsCase("\"a\" < \"B\"", false, "without [c], lowercase sorts after uppercase"),
    SemanticsCase("\"a\" <[c] \"B\"", true, "[c] applies to ordering too"),
    SemanticsCase("\"abc\" <= \"abc\"", true, "<= on equal strings"),
    SemanticsCase("\"é\" ==[d] \"e\"", true, "[d] removes the acute accent"),
    SemanticsCase("\"é\" == \"e\"", false, "without [d] accents matter"),
    SemanticsCase("\"Ü\" ==[d] \"U\"", true, "[d]: Ü → U"),
    SemanticsCase("\"ï\" ==[d] \"i\"", true, "[d]: ï → i"),
    SemanticsCase("\"Ü\" ==[d] \"u\"", false, "[d] alone keeps case"),
    SemanticsCase("\"Ü\" ==[cd] \"u\"", true, "[cd] removes both"),
    SemanticsCase("\"straße\" ==[c] \"STRASSE\"", true, "[c] is full case folding: ß folds to ss"),
    SemanticsCase("\"straße\" == \"strasse\"", false, "ß is not ss without [c]"),
    SemanticsCase("\"İ\" ==[cd] \"i\"", true, "Turkish dotted İ folds to i with [cd]"),
    SemanticsCase("\"İ\" ==[c] \"I\"", false, "[c] alone keeps the dot of İ"),
    SemanticsCase("\"ΣΊΣΥΦΟΣ\" ==[c] \"σίσυφος\"", true, "Greek final sigma folds with [c]"),
    SemanticsCase("\"ﬁ\" ==[c] \"FI\"", true, "the ﬁ ligature folds to fi"),
    SemanticsCase("\"e\\u0301\" == \"é\"", true, "canonically equivalent strings are equal"),
    SemanticsCase("\"e\\u0301\" ==[n] \"é\"", false, "[n] compares as given: no canonical equivalence"),
    SemanticsCase("\"ABC\" ==[cn] \"abc\"", false, "[n] supersedes [c] (NSComparisonPredicate.h)"),
    SemanticsCase("\"abc\" ==[n] \"abc\"", true, "[n] on identical strings"),
    SemanticsCase("\"\\u00e9\" == \"é\"", true, "\\u escape with four hex digits"),
    SemanticsCase("\"\\x41\" == \"A\"", true, "\\x escape with two hex digits"),
    SemanticsCase("\"\\101\" == \"A\"", true, "\\ and three octal digits"),
    SemanticsCase("\"a\\\"b\" == 'a\"b'", true, "escaped double quote; a double quote inside single quotes"),
    SemanticsCase("'a\\'b' == \"a'b\"", true, "escaped single quote; a single quote inside double quotes"),
    SemanticsCase("\"\\n\" == \"\\u000a\"", true, "\\n is a line feed"),
    SemanticsCase("\"\\t\" == \"\\u0009\"", true, "\\t is a tab"),
    SemanticsCase("\"\\\\\" == \"\\u005c\"", true, "\\\\ is one backslash"),
    SemanticsCase("\"\" == ''", true, "empty strings"),
    SemanticsCase("\"\\U00e9\" == \"é\"", true, "\\U is the same as \\u"),
  ]

  static let nulls: [SemanticsCase] = [
    SemanticsCase("nick == nil", true, "JSON null equals nil"),
    SemanticsCase("nick == NULL", true, "NULL is nil"),
    SemanticsCase("missing == nil", true, "a missing key is nil (Using Predicates)"),
    SemanticsCase("missing == NIL", true, "NIL is nil, keywords are case-insensitive"),
    SemanticsCase("missing != nil", false, "a missing key is not non-nil"),
    SemanticsCase("name != nil", true, "a present key is non-nil"),
    SemanticsCase("name == nil", false, "a present key is not nil"),
    SemanticsCase("nick == \"Ben\"", false, "null matches nothing but null"),
    SemanticsCase("missing LIKE \"Ben\"", false, "Apple's example: no match against a missing key"),
    SemanticsCase("missing < 5", false, "ordering against null is false"),
    SemanticsCase("missing > 5", false, "ordering against null is false, either way"),
    SemanticsCase("missing >= 5", false, ">= against null is false"),
    SemanticsCase("5 <= nick", false, "null on the right of an ordering"),
    SemanticsCase("nick BEGINSWITH \"a\"", false, "string operators on null are false"),
    SemanticsCase("\"a\" BEGINSWITH missing", false, "a null pattern is false"),
    SemanticsCase("missing ENDSWITH \"a\"", false, "ENDSWITH on null"),
    SemanticsCase("missing CONTAINS \"a\"", false, "CONTAINS on null"),
    SemanticsCase("\"a\" IN missing", false, "IN a null collection"),
    SemanticsCase("missing IN {1, 2}", false, "null is not a member of a list without null"),
    SemanticsCase("nil IN {nil, 1}", true, "null is a member of a list with null"),
    SemanticsCase("missing BETWEEN {1, 2}", false, "BETWEEN on null"),
    SemanticsCase("missing MATCHES \".*\"", false, "MATCHES on null"),
    SemanticsCase("missing.deeper == nil", true, "a key path through a missing key is nil"),
    SemanticsCase("nick.deeper == nil", true, "a key path through null is nil"),
    SemanticsCase("nil == nil", true, "two nils are equal"),
    SemanticsCase("missing UTI-CONFORMS-TO \"public.data\"", false, "UTI-CONFORMS-TO on null"),
    SemanticsCase("missing UTI-EQUALS \"public.data\"", false, "UTI-EQUALS on null"),
  ]

  static let between: [SemanticsCase] = [
    SemanticsCase("age BETWEEN {30, 40}", true, "BETWEEN includes the lower bound"),
    SemanticsCase("age BETWEEN {20, 30}", true, "BETWEEN includes the upper bound"),
    SemanticsCase("age BETWEEN {31, 40}", false, "below the range"),
    SemanticsCase("age BETWEEN {10, 29}", false, "above the range"),
    SemanticsCase("score BETWEEN {2, 3}", true, "a double between integer bounds"),
    SemanticsCase("1 BETWEEN { 0 , 33 }", true, "Apple's example"),
    SemanticsCase("name BETWEEN {\"A\", \"C\"}", true, "strings order for BETWEEN"),
    SemanticsCase(
      "$INPUT BETWEEN { $LOWER, $UPPER }", true, "Apple's example with variables",
      variables: #"{"INPUT": 5, "LOWER": 1, "UPPER": 10}"#),
    SemanticsCase("age BETWEEN {1}", .error(.invalidArgument), "BETWEEN needs exactly two bounds"),
    SemanticsCase("age BETWEEN {1, 2, 3}", .error(.invalidArgument), "three bounds are an error"),
    SemanticsCase("age BETWEEN 5", .error(.invalidArgument), "a scalar is not a bound pair"),
    SemanticsCase("age BETWEEN {\"a\", \"b\"}", .error(.typeMismatch), "number against string bounds"),
    SemanticsCase("age BETWEEN {nil, 40}", false, "a null bound makes BETWEEN false"),
  ]

  static let membership: [SemanticsCase] = [
    SemanticsCase("name IN { 'Ben', 'Melissa', 'Nick' }", true, "Apple's IN example"),
    SemanticsCase("name IN {'Ann'}", false, "not in the list"),
    SemanticsCase("name IN[c] {'BEN'}", true, "[c] applies to members"),
    SemanticsCase("name IN {}", false, "an empty list contains nothing"),
    SemanticsCase("3 IN nums", true, "membership in an array key"),
    SemanticsCase("3.0 IN nums", true, "membership is numeric equality"),
    SemanticsCase("5 IN nums", false, "not a member"),
    SemanticsCase("\"a\" IN tags", true, "string membership"),
    SemanticsCase("\"A\" IN tags", false, "membership is case-sensitive"),
    SemanticsCase("\"A\" IN[c] tags", true, "IN[c] on an array"),
    SemanticsCase("\"Zür\" IN address.city", true, "IN on two strings is a substring test"),
    SemanticsCase("\"zur\" IN[cd] address.city", true, "substring with [cd]"),
    SemanticsCase("\"zur\" IN address.city", false, "substring without options"),
    SemanticsCase("1 IN dict", true, "IN a dictionary looks at its values"),
    SemanticsCase("\"x\" IN dict", false, "IN a dictionary does not look at keys"),
    SemanticsCase("1 IN 5", .error(.typeMismatch), "IN needs a collection or a string"),
    SemanticsCase("5 IN \"abc\"", .error(.typeMismatch), "a number inside a string is an error"),
    SemanticsCase("{1, 2} IN {{1, 2}, 3}", true, "an array is a member when an equal array is"),
    SemanticsCase("tags CONTAINS \"b\"", true, "CONTAINS on an array is membership"),
    SemanticsCase("tags CONTAINS \"B\"", false, "membership is case-sensitive"),
    SemanticsCase("tags CONTAINS[c] \"B\"", true, "CONTAINS[c] on an array"),
    SemanticsCase("name CONTAINS \"e\"", true, "CONTAINS on strings is a substring test"),
    SemanticsCase("name CONTAINS \"E\"", false, "substring is case-sensitive"),
    SemanticsCase("name CONTAINS[c] \"E\"", true, "CONTAINS[c] on strings"),
    SemanticsCase("address.city CONTAINS \"ür\"", true, "substring with non-ASCII"),
    SemanticsCase("address.city CONTAINS[d] \"ur\"", true, "CONTAINS[d]"),
    SemanticsCase("address.city CONTAINS \"ur\"", false, "ü is not u without [d]"),
    SemanticsCase("dict CONTAINS 2", true, "CONTAINS on a dictionary looks at values"),
    SemanticsCase("nums CONTAINS 2.0", true, "CONTAINS is numeric equality"),
    SemanticsCase("age CONTAINS 3", .error(.typeMismatch), "CONTAINS on a number is an error"),
    SemanticsCase("name CONTAINS 3", .error(.typeMismatch), "a number inside a string is an error"),
    SemanticsCase("name CONTAINS \"\"", false, "an empty substring is never found, as NSString says"),
    SemanticsCase("empty CONTAINS 1", false, "CONTAINS on an empty array"),
    SemanticsCase(
      "children.name CONTAINS \"Ann\"", true, "a key on a to-many relationship gives a collection"),
  ]

  static let stringOperators: [SemanticsCase] = [
    SemanticsCase("name BEGINSWITH \"B\"", true, "BEGINSWITH"),
    SemanticsCase("name BEGINSWITH \"b\"", false, "BEGINSWITH is case-sensitive"),
    SemanticsCase("name BEGINSWITH[c] \"b\"", true, "BEGINSWITH[c]"),
    SemanticsCase("name BEGINSWITH \"Bens\"", false, "a prefix longer than the string"),
    SemanticsCase("name BEGINSWITH \"\"", false, "an empty prefix is never found, as NSString says"),
    SemanticsCase("name ENDSWITH \"en\"", true, "ENDSWITH"),
    SemanticsCase("name ENDSWITH \"EN\"", false, "ENDSWITH is case-sensitive"),
    SemanticsCase("name ENDSWITH[c] \"EN\"", true, "ENDSWITH[c]"),
    SemanticsCase("address.city BEGINSWITH[d] \"Zu\"", true, "BEGINSWITH[d]"),
    SemanticsCase("address.city BEGINSWITH \"Zu\"", false, "BEGINSWITH without [d]"),
    SemanticsCase("address.city ENDSWITH[cd] \"ICH\"", true, "ENDSWITH[cd]"),
    SemanticsCase(
      "firstName BEGINSWITH[cd] $FIRST_NAME", true, "Apple's [cd] example",
      variables: #"{"FIRST_NAME": "bea"}"#),
    SemanticsCase(
      "firstName BEGINSWITH $FIRST_NAME", false, "the same without [cd]", variables: #"{"FIRST_NAME": "bea"}"#
    ),
    SemanticsCase("age BEGINSWITH \"3\"", .error(.typeMismatch), "BEGINSWITH on a number is an error"),
    SemanticsCase("name BEGINSWITH 3", .error(.typeMismatch), "a number prefix is an error"),
    SemanticsCase("name ENDSWITH tags", .error(.typeMismatch), "an array suffix is an error"),
    SemanticsCase("name LIKE \"B?n\"", true, "LIKE: ? is exactly one character"),
    SemanticsCase("name LIKE \"B??n\"", false, "? does not match zero characters"),
    SemanticsCase("name LIKE \"B*\"", true, "LIKE: * is any run of characters"),
    SemanticsCase("name LIKE \"*\"", true, "* alone matches everything"),
    SemanticsCase("\"\" LIKE \"*\"", true, "* matches the empty string"),
    SemanticsCase("name LIKE \"b*\"", false, "LIKE is case-sensitive"),
    SemanticsCase("name LIKE[c] \"b*\"", true, "LIKE[c]"),
    SemanticsCase("\"NeXT\" LIKE[c] \"next\"", true, "Apple's [c] example"),
    SemanticsCase("\"naïve\" LIKE[d] \"naive\"", true, "Apple's [d] example"),
    SemanticsCase("\"naïve\" LIKE \"naive\"", false, "Apple's example without [d]"),
    SemanticsCase("\"a.c\" LIKE \"a.c\"", true, "a dot is literal in LIKE"),
    SemanticsCase("\"abc\" LIKE \"a.c\"", false, "a dot is not a wildcard (GNUstep gets this wrong)"),
    SemanticsCase("\"a[b]\" LIKE \"a[b]\"", true, "brackets are literal in LIKE"),
    SemanticsCase("\"a+b\" LIKE \"a+b\"", true, "plus is literal in LIKE"),
    SemanticsCase("\"a^b$\" LIKE \"a^b$\"", true, "anchors are literal in LIKE"),
    SemanticsCase("name LIKE \"Be\"", false, "LIKE matches the whole string"),
    SemanticsCase("\"abc\" LIKE \"*b*\"", true, "* on both sides"),
    SemanticsCase("\"a*c\" LIKE \"a\\\\*c\"", true, "\\* is a literal asterisk"),
    SemanticsCase("\"abc\" LIKE \"a\\\\*c\"", false, "an escaped asterisk is not a wildcard"),
    SemanticsCase("\"a?c\" LIKE \"a\\\\?c\"", true, "\\? is a literal question mark"),
    SemanticsCase("\"é\" LIKE \"?\"", true, "? matches one non-ASCII character"),
    SemanticsCase("age LIKE \"3*\"", .error(.typeMismatch), "LIKE on a number is an error"),
    SemanticsCase("\"CATCATCAT\" MATCHES '.*(CAT){3,}(?!CA).*'", true, "Apple's MATCHES example"),
    SemanticsCase("name MATCHES \"B.n\"", true, "MATCHES with a dot"),
    SemanticsCase("name MATCHES \"B\"", false, "MATCHES is a whole-string match"),
    SemanticsCase("name MATCHES \"e\"", false, "MATCHES does not search"),
    SemanticsCase("name MATCHES \"b.n\"", false, "MATCHES is case-sensitive"),
    SemanticsCase("name MATCHES[c] \"b.n\"", true, "MATCHES[c] is caseless"),
    SemanticsCase("address.city MATCHES \"Z.rich\"", true, "UTF mode: ü is one character"),
    SemanticsCase("address.city MATCHES[d] \"Zurich\"", true, "MATCHES[d] removes diacritics"),
    SemanticsCase("\"123\" MATCHES \"\\\\d+\"", true, "character classes"),
    SemanticsCase("\"١٢٣\" MATCHES \"\\\\d+\"", true, "\\d is Unicode-aware, as in ICU"),
    SemanticsCase("\"ab\" MATCHES \"a|b\"", false, "alternation still has to cover the whole string"),
    SemanticsCase("\"x\" MATCHES \"(\"", .error(.invalidRegularExpression), "an invalid pattern is an error"),
    SemanticsCase(
      "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\" MATCHES \"(a+)+$\"", .error(.regularExpressionLimit),
      "catastrophic backtracking ends at PCRE2's limits"),
    SemanticsCase("age MATCHES \"3\"", .error(.typeMismatch), "MATCHES on a number is an error"),
  ]

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

  static let functions: [SemanticsCase] = [
    SemanticsCase("sum(1, 2, 3) == 6", true, "sum in call form"),
    SemanticsCase("sum({1, 2, 3}) == 6", true, "sum of an aggregate"),
    SemanticsCase("sum(nums) == 10", true, "sum of a collection key"),
    SemanticsCase("count({1, 2}) == 2", true, "count"),
    SemanticsCase("min(4, 2, 8) == 2", true, "min"),
    SemanticsCase("max(4, 2, 8) == 8", true, "max"),
    SemanticsCase("MAX(1, 5, 10) == 10", true, "Apple's 10.4-form example, keywords case-insensitive"),
    SemanticsCase("average(1, 2, 3, 4) == 2.5", true, "average"),
    SemanticsCase("median(3, 1, 2) == 2", true, "median of an odd count"),
    SemanticsCase("median(1, 2, 3, 4) == 2.5", true, "median of an even count averages the middle two"),
    SemanticsCase("mode({1, 2, 2, 3}) == {2}", true, "mode returns an array"),
    SemanticsCase("stddev(2, 4, 4, 4, 5, 5, 7, 9) == 2", true, "stddev (population)"),
    SemanticsCase("sqrt(16) == 4", true, "sqrt"),
    SemanticsCase("log(1000) == 3", true, "log is base 10"),
    SemanticsCase("ln(1) == 0", true, "ln"),
    SemanticsCase("exp(0) == 1", true, "exp"),
    SemanticsCase("floor(2.7) == 2", true, "floor"),
    SemanticsCase("ceiling(2.1) == 3", true, "ceiling"),
    SemanticsCase("abs(-3) == 3", true, "abs"),
    SemanticsCase("trunc(-2.7) == -2", true, "trunc rounds toward zero"),
    SemanticsCase("random() BETWEEN {0, 1}", true, "random is in [0, 1)"),
    SemanticsCase("now() > CAST(0, \"NSDate\")", true, "now is after 2001"),
    SemanticsCase("sum(children.age) == 42", true, "sum of a mapped key path"),
    SemanticsCase("sum(\"a\", 1) == 1", .error(.typeMismatch), "sum of a string is an error"),
    SemanticsCase("bogus(1) == 1", .error(.unsupported), "an unknown call-form function is refused"),
    SemanticsCase("FUNCTION(2, 'add:to:', 3) == 5", true, "add:to:"),
    SemanticsCase("FUNCTION(10, 'from:subtract:', 4) == 6", true, "from:subtract:"),
    SemanticsCase("FUNCTION(6, 'multiply:by:', 7) == 42", true, "multiply:by:"),
    SemanticsCase("FUNCTION(7, 'divide:by:', 2) == 3.5", true, "divide:by:"),
    SemanticsCase("FUNCTION(7, 'modulus:by:', 3) == 1", true, "modulus:by:"),
    SemanticsCase("FUNCTION(2, 'raise:toPower:', 10) == 1024", true, "raise:toPower:"),
    SemanticsCase(
      "FUNCTION(-9223372036854775807 - 1, 'modulus:by:', -1) == 0", true,
      "the one overflowing remainder is 0, not a trap"),
    SemanticsCase("FUNCTION(16, 'sqrt:') == 4", true, "sqrt: in FUNCTION form"),
    SemanticsCase("FUNCTION(100, 'log:') == 2", true, "log: in FUNCTION form"),
    SemanticsCase("FUNCTION(1, 'ln:') == 0", true, "ln: in FUNCTION form"),
    SemanticsCase("FUNCTION(0, 'exp:') == 1", true, "exp: in FUNCTION form"),
    SemanticsCase("FUNCTION(2.5, 'floor:') == 2", true, "floor: in FUNCTION form"),
    SemanticsCase("FUNCTION(2.5, 'ceiling:') == 3", true, "ceiling: in FUNCTION form"),
    SemanticsCase("FUNCTION(-2, 'abs:') == 2", true, "abs: in FUNCTION form"),
    SemanticsCase("FUNCTION(2.9, 'trunc:') == 2", true, "trunc: in FUNCTION form"),
    SemanticsCase("FUNCTION(nums, 'sum:') == 10", true, "sum: with the collection as receiver"),
    SemanticsCase("FUNCTION(nums, 'count:') == 4", true, "count:"),
    SemanticsCase("FUNCTION(nums, 'min:') == 1", true, "min:"),
    SemanticsCase("FUNCTION(nums, 'max:') == 4", true, "max:"),
    SemanticsCase("FUNCTION(nums, 'average:') == 2.5", true, "average:"),
    SemanticsCase("FUNCTION(nums, 'median:') == 2.5", true, "median:"),
    SemanticsCase("FUNCTION(dups, 'mode:') == {1}", true, "mode:"),
    SemanticsCase("FUNCTION({1, 3}, 'stddev:') == 1", true, "stddev:"),
    SemanticsCase("FUNCTION('abc', 'uppercase:') == 'ABC'", true, "uppercase:"),
    SemanticsCase("FUNCTION('ÀBC', 'lowercase:') == 'àbc'", true, "lowercase: handles non-ASCII"),
    SemanticsCase(
      "FUNCTION('Straße', 'canonical:') == 'strasse'", true, "canonical: folds case and diacritics"),
    SemanticsCase("FUNCTION('héllo', 'length:') == 5", true, "length:"),
    SemanticsCase("FUNCTION('abc', 'noindex:') == 'abc'", true, "noindex: returns its argument"),
    SemanticsCase(
      "FUNCTION(SELF, 'now') > CAST(0, 'NSDate')", true, "now in FUNCTION form ignores the receiver"),
    SemanticsCase("FUNCTION(SELF, 'random') < 1", true, "random in FUNCTION form"),
    SemanticsCase("FUNCTION(5, 'randomn:') < 5", true, "randomn: is below its bound"),
    SemanticsCase("FUNCTION({1, 2}, 'random:') IN {1, 2}", true, "random: picks an element"),
    SemanticsCase("FUNCTION(12, 'bitwiseAnd:with:', 10) == 8", true, "bitwiseAnd:with:"),
    SemanticsCase("FUNCTION(12, 'bitwiseOr:with:', 3) == 15", true, "bitwiseOr:with:"),
    SemanticsCase("FUNCTION(12, 'bitwiseXor:with:', 4) == 8", true, "bitwiseXor:with:"),
    SemanticsCase("FUNCTION(1, 'leftshift:by:', 4) == 16", true, "leftshift:by:"),
    SemanticsCase("FUNCTION(16, 'rightshift:by:', 2) == 4", true, "rightshift:by:"),
    SemanticsCase("FUNCTION(0, 'onesComplement:') == -1", true, "onesComplement:"),
    SemanticsCase(
      "FUNCTION('/Developer/Tools/otest', 'lastPathComponent') == 'otest'", .error(.unsupported),
      "Apple's arbitrary-selector example is refused, never executed"),
    SemanticsCase(
      "FUNCTION(SELF, 'valueForKey:', 'name') == 'Ben'", .error(.unsupported),
      "KVC through FUNCTION is refused"),
    SemanticsCase("FUNCTION(1, 'divide:by:', 0) == 1", .error(.arithmetic), "division by zero is an error"),
    SemanticsCase("FUNCTION(1, 'add:to:') == 1", .error(.invalidArgument), "a missing argument is an error"),
    SemanticsCase("FUNCTION('a', 'sqrt:') == 1", .error(.typeMismatch), "sqrt: of a string is an error"),
    SemanticsCase("CAST(\"12\", \"NSNumber\") == 12", true, "CAST a string to NSNumber"),
    SemanticsCase("CAST(\"2.5\", \"NSNumber\") == 2.5", true, "CAST a decimal string to NSNumber"),
    SemanticsCase("CAST(12, \"NSString\") == \"12\"", true, "CAST a number to NSString"),
    SemanticsCase("CAST(0, \"NSDate\") == CAST(0.0, \"NSDate\")", true, "CAST seconds since 2001 to NSDate"),
    SemanticsCase("CAST(CAST(60, \"NSDate\"), \"NSNumber\") == 60", true, "a date CAST back to seconds"),
    SemanticsCase("CAST(1, \"NSDate\") > CAST(0, \"NSDate\")", true, "dates order"),
    SemanticsCase("CAST(\"x\", \"NSObject\") == 1", .error(.unsupported), "other classes are refused"),
    SemanticsCase(
      "CAST(\"abc\", \"NSDate\") == 1", .error(.typeMismatch), "a string does not CAST to NSDate"),
    SemanticsCase("CAST(nil, \"NSNumber\") == nil", true, "CAST of nil is nil"),
    SemanticsCase("TERNARY(age > 18, 'adult', 'minor') == 'adult'", true, "TERNARY picks the true branch"),
    SemanticsCase("TERNARY(age < 18, 'adult', 'minor') == 'minor'", true, "TERNARY picks the false branch"),
    SemanticsCase("ANYKEY == 1", .error(.unsupported), "ANYKEY is Spotlight-only"),
  ]

  static let arithmetic: [SemanticsCase] = [
    SemanticsCase("1 + 2 == 3", true, "addition"),
    SemanticsCase("age + 1 == 31", true, "addition with a key"),
    SemanticsCase("age - 31 == -1", true, "subtraction"),
    SemanticsCase("2 * 3 == 6", true, "multiplication"),
    SemanticsCase("7 / 2 == 3.5", true, "division is floating point"),
    SemanticsCase("2 ** 10 == 1024", true, "power"),
    SemanticsCase("1 + 2 * 3 == 7", true, "* binds tighter than +"),
    SemanticsCase("(1 + 2) * 3 == 9", true, "parentheses group"),
    SemanticsCase("age * 2 > score * 10", true, "arithmetic on both sides"),
    SemanticsCase("1 / 0 == 1", .error(.arithmetic), "division by zero is an error"),
    SemanticsCase("\"a\" + 1 == 1", .error(.typeMismatch), "arithmetic on a string is an error"),
    SemanticsCase("missing + 1 == 1", .error(.typeMismatch), "arithmetic on null is an error"),
    SemanticsCase("9223372036854775807 + 1 > 0", true, "integer overflow falls back to double"),
    SemanticsCase("0.1 + 0.2 > 0.3", true, "doubles are IEEE doubles"),
    SemanticsCase("{1, 2} UNION {2, 3} == {1, 2, 3}", true, "UNION"),
    SemanticsCase("{1, 2, 3} INTERSECT {2, 3, 4} == {2, 3}", true, "INTERSECT"),
    SemanticsCase("{1, 2, 3} MINUS {2} == {1, 3}", true, "MINUS"),
    SemanticsCase("tags UNION {\"d\"} == {\"a\", \"b\", \"c\", \"d\"}", true, "UNION with a key"),
    SemanticsCase("5 UNION {1} == {1}", .error(.typeMismatch), "set operations need collections"),
  ]

  static let uniformTypes: [SemanticsCase] = [
    SemanticsCase("\"public.jpeg\" UTI-CONFORMS-TO \"public.image\"", true, "a JPEG is an image"),
    SemanticsCase("\"public.image\" UTI-CONFORMS-TO \"public.jpeg\"", false, "conformance is not symmetric"),
    SemanticsCase("\"public.jpeg\" UTI-CONFORMS-TO \"public.jpeg\"", true, "conformance is reflexive"),
    SemanticsCase("\"PUBLIC.JPEG\" UTI-CONFORMS-TO \"public.image\"", true, "UTIs are case-insensitive"),
    SemanticsCase("\"public.jpeg\" UTI-CONFORMS-TO \"public.data\"", true, "conformance is transitive"),
    SemanticsCase("\"public.jpeg\" UTI-CONFORMS-TO \"public.content\"", true, "the functional hierarchy too"),
    SemanticsCase("\"com.adobe.pdf\" UTI-CONFORMS-TO \"public.data\"", true, "a PDF is data"),
    SemanticsCase("\"public.file-url\" UTI-CONFORMS-TO \"public.url\"", true, "a file URL is a URL"),
    SemanticsCase("\"public.url\" UTI-CONFORMS-TO \"public.file-url\"", false, "a URL is not a file URL"),
    SemanticsCase("\"public.plain-text\" UTI-CONFORMS-TO \"public.text\"", true, "plain text is text"),
    SemanticsCase("\"public.url\" UTI-CONFORMS-TO \"public.data\"", true, "a URL is data"),
    SemanticsCase(
      "\"com.example.unknown\" UTI-CONFORMS-TO \"public.data\"", false,
      "an unknown UTI conforms only to itself"),
    SemanticsCase(
      "\"com.example.unknown\" UTI-CONFORMS-TO \"com.example.unknown\"", true,
      "an unknown UTI conforms to itself"),
    SemanticsCase(
      "\"com.microsoft.intune.mam.public.image\" UTI-CONFORMS-TO \"public.image\"", false,
      "an Intune twin does not conform to its base in the system registry (guide §1.8)"),
    SemanticsCase("\"public.jpeg\" UTI-EQUALS \"public.jpeg\"", true, "UTI-EQUALS"),
    SemanticsCase("\"public.jpeg\" UTI-EQUALS \"PUBLIC.JPEG\"", true, "UTI-EQUALS is case-insensitive"),
    SemanticsCase("\"public.jpeg\" UTI-EQUALS \"public.image\"", false, "UTI-EQUALS is not conformance"),
    SemanticsCase("ANY types UTI-CONFORMS-TO \"public.image\"", true, "ANY over registered types"),
    SemanticsCase("ALL types UTI-CONFORMS-TO \"public.image\"", false, "ALL: the file URL is not an image"),
    SemanticsCase("ALL types UTI-CONFORMS-TO \"public.item\"", true, "ALL: everything is an item"),
    SemanticsCase("NONE types UTI-CONFORMS-TO \"public.movie\"", true, "NONE over registered types"),
    SemanticsCase("ANY types UTI-EQUALS \"public.file-url\"", true, "ANY with UTI-EQUALS"),
    SemanticsCase("ANY empty UTI-CONFORMS-TO \"public.data\"", false, "ANY over no types"),
    SemanticsCase(
      "types UTI-CONFORMS-TO \"public.data\"", .error(.typeMismatch), "a collection needs ANY, ALL or NONE"),
    SemanticsCase("5 UTI-CONFORMS-TO \"public.data\"", .error(.typeMismatch), "a number is not a UTI"),
    SemanticsCase(
      "\"public.jpeg\" UTI-CONFORMS-TO 5", .error(.typeMismatch), "the right side must be a UTI string"),
    SemanticsCase(
      "SUBQUERY(types, $uti, $uti UTI-CONFORMS-TO \"public.url\" AND NOT $uti UTI-CONFORMS-TO \"public.file-url\").@count == 0",
      true, "corpus rule 32's web-URL idiom: the only URL here is a file URL"),
  ]

  /// Every string operator under every option, so a missing option in one operator shows up.
  static let optionMatrix: [SemanticsCase] = [
    SemanticsCase("\"Zürich\" IN[d] {\"Zurich\"}", true, "IN[d] on a list"),
    SemanticsCase("\"ur\" IN[d] address.city", true, "IN[d] substring"),
    SemanticsCase("\"ZU\" IN[c] address.city", false, "IN[c] keeps diacritics"),
    SemanticsCase("address.city ENDSWITH[d] \"rich\"", true, "ENDSWITH[d]"),
    SemanticsCase("address.city ENDSWITH[n] \"rich\"", true, "ENDSWITH[n]"),
    SemanticsCase("address.city BEGINSWITH[n] \"Zü\"", true, "BEGINSWITH[n]"),
    SemanticsCase("address.city BEGINSWITH[cn] \"zü\"", false, "[n] supersedes [c] for BEGINSWITH"),
    SemanticsCase("address.city CONTAINS[n] \"ri\"", true, "CONTAINS[n]"),
    SemanticsCase("address.city CONTAINS[cd] \"URI\"", true, "CONTAINS[cd]"),
    SemanticsCase("\"Zürich\" LIKE[n] \"Z*\"", true, "LIKE[n]"),
    SemanticsCase("\"ZÜRICH\" LIKE[cd] \"zur?ch\"", true, "LIKE[cd]"),
    SemanticsCase("\"ZÜRICH\" MATCHES[cd] \"zur.ch\"", true, "MATCHES[cd]"),
    SemanticsCase("\"ZÜRICH\" MATCHES[c] \"zur.ch\"", false, "MATCHES[c] keeps diacritics"),
    SemanticsCase("\"Zürich\" MATCHES[n] \"Z.rich\"", true, "MATCHES[n]"),
    SemanticsCase("\"Ünïcödé\" ==[cd] \"unicode\"", true, "==[cd] on several accented letters"),
    SemanticsCase("\"b\" >[c] \"A\"", true, ">[c] orders folded strings"),
    SemanticsCase("\"é\" <[d] \"f\"", true, "<[d] orders without accents"),
    SemanticsCase("ANY tags LIKE[c] \"B\"", true, "ANY with LIKE[c]"),
    SemanticsCase(
      "\"public.JPEG\" UTI-CONFORMS-TO[c] \"public.image\"", true, "options do not change UTI conformance"),
    SemanticsCase("{{1}, {1, 2}}.@distinctUnionOfSets == {1, 2}", true, "@distinctUnionOfSets"),
    SemanticsCase("{{1}, {1, 2}}.@unionOfArrays == {1, 1, 2}", true, "@unionOfArrays keeps repeats"),
  ]

  static let all: [SemanticsCase] =
    numbers + strings + nulls + between + membership + stringOperators + quantifiers + compounds + keyPaths
    + collectionOperators + subqueries + functions + arithmetic + uniformTypes + optionMatrix
    + selectorFunctions
    + multiLineMatches + valueKeys + reservedWordKeys
}
