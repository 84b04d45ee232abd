"""Deferred access to the generated rule data.

``_rules_data`` compiles its regular expressions when it is imported, which
costs tens of milliseconds. Modules read it through ``rule_data`` so that
``import writing_rules.tools`` stays about as cheap as starting Python; the
data is imported, once, on the first attribute read.

For a type checker ``rule_data`` is the generated module itself, so every
read is checked against the annotations the generator writes (``RULES:
Mapping[str, Rule]``, the validators' signatures, ...), not taken as ``Any``.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["rule_data"]

_MODULE = "writing_rules._rules_data"


class _RuleData:
    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        module = sys.modules.get(_MODULE)
        if module is None:
            from . import _rules_data as module
        return getattr(module, name)


TYPE_CHECKING = False
if TYPE_CHECKING:  # type checkers read the generated module's own annotations
    from . import _rules_data as rule_data
else:
    rule_data = _RuleData()
