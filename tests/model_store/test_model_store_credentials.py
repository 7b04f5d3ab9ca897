"""Index credentials go only to the exact origin they were given for, on loopback servers."""

from __future__ import annotations

import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engine.models.download import HttpClient, origin
from engine.models.sources import SourceFailure

AUTH = "Basic cmVhZGVyOnMzY3JldA=="  # reader:s3cret


class _Recorder(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:
        pass

    def do_GET(self) -> None:
        server = self.server
        server.seen.append((self.path, self.headers.get("Authorization")))
        target = server.redirects.get(self.path)
        if target is not None:
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"model bytes"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def servers():
    started = []
    for _ in range(2):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
        server.seen, server.redirects = [], {}
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
    yield started
    for server in started:
        server.shutdown()
        server.server_close()


def base(server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


def client_for(server) -> HttpClient:
    return HttpClient(f"http://reader:s3cret@127.0.0.1:{server.server_address[1]}/simple")


def test_a_redirect_to_another_origin_drops_the_credentials(servers):
    index, other = servers
    index.redirects["/files/model.whl"] = f"{base(other)}/mirror/model.whl"
    index.redirects["/simple/pkg/"] = f"{base(index)}/simple/pkg-moved/"
    client = client_for(index)
    with client.open(f"{base(index)}/files/model.whl") as response:
        assert response.read() == b"model bytes"
    # Within the index's origin a redirect keeps them.
    with client.open(f"{base(index)}/simple/pkg/") as response:
        response.read()
    assert index.seen == [("/files/model.whl", AUTH), ("/simple/pkg/", AUTH),
                          ("/simple/pkg-moved/", AUTH)]
    assert other.seen == [("/mirror/model.whl", None)]


def test_credentials_for_an_https_index_are_never_sent_over_http(servers):
    index, _ = servers
    port = index.server_address[1]
    client = HttpClient(f"https://reader:s3cret@127.0.0.1:{port}/simple")
    # Same host and port, but plain http: another origin.
    with client.open(f"http://127.0.0.1:{port}/files/model.whl") as response:
        response.read()
    assert index.seen == [("/files/model.whl", None)]


def test_a_redirect_from_https_to_http_is_refused():
    client = HttpClient("https://reader:s3cret@index.example/simple")
    request = urllib.request.Request("https://index.example/simple/pkg/")
    client.authorize(request)
    assert request.unredirected_hdrs["Authorization"] == AUTH
    handler = next(h for h in client._opener.handlers
                   if isinstance(h, urllib.request.HTTPRedirectHandler))
    with pytest.raises(SourceFailure, match="leaves https"):
        handler.redirect_request(request, None, 302, "Found", {},
                                 "http://index.example/simple/pkg/")


def test_origin_fills_in_default_ports():
    assert origin("https://Index.Example/simple") == origin("https://index.example:443/x")
    assert origin("http://index.example/") != origin("https://index.example/")
