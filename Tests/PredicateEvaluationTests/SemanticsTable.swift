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

  static let all: [SemanticsCase] =
    numbers + strings + nulls + between + membership + stringOperators + quantifiers + compounds + keyPaths
    + collectionOperators + subqueries + functions + arithmetic + uniformTypes + optionMatrix
    + selectorFunctions
    + multiLineMatches + valueKeys + reservedWordKeys
}
