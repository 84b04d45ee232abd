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

TYPE_CHECKING = False
if TYPE_CHECKING:
    # One import per module, as in the map below; `X as X` re-exports X for mypy.
    # isort: off
    from ._compile import (
        CompileResult as CompileResult,
        GenerateResult as GenerateResult,
        check as check,
        compile_sources as compile_sources,
        generate as generate,
    )
    from ._errors import RuleSourceError as RuleSourceError, SourceProblems as SourceProblems
    from ._packs import (
        PackBuildResult as PackBuildResult,
        build_pack as build_pack,
        new_pack as new_pack,
        test_pack as test_pack,
    )
    from ._paths import GENERATED_MODULE as GENERATED_MODULE, recorded_digest as recorded_digest
    from ._sources import digest_inputs as digest_inputs
    # isort: on

# Each public name, declared once, by the module that defines it (as writing_rules._lazy_exports).
_MODULES = {
    "._compile": ("CompileResult", "GenerateResult", "check", "compile_sources", "generate"),
    "._errors": ("RuleSourceError", "SourceProblems"),
    "._packs": ("PackBuildResult", "build_pack", "new_pack", "test_pack"),
    "._paths": ("GENERATED_MODULE", "recorded_digest"),
    "._sources": ("digest_inputs",),
}
_HOMES = {name: module for module, names in _MODULES.items() for name in names}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'generator' has no attribute {name!r}")
    return getattr(import_module(home, __name__), name)
