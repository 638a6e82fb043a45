import ActivationRules
import Foundation
import PredicateSyntax
import Testing

/// Lint checks on predicate rules.
@Suite struct RuleLinterPredicateTests {
  static func lint(_ text: String) -> [LintFinding] {
    RuleLinter().lint(RuleFile(path: "rule.predicate", predicate: text))
  }

  static func subquery(_ inner: String, _ count: String = "> 0") -> String {
    "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(inner)).@count \(count)).@count > 0"
  }

  static func any(_ type: String) -> String { "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(type)\"" }

  @Test(
    "AND inside OR without parentheses is a note at the AND; with parentheses either way it is not",
    arguments: [
      ("a == 1 OR b == 2 AND c == 3", [(1, 11)]),
      ("a == 1 || b == 2 && c == 3", [(1, 11)]),
      ("a == 1 AND b == 2 OR c == 3", [(1, 1)]),
      ("NOT a == 1 AND b == 2 OR c == 3", [(1, 1)]),
      ("a == 1 OR b == 2 AND c == 3 OR d == 4 AND e == 5", [(1, 11), (1, 32)]),
      ("(a == 1) AND b == 2 OR c == 3", [(1, 1)]),
      ("a == 1 OR\n  (b == 2) AND (c == 3)", [(2, 3)]),
      ("a == 1 OR (b == 2 AND c == 3)", []),
      ("(a == 1 OR b == 2) AND c == 3", []),
      ("a == 1 AND b == 2 AND c == 3", []),
      ("a == 1 OR b == 2 OR NOT (c == 3 AND d == 4)", []),
      ("SUBQUERY(x, $a, $a.t == 1 OR $a.u == 2 AND $a.v == 3).@count > 0", [(1, 30)]),
    ])
  func mixedAndOrWithoutParentheses(text: String, expected: [(Int, Int)]) {
    let findings = Self.lint(text).filter { $0.id == "RK014" }
    #expect(findings.map { [$0.line, $0.column] } == expected.map { [$0.0, $0.1] }, "\(text)")
    #expect(findings.allSatisfy { $0.severity == .note && $0.check == "mixed-and-or" })
  }

  static let image = any("public.image")
  static let countBounds: [(String, [(Int, Int)])] = [
    (subquery(image, "<= 2"), [(1, 30)]),
    (subquery(image, "< 3"), [(1, 30)]),
    (
      "SUBQUERY(extensionItems, $e, 2 >= SUBQUERY($e.attachments, $a, " + any("x") + ").@count).@count > 0",
      [(1, 30)]
    ),
    ("SUBQUERY(extensionItems, $e, " + any("x") + ").@count <= 1", [(1, 1)]),
    (subquery(image, ">= 1"), []),
    (subquery(image, "== 0"), []),
    (subquery(image, "<= 0"), []),
    (subquery(image, "< 1"), []),
    (subquery(image, "BETWEEN {1, 2}"), []),
    (subquery(image, "BETWEEN {0, 2}"), []),
    (
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, " + any("x") + ").@count >= 1 AND "
        + "SUBQUERY($e.attachments, $a, " + any("x") + ").@count <= 2).@count > 0", []
    ),
    (
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, " + any("x") + ").@count >= 1 AND "
        + "SUBQUERY($e.attachments, $a, " + any("y") + ").@count <= 2).@count > 0", [(1, 129)]
    ),
    (
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, " + any("x") + ").@count > 0 OR "
        + "SUBQUERY($e.attachments, $a, " + any("x") + ").@count <= 2).@count > 0", [(1, 127)]
    ),
    ("$e.attachments.@count <= 2", []),
  ]

  @Test(
    "an upper bound alone on a SUBQUERY's count is a note at the comparison; with a lower bound it is not",
    arguments: countBounds)
  func countAdmittingZero(text: String, expected: [(Int, Int)]) {
    let findings = Self.lint(text).filter { $0.id == "RK015" }
    #expect(findings.map { [$0.line, $0.column] } == expected.map { [$0.0, $0.1] }, "\(text)")
    #expect(findings.allSatisfy { $0.severity == .note && $0.check == "count-admits-zero" })
  }

  @Test func countAdmittingZeroSaysWhatGetsThrough() throws {
    let finding = try #require(
      Self.lint(Self.subquery(Self.any("public.image"), "<= 2")).first { $0.id == "RK015" })
    #expect(
      finding.message
        == "SUBQUERY(…).@count <= 2 also holds at 0, so it accepts an item with no matching attachment (one "
        + "holding only other types, or nothing)")
    #expect(
      finding.fix == "if at least one is meant, write BETWEEN {1, 2} (or add AND SUBQUERY(…).@count >= 1)")
  }

  @Test func truePredicateIsAnError() throws {
    let findings = Self.lint("TRUEPREDICATE")
    #expect(findings.map(\.id) == ["RK001"])
    #expect(findings.first?.severity == .error)
  }

  @Test func truePredicateInsideARuleIsFound() throws {
    let findings = Self.lint("x == 1 OR\n  TRUEPREDICATE")
    let finding = try #require(findings.first { $0.id == "RK001" })
    #expect((finding.line, finding.column) == (2, 3))
  }

  @Test func redundantNarrowerType() throws {
    let findings = Self.lint(Self.subquery(Self.any("public.image") + " || " + Self.any("public.data")))
    #expect(findings.map(\.id) == ["RK005"])
    #expect(
      findings.first?.message
        == "public.image conforms to public.data, which the same condition already accepts")
    #expect(findings.first?.column == 59)
  }

  /// irccloud's share extension (ShareExtension/Info.plist at 60fa08dc, Apache-2.0) counts the URL types of
  /// an attachment that are not file URLs. `inject` adds the file URL's twin to the exclusion; no one type
  /// is both a URL and that twin as iOS matches, so the exact check called the twin redundant ("remove
  /// it"), and `inject` then added it back: the twin of a tested type is never reported as removable.
  @Test func anInjectedTwinIsNotCalledRedundant() throws {
    let rule =
      "SUBQUERY(extensionItems, $extensionItem, SUBQUERY($extensionItem.attachments, $attachment, "
      + "SUBQUERY($attachment.registeredTypeIdentifiers, $uti, $uti UTI-CONFORMS-TO \"public.url\" AND NOT "
      + "$uti UTI-CONFORMS-TO \"public.file-url\").@count == 1).@count == 1).@count == 1"
    let injected = try TwinInjector.inject(text: rule)
    #expect(injected.addedTwins.contains("com.microsoft.intune.mam.public.file-url"))
    #expect(!Self.lint(injected.text).contains { $0.id == "RK005" }, "\(Self.lint(injected.text))")
    // A twin whose base the rule does not test is still reported when it changes nothing.
    let twin = Self.any("com.microsoft.intune.mam.public.png")
    let stray = Self.subquery(twin + " || " + twin)
    #expect(Self.lint(stray).contains { $0.id == "RK005" })
  }

  /// A 130-byte rule whose smallest accepted context has 5 000 items of 5 000 attachments: lint built that
  /// context to learn only that one exists (a crash hunt's case: 1.7 GB, over 40 s). The answers alone are
  /// asked now.
  @Test func aRuleWhoseSmallestContextIsHugeIsLintedFromTheAnswers() throws {
    let rule =
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
      + #"UTI-CONFORMS-TO "public.url").@count == 5000).@count == 5000"#
    let answers = try ExactRuleAnalysis.activationAnswers(try ActivationRule.parsePredicate(rule))
    #expect(answers.accepts && answers.rejects)
    let never = try ExactRuleAnalysis.activationAnswers(
      try ActivationRule.parsePredicate(
        Self.subquery(Self.any("public.url"), "== 5000") + " AND FALSEPREDICATE"))
    #expect(!never.accepts && never.rejects)
    #expect(!Self.lint(rule).contains { $0.id == "RK002" || $0.id == "RK003" })
  }

  @Test func unknownTypeButNotItsTwinOrDynamicTypes() throws {
    let findings = Self.lint(
      Self.subquery(
        [
          Self.any("public.jpg"), Self.any("com.microsoft.intune.mam.public.jpeg"),
          Self.any("dyn.ah62d4rv4ge80k5pw"),
        ]
        .joined(separator: " || ")))
    #expect(findings.map(\.id) == ["RK004"])
    #expect(findings.first?.message.hasPrefix("public.jpg ") == true)
  }

  /// A near miss of a declared type names it; a type far from every declared one keeps the plain advice.
  @Test func unknownTypeFixNamesTheTypeItMisspells() throws {
    let misspelled = Self.lint(Self.subquery(Self.any("public.camera-raw-imag")))
    #expect(
      misspelled.map(\.fix) == [
        "did you mean public.camera-raw-image? Or declare public.camera-raw-imag under UTImportedTypeDeclarations"
      ])
    let thirdParty = Self.lint(Self.subquery(Self.any("org.appextension.find-login-action")))
    #expect(thirdParty.map(\.fix) == ["check the spelling, or declare it under UTImportedTypeDeclarations"])
  }

  @Test func unknownThirdPartyTypeIsReportedOnceOnTheBaseNotOnItsTwin() throws {
    // What `configure` writes for 1Password's type: the twin sits beside its base.
    let findings = Self.lint(
      Self.subquery(
        [
          Self.any("org.appextension.find-login-action"),
          Self.any("com.microsoft.intune.mam.org.appextension.find-login-action"),
        ]
        .joined(separator: " || ")))
    #expect(findings.map(\.id) == ["RK004"])
    #expect(findings.first?.message.hasPrefix("org.appextension.find-login-action ") == true)
  }

  @Test func aTwinWithoutItsBaseStillNamesTheUnknownType() throws {
    let findings = Self.lint(
      Self.subquery(Self.any("com.microsoft.intune.mam.org.appextension.find-login-action")))
    #expect(findings.map(\.id) == ["RK004"])
  }

  @Test func neverActivates() throws {
    // More than one attachment and exactly zero at once.
    let findings = Self.lint(Self.subquery(Self.any("public.url"), "> 1 AND $e.attachments.@count == 0"))
    #expect(findings.map(\.id) == ["RK002"])
  }

  /// `$a.registeredTypeIdentifiers UTI-CONFORMS-TO …` without ANY compares the list as a whole and never
  /// holds: the never-activates fix says so and shows the comparison with ANY, not the generic advice.
  @Test(arguments: [
    (
      #"$a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url""#,
      #"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url""#
    ),
    (
      #"$a.registeredTypeIdentifiers IN {"public.url",  "public.plain-text"}"#,
      #"ANY $a.registeredTypeIdentifiers IN {"public.url", "public.plain-text"}"#
    ),
  ])
  func missingAnyGetsASpecificFix(inner: String, written: String) throws {
    let findings = Self.lint(Self.subquery(inner))
    // IN on the list is false (RK002); a UTI operator on it stops the evaluation (RK012, cannot evaluate).
    let verdict = try #require(
      findings.first { $0.id == "RK002" || $0.message.contains("cannot evaluate") },
      "\(findings.map(\.message))")
    #expect(
      verdict.fix
        == "the left side is a list of types (registeredTypeIdentifiers), which a comparison without ANY never "
        + "matches: write `\(written)`")
  }

  /// With ANY, or with CONTAINS (which asks whether the list holds a type), the generic fix stays.
  @Test func neverActivatesWithAnyKeepsTheGenericFix() throws {
    for inner in [Self.any("public.url"), #"$a.registeredTypeIdentifiers CONTAINS "public.url""#] {
      let findings = Self.lint(Self.subquery(inner, "> 1 AND $e.attachments.@count == 0"))
      let never = try #require(findings.first { $0.id == "RK002" })
      #expect(never.fix == "check the counts (@count == … vs > …) and the types")
    }
  }

  /// A rule outside the exact fragment that accepts only a subtype of the type it tests (a file URL, by
  /// conformance to public.url and not equal to it): the enumeration once held no subtype and called it
  /// "never activates", an error.
  @Test func boundedCheckTriesASubtypeOfEachTestedType() throws {
    let findings = Self.lint(
      Self.subquery(
        #"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" AND "#
          + #"NONE $a.registeredTypeIdentifiers ==[c] "public.url""#))
    #expect(!findings.contains { $0.id == "RK002" }, "\(findings.map(\.message))")
    #expect(findings.contains { $0.id == "RK012" })
  }

  @Test func alwaysActivates() throws {
    let findings = Self.lint("SUBQUERY(extensionItems, $e, $e.attachments.@count >= 0).@count >= 1")
    #expect(findings.map(\.id) == ["RK003"])
  }

  @Test func syntaxErrorIsPositioned() throws {
    let findings = Self.lint("SUBQUERY(extensionItems, $e,\n  $e.attachments.@count > ).@count == 1")
    let finding = try #require(findings.first)
    #expect(finding.id == "RK000")
    #expect(finding.line == 2)
  }

  @Test func missingTwinsWhenTheAppUsesIntune() throws {
    let plist = RuleLinterDictionaryTests.infoPlist(
      rule: "<string>\(TwinInjectorTextTests.ruleB)</string>", intune: true)
    let file = try RuleFile(path: "Info.plist", data: plist)
    // Every type of rule B conforms to public.data, so three redundancy notes come with the warning.
    let findings = RuleLinter().lint(file)
    #expect(findings.map(\.id) == ["RK010", "RK005", "RK005", "RK005"])
    #expect(findings.first?.fix == "rulekit inject --in-place")
    let injected = RuleLinterDictionaryTests.infoPlist(
      rule: "<string>\(TwinInjectorTextTests.ruleC)</string>", intune: true)
    #expect(
      RuleLinter().lint(try RuleFile(path: "Info.plist", data: injected)).map(\.id) == [
        "RK005", "RK005", "RK005",
      ])
  }

  @Test(arguments: Fixtures.predicateFiles)
  func corpusFindingsArePositionedInsideTheFile(name: String) throws {
    let file = try RuleFile(path: name, data: Fixtures.data(name))
    for finding in RuleLinter().lint(file) {
      #expect(finding.line >= 1 && finding.line <= file.contents.split(separator: "\n").count + 1)
    }
  }
}

@Suite struct RuleExplanationTests {
  @Test func treeShowsItemsAttachmentsAndTypes() throws {
    let text = RuleLinterPredicateTests.subquery(
      RuleLinterPredicateTests.any("public.url") + " || " + RuleLinterPredicateTests.any("public.image"))
    let tree = try ActivationRule.parsePredicate(text)
    let explanation = try RuleExplanation(
      tree: tree, text: text, file: RuleFile(path: "rule.predicate", predicate: text),
      context: HostPreset.firefoxURLText.context)
    let golden = Fixtures.goldens.appendingPathComponent("explain-firefox-url-text.txt")
    if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
      try Data((explanation.text + "\n").utf8).write(to: golden)
    }
    #expect(explanation.text + "\n" == String(decoding: try Data(contentsOf: golden), as: UTF8.self))
    let json = try JSONSerialization.jsonObject(with: explanation.jsonData()) as? [String: Any]
    #expect(json?["accepted"] as? Bool == true)
  }
}

@Suite struct RuleLinterDeclaredTypeTests {
  @Test func typesTheInfoPlistDeclaresAreKnown() throws {
    let rule =
      "<string>\(RuleLinterPredicateTests.subquery(RuleLinterPredicateTests.any("com.example.note")))</string>"
    let undeclared = try RuleFile(path: "Info.plist", data: RuleLinterDictionaryTests.infoPlist(rule: rule))
    #expect(RuleLinter().lint(undeclared).map(\.id) == ["RK004"])
    let declaration = """
      <key>UTExportedTypeDeclarations</key><array><dict>
      <key>UTTypeIdentifier</key><string>com.example.note</string>
      <key>UTTypeConformsTo</key><array><string>public.data</string></array>
      </dict></array>
      """
    let text = String(decoding: RuleLinterDictionaryTests.infoPlist(rule: rule), as: UTF8.self)
      .replacingOccurrences(
        of: "<dict>\n\n<key>NSExtension</key>", with: "<dict>\n\(declaration)\n<key>NSExtension</key>")
    let declared = try RuleFile(path: "Info.plist", data: Data(text.utf8))
    #expect(declared.facts.typeDeclarations != nil)
    #expect(RuleLinter().lint(declared).isEmpty)
  }
}

/// Rules the enumeration cannot judge: a trial on real rules found `lint` calling them "never activates" (an
/// error) while `eval` showed them activating (an item with content text) or could not evaluate them.
@Suite struct RuleLinterUnjudgedTests {
  @Test(
    "a rule reading what the enumerated contexts never set gets no never/always verdict",
    arguments: [
      "SUBQUERY(extensionItems, $e, $e.attributedContentText != nil AND $e.attachments.@count == 0).@count == 1",
      "SUBQUERY(extensionItems, $e, $e.attributedTitle BEGINSWITH 'x').@count > 0",
      "ANY extensionItems.userInfo.kind == 'text'",
    ])
  func unvariedKeys(_ text: String) throws {
    let findings = RuleLinterPredicateTests.lint(text)
    #expect(!findings.contains { $0.id == "RK002" || $0.id == "RK003" }, "\(findings.map(\.message))")
    let note = try #require(findings.first { $0.id == "RK012" })
    #expect(note.message.hasPrefix("never/always-activates not checked: the rule reads "))
    #expect(note.severity == .warning)
  }

  @Test("a rule RuleKit cannot evaluate gets no never/always verdict, and the evaluation error")
  func evaluationErrors() throws {
    let text =
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
      + "UTI-CONFORMS-TO \"public.image\").@count > 0).@count > 0 AND FUNCTION(extensionItems, 'count') >= 1"
    let findings = RuleLinterPredicateTests.lint(text)
    #expect(!findings.contains { $0.id == "RK002" || $0.id == "RK003" })
    #expect(
      findings.contains {
        $0.id == "RK012" && $0.message.contains("RuleKit cannot evaluate the rule on")
          && $0.message.contains("FUNCTION selector 'count'")
      }, "\(findings.map(\.message))")
  }

  @Test("a rule of counts and types that never activates is still found (exactly)")
  func exactVerdictStays() {
    let never = RuleLinterPredicateTests.subquery(
      RuleLinterPredicateTests.any("public.image"), "> 0 AND 1 == 2")
    #expect(RuleLinterPredicateTests.lint(never).contains { $0.id == "RK002" })
  }
}
