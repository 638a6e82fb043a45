import Foundation
import PredicateEvaluation
import PredicateSyntax
import Testing

/// One corpus rule in one host situation, with the answer worked out by hand from Apple's type hierarchy:
/// file-url → url → data; pdf → data + composite-content → content; jpeg → image → data + content;
/// plain-text → text → data + content.
struct CorpusCase: Sendable, CustomTestStringConvertible {
  var file: String
  var situation: HostSituation
  var expected: Bool
  var why: String

  var testDescription: String { "\(file) × \(situation)" }
}

/// Builds the six cases of one rule, in `HostSituation.allCases` order.
private func rule(_ file: String, _ answers: [(Bool, String)]) -> [CorpusCase] {
  zip(HostSituation.allCases, answers).map { situation, answer in
    CorpusCase(file: file, situation: situation, expected: answer.0, why: answer.1)
  }
}

enum CorpusExpectations {
  // Order of every list: PDF from Files, Safari page, three Photos images, Firefox URL + text,
  // Finder file-url only, no attachments.
  static let all: [CorpusCase] =
    rule(
      "01.predicate",  // Telegram: every attachment one of nine broad types; some item qualifies
      [
        (true, "the PDF conforms to public.data and its file URL to public.file-url: 1 == 1"),
        (true, "public.url is listed"),
        (true, "each JPEG is a public.image: 3 == 3"),
        (true, "url and plain-text (public.text) both listed: 2 == 2"),
        (true, "public.file-url is listed"),
        (true, "no attachments: 0 == 0, so the item counts (§B.5's literal semantics)"),
      ])
    + rule(
      "03.predicate",  // Gifski: every attachment a movie; exactly one item
      [
        (false, "a PDF is not one of the three movie types: 0 != 1"),
        (false, "a URL is not a movie"),
        (false, "images are not movies: 0 != 3"),
        (false, "neither URL nor text is a movie"),
        (false, "a file URL is not a movie"),
        (true, "no attachments: 0 == 0 and there is exactly one item"),
      ])
    + rule(
      "05.predicate",  // Signal: at least one data-or-URL attachment; exactly one item
      [
        (true, "the PDF is public.data"),
        (true, "the page is a public.url"),
        (true, "JPEGs are public.data"),
        (true, "both attachments are public.data"),
        (true, "public.file-url conforms to public.url"),
        (false, "no attachments: 0 >= 1 fails, so no item counts"),
      ])
    + rule(
      "07.predicate",  // DuckDuckGo: at most two URL-or-plain-text attachments; exactly one item
      [
        (true, "one attachment's file URL is a public.url: 1 <= 2"),
        (true, "one URL: 1 <= 2"),
        (true, "no URL or text among the photos: 0 <= 2 still holds"),
        (true, "URL and plain text: 2 <= 2"),
        (true, "the file URL is a public.url: 1 <= 2"),
        (true, "no attachments: 0 <= 2"),
      ])
    + rule(
      "09.predicate",  // Bitwarden: every attachment URL, plain text or an app-extension action; one item
      [
        (true, "the PDF attachment also registers public.file-url, a public.url: 1 == 1"),
        (true, "the page URL: 1 == 1"),
        (false, "photos are neither URL nor text: 0 != 3"),
        (true, "URL and plain text: 2 == 2"),
        (true, "the file URL is a public.url"),
        (true, "no attachments: 0 == 0"),
      ])
    + rule(
      "13.predicate",  // exactly one PDF/file-url/url/html attachment; one item
      [
        (true, "one attachment, a PDF: 1 == 1"),
        (true, "one URL: 1 == 1"),
        (false, "photos match none of the four types: 0 != 1"),
        (true, "the URL matches and the plain text does not: 1 == 1"),
        (true, "one file URL: 1 == 1"),
        (false, "no attachments: 0 != 1"),
      ])
    + rule(
      "16.predicate",  // some file-url/image/text/movie/url attachment in some item
      [
        (true, "the PDF's file URL matches"),
        (true, "the URL matches"),
        (true, "the images match"),
        (true, "URL and text match"),
        (true, "the file URL matches"),
        (false, "nothing to match"),
      ])
    + rule(
      "18.predicate",  // AFFiNE: some attachment of thirteen types including public.data
      [
        (true, "com.adobe.pdf is listed"),
        (true, "public.url is listed"),
        (true, "public.jpeg is listed"),
        (true, "public.url and public.plain-text are listed"),
        (true, "public.file-url is listed"),
        (false, "nothing to match"),
      ])
    + rule(
      "21.predicate",  // any image, or any URL, or any PDF, anywhere
      [
        (true, "the PDF clause holds (and the file URL is a URL)"),
        (true, "the URL clause holds"),
        (true, "the image clause holds"),
        (true, "the URL clause holds"),
        (true, "public.file-url conforms to public.url"),
        (false, "no clause finds an attachment"),
      ])
    + rule(
      "29.predicate",  // (all photo/video AND exactly one) OR at most two URL-or-text; one item
      [
        (true, "second clause: one URL-like attachment, 1 <= 2"),
        (true, "second clause: 1 <= 2"),
        (true, "first clause fails (3 attachments) but the second holds: 0 <= 2"),
        (true, "second clause: 2 <= 2"),
        (true, "second clause: 1 <= 2"),
        (true, "second clause: 0 <= 2"),
      ])
    + rule(
      "32.predicate",  // six alternatives: text; web URL; ≤20 images; 1 movie; 1 pass; 1 content
      [
        (true, "last alternative: the PDF is public.content and there is one attachment"),
        (true, "second alternative: a URL that is not a file URL"),
        (true, "third alternative: all three are images, 3 <= 20"),
        (true, "first alternative: a plain-text attachment"),
        (false, "a file URL is excluded by the web-URL clause and is not public.content"),
        (true, "third alternative: 0 == 0 images and 0 <= 20, so the one item counts"),
      ])
    + rule(
      "33.predicate",  // like 01 without pkpass
      [
        (true, "public.data and public.file-url are listed"),
        (true, "public.url is listed"),
        (true, "public.image is listed: 3 == 3"),
        (true, "public.url and public.text are listed: 2 == 2"),
        (true, "public.file-url is listed"),
        (true, "no attachments: 0 == 0"),
      ])
    + rule(
      "34.predicate",  // TRUEPREDICATE: the extension shows for everything
      [
        (true, "TRUEPREDICATE"), (true, "TRUEPREDICATE"), (true, "TRUEPREDICATE"),
        (true, "TRUEPREDICATE"), (true, "TRUEPREDICATE"), (true, "TRUEPREDICATE"),
      ])
    + rule(
      "38.predicate",  // exactly one URL attachment and no file-URL attachment; one item
      [
        (false, "the PDF attachment's file URL is a URL but also a file URL: 1 != 0"),
        (true, "one web URL, no file URL"),
        (false, "no URL among the photos: 0 != 1"),
        (true, "one URL, the text is neither"),
        (false, "the file URL counts as a URL and as a file URL"),
        (false, "no URL: 0 != 1"),
      ])
    + rule(
      "39.predicate",  // some URL attachment anywhere
      [
        (true, "public.file-url conforms to public.url"),
        (true, "the page URL"),
        (false, "no URL among the photos"),
        (true, "Firefox's URL attachment"),
        (true, "public.file-url conforms to public.url"),
        (false, "nothing to match"),
      ])
}

@Suite("Corpus rules in the host situations of §B.5–B.6")
struct CorpusRuleTests {
  /// `Tests/Fixtures/real-rules` from this file: Tests/PredicateEvaluationTests → Tests → Fixtures.
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/real-rules")

  @Test("every .predicate rule in the corpus has an expectation for every host situation")
  func coverage() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
      .filter { $0.hasSuffix(".predicate") }.sorted()
    #expect(!files.isEmpty)
    let covered = Dictionary(grouping: CorpusExpectations.all, by: \.file)
    #expect(Set(covered.keys) == Set(files))
    for (file, cases) in covered {
      #expect(cases.map(\.situation) == HostSituation.allCases, "\(file)")
    }
  }

  @Test(
    "each rule × situation, with the tree-walker and the compiled form", arguments: CorpusExpectations.all)
  func ruleInSituation(_ testCase: CorpusCase) throws {
    let text = try String(contentsOf: Self.corpus.appendingPathComponent(testCase.file), encoding: .utf8)
    let predicate = try PredicateParser.parse(text)
    let context = testCase.situation.context
    #expect(try PredicateEvaluator.evaluate(predicate, on: context) == testCase.expected, "\(testCase.why)")
    #expect(
      try PredicateEvaluator.compile(predicate).evaluate(on: context) == testCase.expected, "\(testCase.why)")
  }
}
