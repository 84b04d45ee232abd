"""Tool descriptors and results in the shapes of OpenAI, Anthropic and MCP.

Pure functions over the plain descriptor dicts (``writing_review_tools()``,
``DocumentToolDispatcher.tools()``) and dispatcher envelopes; no SDK is imported.

```python
from writing_rules.adapters import openai_tools, openai_strict_arguments
tools = openai_tools(writing_review_tools(), strict=True)
arguments = openai_strict_arguments(json.loads(call.function.arguments), descriptor)
```
"""

from __future__ import annotations

from ._anthropic import anthropic_tool_result, anthropic_tools
from ._common import AdapterError
from ._mcp import mcp_call_result, mcp_tools
from ._openai import openai_strict_arguments, openai_tools

__all__ = [
    "AdapterError",
    "anthropic_tool_result",
    "anthropic_tools",
    "mcp_call_result",
    "mcp_tools",
    "openai_strict_arguments",
    "openai_tools",
]
