"""paperlens-mcp over streamable HTTP: the service's rules (loopback only without a token, the
Host checked, a bearer token otherwise), with a real server process and the SDK's client."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed: pip install -e '.[mcp]'")
httpx = pytest.importorskip("httpx")
anyio = pytest.importorskip("anyio")

from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

pytestmark = pytest.mark.slow  # each test starts a server process (a few seconds)

REPO_ROOT = Path(__file__).resolve().parents[2]
TOKEN = "a-token-of-thirty-two-characters"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(folder: Path, *args: str, token: str | None = None):
    env = {**os.environ, "PAPERLENS_CONFIG": str(folder / "settings.json"),
           "PYTHONPATH": str(REPO_ROOT)}
    env.pop("PAPERLENS_MCP_TOKEN", None)
    if token:
        env["PAPERLENS_MCP_TOKEN"] = token
    log = open(folder / "server.log", "wb")
    command = [sys.executable, "-m", "paperlens_mcp", "--results-dir", str(folder / "results"),
               "--http", *args]
    return subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


@pytest.fixture
def server(tmp_path, request):
    port = free_port()
    token = getattr(request, "param", None)
    proc = start(tmp_path, "--port", str(port), "--allow-dir", str(tmp_path), token=token)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, (tmp_path / "server.log").read_text()
        try:
            httpx.get(url, timeout=2.0)
            break
        except httpx.TransportError:
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()
            time.sleep(0.2)
    yield url
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def tools_over_http(url: str, headers: dict[str, str] | None = None) -> tuple[set[str], str]:
    import httpx2

    async def main():
        async with httpx2.AsyncClient(headers=headers or {}) as http:
            async with streamable_http_client(url, http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = {tool.name for tool in (await session.list_tools()).tools}
                    refused = await session.call_tool("convert_document", {"path": "/etc/hosts"})
                    assert refused.is_error
                    return tools, refused.content[0].text

    return anyio.run(main)


def test_another_address_than_loopback_needs_a_token(tmp_path):
    proc = start(tmp_path, "--host", "0.0.0.0", "--port", str(free_port()))
    assert proc.wait(timeout=60) == 2
    assert "Refusing to listen on 0.0.0.0" in (tmp_path / "server.log").read_text()


def test_loopback_without_a_token_answers_loopback_names_only(server):
    tools, refused = tools_over_http(server)
    assert "convert_document" in tools
    assert "outside the folders this server may read" in refused
    answer = httpx.post(server, json={}, headers={"Host": "paperlens.example"})
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "forbidden_host"
    page = httpx.post(server, json={}, headers={"Origin": "https://web.example"})
    assert page.status_code == 403


@pytest.mark.parametrize("server", [TOKEN], indirect=True)
def test_with_a_token_every_request_carries_it(server):
    assert httpx.post(server, json={}).status_code == 401
    assert httpx.post(server, json={}, headers={"Authorization": "Bearer wrong"}).status_code == 401
    tools, _refused = tools_over_http(server, {"Authorization": f"Bearer {TOKEN}"})
    assert "device_status" in tools
