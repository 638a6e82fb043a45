import Foundation
import Testing

@testable import IntuneConfigurator
@testable import PropertyLists

@Suite("A plan's edits apply in one pass")
struct BatchEditTests {
  /// The app fixture's plan (a twin, queried schemes, document-type twins, Face ID) needs no node an
  /// earlier edit creates, so it takes the one-pass path. (Appending to a self-closing `<array/>` twice
  /// rewrites the element twice, so that plan goes one by one.)
  @Test(arguments: ["App-Info.plist"])
  func planAppliesTogether(_ name: String) throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file(name), entitlements: ConfiguratorFixtures.file("App.entitlements"),
      options: IntuneConfiguratorOptions(fixEntitlements: true))
    let edits = plan.changes.filter { $0.file == .infoPlist }.flatMap(\.edits)
    #expect(edits.count > 1)
    let document = try #require(plan.infoPlist.document)
    let together = try #require(document.batchApplying(edits))
    var oneByOne = document
    for edit in edits { oneByOne = try oneByOne.applying(edit) }
    #expect(together.bytes == oneByOne.bytes)
  }
}
