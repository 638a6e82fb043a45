import PredicateEvaluation
import PredicateSyntax
import Testing
import UniformTypes

/// Shared compiled predicates, a shared type registry and the shared regular-expression cache used from many
/// tasks at once must answer exactly as they do on one thread.
///
/// These tests assert only answers; their value is running them under ThreadSanitizer
/// (`scripts/sanitizers`, or `swift test --sanitize=thread --filter Concurrency`), which reports any data
/// race the concurrent calls provoke.
@Suite("Concurrency")
struct ConcurrencyTests {
  static let tasks = 8
  static let rounds = 250

  /// An app declaration with tags, so dynamic identifiers and tag look-ups reach the registry's lazily built
  /// tag index, which every test builds from a fresh registry and therefore from several tasks at once.
  static func freshRegistry() -> TypeRegistry {
    TypeRegistry(
      declarations: AppTypeDeclarations(exported: [
        TypeDeclaration(
          identifier: "com.example.rulekit-document", conformsTo: ["public.data", "public.content"],
          tags: [.filenameExtension: ["rkdoc"], .mimeType: ["application/x-rulekit"]]),
        TypeDeclaration(
          identifier: "com.example.rulekit-photo", conformsTo: ["public.jpeg"],
          tags: [.filenameExtension: ["rkphoto"]]),
      ]))
  }

  static let dynamicDocument = DynamicTypeIdentifier(
    tag: "rkdoc", tagClass: .filenameExtension, conformingTo: nil
  ).identifier

  /// Predicates that reach every cached or shared piece of evaluation: UTI tests (pre-resolved and not),
  /// `MATCHES` (the process-wide pattern cache), `LIKE`, folded strings, SUBQUERY slots and memos.
  static let predicates = [
    #"ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image""#,
    #"SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.content").@count >= 1).@count == 1"#,
    #"ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.rulekit-document""#,
    #"ANY types UTI-CONFORMS-TO "public.data" AND NOT (ANY types UTI-EQUALS "PUBLIC.URL")"#,
    #"ANY types UTI-CONFORMS-TO primary"#,
    #"name MATCHES "[a-z]+ concurrency [0-9]+" OR name MATCHES[c] "ANNA.*""#,
    #"name LIKE[cd] "ann?*" AND name BEGINSWITH[c] "AN""#,
    #"name ==[cd] "ÄNNA" OR name CONTAINS "nn""#,
    "SUBQUERY(scores, $s, $s > 4).@count == 2 AND scores.@sum > 10",
    "ALL scores > 0 AND NONE scores > 100 AND scores[SIZE] == 4",
    "missing.key == nil AND TERNARY(name == 'anna', 1, 2) == 1",
  ]

  static let objects: [PredicateValue] = [
    [
      "name": "anna", "scores": [3, 9, 4, 12], "types": ["public.jpeg", "public.url"],
      "primary": "public.image",
      "extensionItems": [["attachments": [["registeredTypeIdentifiers": ["public.jpeg"]]]]],
    ],
    [
      "name": "Änna", "scores": [1, 2, 3, 4], "types": [.string(dynamicDocument)],
      "primary": "com.example.rulekit-document",
      "extensionItems": [
        ["attachments": [["registeredTypeIdentifiers": [.string(dynamicDocument)]]]],
        ["attachments": [["registeredTypeIdentifiers": ["com.example.rulekit-photo"]]]],
      ],
    ],
    ["name": "bob concurrency 42", "scores": "not a list", "types": 7],
  ]

  static let variables: [String: PredicateValue] = [
    "attachment": ["registeredTypeIdentifiers": ["com.example.rulekit-photo", "public.plain-text"]]
  ]

  /// One pass over every predicate and object: the answers, errors included, as comparable text.
  static func answers(_ compiled: [CompiledPredicate]) -> [String] {
    var answers: [String] = []
    for predicate in compiled {
      for object in objects {
        do {
          answers.append(String(try predicate.evaluate(on: object, variables: variables)))
        } catch {
          answers.append("error: \(error)")
        }
      }
    }
    return answers
  }

  @Test func sharedCompiledPredicatesAgreeWithOneThread() async throws {
    let trees = try Self.predicates.map { try PredicateParser.parse($0) }
    // The single-threaded answers come from a registry and compilation of their own, so nothing the
    // concurrent run warms up can leak into the reference.
    let expected = Self.answers(trees.map { CompiledPredicate($0, registry: Self.freshRegistry()) })
    #expect(expected.contains("true") && expected.contains("false"))
    #expect(expected.contains { $0.hasPrefix("error:") })

    let registry = Self.freshRegistry()
    let shared = trees.map { CompiledPredicate($0, registry: registry) }
    let results = await withTaskGroup(of: [[String]].self) { group in
      for _ in 0..<Self.tasks {
        group.addTask {
          (0..<Self.rounds).map { _ in Self.answers(shared) }
        }
      }
      var all: [[String]] = []
      for await rounds in group { all += rounds }
      return all
    }
    #expect(results.count == Self.tasks * Self.rounds)
    #expect(results.allSatisfy { $0 == expected })
  }

  @Test func treeWalkerOnSharedRegistryAgreesWithOneThread() async throws {
    let trees = try Self.predicates.map { try PredicateParser.parse($0) }
    let reference = Self.freshRegistry()
    let expected = trees.flatMap { tree in
      Self.objects.map { object in
        (try? PredicateEvaluator.evaluate(tree, on: object, variables: Self.variables, registry: reference))
          .map(String.init) ?? "error"
      }
    }
    let registry = Self.freshRegistry()
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<Self.tasks {
        group.addTask {
          var mismatches = 0
          for _ in 0..<(Self.rounds / 5) {
            var index = 0
            for tree in trees {
              for object in Self.objects {
                let answer =
                  (try? PredicateEvaluator.evaluate(
                    tree, on: object, variables: Self.variables, registry: registry)).map(String.init)
                  ?? "error"
                if answer != expected[index] { mismatches += 1 }
                index += 1
              }
            }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  /// Conformance, resolution and tag queries on one fresh registry from many tasks: the tag index is built
  /// lazily by whichever task asks first.
  @Test func registryQueriesAgreeWithOneThread() async {
    let identifiers = [
      "public.jpeg", "PUBLIC.JPEG", "public.url", "com.example.rulekit-document", "com.example.rulekit-photo",
      Self.dynamicDocument, "dyn.ah62d4rv4ge80s6d2", "org.example.unknown", "public.content",
    ]
    let supertypes = ["public.image", "public.data", "public.content", "com.example.rulekit-document"]
    func snapshot(_ registry: TypeRegistry) -> [String] {
      var facts: [String] = []
      for identifier in identifiers {
        for supertype in supertypes {
          facts.append("\(identifier) < \(supertype): \(registry.conforms(identifier, to: supertype))")
          let resolved = registry.conforms(registry.resolve(identifier), to: registry.resolve(supertype))
          facts.append("resolved \(identifier) < \(supertype): \(resolved)")
        }
        facts.append("ancestors \(identifier): \(registry.ancestors(of: identifier))")
      }
      for tag in ["rkdoc", "RKPHOTO", "jpg", "txt", "nothing"] {
        facts.append("extension \(tag): \(registry.types(forFilenameExtension: tag))")
      }
      facts.append("mime: \(registry.types(forMIMEType: "application/x-rulekit"))")
      return facts
    }
    let expected = snapshot(Self.freshRegistry())
    #expect(expected.contains("\(Self.dynamicDocument) < com.example.rulekit-document: true"))

    let registry = Self.freshRegistry()
    let results = await withTaskGroup(of: [[String]].self) { group in
      for _ in 0..<Self.tasks {
        group.addTask { (0..<Self.rounds / 5).map { _ in snapshot(registry) } }
      }
      var all: [[String]] = []
      for await rounds in group { all += rounds }
      return all
    }
    #expect(results.count == Self.tasks * (Self.rounds / 5))
    #expect(results.allSatisfy { $0 == expected })
  }

  /// Parsing from many tasks, including predicates nested deeply enough to move to the large-stack thread.
  @Test func concurrentParsesAgreeWithOneThread() async throws {
    let deep = String(repeating: "(", count: 40) + "a == 1" + String(repeating: ")", count: 40)
    let texts = Self.predicates + [deep, "a == ", "NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT a == -(-(-(-1)))"]
    func printed() -> [String] {
      texts.map { text in
        do {
          return PredicatePrinter.canonical(try PredicateParser.parse(text))
        } catch {
          return "error: \(error)"
        }
      }
    }
    let expected = printed()
    let results = await withTaskGroup(of: [[String]].self) { group in
      for _ in 0..<Self.tasks {
        group.addTask { (0..<Self.rounds / 5).map { _ in printed() } }
      }
      var all: [[String]] = []
      for await rounds in group { all += rounds }
      return all
    }
    #expect(results.count == Self.tasks * (Self.rounds / 5))
    #expect(results.allSatisfy { $0 == expected })
  }
}
