#!/usr/bin/env python3
"""Time from a change to its diagnostics in `fcmlint lsp`, on a document of about 100 KB.

    scripts/lsp-latency.py [FCMLINT] [--size BYTES] [--changes N]

Opens a generated send request (data values, many of them numbers, so each lint reports
findings), then sends N full-text changes one at a time, each waiting for its
publishDiagnostics, and prints the median and the 90th percentile in milliseconds. Then a burst of
N changes sent at once: how many lints the server ran for them (it coalesces). Last, N completion
requests of field names in the same document, one at a time.
"""
import json
import statistics
import subprocess
import sys
import threading
import time


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    binary = args[0] if args else ".build/release/fcmlint"
    size = int(sys.argv[sys.argv.index("--size") + 1]) if "--size" in sys.argv else 100_000
    changes = int(sys.argv[sys.argv.index("--changes") + 1]) if "--changes" in sys.argv else 30
    proc = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(obj):
        body = json.dumps(obj).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()

    def receive():
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            header += proc.stdout.read(1)
        length = int(header.split(b":")[1].strip().split(b"\r\n")[0])
        return json.loads(proc.stdout.read(length))

    def document(n):
        items, i = [], 0
        while sum(len(x) for x in items) < size:
            items.append(f'"key_{i}": {i if i % 10 == 0 else json.dumps("value " + str(i) + " " + "x" * 20)}')
            i += 1
        return '{"message": {"topic": "news", "notification": {"title": "Edit %d"}, "data": {%s}}}' % (n, ", ".join(items))

    uri = "file:///tmp/fcmlint-latency.json"
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    receive()
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    text = document(0)
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
    receive()
    times = []
    for n in range(changes):
        text = document(n + 1)
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [{"text": text}]}})
        message = receive()
        times.append((time.perf_counter() - start) * 1000)
        assert message["method"] == "textDocument/publishDiagnostics"
    found = len(message["params"]["diagnostics"])
    times.sort()
    print(f"document {len(text.encode())} bytes, {found} diagnostics: change to diagnostics median {statistics.median(times):.1f} ms, "
          f"p90 {times[int(len(times) * 0.9) - 1]:.1f} ms ({changes} changes)")
    # A burst: every change written at once (read on another thread, so neither side blocks
    # on a full pipe).
    published = []

    last = 1000 + changes - 1

    def drain():
        while True:
            message = receive()
            published.append(message)
            if message.get("params", {}).get("version") == last:
                return

    reader = threading.Thread(target=drain)
    reader.start()
    burst = b""
    for n in range(changes):
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 1000 + n}, "contentChanges": [{"text": document(1000 + n)}]}}).encode()
        burst += b"Content-Length: %d\r\n\r\n" % len(body) + body
    start = time.perf_counter()
    proc.stdin.write(burst)
    proc.stdin.flush()
    reader.join()
    elapsed = (time.perf_counter() - start) * 1000
    published = len(published)
    # Completion of field names in the notification object (the document already linted): the
    # buffer is parsed again with the word at the cursor taken out, each time.
    cursor = text.index('"notification": {') + len('"notification": {')
    completion_times = []
    for n in range(changes):
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "id": 100 + n, "method": "textDocument/completion",
              "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": cursor}}})
        message = receive()
        while message.get("id") != 100 + n:
            message = receive()
        completion_times.append((time.perf_counter() - start) * 1000)
    items = len(message["result"])
    completion_times.sort()
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    receive()
    send({"jsonrpc": "2.0", "method": "exit"})
    proc.wait()
    print(f"a burst of {changes} changes: {published} lints published, the last version's {elapsed:.0f} ms after the burst was sent")
    print(f"completion ({items} fields): median {statistics.median(completion_times):.1f} ms, "
          f"p90 {completion_times[int(len(completion_times) * 0.9) - 1]:.1f} ms ({changes} requests)")


if __name__ == "__main__":
    main()
