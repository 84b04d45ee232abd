"""The MCP server: the review tools, and the document tools when a folder is served.

``McpToolRouter`` is pure (no SDK import), so a host's own server can reuse the
routing without the ``mcp`` extra; ``load_stdio_server()`` imports the SDK and
returns the stdio server, or raises ``McpUnavailableError`` saying what to install.

```python
router = McpToolRouter(create_writing_tool_dispatcher(), create_document_tool_dispatcher(store))
anyio.run(load_stdio_server(), router)
```
"""

from __future__ import annotations

from ._router import McpToolRouter
from ._sdk import McpUnavailableError, load_stdio_server

__all__ = ["McpToolRouter", "McpUnavailableError", "load_stdio_server"]
