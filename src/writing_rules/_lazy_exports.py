"""Public names that load on first use (PEP 562), for a subpackage's ``__init__``.

``import writing_rules.tools`` should cost about as much as starting Python:
a command that needs one name should not pay for the modules behind the
others. A package declares its public names once, grouped by the module that
defines them, and gets ``__all__`` and the module-level ``__getattr__`` and
``__dir__`` from here::

    __all__, __getattr__, __dir__ = lazy_exports(globals(), {"._text_index": ("TextIndex",)})

Type checkers cannot read that map, so the ``__init__`` also imports the same
names under ``if TYPE_CHECKING:`` as ``from ._text_index import TextIndex as TextIndex``
(the ``as`` marks an explicit re-export for mypy strict); ``tests/test_public_surface.py``
checks that the two agree. At run time this module imports only ``importlib``: ``typing`` alone
would double the cost of ``import writing_rules.tools``.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    namespace: dict[str, Any], modules: Mapping[str, tuple[str, ...]]
) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for the package whose ``globals()`` is ``namespace``.

    ``modules`` maps each module (relative to the package) to the public names it defines.
    """
    package = namespace["__name__"]
    homes = {name: module for module, names in modules.items() for name in names}
    public = sorted(homes)

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home, package), name)
        namespace[name] = value  # later reads skip this function
        return value

    def __dir__() -> list[str]:
        return list(public)

    return public, __getattr__, __dir__
