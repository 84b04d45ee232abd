"""The rule-data compiler: ``rules-src/`` -> ``src/writing_rules/_rules_data.py``, and team rule packs.

Runs at build time (``python -m generator``, and the hatchling hook in
``build/hatch_hook.py``) and for ``writing-rules pack`` (team rule packs), for
which the wheel ships it as ``writing_rules_compiler`` (``_paths.py``); the
runtime package never imports it.

The names load on first use: the build hook only confirms the digest
(``digest_inputs``, ``recorded_digest``) and should not pay for jinja2 and
jsonschema unless it has to regenerate.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = [
    "GENERATED_MODULE",
    "CompileResult",
    "GenerateResult",
    "PackBuildResult",
    "RuleSourceError",
    "SourceProblems",
    "build_pack",
    "check",
    "compile_sources",
    "digest_inputs",
    "generate",
    "new_pack",
    "recorded_digest",
    "test_pack",
]

_HOMES = {
    "GENERATED_MODULE": "._paths",
    "CompileResult": "._compile",
    "GenerateResult": "._compile",
    "PackBuildResult": "._packs",
    "build_pack": "._packs",
    "new_pack": "._packs",
    "test_pack": "._packs",
    "RuleSourceError": "._errors",
    "SourceProblems": "._errors",
    "check": "._compile",
    "compile_sources": "._compile",
    "digest_inputs": "._sources",
    "generate": "._compile",
    "recorded_digest": "._paths",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._compile import CompileResult, GenerateResult, check, compile_sources, generate
    from ._errors import RuleSourceError, SourceProblems
    from ._packs import PackBuildResult, build_pack, new_pack, test_pack
    from ._paths import GENERATED_MODULE, recorded_digest
    from ._sources import digest_inputs


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'generator' has no attribute {name!r}")
    return getattr(import_module(home, __name__), name)
