"""YAML loading that keeps the line and column of every value.

``yaml.safe_load`` forgets where a value came from and silently keeps the last
of two equal keys. Rule authors need ``path:line:col`` for every problem, so
the node tree from ``yaml.compose`` is turned into plain values here, with a
map from each value's path (``("signals", 0, "pattern")``) to its position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from ._errors import RuleSourceError

__all__ = ["Located", "load_yaml"]

Path = tuple[Any, ...]

_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Located:
    """A YAML document as plain values plus the position of each value and key."""

    file: str
    value: Any
    values: dict[Path, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)
    scalar_styles: dict[Path, str | None] = field(default_factory=dict)

    def at(self, path: Path, message: str) -> RuleSourceError:
        """An error at the value ``path``, or at its nearest located parent."""
        probe = tuple(path)
        while probe and probe not in self.values:
            probe = probe[:-1]
        line, col = self.values.get(probe, (1, 1))
        return RuleSourceError(self.file, line, col, message)

    def at_key(self, path: Path, message: str) -> RuleSourceError:
        """An error at the key that introduces ``path`` (falls back to the value)."""
        if tuple(path) in self.keys:
            line, col = self.keys[tuple(path)]
            return RuleSourceError(self.file, line, col, message)
        return self.at(path, message)


def load_yaml(text: str, file: str, line_offset: int = 0) -> tuple[Located | None, list[RuleSourceError]]:
    """Parse one YAML document; ``line_offset`` shifts lines (front matter starts on line 2)."""
    try:
        try:
            # libyaml composes the same nodes and marks about ten times faster; on an
            # error, the pure-Python parser gives the message (and place) authors know.
            node = yaml.compose(text, Loader=_FAST_LOADER)
        except yaml.YAMLError:
            node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 + line_offset) if mark else 1 + line_offset
        col = (mark.column + 1) if mark else 1
        what = " ".join(part for part in (exc.context, exc.problem) if part)
        return None, [RuleSourceError(file, line, col, f"YAML syntax error: {what}")]
    except yaml.YAMLError as exc:
        return None, [RuleSourceError(file, 1 + line_offset, 1, f"YAML error: {exc}")]
    located = Located(file=file, value=None)
    problems: list[RuleSourceError] = []
    if node is None:
        return Located(file=file, value={}), problems
    value = _convert(node, (), located, problems, line_offset)
    return Located(file, value, located.values, located.keys, located.scalar_styles), problems


def _position(node: yaml.Node, line_offset: int) -> tuple[int, int]:
    return node.start_mark.line + 1 + line_offset, node.start_mark.column + 1


def _convert(node: yaml.Node, path: Path, located: Located, problems: list[RuleSourceError], line_offset: int) -> Any:
    located.values[path] = _position(node, line_offset)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            line, col = _position(key_node, line_offset)
            if not isinstance(key, str):
                problems.append(RuleSourceError(located.file, line, col, "keys must be plain strings"))
                continue
            if key in result:
                problems.append(RuleSourceError(located.file, line, col, f"duplicate key {key!r} in the same mapping"))
                continue
            key_path = (*path, key)
            located.keys[key_path] = (line, col)
            result[key] = _convert(value_node, key_path, located, problems, line_offset)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, index), located, problems, line_offset) for index, item in enumerate(node.value)]
    if not isinstance(node, yaml.ScalarNode):  # pragma: no cover - PyYAML composes only these three
        raise TypeError(f"unexpected YAML node {type(node).__name__}")
    located.scalar_styles[path] = node.style
    return _scalar(node)


def _scalar(node: yaml.ScalarNode) -> Any:
    # A fresh constructor per scalar keeps this free of shared state.
    return SafeConstructor().construct_object(node, deep=True)
