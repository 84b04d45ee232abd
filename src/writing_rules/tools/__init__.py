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

The public names load on first use (PEP 562), so ``import writing_rules.tools``
costs about as much as starting Python; the first call pays for the rest.
"""

from __future__ import annotations

from .._lazy_exports import lazy_exports

__all__ = [
    "ModelComparisonContext",
    "ReviewContext",
    "Signal",
    "SignalFix",
    "SignalPolicy",
    "SignalPolicyError",
    "TextIndex",
    "WritingToolDispatcher",
    "create_writing_tool_dispatcher",
    "response_schema",
    "rule_selection_problem",
    "scan_signals",
    "scan_text",
    "writing_review_tools",
    "writing_tool_definitions",
]

_HOMES = {
    "ModelComparisonContext": "._context",
    "ReviewContext": "._context",
    "SignalPolicy": "._policy",
    "SignalPolicyError": "._policy",
    "WritingToolDispatcher": "._dispatcher",
    "create_writing_tool_dispatcher": "._dispatcher",
    "writing_review_tools": "._dispatcher",
    "rule_selection_problem": "._dispatcher",
    "writing_tool_definitions": "._definitions",
    # For the other subpackages (review, cli, lint): positions and context flags of a
    # text, the reply schema the prompt asks for, and the scanner without a dispatcher.
    "TextIndex": "._text_index",
    "response_schema": "._prompt",
    "scan_text": "._scanner",
    "scan_signals": "._scanner",
    "Signal": "._signal",
    "SignalFix": "._signal",
}

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from ._context import ModelComparisonContext, ReviewContext
    from ._definitions import writing_tool_definitions
    from ._dispatcher import (
        WritingToolDispatcher,
        create_writing_tool_dispatcher,
        rule_selection_problem,
        writing_review_tools,
    )
    from ._policy import SignalPolicy, SignalPolicyError
    from ._prompt import response_schema
    from ._scanner import scan_signals, scan_text
    from ._signal import Signal, SignalFix
    from ._text_index import TextIndex


__getattr__, __dir__ = lazy_exports(globals(), _HOMES)
