"""A forward proxy for the --check-urls tests, on 127.0.0.1 only: plain HTTP requests in absolute
form are forwarded, CONNECT opens a tunnel (for https); it forwards only to 127.0.0.1. Each request
it handles is appended to the log file given ("GET http://...", "CONNECT 127.0.0.1:PORT"). Prints
its port once it listens; stops when its standard input closes or after five minutes."""

import http.client
import http.server
import select
import socket
import sys
import threading
import urllib.parse

log_path = sys.argv[1]
log_lock = threading.Lock()


def record(line):
    with log_lock:
        with open(log_path, "a") as log:
            log.write(line + "\n")


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def refuse(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        if host != "127.0.0.1":
            return self.refuse(403)
        record("CONNECT " + self.path)
        upstream = socket.create_connection((host, int(port)), timeout=30)
        self.send_response(200, "Connection established")
        self.end_headers()
        sockets = [self.connection, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 30)
                if not readable:
                    break
                for side in readable:
                    data = side.recv(65536)
                    if not data:
                        return
                    (upstream if side is self.connection else self.connection).sendall(data)
        finally:
            upstream.close()
            self.close_connection = True

    def forward(self):
        url = urllib.parse.urlsplit(self.path)
        if url.scheme != "http" or url.hostname != "127.0.0.1":
            return self.refuse(403)
        record(self.command + " " + self.path)
        upstream = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=30)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in ("proxy-connection", "connection")}
        upstream.request(self.command, (url.path or "/") + ("?" + url.query if url.query else ""), headers=headers)
        answer = upstream.getresponse()
        body = answer.read() if self.command != "HEAD" else b""
        self.send_response(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in ("connection", "transfer-encoding"):
                self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        upstream.close()

    do_GET = forward
    do_HEAD = forward


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    stopper = threading.Thread(target=sys.stdin.read, daemon=True)
    stopper.start()
    stopper.join(timeout=300)


main()
