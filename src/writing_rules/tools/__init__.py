"""The four read-only writing-review tools and their dispatcher.

```python
from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools

dispatcher = create_writing_tool_dispatcher(
    review_context={"audience": "Developers new to the SDK", "goal": "Install it and run a first call"},
)
result = dispatcher.dispatch({"name": "find_writing_signals", "arguments": {"text": "A powerful API."}})
```

Nothing here opens a file, a socket or a process: rule data, schemas,
validators and prompt fragments come from the generated ``_rules_data`` module.
"""

from __future__ import annotations

from ._context import ModelComparisonContext, ReviewContext
from ._definitions import writing_tool_definitions
from ._dispatcher import WritingToolDispatcher, create_writing_tool_dispatcher, writing_review_tools

__all__ = [
    "ModelComparisonContext",
    "ReviewContext",
    "WritingToolDispatcher",
    "create_writing_tool_dispatcher",
    "writing_review_tools",
    "writing_tool_definitions",
]
