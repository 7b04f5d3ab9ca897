"""paperlens-mcp: Paperlens's conversions as MCP tools for AI assistants (a front end, like
service/: it drives the engine's API and owns nothing of the engine)."""
