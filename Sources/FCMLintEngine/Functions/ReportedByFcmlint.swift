import FCMLintJSON

/// Marks a rule fcmlint reports itself, outside any document's walk: a page's sample with an
/// elision (FCMLintDocs) and a suppression that hid nothing (FCMLintWorkspace). The rule file
/// gives what every rule has (id, severity, docs, examples) and the config sets its severity as
/// any other's; the linter leaves it out of the walk (`Linter.reportedRule`). On a document it
/// finds nothing. Its `{detail}` is the message the reporting code writes.
struct ReportedByFcmlint: RuleFunction {
  static let name = "reportedByFcmlint"
  static let summary = "Marks a rule fcmlint reports itself, not found in a document (elided-sample, unused-suppression, the image-url-* checks of --check-urls)."
  static let options: [OptionSpec] = []

  init(options: FunctionOptions) {}

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] { [] }
}

/// The ids of the rules fcmlint reports itself (`reportedByFcmlint`): a rule file may mark only
/// these, so none is a rule that silently never fires.
public enum ReportedRules {
  /// A documentation sample with an elision (`...`), reported once per sample.
  public static let elidedSample = "elided-sample"
  /// A config's `suppress:` entry that hid nothing in the files a run linted.
  public static let unusedSuppression = "unused-suppression"

  /// `--check-urls`: an image URL whose answer a device could not use (FCMLintURLCheck).
  public static let imageURLUnreachable = "image-url-unreachable"
  public static let imageURLNotAnImage = "image-url-not-an-image"
  public static let imageURLTypeMismatch = "image-url-type-mismatch"
  public static let imageURLTooLarge = "image-url-too-large"
  public static let imageURLInsecureRedirect = "image-url-insecure-redirect"
  public static let imageURLSlow = "image-url-slow"
  public static let imageURLRules = [
    imageURLUnreachable, imageURLNotAnImage, imageURLTypeMismatch, imageURLTooLarge, imageURLInsecureRedirect, imageURLSlow,
  ]

  public static let all = [elidedSample, unusedSuppression] + imageURLRules
}
