import FCMLintJSON

/// How the linter runs checks on a template (a document with `TemplateMarks`). Everything a
/// check's `templates:` setting means is here; documents without placeholders never come here.
///
/// A `value` check does not look at a value that is a placeholder (it is of the right type, not
/// known yet), and judges a string with placeholders among literal text on its sample renderings
/// (`TemplateSamples`): it reports only what every rendering reports. A `structure` check runs on
/// the template as written. For both, a finding at a key that holds a placeholder, or one the
/// function marks `uncertain`, is not reported. In a `when`, such a check is undecided, and a rule
/// whose `when` is undecided does not apply: a template is reported only for what it is sure of.
extension LintPlan {
  /// Whether every top-level `when` condition of `rule` holds at `context.given`; nil when a
  /// placeholder leaves one undecided (and none is false).
  func whenHoldsInTemplate(_ rule: Rule, _ context: FunctionContext) -> Bool? {
    var result: Bool? = true
    for index in rule.when {
      switch holdsInTemplate(Int(index), context) {
      case false?: return false
      case nil: result = nil
      case true?: break
      }
    }
    return result
  }

  private func holdsInTemplate(_ index: Int, _ context: FunctionContext) -> Bool? {
    let condition = conditions[index]
    switch condition.kind {
    case .check:
      let (findings, undecided) = checks[Int(condition.check)].evaluateInTemplate(at: context.given, context)
      return !findings.isEmpty ? false : undecided ? nil : true
    case .anyOf:
      var result: Bool? = false
      for operand in condition.operands {
        switch holdsInTemplate(Int(operand), context) {
        case true?: return true
        case nil: result = nil
        case false?: break
        }
      }
      return result
    case .not:
      return holdsInTemplate(Int(condition.operands.lowerBound), context).map { !$0 }
    }
  }
}

extension LintPlan.Check {
  /// The findings of the check at `node` of a template, and whether a placeholder left anything
  /// undecided.
  func evaluateInTemplate(at node: NodeID, _ context: FunctionContext) -> (findings: [Finding], undecided: Bool) {
    var findings: [Finding] = []
    var undecided = false
    func visit(_ target: JSONPath.Resolution) {
      let document = context.document
      // A member missing under a placeholder or beside an include may be there once rendered.
      if case .missing(let nearest, _) = target, document.mayHoldMissingMember(nearest) {
        undecided = true
        return
      }
      if templates == .value, case .found(let id) = target {
        if document.isUnknown(id) {
          undecided = true
          return
        }
        if !readsTemplates, needsRenderings(id, document) {
          let rendered = checkRenderings(target, context)
          findings += rendered.findings
          if rendered.undecided { undecided = true }
          return
        }
      }
      for finding in functionFindings(target, in: context) {
        if Self.isUncertain(finding, document) {
          undecided = true
        } else {
          findings.append(finding)
        }
      }
    }
    if hasField {
      if path.isSingular {
        if let target = path.resolveOne(in: context.document, from: node) {
          visit(target)
        } else if context.document.templates?.outsideUnknown == true {
          // A path out of a part of a message: what is there is not known.
          undecided = true
        }
      } else {
        path.forEachResolution(in: context.document, from: node) { visit($0) }
      }
    } else {
      visit(.found(node))
    }
    return (findings, undecided)
  }

  private static func isUncertain(_ finding: Finding, _ document: JSONDocument) -> Bool {
    finding.uncertain || (finding.atKey && document.hasTemplateKey(finding.node))
  }

  /// Whether the value at `id` is, or holds, a partly placeholder string.
  private func needsRenderings(_ id: NodeID, _ document: JSONDocument) -> Bool {
    guard let partial = document.templates?.partial, !partial.isEmpty else { return false }
    if partial[id] != nil { return true }
    let node = document[id]
    guard node.kind == .object || node.kind == .array else { return false }
    return partial.values.contains { $0[0].lowerBound > Int(node.start) && $0[0].lowerBound < Int(node.end) }
  }

  /// The findings every sample rendering has (by node), as the first rendering words them but
  /// pointing into the template; undecided when the renderings disagree.
  private func checkRenderings(_ target: JSONPath.Resolution, _ context: FunctionContext) -> (findings: [Finding], undecided: Bool) {
    guard let renderings = context.scratch?.renderingContexts(), !renderings.isEmpty else { return ([], true) }
    var perRendering: [[Finding]] = []
    for var rendering in renderings {
      rendering.given = context.given
      perRendering.append(functionFindings(target, in: rendering).filter { !Self.isUncertain($0, rendering.document) })
    }
    // Worded as the rendering with the most ordinary sample ("x") says it.
    let wording = TemplateSamples.wording < perRendering.count ? TemplateSamples.wording : 0
    let kept = perRendering[wording].filter { finding in
      perRendering.allSatisfy { findings in findings.contains { $0.node == finding.node && $0.atKey == finding.atKey } }
    }
    let undecided = perRendering.contains { $0.count > kept.count }
    guard !kept.isEmpty else { return ([], undecided) }
    let template = context.document, rendered = renderings[wording].document
    let texts = context.scratch?.renderedTexts(template, rendered) ?? []
    return (kept.map { finding in
      var finding = finding
      let node = template[finding.node]
      if let range = finding.range {
        // A position inside a rendered placeholder has no place in the template: report the value.
        let shift = Int(node.start) - Int(rendered[finding.node].start)
        finding.range = template.isPartialTemplate(finding.node) ? nil : range.lowerBound + shift..<range.upperBound + shift
      }
      // Every partial string a message may quote, the finding's own first (two template strings
      // may render to one sample text); in a file with very many, the finding's own alone.
      var quoted: [(String, String)] = []
      if let sample = rendered.string(finding.node), let text = template.string(finding.node), !sample.isEmpty, sample != text {
        quoted.append((sample, text))
      }
      if texts.count <= 64 { quoted += texts }
      for (key, value) in finding.values {
        var value = value
        for (sample, text) in quoted where value.contains(sample) { value = value.replacing(sample, with: text) }
        finding.values[key] = value
      }
      return finding
    }, undecided)
  }
}

extension LintScratch {
  /// Each partly placeholder string as the reported rendering has it and as the template does,
  /// the longest first (so a rendered string inside another is not replaced in it): messages
  /// quote the template's strings, not the sample's. Made once per document.
  func renderedTexts(_ template: JSONDocument, _ rendered: JSONDocument) -> [(String, String)] {
    if let texts = renderedTextPairs { return texts }
    // In the template's order where lengths tie: a dictionary's order changes from run to run.
    let texts = (template.templates?.partial.keys.sorted() ?? []).compactMap { id -> (String, String)? in
      guard let sample = rendered.string(id), let text = template.string(id), !sample.isEmpty else { return nil }
      return (sample, text)
    }.enumerated().sorted { a, b in
      a.element.0.utf8.count != b.element.0.utf8.count ? a.element.0.utf8.count > b.element.0.utf8.count : a.offset < b.offset
    }.map(\.element)
    renderedTextPairs = texts
    return texts
  }

  /// The sample renderings of the document, made on first use.
  func renderingContexts() -> [FunctionContext] {
    if let renderings { return renderings }
    let made = (render?() ?? []).map { FunctionContext(document: $0, given: JSONDocument.root, isFragment: isFragment, scratch: LintScratch()) }
    renderings = made
    return made
  }
}
