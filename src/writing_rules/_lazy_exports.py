"""Public names that load on first use (PEP 562), for a subpackage's ``__init__``.

``import writing_rules.tools`` should cost about as much as starting Python:
a command that needs one name should not pay for the modules behind the
others. A package lists where each public name lives and gets the module-level
``__getattr__`` and ``__dir__`` from here::

    __getattr__, __dir__ = lazy_exports(globals(), {"TextIndex": "._text_index"})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    namespace: dict[str, Any], homes: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for the package whose ``globals()`` is ``namespace``.

    ``homes`` maps each public name to the module (relative to the package) that defines it.
    """
    package = namespace["__name__"]

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home, package), name)
        namespace[name] = value  # later reads skip this function
        return value

    def __dir__() -> list[str]:
        return sorted(namespace["__all__"])

    return __getattr__, __dir__
