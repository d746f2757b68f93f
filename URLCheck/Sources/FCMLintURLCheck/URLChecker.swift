import AsyncHTTPClient
import Dispatch
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fetches image URLs as a device would (`--check-urls`): a HEAD, a ranged GET of the first
/// bytes (the magic bytes, and the answer where HEAD is refused or says too little), redirects
/// followed by hand so that a loop, a chain too long and a step down to plain http are seen.
/// Nothing but the URL goes out: no message content, no credentials, fcmlint's User-Agent.
public struct URLChecker: Sendable {
  public struct Options: Sendable {
    /// Each request's limit (connect to last byte read).
    public var timeout: Double = 10
    /// The whole check's limit; URLs not answered by then are counted as not checked.
    public var budget: Double = 60
    /// Slower than this to answer (redirects included) is a finding.
    public var slow: Double = 3
    public var maxRedirects = 10
    public var concurrency = 8
    public var perHost = 2
    /// PEM certificates trusted besides the system's (a corporate proxy's CA).
    public var caFile: String? = nil
    public var userAgent = "fcmlint"
    /// `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (and their lower-case forms), as the
    /// environment had them.
    public var environment: [String: String] = [:]
    public init() {}
  }

  /// What one URL answered (after its redirects).
  public struct Answer: Sendable, Equatable {
    public enum Failure: Sendable, Equatable {
      case status(Int, String)
      case dns(String)
      case connect(String)
      case tls(String)
      case timeout(Double)
      case redirectLoop(String)
      case tooManyRedirects(Int)
      case other(String)
    }
    public var failure: Failure? = nil
    public var contentType: String? = nil
    /// The whole body's size, from Content-Length or Content-Range, if the server says.
    public var size: Int? = nil
    /// The first bytes of the body (at most `URLChecker.sniffLength`).
    public var firstBytes: [UInt8] = []
    /// The first https-to-http step of the redirects, if any: (from, to).
    public var downgrade: (String, String)? {
      get { downgradeFrom.map { ($0, downgradeTo ?? "") } }
      set {
        downgradeFrom = newValue?.0
        downgradeTo = newValue?.1
      }
    }
    var downgradeFrom: String? = nil
    var downgradeTo: String? = nil
    public var finalURL: String = ""
    public var redirects = 0
    /// Seconds to the final answer's head.
    public var seconds: Double = 0
    public var usedGETForHead = false
  }

  /// The check could not be made at all (the network is down, the proxy does not answer): one
  /// error for the run, not a finding per URL.
  public struct Failure: Error, Sendable {
    public var message: String
  }

  public static let sniffLength = 64

  public let options: Options
  public init(options: Options) { self.options = options }

  /// Checks `urls` (each once) and returns what each answered; URLs left when the budget ran out
  /// have no entry. Blocks the calling thread; the requests run on NIO's event loops.
  public func run(_ urls: [String]) -> Result<[String: Answer], Failure> {
    final class Box: @unchecked Sendable { var result: Result<[String: Answer], Failure> = .success([:]) }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let unique = Array(Set(urls)).sorted()
    Task.detached {
      box.result = await self.check(unique)
      done.signal()
    }
    done.wait()
    return box.result
  }

  func check(_ urls: [String]) async -> Result<[String: Answer], Failure> {
    let clients: Clients
    do {
      clients = try Clients(options)
    } catch {
      return .failure(Failure(message: "\(error)"))
    }
    let deadline = NIODeadline.now() + .milliseconds(Int64(options.budget * 1000))
    var answers: [String: Answer] = [:]
    // At most `concurrency` URLs at once, and `perHost` of one host (the URL's own; a redirect
    // to another host counts for the first), the hosts taken in turn.
    var queues: [String: ArraySlice<String>] = [:]
    var hostOrder: [String] = []
    for url in urls {
      let host = Self.host(of: url)
      if queues[host] == nil { hostOrder.append(host) }
      queues[host, default: []].append(url)
    }
    let concurrency = max(1, options.concurrency), perHost = max(1, options.perHost)
    await withTaskGroup(of: (String, String, Answer?).self) { group in
      var running = 0
      var inFlight: [String: Int] = [:]
      var turn = 0
      func startReady() {
        var idle = 0
        while running < concurrency, !hostOrder.isEmpty, idle < hostOrder.count {
          turn %= hostOrder.count
          let host = hostOrder[turn]
          guard inFlight[host, default: 0] < perHost, let url = queues[host]?.popFirst() else {
            turn += 1
            idle += 1
            continue
          }
          if queues[host]?.isEmpty == true {
            queues[host] = nil
            hostOrder.remove(at: turn)
          } else {
            turn += 1
          }
          idle = 0
          running += 1
          inFlight[host, default: 0] += 1
          group.addTask {
            guard NIODeadline.now() < deadline else { return (url, host, nil) }
            return (url, host, await self.answer(url, clients: clients, deadline: deadline))
          }
        }
      }
      startReady()
      while let (url, host, answer) = await group.next() {
        running -= 1
        inFlight[host, default: 1] -= 1
        if let answer { answers[url] = answer }
        startReady()
      }
    }
    await clients.shutdown()
    // Every host failed to resolve or connect: the checker's network, not the images.
    let failures = answers.values.compactMap(\.failure)
    let hosts = Set(answers.keys.map { Self.host(of: $0) })
    if !failures.isEmpty, failures.count == answers.count, hosts.count > 1 || clients.usesProxy,
      failures.allSatisfy({ if case .dns = $0 { true } else if case .connect = $0 { true } else { false } })
    {
      let reasons = Set(failures.map(Self.describe)).sorted().prefix(3).joined(separator: "; ")
      return .failure(Failure(message: "no image URL could be reached (\(reasons)): check the network\(clients.usesProxy ? " and the proxy" : "")"))
    }
    return .success(answers)
  }

  /// One URL: HEAD (redirects followed), then a ranged GET of the first bytes from where the
  /// HEAD ended.
  func answer(_ url: String, clients: Clients, deadline: NIODeadline) async -> Answer {
    let started = NIODeadline.now()
    var answer = Answer()
    answer.finalURL = url
    let head = await follow(url, method: .HEAD, clients: clients, deadline: deadline, into: &answer)
    answer.seconds = Double((NIODeadline.now() - started).nanoseconds) / 1e9
    if let head {
      if head.status.code < 300 {
        answer.contentType = head.headers.first(name: "content-type")
        answer.size = head.headers.first(name: "content-length").flatMap { Int($0) }
      }
      // Refused (405, 501, or any other error a GET may not get: signed URLs answer 403 to HEAD).
      answer.usedGETForHead = head.status.code >= 400 || answer.contentType == nil || answer.size == nil
    } else if case .some(.dns) = answer.failure {
      return answer
    } else if case .some(.connect) = answer.failure {
      return answer
    } else if case .some(.tls) = answer.failure {
      return answer
    } else if case .some(.redirectLoop) = answer.failure {
      return answer
    } else if case .some(.tooManyRedirects) = answer.failure {
      return answer
    } else {
      answer.usedGETForHead = true
    }
    var getAnswer = Answer()
    getAnswer.finalURL = answer.finalURL
    let from = answer.usedGETForHead ? url : answer.finalURL
    let getStarted = NIODeadline.now()
    let get = await follow(from, method: .GET, clients: clients, deadline: deadline, into: &getAnswer, sniff: true)
    if answer.usedGETForHead {
      getAnswer.seconds = Double((NIODeadline.now() - getStarted).nanoseconds) / 1e9
      getAnswer.redirects = max(getAnswer.redirects, answer.redirects)
      if getAnswer.downgradeFrom == nil { getAnswer.downgrade = answer.downgrade }
      getAnswer.usedGETForHead = true
      return getAnswer
    }
    if let get, get.status.code < 300 {
      answer.firstBytes = getAnswer.firstBytes
      if answer.size == nil { answer.size = getAnswer.size }
    }
    return answer
  }

  struct Head {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
  }

  /// Sends `method` to `url` and follows redirects by hand; the last answer's head (nil on a
  /// failure, recorded in `answer`).
  func follow(
    _ url: String, method: HTTPMethod, clients: Clients, deadline: NIODeadline, into answer: inout Answer, sniff: Bool = false
  ) async -> Head? {
    var current = url
    var seen: Set<String> = [url]
    var hops = 0
    while true {
      var request = HTTPClientRequest(url: current)
      request.method = method
      request.headers.add(name: "User-Agent", value: options.userAgent)
      request.headers.add(name: "Accept", value: "image/*")
      if sniff { request.headers.add(name: "Range", value: "bytes=0-\(Self.sniffLength - 1)") }
      let requestDeadline = min(deadline, .now() + .milliseconds(Int64(options.timeout * 1000)))
      let response: HTTPClientResponse
      do {
        response = try await clients.client(for: current).execute(request, deadline: requestDeadline)
      } catch {
        answer.failure = Self.classify(error, timeout: options.timeout)
        return nil
      }
      let status = response.status
      if [301, 302, 303, 307, 308].contains(status.code), let location = response.headers.first(name: "location") {
        let target = Self.resolve(location, against: current)
        if current.lowercased().hasPrefix("https:"), target.lowercased().hasPrefix("http:"), answer.downgradeFrom == nil {
          answer.downgrade = (current, target)
        }
        hops += 1
        if !seen.insert(target).inserted {
          answer.failure = .redirectLoop(target)
          return nil
        }
        if hops > options.maxRedirects {
          answer.failure = .tooManyRedirects(options.maxRedirects)
          return nil
        }
        current = target
        answer.redirects = hops
        answer.finalURL = current
        continue
      }
      if status.code >= 400 {
        answer.failure = .status(Int(status.code), status.reasonPhrase)
      } else {
        answer.failure = nil
      }
      if sniff {
        if status.code < 300 {
          answer.contentType = response.headers.first(name: "content-type")
          if status.code == 206, let range = response.headers.first(name: "content-range"), let slash = range.lastIndex(of: "/") {
            answer.size = Int(range[range.index(after: slash)...])
          } else if status.code == 200 {
            answer.size = response.headers.first(name: "content-length").flatMap { Int($0) }
          }
        }
        var bytes: [UInt8] = []
        do {
          for try await part in response.body {
            bytes += part.readableBytesView.prefix(Self.sniffLength - bytes.count)
            if bytes.count >= Self.sniffLength { break }
          }
        } catch {
          // What was read is enough to judge; a body cut short is not the image's fault here.
        }
        answer.firstBytes = bytes
      }
      return Head(status: status, headers: response.headers)
    }
  }

  static func classify(_ error: any Error, timeout: Double) -> Answer.Failure {
    if let error = error as? HTTPClientError {
      switch error {
      case .connectTimeout: return .connect("the connection timed out")
      case .readTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout: return .timeout(timeout)
      case .tlsHandshakeTimeout: return .tls("the TLS handshake timed out")
      case .remoteConnectionClosed: return .connect("the server closed the connection")
      case .invalidURL, .emptyHost, .emptyScheme: return .other("not a URL a device can fetch")
      default: return .other("\(error)")
      }
    }
    if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError { return .tls(short(error)) }
    let text = "\(error)"
    if text.contains("SSL") || text.contains("certificate") { return .tls(short(error)) }
    if let error = error as? NIOConnectionError, error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
      return .dns("the host name does not resolve")
    }
    if text.contains("NIOConnectionError") || text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("connect(") {
      return .connect(text.contains("efused") ? "the connection was refused" : "cannot connect")
    }
    if text.contains("getaddrinfo") || text.contains("unknown host") || text.contains("SocketAddressError") { return .dns("the host name does not resolve") }
    return .other(short(error))
  }

  static func short(_ error: any Error) -> String {
    let text = "\(error)"
    return text.count > 160 ? String(text.prefix(160)) + "…" : text
  }

  static func describe(_ failure: Answer.Failure) -> String {
    switch failure {
    case .status(let code, let reason): return "HTTP \(code)\(reason.isEmpty ? "" : " \(reason)")"
    case .dns(let why): return "DNS: \(why)"
    case .connect(let why): return "connect: \(why)"
    case .tls(let why): return "TLS: \(why)"
    case .timeout(let seconds): return "no answer within \(Self.seconds(seconds))"
    case .redirectLoop(let url): return "the redirects loop back to \(url)"
    case .tooManyRedirects(let limit): return "more than \(limit) redirects"
    case .other(let why): return why
    }
  }

  static func seconds(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
  }

  /// `location` made absolute against `base` (RFC 3986 §5.2, for the forms servers send).
  static func resolve(_ location: String, against base: String) -> String {
    if afterScheme(location).startIndex != location.startIndex { return location }
    let afterScheme = afterScheme(base)
    let scheme = base[..<afterScheme.startIndex]
    if location.hasPrefix("//") { return scheme.dropLast(2) + location }
    let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
    let origin = base[..<authorityEnd]
    if location.hasPrefix("/") { return origin + location }
    let path = base[authorityEnd...].prefix { $0 != "?" && $0 != "#" }
    let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
    return origin + directory + location
  }

  /// What follows `scheme://` (all of `url` when it has none).
  static func afterScheme(_ url: String) -> Substring {
    let bytes = Array(url.utf8)
    var i = 0
    while i + 2 < bytes.count {
      if bytes[i] == UInt8(ascii: ":") && bytes[i + 1] == UInt8(ascii: "/") && bytes[i + 2] == UInt8(ascii: "/") {
        return url[url.utf8.index(url.utf8.startIndex, offsetBy: i + 3)...]
      }
      if bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: "?") { break }
      i += 1
    }
    return url[...]
  }

  static func host(of url: String) -> String {
    let afterScheme = afterScheme(url)
    var authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return String(authority[...close]).lowercased() }
    return String(authority.prefix { $0 != ":" }).lowercased()
  }
}

/// The clients of a run: one direct, and one per proxy the environment names (a URL goes
/// through the proxy of its scheme unless NO_PROXY covers its host).
final class Clients: Sendable {
  let direct: HTTPClient
  let httpProxy: HTTPClient?
  let httpsProxy: HTTPClient?
  let noProxy: [String]
  var usesProxy: Bool { httpProxy != nil || httpsProxy != nil }

  init(_ options: URLChecker.Options) throws {
    var tls = TLSConfiguration.makeClientConfiguration()
    if let caFile = options.caFile {
      // Read now, so that a bad file is one clear error rather than a TLS failure per URL.
      let certificates = try NIOSSLCertificate.fromPEMFile(caFile)
      if certificates.isEmpty { throw URLChecker.Failure(message: "\(caFile): no PEM certificate in the CA file") }
      tls.additionalTrustRoots = [.certificates(certificates)]
    }
    func configuration(_ proxy: HTTPClient.Configuration.Proxy?) -> HTTPClient.Configuration {
      var configuration = HTTPClient.Configuration(
        tlsConfiguration: tls, redirectConfiguration: .disallow,
        timeout: .init(connect: .milliseconds(Int64(options.timeout * 1000)), read: .milliseconds(Int64(options.timeout * 1000))),
        connectionPool: .init(idleTimeout: .seconds(5), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, options.perHost)),
        proxy: proxy, decompression: .disabled)
      configuration.httpVersion = .automatic
      return configuration
    }
    let environment = options.environment
    func variable(_ name: String) -> String? {
      let value = environment[name.lowercased()] ?? environment[name]
      return value?.isEmpty == false ? value : nil
    }
    func proxy(_ name: String) throws -> HTTPClient.Configuration.Proxy? {
      guard let value = variable(name) else { return nil }
      let afterScheme = URLChecker.afterScheme(value)
      var authority = afterScheme.prefix { $0 != "/" }
      var authorization: HTTPClient.Authorization? = nil
      if let at = authority.lastIndex(of: "@") {
        let user = authority[..<at]
        let parts = user.split(separator: ":", maxSplits: 1).map { String($0).removingPercentEncodingBestEffort }
        authorization = .basic(username: parts[0], password: parts.count > 1 ? parts[1] : "")
        authority = authority[authority.index(after: at)...]
      }
      let colon = authority.lastIndex(of: ":")
      let host = String(colon.map { authority[..<$0] } ?? authority)
      let port = colon.flatMap { Int(authority[authority.index(after: $0)...]) } ?? 80
      guard !host.isEmpty else { throw URLChecker.Failure(message: "\(name) is not a proxy address: '\(value)'") }
      return .server(host: host, port: port, authorization: authorization)
    }
    direct = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration(nil))
    httpProxy = try proxy("HTTP_PROXY").map { HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration($0)) }
    httpsProxy = try proxy("HTTPS_PROXY").map { HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration($0)) }
    noProxy = (variable("NO_PROXY") ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: " ").lowercased() }.filter { !$0.isEmpty }
  }

  func client(for url: String) -> HTTPClient {
    let https = url.lowercased().hasPrefix("https:")
    guard let proxied = https ? httpsProxy : httpProxy else { return direct }
    let host = URLChecker.host(of: url)
    for entry in noProxy {
      if entry == "*" { return direct }
      let suffix = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
      if host == suffix || host.hasSuffix("." + suffix) { return direct }
    }
    return proxied
  }

  func shutdown() async {
    for client in [direct, httpProxy, httpsProxy].compactMap({ $0 }) { try? await client.shutdown() }
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }

  /// `%XX` decoded where it is well formed (a proxy's user and password).
  fileprivate var removingPercentEncodingBestEffort: String {
    var bytes: [UInt8] = []
    var utf8 = Array(self.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
