"""The user guide's example runs as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "registry.md"


def test_the_guide_example_runs() -> None:
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert code is not None
    namespace: dict[str, Any] = {}
    exec(code.group(1), namespace)
    assert namespace["result"] == {"question": "How do I log in?", "stage": "plan"}
    assert namespace["tools"].sealed is True
    assert namespace["scopes"].normalize("agent-core") == "sdk"
