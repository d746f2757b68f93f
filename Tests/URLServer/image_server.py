"""Image server for the --check-urls tests: HTTP and HTTPS on 127.0.0.1 only, ports chosen by the
system, a CA and a certificate for 127.0.0.1 made with the openssl command line in the folder
given. Prints "HTTP_PORT HTTPS_PORT" once both listen; stops when its standard input closes (the
test ends) or after five minutes, whichever comes first."""

import http.server
import os
import ssl
import struct
import subprocess
import sys
import threading
import time
import zlib


def png(width=1, height=1):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PNG = png()
# A JFIF header, a comment and the end marker: the magic bytes a JPEG starts with.
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xfe\x00\x06test\xff\xd9"
GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00"
       b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
WEBP = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
HTML = b"<!DOCTYPE html><html><head><title>Not found</title></head><body>Sorry</body></html>"

ports = {}
# Requests per token under /counted/TOKEN/..., and the most at once under /held/TOKEN/...: each
# test uses its own token, so tests sharing the server never see each other's requests.
hits = {}
active = {}
peaks = {}
lock = threading.Lock()


def make_certificates(folder):
    def run(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=fcmlint test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(folder, "server.ext"), "w") as ext:
        ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
        "-days", "2", "-extfile", "server.ext")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, kind=None, body=b"", length=None, headers=()):
        ranged = self.headers.get("Range", "")
        total = len(body) if length is None else length
        if status == 200 and ranged.startswith("bytes=0-") and kind and kind.startswith("image/"):
            end = min(int(ranged[len("bytes=0-"):] or total - 1), total - 1)
            body = body[: end + 1]
            self.send_response(206)
            self.send_header("Content-Range", "bytes 0-%d/%d" % (end, total))
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_response(status)
            self.send_header("Content-Length", str(total))
        if kind:
            self.send_header("Content-Type", kind)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body[:total])

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.route()

    def do_GET(self):
        self.route()

    def route(self):
        path = self.path.split("?")[0]
        if path.startswith("/hits/") or path.startswith("/peak/"):
            token = path.split("/")[2]
            with lock:
                count = (hits if path.startswith("/hits/") else peaks).get(token, 0)
            return self.answer(200, "text/plain", str(count).encode())
        if path.startswith("/counted/"):
            token = path.split("/")[2]
            with lock:
                hits[token] = hits.get(token, 0) + 1
            path = "/" + "/".join(path.split("/")[3:])
        if path.startswith("/held/"):
            # Answers after a second, holding its request open: the peak shows the concurrency.
            token = path.split("/")[2]
            with lock:
                active[token] = active.get(token, 0) + 1
                peaks[token] = max(peaks.get(token, 0), active[token])
            time.sleep(1)
            with lock:
                active[token] -= 1
            return self.answer(200, "image/png", PNG)
        files = {"/ok.png": ("image/png", PNG), "/ok.jpg": ("image/jpeg", JPEG), "/ok.gif": ("image/gif", GIF),
                 "/ok.webp": ("image/webp", WEBP), "/lying.png": ("image/png", JPEG), "/mislabeled.png": ("image/jpeg", JPEG),
                 "/error-page.png": ("text/html; charset=utf-8", HTML), "/octet.png": ("application/octet-stream", PNG)}
        if path in files:
            return self.answer(200, *files[path])
        if path == "/missing.png":
            return self.answer(404, "text/html", HTML)
        if path == "/huge.png":
            return self.answer(200, "image/png", PNG + b"\x00" * 64, length=5_000_000)
        if path == "/android-too-big.jpg":
            return self.answer(200, "image/jpeg", JPEG + b"\x00" * 64, length=2_000_000)
        if path == "/slow.png":
            time.sleep(1.5)
            return self.answer(200, "image/png", PNG)
        if path == "/no-head.png":
            if self.command == "HEAD":
                return self.answer(405, "text/plain", b"no HEAD here")
            return self.answer(200, "image/png", PNG)
        if path == "/to-http.png":
            return self.redirect("http://127.0.0.1:%d/ok.png" % ports["http"])
        if path.startswith("/redirect/") and path.endswith(".png"):
            left = int(path[len("/redirect/"):-4])
            return self.redirect("/ok.png" if left <= 1 else "/redirect/%d.png" % (left - 1))
        if path == "/loop-a.png":
            return self.redirect("/loop-b.png")
        if path == "/loop-b.png":
            return self.redirect("loop-a.png")
        return self.answer(404, "text/html", HTML)


def main():
    folder = sys.argv[1]
    make_certificates(folder)
    plain = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    secure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(folder, "server.pem"), os.path.join(folder, "server.key"))
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    ports["http"], ports["https"] = plain.server_address[1], secure.server_address[1]
    for server in (plain, secure):
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(ports["http"], ports["https"], flush=True)
    # Serves until the test process closes standard input or ends: one server serves every test
    # of a run, which takes more than five minutes under the thread sanitizer (a time limit here
    # once stopped it in the middle of a test).
    sys.stdin.read()


main()
