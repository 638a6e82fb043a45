import PropertyLists

/// Where a build setting, or an error about one, is: a file, and the line and column when known.
public typealias BuildSettingLocation = FileLocation

/// A condition on an assignment, as in `NAME[sdk=iphoneos*][config=Debug] = value`.
///
/// The pattern is a shell-style glob (`*`, `?`) matched against the value of ``parameter`` in the build
/// being resolved.
public struct BuildSettingCondition: Sendable, Hashable {
  /// `sdk`, `config`, `arch`, `variant` or any other name Xcode accepts.
  public var parameter: String
  /// The glob, for example `iphoneos*`.
  public var pattern: String

  /// The condition `[parameter=pattern]`.
  public init(parameter: String, pattern: String) {
    self.parameter = parameter
    self.pattern = pattern
  }
}

/// One `NAME[conditions] = value` line of an xcconfig file or entry of a pbxproj `buildSettings` dictionary.
public struct BuildSettingAssignment: Sendable, Hashable {
  /// The setting's name, without conditions.
  public var name: String
  /// The conditions in brackets after the name, in order.
  public var conditions: [BuildSettingCondition]
  /// The unexpanded value: `$(inherited) -ObjC`. A pbxproj array value is joined with single spaces, each
  /// element that holds a space or a quote written in double quotes, as Xcode does.
  public var value: String
  /// Where it was written.
  public var location: BuildSettingLocation

  /// An assignment of `value` to `name` under `conditions`, written at `location`.
  public init(
    name: String, conditions: [BuildSettingCondition] = [], value: String, location: BuildSettingLocation
  ) {
    self.name = name
    self.conditions = conditions
    self.value = value
    self.location = location
  }
}

/// One level of Xcode's build-setting stack. Lowest first: Xcode's defaults, project xcconfig, project, target
/// xcconfig, target, command-line overrides.
///
/// Within a level a later assignment of the same name (and matching conditions) wins; `$(inherited)` refers
/// to the next lower matching assignment: an earlier one in the same level (an included xcconfig's), else
/// the level below.
public struct BuildSettingLevel: Sendable, Hashable {
  /// What the level is, for diagnostics and `build-settings` output: `project xcconfig Config/Base.xcconfig`.
  public var name: String
  /// The assignments in the order they apply (an xcconfig's `#include`d files first where they appear).
  public var assignments: [BuildSettingAssignment]

  /// A level named `name` holding `assignments` in the order they apply.
  public init(name: String, assignments: [BuildSettingAssignment]) {
    self.name = name
    self.assignments = assignments
  }
}
