"""One base for the package's errors: ``except writing_rules.WritingRulesError`` catches each of them."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import writing_rules
from writing_rules import WritingRulesError

PACKAGE = Path(writing_rules.__file__).parent
# The prose reader imports nothing from the rest of the package (the rule compiler loads it alone).
OUTSIDE = {"writing_rules.prose._reader.ProseError"}


def _error_classes() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(("writing_rules", *path.relative_to(PACKAGE).with_suffix("").parts))
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error") and node.name != "WritingRulesError":
                found.append(f"{module}.{node.name}")
    return found


def test_every_error_class_is_a_writing_rules_error_and_a_value_error() -> None:
    classes = _error_classes()
    assert len(classes) > 20
    wrong = []
    for name in classes:
        module, _, attribute = name.rpartition(".")
        error = getattr(importlib.import_module(module), attribute)
        if not issubclass(error, Exception) or error.__module__ != module:
            continue  # a name in a message table, not a class of this module
        if name in OUTSIDE:
            assert issubclass(error, ValueError) and not issubclass(error, WritingRulesError)
        elif not issubclass(error, WritingRulesError) or not issubclass(error, ValueError):
            wrong.append(name)
    assert wrong == []
