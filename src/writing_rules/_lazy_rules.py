"""Deferred access to the generated rule data.

Importing ``_rules_data`` builds the catalogue (its patterns compile later,
each on first use). Modules read it through ``rule_data`` so that ``import
writing_rules.tools`` stays about as cheap as starting Python; the data is
imported, once, on the first attribute read, or by ``load_rule_data()``, which
every dispatcher factory calls so that no dispatch ever imports (reads) a
file.

For a type checker ``rule_data`` is the generated module itself, so every
read is checked against the annotations the generator writes (``RULES:
Mapping[str, Rule]``, the validators' signatures, ...), not taken as ``Any``.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["load_rule_data", "rule_data"]

_MODULE = "writing_rules._rules_data"


def load_rule_data() -> None:
    """Import the rule data now (a dispatcher is being created), not during a call."""
    if _MODULE not in sys.modules:
        from . import _rules_data  # noqa: F401


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
