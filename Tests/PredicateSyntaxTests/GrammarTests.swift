import Foundation
import Testing

@testable import PredicateSyntax

@Suite struct GrammarTests {
  static let grammarURL = Fixtures.packageRoot.appendingPathComponent("Grammar/Predicate.ebnf")

  /// One predicate per production of `Grammar/Predicate.ebnf` that exercises it.
  static let examples: [String: String] = [
    "predicate": "TRUEPREDICATE",
    "disjunction": "a == 1 OR b == 2 || c == 3",
    "conjunction": "a == 1 AND b == 2 && c == 3",
    "negation": "NOT a == 1 AND ! b == 2",
    "primaryPredicate": "(FALSEPREDICATE)",
    "comparison": "ANY items.price > 10",
    "quantifier": "NONE children.age < 18",
    "comparisonOperator": "type UTI-CONFORMS-TO 'public.image'",
    "comparisonOptions": "name BEGINSWITH[cd] 'j'",
    "expression": "total == price * 2",
    "assignment": "($x := 3) == 3",
    "setExpression": "a UNION b INTERSECT c MINUS d == {}",
    "setOperator": "a union b == c",
    "additive": "x == 1 + 2 - 3",
    "multiplicative": "x == 4 * 5 / 6",
    "unary": "x == -y",
    "power": "x == 2 ** 10",
    "postfix": "dogs[0].age == 5",
    "keyPathComponent": "$item.#size.@count == 3 AND box.size == 2",
    "index": "dogs[LAST].name == 'Rex' AND dogs[SIZE] == 3",
    "primary": "(age) == SELF.age AND first == last",
    "aggregate": "age BETWEEN {18, 65}",
    "constant": "a == NULL OR b == YES OR c == 'x'",
    "subquery": "SUBQUERY(items, $i, $i.a == 1).@count > 0",
    "cast": "date > CAST(0, 'NSDate')",
    "functionCall": "FUNCTION(name, 'uppercaseString') == 'A'",
    "ternary": "TERNARY(a == 1, 'x', 'y') == 'x'",
    "builtinCall": "sum(1, 2, 3) == 6 AND now() > 0 AND add:to:(1, 2) == 3",
    "Whitespace": "a\t==\n1",
    "Name": "_name9 == 1",
    "Identifier": "registeredTypeIdentifiers == 1",
    "EscapedIdentifier": "#first == 1",
    "Variable": "$extensionItem == 1",
    "CollectionOperator": "@count > 0",
    "FunctionName": "lowercase('A') == 'a'",
    "SelectorName": "raise:toPower:(2, 3) == 8 AND uppercase:('a') == 'A'",
    "ReservedWord": "#SIZE == 1",
    "OptionLetters": "a ==[nl] 'b'",
    "FormatSpecifier": "%K == %@",
    "Number": "a == 0x1F OR a == 2.5e-3",
    "DecimalNumber": "a == 27.5E+2",
    "HexNumber": "a == 0xFF",
    "OctalNumber": "a == 0o17",
    "BinaryNumber": "a == 0b1010",
    "Digit": "a == 7",
    "HexDigit": "a == 0xaF",
    "String": "a == \"double\" OR a == 'single'",
    "Escape": #"a == "\"\'\\\n\t""#,
    "OctalEscape": #"a == "\101""#,
    "HexEscape": #"a == "\x41""#,
    "UnicodeEscape": #"a == "\u00e9\uD83D\uDE00""#,
  ]

  @Test func everyProductionHasAnExample() throws {
    let grammar = try EBNFGrammar.load(Self.grammarURL)
    #expect(Set(grammar.names) == Set(Self.examples.keys))
  }

  @Test(arguments: examples.keys.sorted())
  func exampleParses(production: String) throws {
    let text = try #require(Self.examples[production])
    let arguments: [FormatArgument] = production == "FormatSpecifier" ? [.keyPath("a"), .integer(1)] : []
    let tree = try PredicateParser.parse(text, arguments: arguments)
    #expect(try PredicateParser.parse(PredicatePrinter.canonical(tree)) == tree)
  }

  /// The lexer's reserved words and the grammar's ReservedWord production list the same words.
  @Test func reservedWordsMatchTheLexer() throws {
    let grammar = try EBNFGrammar.load(Self.grammarURL)
    guard case .choice(let alternatives) = try #require(grammar.productions["ReservedWord"]) else {
      Issue.record("ReservedWord is not a choice")
      return
    }
    let words = Set(alternatives.compactMap { if case .literal(let word) = $0 { word } else { nil } })
    let lexerWords = Set(Keyword.allCases.map(\.rawValue)).subtracting(["UTI-CONFORMS-TO", "UTI-EQUALS"])
    #expect(words == lexerWords)
  }

  /// Values for the format specifiers in a generated sentence, in order.
  private static func arguments(for sentence: String) -> [FormatArgument] {
    var arguments: [FormatArgument] = []
    var scalars = Substring(sentence).unicodeScalars[...]
    var inString: Unicode.Scalar?
    while let scalar = scalars.popFirst() {
      if let delimiter = inString {
        if scalar == "\\" {
          _ = scalars.popFirst()
        } else if scalar == delimiter {
          inString = nil
        }
        continue
      }
      if scalar == "\"" || scalar == "'" {
        inString = scalar
        continue
      }
      guard scalar == "%" else { continue }
      while let next = scalars.first, "hlqLzjt".unicodeScalars.contains(next) { scalars.removeFirst() }
      switch scalars.popFirst() {
      case "@": arguments.append(.string("value"))
      case "K": arguments.append(.keyPath("key.path"))
      case "c", "C": arguments.append(.integer(65))
      case "f", "F", "e", "E", "g", "G", "a", "A": arguments.append(.double(1.5))
      case "s", "S": arguments.append(.string("text"))
      default: arguments.append(.integer(7))
      }
    }
    return arguments
  }

  /// Four seeds of 2 500 sentences: 10 000 sentences per run, spread over the cores.
  @Test(arguments: [20_251_122, 1, 2, 3] as [UInt64])
  func generatedSentencesParseAndRoundTrip(seed: UInt64) throws {
    let grammar = try EBNFGrammar.load(Self.grammarURL)
    var generator = SentenceGenerator(grammar: grammar, seed: seed)
    var failures = 0
    for number in 0..<2_500 {
      let sentence = generator.sentence("predicate")
      do {
        let tree = try PredicateParser.parse(sentence, arguments: Self.arguments(for: sentence))
        let printed = PredicatePrinter.canonical(tree)
        let reparsed = try PredicateParser.parse(printed)
        #expect(reparsed == tree, "sentence \(number): \(sentence)")
        #expect(PredicatePrinter.canonical(reparsed) == printed, "sentence \(number) is not idempotent")
        let pretty = PredicatePrinter.pretty(tree)
        #expect(try PredicateParser.parse(pretty) == tree, "sentence \(number), pretty: \(pretty)")
      } catch {
        failures += 1
        Issue.record("sentence \(number) does not parse: \(error)\n\(sentence)")
        if failures > 5 { return }
      }
    }
  }
}
