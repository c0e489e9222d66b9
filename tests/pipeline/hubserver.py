#!/usr/bin/python3
"""A Hub-shaped HTTP server for the hub tests and bench_hub_download (no internet).

It answers the two requests huggingface_hub makes, the way huggingface.co answers them:
  GET  /api/models/ORG/NAME/revision/REV   -> {"id", "sha", "siblings": [{"rfilename"}]}
  HEAD|GET /ORG/NAME/resolve/REV/FILE      -> a git file: 200, ETag = its git blob id;
                                              an LFS file (*.safetensors, *.bin): 302 to /cdn/SHA256
                                              with X-Linked-Etag (the sha256) and X-Linked-Size
  HEAD|GET /cdn/SHA256                     -> the bytes (Range: bytes=N- honoured, 206)
with X-Repo-Commit on every resolve answer, and the Hub's error answers (401 / 403 with
X-Error-Code RepoNotFound or GatedRepo, 404 with RevisionNotFound or EntryNotFound).

Usage: hubserver.py CONFIG.json   (prints "PORT <n>" on stdout once listening on 127.0.0.1)

CONFIG.json is read again whenever its content changes (fault counters then start over):
  {"token": "hf_x",                                  # the one token the server accepts
   "repos": {"org/name": {"sha": "<40 hex>", "refs": {"main": "<40 hex>"},
                          "files": {"config.json": "/path/to/source", ...},
                          "private": false, "gated": false, "granted": true,
                          "api_body": "<raw text answered instead of the listing>"}},
   "renamed": {"old/name": "org/name"},               # the API and resolve answer 307 with a relative Location
   "faults": [{"match": "model.safetensors", "method": "GET", "status": 503, "times": 2},
              {"match": "...", "drop_after": 1000, "times": 1},   # close the connection after N body bytes
              {"match": "...", "corrupt": true},                   # one byte flipped, headers unchanged
              {"match": "...", "size_delta": -7},                  # the size header is N off the bytes sent
              {"match": "...", "ignore_range": true},              # 200 and the whole file for a Range
              {"match": "...", "slow": 65536, "sleep": 0.05}],     # N bytes, then a pause, until the end
   "log": "/path/requests.log"}                       # one line per request: METHOD PATH RANGE AUTH
"""
import hashlib
import json
import os
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LFS_SUFFIXES = (".safetensors", ".bin", ".pt", ".h5", ".onnx", ".msgpack")


class State:
    def __init__(self, path):
        self.path = path
        self.mtime = None
        self.config = {}
        self.counts = {}
        self.hashes = {}  # source path -> (size, mtime, sha256, git oid)
        self.lock = threading.Lock()

    def reload(self):
        with self.lock:
            with open(self.path, "rb") as f:
                text = f.read()
            if text != self.mtime:  # compared by content: two writes within one clock tick differ too
                self.config = json.loads(text.decode("utf-8"))
                self.mtime = text
                self.counts = {}
            return self.config

    def fault(self, path, method, kind):
        """The first fault of `kind` matching this request that still has times left."""
        with self.lock:
            for i, f in enumerate(self.config.get("faults", [])):
                if kind not in f or f.get("match", "") not in path:
                    continue
                if f.get("method", "*") not in ("*", method):
                    continue
                used = self.counts.get(i, 0)
                if "times" in f and used >= f["times"]:
                    continue
                self.counts[i] = used + 1
                return f
        return None

    def digests(self, source):
        st = os.stat(source)
        key = (st.st_size, st.st_mtime_ns)
        with self.lock:
            cached = self.hashes.get(source)
            if cached and cached[0] == key:
                return cached[1]
        sha = hashlib.sha256()
        git = hashlib.sha1(b"blob %d\0" % st.st_size)
        with open(source, "rb") as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                sha.update(block)
                git.update(block)
        value = (sha.hexdigest(), git.hexdigest(), st.st_size)
        with self.lock:
            self.hashes[source] = (key, value)
        return value

    def by_sha(self, sha256):
        for repo in self.config.get("repos", {}).values():
            for source in repo.get("files", {}).values():
                if self.digests(source)[0] == sha256:
                    return source
        return None


STATE = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hubserver"
    # TCP_NODELAY, as web servers set it: the headers and the body are separate sends, and with Nagle
    # the body waited for the client's delayed ACK of the headers (40 ms per answer on a kept-alive
    # connection, which folio-cli reuses and curl, one connection per file, did not pay).
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def do_HEAD(self):
        self.handle_request(head=True)

    def do_GET(self):
        self.handle_request(head=False)

    # ---- answers -----------------------------------------------------------------------
    def answer(self, status, headers=None, body=b""):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def error(self, status, code, message, extra=None):
        headers = {"Content-Type": "application/json", "X-Error-Code": code, "X-Error-Message": message}
        headers.update(extra or {})
        self.answer(status, headers, json.dumps({"error": message}).encode())

    def log_request_line(self, config):
        log = config.get("log")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write("%s %s %s %s\n" % (self.command, self.path, self.headers.get("Range", "-"),
                                           "auth" if self.headers.get("Authorization") else "-"))

    # ---- access --------------------------------------------------------------------------
    def access(self, config, repo_id):
        """None when the request may see the repo, else (status, code, message)."""
        repo = config.get("repos", {}).get(repo_id)
        auth = self.headers.get("Authorization", "")
        token_ok = bool(config.get("token")) and auth == "Bearer " + config["token"]
        if repo is None or (repo.get("private") and not token_ok):
            return (404 if token_ok else 401, "RepoNotFound", "Repository Not Found for url: " + self.path + ".")
        if repo.get("gated"):
            if not token_ok:
                return (401, "GatedRepo", "Access to model %s is restricted. You must be authenticated to access it." % repo_id)
            if not repo.get("granted", True):
                return (403, "GatedRepo", "Access to model %s is restricted and you are not in the authorized list. "
                                          "Visit https://huggingface.co/%s to ask for access." % (repo_id, repo_id))
        return None

    def commit_of(self, repo, revision):
        refs = repo.get("refs", {})
        if revision == repo["sha"] or revision in refs.values():  # one file set, whichever commit names it
            return revision
        return refs.get(revision)

    # ---- dispatch ------------------------------------------------------------------------
    def handle_request(self, head):
        config = STATE.reload()
        self.log_request_line(config)
        path = urllib.parse.urlsplit(self.path).path
        fault = STATE.fault(path, self.command, "status")
        if fault:
            return self.error(fault["status"], "Injected", "injected status %d" % fault["status"])
        parts = path.split("/")
        if path.startswith("/api/models/"):
            return self.listing(config, parts)
        if path.startswith("/cdn/"):
            source = STATE.by_sha(parts[2]) if len(parts) == 3 else None
            if source is None:
                return self.answer(404)
            return self.send_file(source, path, {})
        if len(parts) >= 6 and parts[3] == "resolve":
            return self.resolve(config, parts)
        return self.answer(404)

    def listing(self, config, parts):
        # /api/models/ORG/NAME/revision/REV
        if len(parts) != 7 or parts[5] != "revision":
            return self.error(404, "NotFound", "not an API path")
        repo_id = parts[3] + "/" + parts[4]
        renamed = config.get("renamed", {}).get(repo_id)
        if renamed:
            return self.answer(307, {"Location": "/api/models/" + renamed + "/" + "/".join(parts[5:])})
        denied = self.access(config, repo_id)
        if denied:
            return self.error(*denied)
        repo = config["repos"][repo_id]
        commit = self.commit_of(repo, urllib.parse.unquote(parts[6]))
        if commit is None:
            return self.error(404, "RevisionNotFound", "Invalid rev id: " + urllib.parse.unquote(parts[6]))
        if "api_body" in repo:
            body = repo["api_body"].encode()
        else:
            body = json.dumps({"id": repo_id, "sha": commit,
                               "siblings": [{"rfilename": n} for n in sorted(repo.get("files", {}))]}).encode()
        self.answer(200, {"Content-Type": "application/json"}, body)

    def resolve(self, config, parts):
        # /ORG/NAME/resolve/REV/FILE...
        repo_id = parts[1] + "/" + parts[2]
        renamed = config.get("renamed", {}).get(repo_id)
        if renamed:
            target = "/" + renamed + "/" + "/".join(parts[3:])
            return self.answer(307, {"Location": target})
        denied = self.access(config, repo_id)
        if denied:
            return self.error(*denied)
        repo = config["repos"][repo_id]
        commit = self.commit_of(repo, urllib.parse.unquote(parts[4]))
        if commit is None:
            return self.error(404, "RevisionNotFound", "Invalid rev id: " + urllib.parse.unquote(parts[4]))
        filename = urllib.parse.unquote("/".join(parts[5:]))
        source = repo.get("files", {}).get(filename)
        if source is None:
            return self.error(404, "EntryNotFound", "Entry not found", {"X-Repo-Commit": commit})
        sha256, git_oid, size = STATE.digests(source)
        headers = {"X-Repo-Commit": commit}
        lie = STATE.fault(filename, self.command, "size_delta")
        told = size + (lie["size_delta"] if lie else 0)
        if filename.endswith(LFS_SUFFIXES):
            pointer = ("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n" % (sha256, size)).encode()
            headers.update({"ETag": '"%s"' % hashlib.sha1(b"blob %d\0" % len(pointer) + pointer).hexdigest(),
                            "X-Linked-Etag": '"%s"' % sha256, "X-Linked-Size": str(told),
                            "Location": "http://%s/cdn/%s" % (self.headers.get("Host"), sha256)})
            return self.answer(302, headers)
        headers["ETag"] = '"%s"' % git_oid
        return self.send_file(source, "/".join(parts), headers, told if self.command == "HEAD" else None)

    def send_file(self, source, path, headers, head_size=None):
        size = os.path.getsize(source)
        start = 0
        rng = self.headers.get("Range")
        ignore_range = STATE.fault(path, self.command, "ignore_range")
        status = 200
        if rng and not ignore_range:
            if not rng.startswith("bytes=") or not rng.endswith("-"):
                return self.answer(400)
            start = int(rng[6:-1])
            if start >= size:
                return self.answer(416, {"Content-Range": "bytes */%d" % size})
            status = 206
            headers["Content-Range"] = "bytes %d-%d/%d" % (start, size - 1, size)
        count = size - start
        if head_size is not None:
            count = head_size
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(count))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if self.command == "HEAD":
            return
        drop = STATE.fault(path, self.command, "drop_after")
        corrupt = STATE.fault(path, self.command, "corrupt")
        slow = STATE.fault(path, self.command, "slow")
        with open(source, "rb") as f:
            if slow:
                f.seek(start)
                left = count
                while left > 0:
                    block = f.read(min(left, slow["slow"]))
                    self.wfile.write(block)
                    self.wfile.flush()
                    left -= len(block)
                    time.sleep(slow.get("sleep", 0.05))
                return
            if not (drop or corrupt):
                self.wfile.flush()
                self.connection.sendfile(f, start, count)
                return
            f.seek(start)
            data = bytearray(f.read(count))
        if corrupt and data:
            data[len(data) // 2] ^= 0x5A
        if drop:
            self.wfile.write(bytes(data[:drop["drop_after"]]))
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self.wfile.write(bytes(data))


def main():
    global STATE
    STATE = State(sys.argv[1])
    STATE.reload()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
