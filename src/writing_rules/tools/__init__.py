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

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    # One import per module, as in the map below; `X as X` re-exports X for mypy.
    # isort: off
    from ._context import ModelComparisonContext as ModelComparisonContext, ReviewContext as ReviewContext
    from ._definitions import writing_tool_definitions as writing_tool_definitions
    from ._dispatcher import (
        WritingToolDispatcher as WritingToolDispatcher,
        create_writing_tool_dispatcher as create_writing_tool_dispatcher,
        rule_selection_problem as rule_selection_problem,
        writing_review_tools as writing_review_tools,
    )
    from ._policy import SignalPolicy as SignalPolicy, SignalPolicyError as SignalPolicyError
    from ._prompt import response_schema as response_schema
    from ._scanner import scan_signals as scan_signals, scan_text as scan_text
    from ._signal import Signal as Signal, SignalFix as SignalFix, signals_data as signals_data
    from ._text_index import TextIndex as TextIndex
    # isort: on

__all__, __getattr__, __dir__ = lazy_exports(
    globals(),
    {
        "._context": ("ModelComparisonContext", "ReviewContext"),
        "._definitions": ("writing_tool_definitions",),
        "._dispatcher": (
            "WritingToolDispatcher",
            "create_writing_tool_dispatcher",
            "rule_selection_problem",
            "writing_review_tools",
        ),
        "._policy": ("SignalPolicy", "SignalPolicyError"),
        "._prompt": ("response_schema",),
        "._scanner": ("scan_signals", "scan_text"),
        "._signal": ("Signal", "SignalFix", "signals_data"),
        "._text_index": ("TextIndex",),
    },
)
