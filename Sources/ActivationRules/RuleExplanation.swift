import PredicateEvaluation
import PredicateSyntax
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a rule accepted or rejected a context: the evaluation trace per extension item and attachment, as
/// an indented tree of the clauses that matched (✓) or failed (✗).
public struct RuleExplanation: Sendable, Hashable, Codable {
  /// One step: a clause, or one extension item/attachment/type a SUBQUERY or ANY/ALL/NONE looked at.
  public struct Step: Sendable, Hashable, Codable {
    /// `clause`, `element` (a SUBQUERY element) or `value` (one element of an ANY/ALL/NONE collection).
    public var kind: String
    /// Whether the step evaluated to true.
    public var result: Bool
    /// The clause's source text (whitespace collapsed), or the element's description.
    public var text: String
    /// The clause's position in the rule's file (0 when the rule has no text).
    public var line: Int
    /// The clause's 1-based column in its line (0 when the rule has no text).
    public var column: Int
    /// The steps evaluated inside this one.
    public var children: [Step]
  }

  /// Whether the rule activates for the context.
  public var accepted: Bool
  /// The context, summarised.
  public var context: String
  /// The root step (the whole rule).
  public var root: Step

  /// Explains `tree` (whose ranges point into `text`, a predicate read from `file`) on `context`.
  public init(
    tree: PredicateNode, text: String, file: RuleFile?, context: ExtensionContext,
    registry: TypeRegistry = .system
  ) throws(EvaluationError) {
    let trace = try PredicateEvaluator.trace(tree, on: context.predicateValue, registry: registry)
    let bytes = Array(text.utf8)
    // `a || b || c` nests as ((a || b) || c); the explanation shows one chain with its operands.
    var chainKinds: [SourceRange: String] = [:]
    RuleAnalysis.visit(tree) { node in
      switch node.kind {
      case .or: chainKinds[node.range] = "or"
      case .and: chainKinds[node.range] = "and"
      default: break
      }
    }
    func convert(_ trace: EvaluationTrace) -> Step {
      var children: [Step] = []
      let kind = trace.step == .predicate ? chainKinds[trace.range] : nil
      for child in trace.children {
        if let kind, child.step == .predicate, chainKinds[child.range] == kind,
          child.range.start.offset == trace.range.start.offset
        {
          children += convert(child).children
        } else {
          children.append(convert(child))
        }
      }
      let position = file.map { $0.filePosition(ofPredicateOffset: trace.range.start.offset) }
      switch trace.step {
      case .predicate:
        return Step(
          kind: "clause", result: trace.result, text: Self.snippet(bytes, trace.range),
          line: position?.line ?? 0,
          column: position?.column ?? 0, children: children)
      case .subqueryElement(let variable, let index, let value):
        return Step(
          kind: "element", result: trace.result, text: "$\(variable) #\(index + 1): \(Self.describe(value))",
          line: position?.line ?? 0, column: position?.column ?? 0, children: children)
      case .quantifiedElement(let index, let value):
        return Step(
          kind: "value", result: trace.result, text: "#\(index + 1): \(Self.describe(value))",
          line: position?.line ?? 0, column: position?.column ?? 0, children: children)
      }
    }
    root = convert(trace)
    accepted = trace.result
    self.context = context.summary
  }

  /// The indented tree, one step per line.
  public var text: String {
    var lines = ["context: \(context)", "result: \(accepted ? "activates" : "does not activate")"]
    func render(_ step: Step, depth: Int) {
      let mark = step.result ? "✓" : "✗"
      let location = step.kind == "clause" && step.line > 0 ? "  (\(step.line):\(step.column))" : ""
      lines.append(String(repeating: "  ", count: depth) + "\(mark) \(step.text)\(location)")
      for child in step.children { render(child, depth: depth + 1) }
    }
    render(root, depth: 0)
    return lines.joined(separator: "\n")
  }

  /// The JSON form, keys sorted.
  public func jsonData() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    return (try? encoder.encode(self)) ?? Data()
  }

  /// The source text of a range with runs of whitespace collapsed; past 120 characters the middle is
  /// elided so both the start (`SUBQUERY (…`) and the end (`).@count == 1`) stay visible.
  static func snippet(_ bytes: [UInt8], _ range: SourceRange) -> String {
    let lower = Swift.max(0, Swift.min(range.start.offset, bytes.count))
    let upper = Swift.max(lower, Swift.min(range.end.offset, bytes.count))
    let raw = String(decoding: bytes[lower..<upper], as: UTF8.self)
    let collapsed = raw.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    guard collapsed.count > 120 else { return collapsed }
    return String(collapsed.prefix(70)) + " … " + String(collapsed.suffix(45))
  }

  /// A short description of an element: an attachment by its types, an item by its attachment count.
  static func describe(_ value: PredicateValue) -> String {
    switch value {
    case .string(let text): return "\"\(text)\""
    case .dictionary(let fields):
      if case .array(let types)? = fields["registeredTypeIdentifiers"] {
        return "attachment [" + types.map(describe).joined(separator: ", ") + "]"
      }
      if case .array(let attachments)? = fields["attachments"] {
        return "extension item with \(attachments.count) attachment" + (attachments.count == 1 ? "" : "s")
      }
      return "{" + fields.keys.sorted().joined(separator: ", ") + "}"
    case .array(let elements): return "[" + elements.map(describe).joined(separator: ", ") + "]"
    case .integer(let number): return String(number)
    case .double(let number): return String(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .date(let date): return date.description
    case .data(let data): return "<\(data.count) bytes>"
    }
  }
}
