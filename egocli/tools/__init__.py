"""Tools the LLM can call, with guardrails: registry, orchestrator, clarifier, audit trail, MCP server."""
