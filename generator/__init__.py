"""The rule-data compiler: ``rules-src/`` -> ``src/writing_rules/_rules_data.py``.

Runs at build time only (``python -m generator``, and the hatchling hook in
``build/hatch_hook.py``); the runtime package never imports it.
"""

from __future__ import annotations

from ._compile import GENERATED_MODULE, CompileResult, check, compile_sources, generate
from ._errors import RuleSourceError, SourceProblems
from ._sources import digest_inputs

__all__ = [
    "GENERATED_MODULE",
    "CompileResult",
    "RuleSourceError",
    "SourceProblems",
    "check",
    "compile_sources",
    "digest_inputs",
    "generate",
]
