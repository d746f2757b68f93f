#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FCMLintURLCheck

// `fcmlint --check-urls` runs this beside itself, so that the HTTP client, SwiftNIO and BoringSSL
// are not linked into fcmlint: their protocol conformances alone made every run of fcmlint slower,
// flag or not (docs/architecture.md). fcmlint writes one image URL a line ("PLATFORMS\tURL",
// PLATFORMS a bit mask: 1 Android, 2 Apple, 4 web) to its standard input and reads back:
//   finding\tLINE\tRULE\tDETAIL     failed\tLINE     unchecked\tLINE     fatal\tMESSAGE
// LINE counts from 0. Proxies come from this process's environment, which is fcmlint's.
//
//   fcmlint-url-check [--timeout S] [--budget S] [--slow S] [--concurrency N] [--per-host N] [--ca-file PEM]
//                     [--user-agent UA] [URLS-FILE]

func complain(_ message: String) {
  let line = Array("fcmlint-url-check: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

var options = URLChecker.Options()
var input: String? = nil
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func value() -> String {
    guard let next = arguments.popFirst() else {
      complain("\(argument) needs a value")
      exit(2)
    }
    return next
  }
  switch argument {
  case "--timeout": options.timeout = Double(value()) ?? options.timeout
  case "--budget": options.budget = Double(value()) ?? options.budget
  case "--slow": options.slow = Double(value()) ?? options.slow
  case "--concurrency": options.concurrency = Int(value()) ?? options.concurrency
  case "--per-host": options.perHost = Int(value()) ?? options.perHost
  case "--ca-file": options.caFile = value()
  case "--user-agent": options.userAgent = value()
  default: input = argument
  }
}
// The URLs come from the file named, or standard input.
guard let file = input.map({ fopen($0, "r") }) ?? fdopen(0, "r") else {
  complain("cannot read \(input ?? "standard input")")
  exit(2)
}
var targets: [(platforms: Judgement.Platforms, url: String)] = []
var buffer: UnsafeMutablePointer<CChar>? = nil
var capacity = 0
while getline(&buffer, &capacity, file) > 0, let buffer {
  let line = String(cString: buffer).split(separator: "\n", omittingEmptySubsequences: false)[0]
  let parts = line.split(separator: "\t", maxSplits: 1)
  guard parts.count == 2, let mask = UInt8(parts[0]) else { continue }
  targets.append((Judgement.Platforms(rawValue: mask), String(parts[1])))
}
fclose(file)
for name in ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"] {
  for spelling in [name, name.lowercased()] {
    if let value = getenv(spelling) { options.environment[spelling] = String(cString: value) }
  }
}

func clean(_ text: String) -> String { String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }) }

var out = ""
switch URLChecker(options: options).run(targets.map(\.url)) {
case .failure(let failure):
  print("fatal\t\(clean(failure.message))")
  exit(2)
case .success(let answers):
  for (line, target) in targets.enumerated() {
    guard let answer = answers[target.url] else {
      out += "unchecked\t\(line)\n"
      continue
    }
    if answer.failure != nil { out += "failed\t\(line)\n" }
    for finding in Judgement.findings(url: target.url, answer: answer, platforms: target.platforms, slow: options.slow) {
      out += "finding\t\(line)\t\(finding.rule)\t\(clean(finding.detail))\n"
    }
  }
}
print(out, terminator: "")
