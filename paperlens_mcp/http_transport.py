"""paperlens-mcp over streamable HTTP: the SDK's app behind the service's request guard
(service/security.py), so the same rules hold: a token on any address but loopback, the Host
checked without one, web pages of other machines refused, bodies capped as they stream."""

from __future__ import annotations

from dataclasses import dataclass

from mcp.server.mcpserver import MCPServer

from service.security import BodyCaps, RequestGuard

MCP_PATH = "/mcp"
JSON_OVERHEAD_BYTES = 64 * 1024


@dataclass(frozen=True)
class OneBodyCap(BodyCaps):
    """Every request may carry one document as base64 (the MCP endpoint is the only path)."""

    def for_path(self, method: str, path: str) -> int:
        return self.upload_bytes


def body_cap(max_document_bytes: int) -> int:
    """A document of `max_document_bytes` as base64 inside a JSON-RPC request."""
    return (max_document_bytes + 2) // 3 * 4 + JSON_OVERHEAD_BYTES


def http_app(server: MCPServer, host: str, token: str | None, max_document_bytes: int):
    cap = body_cap(max_document_bytes)
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=host,
                                     max_request_body_size=cap)
    return RequestGuard(app, token, OneBodyCap(upload_bytes=cap, sync_bytes=cap))


def serve_http(server: MCPServer, host: str, port: int, token: str | None,
               max_document_bytes: int) -> int:
    import uvicorn

    shown = f"[{host}]" if ":" in host else host
    print(f"paperlens-mcp: http://{shown}:{port}{MCP_PATH}", flush=True)
    uvicorn.run(http_app(server, host, token, max_document_bytes), host=host, port=port,
                log_level="warning")
    return 0
