"""Rendering the generated module from the catalogue with the jinja2 templates."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import jinja2

from ._document_schemas import MAX_OPERATIONS, OPERATION_EXAMPLE, OPERATION_FIELDS, document_tool_plans, operation_plans
from ._index_rows import index_rows
from ._sources import LANGUAGES
from ._tool_schemas import MAX_TEXT_UNITS, RANKS, tool_plans
from ._triggers import LanguageIndex, build_index, fold_table
from ._validate import Catalogue

__all__ = ["language_indexes", "render_module"]


def _py(value: Any, indent: int = 0, depth: int = -1) -> str:
    """A Python literal for plain data, laid out as a formatter would: on one line when it fits in
    100 columns (or holds only plain values), else one item a line, indented four spaces past
    ``indent``. Strings are never broken up, so an edited text changes its own line. Values
    ``depth`` levels down are written on one line, however long (-1: no such level)."""
    text = repr(value)
    if depth == 0 or indent + len(text) <= 100 or not isinstance(value, (dict, list, tuple)) or not value:
        return text
    if not isinstance(value, dict) and all(isinstance(item, (str, int, float, type(None))) for item in value):
        return text  # a list of names reads best on one line, however long
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        items = [f"{pad}{key!r}: {_py(item, indent + 4, depth - 1)}," for key, item in value.items()]
        brackets = "{}"
    else:
        items = [f"{pad}{_py(item, indent + 4, depth - 1)}," for item in value]
        brackets = "[]" if isinstance(value, list) else "()"
    return brackets[0] + "\n" + "\n".join(items) + "\n" + " " * indent + brackets[1]


class _Name(str):
    """A name the module defines, written as code where a literal would repeat its value."""

    def __repr__(self) -> str:
        return str(self)


def _with_names(value: Any, names: dict[tuple[str, ...], str]) -> Any:
    """``value`` with each list equal to one of ``names``' values (as a tuple) written as that name."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value) and tuple(value) in names:
        return _Name(names[tuple(value)])
    if isinstance(value, dict):
        return {key: _with_names(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_with_names(item, names) for item in value]
    return value


def _pattern(text: str) -> str:
    """A regular expression as a raw string literal where one can hold it (its backslashes single)."""
    for quote in "'\"":
        if quote not in text and text.isprintable() and (len(text) - len(text.rstrip("\\"))) % 2 == 0:
            literal = f"r{quote}{text}{quote}"
            if ast.literal_eval(literal) == text:
                return literal
    return repr(text)


def pattern_names(catalogue: Catalogue, language: str) -> tuple[str, ...]:
    """Each pattern's name (its signal id) in one language's table order: how the module refers to it."""
    return tuple(
        signal.id
        for rule in catalogue.rules
        for signal in rule.signals
        if signal.language == language and signal.pattern is not None
    )


def _named(index: LanguageIndex, names: tuple[str, ...]) -> dict[str, Any]:
    """The index's fields besides ``words`` with each pattern named instead of numbered."""

    def each(found: tuple[int, ...]) -> tuple[str, ...]:
        return tuple(names[i] for i in found)

    return {
        "anchors": tuple((texts, offset, each(found)) for texts, offset, found in index.anchors),
        "start": each(index.start),
        "full": each(index.full),
        "suffixes": tuple((ending, each(found)) for ending, found in index.suffixes),
        "look_backs": tuple((names[i], reach, endings) for i, reach, endings in index.look_backs),
    }


def language_indexes(catalogue: Catalogue) -> dict[str, LanguageIndex]:
    """Each language's signal index, built from its patterns in table order."""
    indexes = {}
    for language in LANGUAGES:
        patterns = [
            (signal.pattern, bool(re.compile(signal.pattern).flags & re.IGNORECASE))
            for rule in catalogue.rules
            for signal in rule.signals
            if signal.language == language and signal.pattern is not None
        ]
        indexes[language] = build_index(patterns)
    return indexes


def render_module(catalogue: Catalogue, digest: str, templates: Path) -> str:
    """Render ``_rules_data.py``; the same catalogue always gives the same text."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    environment.filters["py"] = _py
    # One value on one line: a changed pattern or index key changes that line only.
    environment.filters["line"] = repr
    environment.filters["pattern"] = _pattern
    # A rule's signal ids in source order, and the levels that are not the rule's own.
    environment.filters["signal_ids"] = lambda signals: tuple(signal.id for signal in signals)
    environment.filters["level_overrides"] = lambda rule: {
        signal.id: signal.level for signal in rule.signals if signal.level != rule.level
    }
    # The descriptors' enums of every rule id or profile id name the module's tuples (fresh lists).
    names = {
        tuple(rule.id for rule in catalogue.rules): "list(RULE_IDS)",
        tuple(profile.id for profile in catalogue.profiles): "list(PROFILE_IDS)",
    }
    environment.filters["descriptor"] = lambda value, indent, depth: _py(_with_names(value, names), indent, depth)
    indexes = language_indexes(catalogue)
    prefix_chars: set[str] = set()
    for index in indexes.values():
        for entries in index.words.values():
            for tails, checks in entries:
                prefix_chars.update(*tails)
                for befores, _, _ in checks:
                    prefix_chars.update(*befores)
    template = environment.get_template("rules_data.py.j2")
    fold_replace, fold_unsafe = fold_table(prefix_chars)
    text = template.render(
        digest=digest,
        languages=LANGUAGES,
        max_text_units=MAX_TEXT_UNITS,
        rules=catalogue.rules,
        profiles=catalogue.profiles,
        prompts=catalogue.prompts,
        tools=tool_plans(catalogue),
        tool_names=tuple(plan.name for plan in tool_plans(catalogue)),
        ranks=RANKS,
        document_tools=document_tool_plans(),
        document_tool_names=tuple(plan.name for plan in document_tool_plans()),
        operation_plans=operation_plans(),
        operation_fields=OPERATION_FIELDS,
        operation_example=OPERATION_EXAMPLE,
        max_operations=MAX_OPERATIONS,
        indexes=indexes,
        index_rows={
            language: index_rows(index.words, pattern_names(catalogue, language)) for language, index in indexes.items()
        },
        named={language: _named(index, pattern_names(catalogue, language)) for language, index in indexes.items()},
        fold_map={ord(char): new for char, new in fold_replace.items()},
        fold_unsafe=re.escape(fold_unsafe),
    )
    # Normalise blank lines left by template control blocks.
    lines = [line.rstrip() for line in text.split("\n")]
    out: list[str] = []
    for line in lines:
        if line == "" and len(out) >= 2 and out[-1] == "" and out[-2] == "":
            continue
        out.append(line)
    return "\n".join(out).rstrip("\n") + "\n"
