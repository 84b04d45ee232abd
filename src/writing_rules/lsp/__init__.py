"""``writing-rules lsp``: a Language Server for editors (extra: ``pip install 'writing-rules[lsp]'``).

Diagnostics for every open document on open and on each change (unsaved text
included), with the rule's level and a link to the rule's text; code actions
that apply a safe fix, apply all safe fixes in the file, or disable a rule for
a line. Configuration and inline directives are read exactly as
``writing-rules scan`` reads them. See ``docs/editors.md``.

```python
from writing_rules.lsp import create_server

create_server().start_io()  # what `writing-rules lsp` runs
```
"""

from __future__ import annotations

from ._server import MAX_DOCUMENT_CHARACTERS, WritingRulesServer, create_server

__all__ = ["MAX_DOCUMENT_CHARACTERS", "WritingRulesServer", "create_server", "serve"]


def serve() -> None:
    """Serve over standard input and output until the client says ``exit``."""
    create_server().start_io()
