import PropertyLists

extension XcodeProject {
  /// The configuration list of the project (`owner == nil`) or of a target.
  ///
  /// - Throws: ``XcodeProjectError/Kind/danglingReference`` when the list's id names nothing.
  public func configurationList(of target: XcodeTarget?) throws(XcodeProjectError)
    -> XCConfigurationListObject
  {
    let ownerID = target?.id ?? project.id
    guard let owner = objects[ownerID] else {
      throw XcodeProjectError(
        .danglingReference, "no object \(ownerID)", location: BuildSettingLocation(file: pbxprojPath))
    }
    let listID = target?.buildConfigurationListID ?? project.buildConfigurationListID
    let list = try object(
      listID, referencedBy: owner, key: "buildConfigurationList", isa: ["XCConfigurationList"])
    return XCConfigurationListObject(
      id: list.id, defaultConfigurationName: list.string("defaultConfigurationName"),
      buildConfigurationIDs: list.strings("buildConfigurations"))
  }

  /// The build configurations of the project (`target == nil`) or of a target, in list order.
  ///
  /// - Throws: ``XcodeProjectError/Kind/danglingReference`` for a list or configuration id naming nothing.
  public func buildConfigurations(of target: XcodeTarget?) throws(XcodeProjectError)
    -> [XCBuildConfigurationObject]
  {
    try buildConfigurationObjects(of: target).objects.map(buildConfiguration)
  }

  /// The configuration list of the project (`target == nil`) or of a target and its `XCBuildConfiguration`
  /// objects in list order, their settings not yet parsed (resolution parses only the one it needs).
  func buildConfigurationObjects(of target: XcodeTarget?) throws(XcodeProjectError)
    -> (list: XCConfigurationListObject, objects: [PBXObject])
  {
    let list = try configurationList(of: target)
    guard let listObject = objects[list.id] else { return (list, []) }
    var result: [PBXObject] = []
    for id in list.buildConfigurationIDs {
      result.append(
        try object(id, referencedBy: listObject, key: "buildConfigurations", isa: ["XCBuildConfiguration"]))
    }
    return (list, result)
  }

  /// The configuration Xcode builds `target` in when `requested` is asked for (`nil`: none named, as
  /// `xcodebuild` without `-configuration`): `requested` when the target has it, else the configuration the
  /// project's list names `defaultConfigurationName` when the target has it, else the target's first one;
  /// `nil` for a target without configurations.
  ///
  /// This is swift-build's `Target.getEffectiveConfiguration` (SWBCore/ProjectModel/Target.swift at
  /// 41aee626), which `Settings` calls with the project's default name: a target list's own
  /// `defaultConfigurationName` is not consulted, and a default naming a configuration the target lacks
  /// (ProtonDrive's `Release-External` beside its one `Release-Store`) falls through to the first.
  public func effectiveConfigurationName(of target: XcodeTarget, requested: String? = nil) -> String? {
    let names = configurationNames(for: target)
    if let requested, names.contains(requested) { return requested }
    if let projectDefault = try? configurationList(of: nil).defaultConfigurationName,
      names.contains(projectDefault)
    {
      return projectDefault
    }
    return names.first
  }

  /// The names of the target's configurations, in list order (what `-configuration` accepts).
  public func configurationNames(for target: XcodeTarget) -> [String] {
    (try? buildConfigurationObjects(of: target).objects.map(\.configurationName)) ?? []
  }

  /// The typed view of an `XCBuildConfiguration` object.
  public func buildConfiguration(_ object: PBXObject) -> XCBuildConfigurationObject {
    var settings: [BuildSettingAssignment] = []
    for entry in object.node["buildSettings"]?.entries ?? [] {
      guard let value = Self.settingValue(entry.value) else { continue }
      let (name, conditions) = Self.parseSettingKey(entry.key)
      settings.append(
        BuildSettingAssignment(
          name: name, conditions: conditions, value: value,
          location: BuildSettingLocation(
            file: pbxprojPath, line: entry.keyPosition.line, column: entry.keyPosition.column)))
    }
    return XCBuildConfigurationObject(
      id: object.id, name: object.configurationName, buildSettings: settings,
      baseConfigurationReferenceID: object.string("baseConfigurationReference"),
      baseConfigurationReferenceAnchorID: object.string("baseConfigurationReferenceAnchor"),
      baseConfigurationReferenceRelativePath: object.string("baseConfigurationReferenceRelativePath"),
      location: object.location)
  }

  /// Splits `NAME[sdk=iphoneos*][config=Debug]` into the name and its conditions; a key whose brackets do
  /// not parse is all name (Xcode would not match it against anything either).
  ///
  /// The key is read as UTF-8 bytes (`[`, `=`, `]` and spaces are ASCII): most keys have no bracket, and
  /// looking for one character by character cost more than the rest of reading a configuration.
  public static func parseSettingKey(_ key: String) -> (name: String, conditions: [BuildSettingCondition]) {
    let bytes = Array(key.utf8)
    guard let open = bytes.firstIndex(of: UInt8(ascii: "[")) else { return (key, []) }
    func text(_ range: Range<Int>) -> String {
      String(decoding: bytes[range], as: UTF8.self).trimmingXCConfigSpace()
    }
    var conditions: [BuildSettingCondition] = []
    var index = open
    while index < bytes.count, bytes[index] == UInt8(ascii: "[") {
      guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")) else { return (key, []) }
      guard let equals = bytes[(index + 1)..<close].firstIndex(of: UInt8(ascii: "=")) else {
        return (key, [])
      }
      conditions.append(
        BuildSettingCondition(parameter: text((index + 1)..<equals), pattern: text((equals + 1)..<close)))
      index = close + 1
      while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    }
    guard index == bytes.count else { return (key, []) }
    return (text(0..<open), conditions)
  }

  /// A `buildSettings` value as one string: a string as is; an array's elements joined with single spaces,
  /// an element with whitespace and no quotes of its own put in double quotes so it stays one word (an
  /// element already holding quotes, like `"\"$(SRCROOT)/Lib\""`, was quoted by its author and is kept).
  static func settingValue(_ node: OpenStepNode) -> String? {
    switch node.kind {
    case .string: return node.string
    case .array:
      return node.elements.compactMap(\.string).map { element in
        let needsQuotes = element.contains { $0 == " " || $0 == "\t" } && !element.contains("\"")
        return needsQuotes ? "\"" + element + "\"" : element
      }.joined(separator: " ")
    case .data, .dictionary: return nil
    }
  }
}

extension XcodeProject {
  /// The path of a file element (`PBXFileReference`, `PBXGroup`, `PBXVariantGroup`,
  /// `PBXFileSystemSynchronizedRootGroup`) as Xcode resolves it through its `sourceTree`:
  ///
  /// - `<group>`: the parent group's path joined with `path` (the main group, or an element no group lists,
  ///   sits at ``sourceRoot``);
  /// - `SOURCE_ROOT`: ``sourceRoot`` joined with `path`;
  /// - `<absolute>`: `path`;
  /// - any other tree (`BUILT_PRODUCTS_DIR`, `SDKROOT`, `DEVELOPER_DIR`, a custom source tree):
  ///   `$(TREE)/path`, for a build-setting expansion to finish.
  ///
  /// Returns `nil` for an id naming nothing or a group chain that loops.
  public func path(ofFileElement id: String) -> String? {
    var visited: Set<String> = []
    return resolvePath(id, visited: &visited).map(XcodePath.normalize)
  }

  private func resolvePath(_ id: String, visited: inout Set<String>) -> String? {
    guard let element = objects[id], visited.insert(id).inserted else { return nil }
    let path = element.string("path") ?? ""
    switch element.string("sourceTree") ?? "<group>" {
    case "<absolute>": return path
    case "SOURCE_ROOT": return XcodePath.join(sourceRoot, path)
    case "<group>":
      guard let parent = parents[id] else { return XcodePath.join(sourceRoot, path) }
      guard let base = resolvePath(parent, visited: &visited) else { return nil }
      return XcodePath.join(base, path)
    case let tree: return XcodePath.join("$(\(tree))", path)
    }
  }

  /// The xcconfig a build configuration is based on: `baseConfigurationReference`'s file, or Xcode 16's
  /// synchronized-folder anchor joined with `baseConfigurationReferenceRelativePath`; `nil` when it has none.
  public func baseConfigurationPath(of configuration: XCBuildConfigurationObject) -> String? {
    if let reference = configuration.baseConfigurationReferenceID {
      return path(ofFileElement: reference)
    }
    if let anchor = configuration.baseConfigurationReferenceAnchorID,
      let relative = configuration.baseConfigurationReferenceRelativePath,
      let folder = path(ofFileElement: anchor)
    {
      return XcodePath.normalize(XcodePath.join(folder, relative))
    }
    return nil
  }
}
